#include "provenance/keys.hpp"

#include "provenance/openssl.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"

#include <openssl/pem.h>
#include <openssl/x509.h>
#include <vector>

namespace envlock::provenance {

namespace {

constexpr std::uintmax_t k_key_file_limit = std::uintmax_t{64} << 10U;

// Refuses every passphrase prompt, so an encrypted key fails instead of reading the terminal.
int no_passphrase(char* /*buf*/, int /*size*/, int /*rwflag*/, void* /*user*/) {
  return -1;
}

Result<std::string> public_key_id(EVP_PKEY* key) {
  const int size = i2d_PUBKEY(key, nullptr);
  if (size <= 0) {
    return env_error("OpenSSL: cannot encode the public key: " + ossl::take_error());
  }
  std::vector<unsigned char> der(static_cast<std::size_t>(size));
  unsigned char* cursor = der.data();
  if (i2d_PUBKEY(key, &cursor) != size) {
    return env_error("OpenSSL: cannot encode the public key: " + ossl::take_error());
  }
  return util::sha256_hex({reinterpret_cast<const char*>(der.data()), der.size()});
}

Result<Key> make_key(ossl::Pkey key, KeyHalf half) {
  ENVLOCK_TRY_ASSIGN(std::string key_id, public_key_id(key.get()));
  return Key(std::shared_ptr<evp_pkey_st>(key.release(), ossl::PkeyDeleter{}), half,
             std::move(key_id));
}

Result<std::string> write_pem(const Key& key, KeyHalf half) {
  const ossl::Bio bio(BIO_new(BIO_s_mem()));
  if (!bio) {
    return env_error("OpenSSL: cannot allocate a memory BIO: " + ossl::take_error());
  }
  const int rc =
      half == KeyHalf::private_key
          ? PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr)
          : PEM_write_bio_PUBKEY(bio.get(), key.get());
  if (rc != 1) {
    return env_error("OpenSSL: cannot write the key as PEM: " + ossl::take_error());
  }
  return ossl::memory_contents(bio.get());
}

} // namespace

Key::Key(std::shared_ptr<evp_pkey_st> key, KeyHalf half, std::string key_id)
    : m_key(std::move(key)), m_half(half), m_key_id(std::move(key_id)) {}

Result<Key> generate_key() {
  const ossl::PkeyCtx ctx(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &raw) != 1) {
    return env_error("OpenSSL: cannot generate an Ed25519 key: " + ossl::take_error());
  }
  return make_key(ossl::Pkey(raw), KeyHalf::private_key);
}

Result<std::string> private_key_pem(const Key& key) {
  if (key.half() != KeyHalf::private_key) {
    return input_error("a public key has no private half to write");
  }
  return write_pem(key, KeyHalf::private_key);
}

Result<std::string> public_key_pem(const Key& key) {
  return write_pem(key, KeyHalf::public_key);
}

Result<Key> parse_key(std::string_view pem, KeyHalf half, const std::string& origin) {
  const ossl::Bio bio = ossl::memory_reader(pem);
  if (!bio) {
    return env_error("OpenSSL: cannot allocate a memory BIO: " + ossl::take_error());
  }
  ossl::Pkey key(half == KeyHalf::private_key
                     ? PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr)
                     : PEM_read_bio_PUBKEY(bio.get(), nullptr, no_passphrase, nullptr));
  if (!key) {
    ossl::take_error();
    return input_error(origin + (half == KeyHalf::private_key
                                     ? ": not an unencrypted PEM private key (BEGIN PRIVATE KEY)"
                                     : ": not a PEM public key (BEGIN PUBLIC KEY)"));
  }
  if (EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519) {
    return input_error(origin + ": not an Ed25519 key (envlock keygen makes one)");
  }
  return make_key(std::move(key), half);
}

Result<Key> read_key(const std::filesystem::path& path, KeyHalf half) {
  ENVLOCK_TRY_ASSIGN(const std::string pem, util::read_file_limited(path, k_key_file_limit));
  return parse_key(pem, half, path.string());
}

Result<std::string> sign_message(const Key& key, std::string_view message) {
  if (key.half() != KeyHalf::private_key) {
    return input_error("a public key cannot sign; give the private key");
  }
  const ossl::MdCtx ctx(EVP_MD_CTX_new());
  std::size_t size = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(message.data());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &size, data, message.size()) != 1) {
    return env_error("OpenSSL: cannot sign: " + ossl::take_error());
  }
  std::string signature(size, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, data,
                     message.size()) != 1) {
    return env_error("OpenSSL: cannot sign: " + ossl::take_error());
  }
  signature.resize(size);
  return signature;
}

Result<bool> signature_matches(const Key& key, std::string_view message,
                               std::string_view signature) {
  const ossl::MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) {
    return env_error("OpenSSL: cannot start verifying: " + ossl::take_error());
  }
  const int rc = EVP_DigestVerify(
      ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
      reinterpret_cast<const unsigned char*>(message.data()), message.size());
  // 1: valid; 0: invalid; below 0: malformed input (a signature of the wrong length included).
  ossl::take_error();
  return rc == 1;
}

} // namespace envlock::provenance
