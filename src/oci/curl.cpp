#include "oci/curl.hpp"

#include "util/strings.hpp"

#include <mutex>

namespace envlock::oci::curl {

namespace {

Result<Url> parse_url(std::string_view text) {
  Url url(curl_url());
  if (!url) {
    return env_error("libcurl: out of memory");
  }
  const std::string copy(text);
  if (curl_url_set(url.get(), CURLUPART_URL, copy.c_str(), 0) != CURLUE_OK) {
    return input_error("not a URL");
  }
  return url;
}

Result<std::string> get_part(CURLU* url, CURLUPart part, unsigned flags) {
  char* value = nullptr;
  if (curl_url_get(url, part, &value, flags) != CURLUE_OK || value == nullptr) {
    return input_error("not a URL");
  }
  std::string out(value);
  curl_free(value);
  return out;
}

} // namespace

Status global_init() {
  static std::once_flag once;
  static CURLcode rc = CURLE_OK;
  std::call_once(once, [] { rc = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (rc != CURLE_OK) {
    return env_error(std::string("libcurl: initialisation failed: ") + curl_easy_strerror(rc));
  }
  return {};
}

Result<Easy> make_easy() {
  ENVLOCK_TRY(global_init());
  Easy handle(curl_easy_init());
  if (!handle) {
    return env_error("libcurl: cannot create a handle");
  }
  return handle;
}

Status Headers::append(const std::string& line) {
  curl_slist* next = curl_slist_append(m_list.get(), line.c_str());
  if (next == nullptr) {
    return env_error("libcurl: out of memory");
  }
  (void)m_list.release(); // now owned by `next`
  m_list.reset(next);
  return {};
}

Result<std::string> resolve_url(std::string_view base, std::string_view location) {
  ENVLOCK_TRY_ASSIGN(Url url, parse_url(base));
  const std::string copy(location);
  if (curl_url_set(url.get(), CURLUPART_URL, copy.c_str(), 0) != CURLUE_OK) {
    return input_error("not a URL");
  }
  return get_part(url.get(), CURLUPART_URL, 0);
}

Result<std::string> origin_of(std::string_view text) {
  ENVLOCK_TRY_ASSIGN(Url url, parse_url(text));
  ENVLOCK_TRY_ASSIGN(std::string scheme, get_part(url.get(), CURLUPART_SCHEME, 0));
  ENVLOCK_TRY_ASSIGN(std::string host, get_part(url.get(), CURLUPART_HOST, 0));
  ENVLOCK_TRY_ASSIGN(std::string port, get_part(url.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT));
  return scheme + "://" + host + ":" + port;
}

std::string escape(std::string_view text) {
  return util::percent_encode(text);
}

} // namespace envlock::oci::curl
