#include "provenance/dsse.hpp"
#include "provenance/signing.hpp"
#include "provenance/statement.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

namespace pv = envlock::provenance;
using envlock::ExitCode;

namespace {

const std::string k_hex_a(64, 'a');

std::string small_statement() {
  return envlock::util::canonical_json(
      {{"_type", pv::k_statement_type},
       {"predicate", nlohmann::json::object()},
       {"predicateType", pv::k_slsa_predicate_type},
       {"subject", {{{"digest", {{"sha256", k_hex_a}}}, {"name", "reg.invalid/x"}}}}});
}

pv::Key make_key() {
  auto key = pv::generate_key();
  REQUIRE(key.has_value());
  return *key;
}

pv::Key public_half(const pv::Key& key) {
  auto pem = pv::public_key_pem(key);
  REQUIRE(pem.has_value());
  auto pub = pv::parse_key(*pem, pv::KeyHalf::public_key, "key.pub");
  REQUIRE(pub.has_value());
  return *pub;
}

std::string signed_text(const pv::Key& key, const std::string& statement) {
  auto envelope = pv::sign_statement(statement, key, "provenance.json");
  REQUIRE(envelope.has_value());
  return envlock::util::canonical_json(pv::to_json(*envelope));
}

std::string failure(const envlock::Result<pv::VerifiedStatement>& result) {
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().code == ExitCode::failed);
  return result.error().message;
}

} // namespace

TEST_SUITE_BEGIN("provenance");

TEST_CASE("provenance::pae matches the DSSE specification's test vector") {
  CHECK(pv::pae("http://example.com/HelloWorld", "hello world") ==
        "DSSEv1 29 http://example.com/HelloWorld 11 hello world");
  CHECK(pv::pae("", "") == "DSSEv1 0  0 ");
}

TEST_CASE("provenance::sign and verify round trip") {
  const pv::Key key = make_key();
  const std::string text = signed_text(key, small_statement());
  CHECK(text == signed_text(key, small_statement())); // Ed25519 signatures are deterministic
  auto verified = pv::verify_envelope(text, "p.dsse.json", public_half(key), "key.pub");
  REQUIRE(verified.has_value());
  CHECK(verified->keyid == key.key_id());
  CHECK(verified->statement["subject"][0]["name"] == "reg.invalid/x");
  CHECK(pv::check_subject_digest(verified->statement, "sha256:" + k_hex_a, "p").has_value());

  const auto mismatch =
      pv::check_subject_digest(verified->statement, "sha256:" + std::string(64, 'b'), "p");
  REQUIRE_FALSE(mismatch.has_value());
  CHECK(mismatch.error().code == ExitCode::failed);
  CHECK(mismatch.error().message ==
        "p: subject mismatch: no subject has digest sha256:" + std::string(64, 'b') +
            " (subjects: reg.invalid/x sha256:" + k_hex_a + ")");
  const auto malformed = pv::check_subject_digest(verified->statement, "sha256:abc", "p");
  REQUIRE_FALSE(malformed.has_value());
  CHECK(malformed.error().code == ExitCode::usage);
}

TEST_CASE("provenance::verify_envelope fails for every changed byte") {
  const pv::Key key = make_key();
  const pv::Key pub = public_half(key);
  const std::string text = signed_text(key, small_statement());
  REQUIRE(pv::verify_envelope(text, "e", pub, "k").has_value());
  int checked = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const unsigned char flip : {0x01, 0x20, 0x80}) {
      std::string changed = text;
      changed[i] = static_cast<char>(static_cast<unsigned char>(changed[i]) ^ flip);
      CAPTURE(i);
      CAPTURE(flip);
      const auto result = pv::verify_envelope(changed, "e", pub, "k");
      CHECK_FALSE(result.has_value());
      if (!result.has_value()) {
        CHECK(result.error().code == ExitCode::failed);
      }
      ++checked;
    }
  }
  CHECK(checked == static_cast<int>(text.size()) * 3);
  // White space that JSON would accept is still a change.
  std::string spaced = text;
  spaced.insert(1, " ");
  CHECK(failure(pv::verify_envelope(spaced, "e", pub, "k")) ==
        "e: not in the canonical form envlock writes (changed after signing?)");
}

TEST_CASE("provenance::verify_envelope names what failed") {
  const pv::Key key = make_key();
  const pv::Key pub = public_half(key);
  const std::string statement = small_statement();
  auto envelope = pv::sign_statement(statement, key, "provenance.json");
  REQUIRE(envelope.has_value());
  const auto text_of = [](const pv::Envelope& e) {
    return envlock::util::canonical_json(pv::to_json(e));
  };

  SUBCASE("another key") {
    const pv::Key other = public_half(make_key());
    CHECK(failure(pv::verify_envelope(text_of(*envelope), "e", other, "other.pub")) ==
          "e: signed by key " + key.key_id() + ", not by other.pub (key " + other.key_id() + ")");
  }
  SUBCASE("a changed payload") {
    pv::Envelope changed = *envelope;
    changed.payload[10] = 'X';
    CHECK(failure(pv::verify_envelope(text_of(changed), "e", pub, "k.pub")) ==
          "e: signature check failed: the signature does not match the payload and its type "
          "under k.pub");
  }
  SUBCASE("a changed payload type") {
    pv::Envelope changed = *envelope;
    changed.payload_type = "application/json";
    CHECK(failure(pv::verify_envelope(text_of(changed), "e", pub, "k.pub")) ==
          "e: signature check failed: the signature does not match the payload and its type "
          "under k.pub");
  }
  SUBCASE("another payload type, correctly signed") {
    pv::Envelope other = *envelope;
    other.payload_type = "application/json";
    auto sig = pv::sign_message(key, pv::pae(other.payload_type, other.payload));
    REQUIRE(sig.has_value());
    other.signatures[0].sig = *sig;
    CHECK(failure(pv::verify_envelope(text_of(other), "e", pub, "k.pub")) ==
          "e: payload type is 'application/json', not 'application/vnd.in-toto+json'");
  }
  SUBCASE("two signatures") {
    pv::Envelope twice = *envelope;
    twice.signatures.push_back(twice.signatures[0]);
    CHECK(failure(pv::verify_envelope(text_of(twice), "e", pub, "k.pub")) ==
          "e: 2 signatures; envlock verifies envelopes with exactly one");
  }
  SUBCASE("an unknown field") {
    nlohmann::json value = pv::to_json(*envelope);
    value["extra"] = 1;
    CHECK(failure(pv::verify_envelope(envlock::util::canonical_json(value), "e", pub, "k.pub")) ==
          "e: unexpected field 'extra'");
  }
}

TEST_CASE("provenance::sign_statement refuses what is not an in-toto statement") {
  const pv::Key key = make_key();
  const auto result = pv::sign_statement("{\"_type\": \"x\"}", key, "p.json");
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().code == ExitCode::usage);
  CHECK(result.error().message ==
        "p.json: not an in-toto Statement v1: _type is 'x', not https://in-toto.io/Statement/v1");
  const auto with_public = pv::sign_statement(small_statement(), public_half(key), "p.json");
  REQUIRE_FALSE(with_public.has_value());
  CHECK(with_public.error().message == "a public key cannot sign; give the private key");
}

TEST_SUITE_END();
