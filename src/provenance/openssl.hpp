// RAII owners for the OpenSSL 3 objects that signing uses (EVP_PKEY, EVP_PKEY_CTX, EVP_MD_CTX,
// BIO), and the text of OpenSSL's error queue. Only src/provenance/*.cpp include this header, so
// OpenSSL's headers stay out of public ones.
#pragma once

#include <memory>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <string>
#include <string_view>

namespace envlock::provenance::ossl {

struct PkeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct PkeyCtxDeleter {
  void operator()(EVP_PKEY_CTX* ctx) const { EVP_PKEY_CTX_free(ctx); }
};
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
struct BioDeleter {
  void operator()(BIO* bio) const { BIO_free_all(bio); }
};

using Pkey = std::unique_ptr<EVP_PKEY, PkeyDeleter>;
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxDeleter>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;
using Bio = std::unique_ptr<BIO, BioDeleter>;

// Empties OpenSSL's error queue and returns its first entry as text ("error:…:unsupported"), or
// "no OpenSSL error recorded" when it is empty.
std::string take_error();

// A read-only memory BIO over `data` (which must outlive it), or null when OpenSSL cannot
// allocate one.
Bio memory_reader(std::string_view data);

// Everything written so far to a memory BIO.
std::string memory_contents(BIO* bio);

} // namespace envlock::provenance::ossl
