// RAII owners for libcurl handles (CURL*, curl_slist*, CURLU*) and checked wrappers around the
// calls envlock makes. Only src/oci/*.cpp include this header; libcurl stays out of public ones.
#pragma once

#include "util/result.hpp"

#include <curl/curl.h>
#include <memory>
#include <string>
#include <string_view>

namespace envlock::oci::curl {

struct EasyDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
struct UrlDeleter {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};

using Easy = std::unique_ptr<CURL, EasyDeleter>;
using Url = std::unique_ptr<CURLU, UrlDeleter>;

// Initialises libcurl once per process; fails with an environment error when it cannot.
Status global_init();

// A fresh easy handle, or an environment error when libcurl cannot allocate one.
Result<Easy> make_easy();

// Sets an option; an unsupported or refused option is an environment error naming it.
template <typename T> Status set(CURL* handle, CURLoption option, T value, const char* name) {
  const CURLcode rc = curl_easy_setopt(handle, option, value);
  if (rc != CURLE_OK) {
    return env_error(std::string("libcurl: cannot set ") + name + ": " + curl_easy_strerror(rc));
  }
  return {};
}

// A header list built with append(); append fails with an environment error on allocation
// failure.
class Headers {
public:
  Status append(const std::string& line);
  [[nodiscard]] curl_slist* get() const { return m_list.get(); }

private:
  std::unique_ptr<curl_slist, SlistDeleter> m_list;
};

// Resolves `location` (absolute or relative) against `base`; an input error when either does not
// parse as a URL.
Result<std::string> resolve_url(std::string_view base, std::string_view location);

// scheme://host:port of a URL (port filled in from the scheme), for same-origin checks; an input
// error when it does not parse.
Result<std::string> origin_of(std::string_view url);

// Percent-encodes a query value.
std::string escape(std::string_view text);

} // namespace envlock::oci::curl
