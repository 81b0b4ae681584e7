#include "util/base64.hpp"

#include <doctest/doctest.h>
#include <string>

using envlock::util::base64_decode_strict;
using envlock::util::base64_encode;

TEST_SUITE_BEGIN("util");

TEST_CASE("util::base64 RFC 4648 test vectors") {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    CHECK(base64_encode(plain) == encoded);
    CHECK(base64_decode_strict(encoded) == std::string(plain));
  }
}

TEST_CASE("util::base64 round trip of every byte at every length") {
  std::string data;
  for (int n = 0; n < 300; ++n) {
    CHECK(base64_decode_strict(base64_encode(data)) == data);
    data += static_cast<char>((n * 37 + 11) & 255);
  }
}

TEST_CASE("util::base64_decode_strict refuses every second spelling") {
  for (const char* text : {"Zg=", "Zg", "Zh==", "Zm9=", "Zm 9v", "Zm9v\n", "=Zm9",
                           "Zg==Zg==", "Z===", "Zm9v====", "Zm-v", "Zm_v", "Zm9v=", "Zg=A"}) {
    CAPTURE(text);
    CHECK_FALSE(base64_decode_strict(text).has_value());
  }
}

TEST_SUITE_END();
