// What envlock prints of a registry's text and of times.
#include "oci/http.hpp"
#include "oci/session.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE_BEGIN("oci");

TEST_CASE("oci::printable_server_text keeps printable ASCII and cuts long text") {
  CHECK(oci::printable_server_text("DENIED\x1b[31m\n") == "DENIED?[31m?");
  CHECK(oci::printable_server_text("caf\xc3\xa9") == "caf??");
  CHECK(oci::printable_server_text(std::string(300, 'a'), 10) == "aaaaaaaaaa...");
}

TEST_CASE("oci::seconds_text") {
  CHECK(oci::seconds_text(std::chrono::milliseconds(30000)) == "30 s");
  CHECK(oci::seconds_text(std::chrono::milliseconds(500)) == "0.5 s");
  CHECK(oci::seconds_text(std::chrono::milliseconds(1250)) == "1.3 s");
}

TEST_SUITE_END();
