#include "oci/registry.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE_BEGIN("oci");

TEST_CASE("oci::redact_url") {
  CHECK(oci::redact_url("https://user:pw@reg.example.invalid:5000/v2/x?n=1") ==
        "https://reg.example.invalid:5000/v2/x?n=1");
  CHECK(oci::redact_url("https://s3.example.invalid/b/c?X-Amz-Signature=abc&X-Amz-Date=1&"
                        "X-Amz-Credential=k&token=t&access_token=a&password=p#frag") ==
        "https://s3.example.invalid/b/c?X-Amz-Signature=REDACTED&X-Amz-Date=1&"
        "X-Amz-Credential=REDACTED&token=REDACTED&access_token=REDACTED&password=REDACTED");
  CHECK(oci::redact_url("http://127.0.0.1:5000/v2/base/manifests/v1") ==
        "http://127.0.0.1:5000/v2/base/manifests/v1");
  CHECK(oci::redact_url("http://a@b/c@d") == "http://b/c@d");
  CHECK(oci::redact_url("reg.example.invalid/x?sig=1") == "reg.example.invalid/x?sig=REDACTED");
  // Only keys that name a secret: "tokenfail" and "keys_only" are kept.
  CHECK(oci::redact_url("http://h/t?tokenfail=1&keys_only=2&refresh_token=3") ==
        "http://h/t?tokenfail=1&keys_only=2&refresh_token=REDACTED");
}

TEST_SUITE_END();
