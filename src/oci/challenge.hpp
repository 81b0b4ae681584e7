// WWW-Authenticate challenges (RFC 7235): `Bearer realm="...",service="...",scope="..."` as the
// Docker token spec sends them, and `Basic realm="..."`.
#pragma once

#include "util/result.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::oci {

struct Challenge {
  std::string scheme;                        // lowercase: "bearer", "basic"
  std::map<std::string, std::string> params; // names lowercase, values unquoted
  bool operator==(const Challenge&) const = default;
};

// The challenges in one header value, in order. An input error ("malformed WWW-Authenticate
// header: ...") when it does not follow the grammar.
Result<std::vector<Challenge>> parse_www_authenticate(std::string_view header);

} // namespace envlock::oci
