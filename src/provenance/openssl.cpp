#include "provenance/openssl.hpp"

#include <climits>
#include <openssl/err.h>

namespace envlock::provenance::ossl {

std::string take_error() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) {
    return "no OpenSSL error recorded";
  }
  std::string text(256, '\0');
  ERR_error_string_n(code, text.data(), text.size());
  text.resize(text.find('\0'));
  return text;
}

Bio memory_reader(std::string_view data) {
  if (data.size() > static_cast<std::size_t>(INT_MAX)) {
    return Bio(nullptr);
  }
  return Bio(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())));
}

std::string memory_contents(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  if (size <= 0 || data == nullptr) {
    return {};
  }
  return {data, static_cast<std::size_t>(size)};
}

} // namespace envlock::provenance::ossl
