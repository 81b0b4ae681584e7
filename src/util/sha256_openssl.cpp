// SHA-256 through OpenSSL's EVP interface (uses SHA-NI / AVX2 code paths where the CPU has them).
#include "util/sha256.hpp"

#include <openssl/evp.h>
#include <stdexcept>

namespace envlock::util {

struct Sha256::State {
  EVP_MD_CTX* ctx = nullptr;
  ~State() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : m_state(std::make_unique<State>()) {
  m_state->ctx = EVP_MD_CTX_new();
  if (m_state->ctx == nullptr || EVP_DigestInit_ex(m_state->ctx, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
  }
}
Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, std::size_t size) {
  if (EVP_DigestUpdate(m_state->ctx, data, size) != 1) {
    throw std::runtime_error("OpenSSL: SHA-256 update failed");
  }
}

Sha256Bytes Sha256::finish() {
  Sha256Bytes out{};
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(m_state->ctx, out.data(), &len) != 1 || len != out.size()) {
    throw std::runtime_error("OpenSSL: SHA-256 final failed");
  }
  return out;
}

} // namespace envlock::util
