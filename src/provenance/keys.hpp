// Ed25519 keys for signing provenance, through OpenSSL 3: generation, PEM text and files (PKCS#8
// private keys, SubjectPublicKeyInfo public keys), key ids and signatures.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

struct evp_pkey_st; // OpenSSL's EVP_PKEY, kept opaque here

namespace envlock::provenance {

// Whether a key half may be used to sign: a private key can, a public key only verifies.
enum class KeyHalf { private_key, public_key };

// An Ed25519 key: a private key (which also holds its public half) or a public key alone.
class Key {
public:
  Key(std::shared_ptr<evp_pkey_st> key, KeyHalf half, std::string key_id);

  [[nodiscard]] KeyHalf half() const { return m_half; }
  // The key id: sha256 of the public key's DER SubjectPublicKeyInfo, 64 lowercase hex digits.
  [[nodiscard]] const std::string& key_id() const { return m_key_id; }
  // The OpenSSL key, for src/provenance/*.cpp.
  [[nodiscard]] evp_pkey_st* get() const { return m_key.get(); }

private:
  std::shared_ptr<evp_pkey_st> m_key;
  KeyHalf m_half;
  std::string m_key_id;
};

// A fresh Ed25519 private key; an environment error when OpenSSL cannot make one.
Result<Key> generate_key();

// The private key as unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY"); fails for a public key.
Result<std::string> private_key_pem(const Key& key);

// The public half as SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY").
Result<std::string> public_key_pem(const Key& key);

// Parses PEM text of the given half. An input error names `origin` when the text is no such PEM
// key (an encrypted private key included: envlock asks for no passphrase) or not Ed25519.
Result<Key> parse_key(std::string_view pem, KeyHalf half, const std::string& origin);

// Reads and parses a key file (limit: 64 KiB).
Result<Key> read_key(const std::filesystem::path& path, KeyHalf half);

// The 64-byte Ed25519 signature of `message`; fails for a public key.
Result<std::string> sign_message(const Key& key, std::string_view message);

// Whether `signature` is a valid signature of `message` by `key`; an environment error only
// when OpenSSL itself fails.
Result<bool> signature_matches(const Key& key, std::string_view message,
                               std::string_view signature);

} // namespace envlock::provenance
