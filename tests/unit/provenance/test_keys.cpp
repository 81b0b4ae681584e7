#include "../testutil.hpp"
#include "provenance/key_files.hpp"
#include "provenance/keys.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <filesystem>

namespace fs = std::filesystem;
namespace pv = envlock::provenance;
using envlock::ExitCode;

TEST_SUITE_BEGIN("provenance");

TEST_CASE("provenance::keys PEM round trip keeps the key id") {
  auto key = pv::generate_key();
  REQUIRE(key.has_value());
  CHECK(key->key_id().size() == 64);
  auto private_pem = pv::private_key_pem(*key);
  auto public_pem = pv::public_key_pem(*key);
  REQUIRE(private_pem.has_value());
  REQUIRE(public_pem.has_value());
  CHECK(private_pem->rfind("-----BEGIN PRIVATE KEY-----\n", 0) == 0);
  CHECK(public_pem->rfind("-----BEGIN PUBLIC KEY-----\n", 0) == 0);
  auto again = pv::parse_key(*private_pem, pv::KeyHalf::private_key, "KEY");
  auto pub = pv::parse_key(*public_pem, pv::KeyHalf::public_key, "KEY.pub");
  REQUIRE(again.has_value());
  REQUIRE(pub.has_value());
  CHECK(again->key_id() == key->key_id());
  CHECK(pub->key_id() == key->key_id());
  auto sig = pv::sign_message(*again, "message");
  REQUIRE(sig.has_value());
  CHECK(sig->size() == 64);
  CHECK(pv::signature_matches(*pub, "message", *sig).value_or(false));
  CHECK_FALSE(pv::signature_matches(*pub, "messagE", *sig).value_or(true));
  CHECK_FALSE(pv::signature_matches(*pub, "message", sig->substr(1)).value_or(true));
}

TEST_CASE("provenance::parse_key refuses the wrong half and other text") {
  auto key = pv::generate_key();
  REQUIRE(key.has_value());
  const std::string public_pem = pv::public_key_pem(*key).value();
  auto as_private = pv::parse_key(public_pem, pv::KeyHalf::private_key, "KEY");
  REQUIRE_FALSE(as_private.has_value());
  CHECK(as_private.error().code == ExitCode::usage);
  CHECK(as_private.error().message ==
        "KEY: not an unencrypted PEM private key (BEGIN PRIVATE KEY)");
  auto garbage = pv::parse_key("hello\n", pv::KeyHalf::public_key, "KEY.pub");
  REQUIRE_FALSE(garbage.has_value());
  CHECK(garbage.error().message == "KEY.pub: not a PEM public key (BEGIN PUBLIC KEY)");
}

TEST_CASE("provenance::write_key_pair writes 0600 and 0644 and refuses to overwrite") {
  const envlock::util::TempDir dir = envlock::test::temp_dir();
  const fs::path key = dir.path() / "signing.key";
  auto first = pv::write_key_pair(key, pv::Overwrite::refuse);
  REQUIRE(first.has_value());
  CHECK((fs::status(key).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));
  CHECK((fs::status(pv::public_key_path(key)).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
         fs::perms::others_read));
  auto loaded = pv::read_key(pv::public_key_path(key), pv::KeyHalf::public_key);
  REQUIRE(loaded.has_value());
  CHECK(loaded->key_id() == *first);

  auto refused = pv::write_key_pair(key, pv::Overwrite::refuse);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == ExitCode::usage);
  CHECK(refused.error().message == key.string() + ": already exists; pass --force to replace it");
  fs::remove(key);
  auto pub_left = pv::write_key_pair(key, pv::Overwrite::refuse);
  REQUIRE_FALSE(pub_left.has_value());
  CHECK(pub_left.error().message ==
        pv::public_key_path(key).string() + ": already exists; pass --force to replace it");

  auto replaced = pv::write_key_pair(key, pv::Overwrite::replace);
  REQUIRE(replaced.has_value());
  CHECK(*replaced != *first);
}

TEST_SUITE_END();
