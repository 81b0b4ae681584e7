// Text read from an image (file and folder names, METADATA, version strings) is not always
// UTF-8, while every report form is: each byte that is not part of a well-formed character is
// written as "\xNN" before the report is printed or written (docs/formats/report.md).
#include "util/strings.hpp"
#include "verify/report/report.hpp"

namespace envlock::verify {

namespace {

void escape_in(std::string& text) {
  if (util::invalid_utf8_at(text)) {
    text = util::escape_invalid_utf8(text);
  }
}

void escape_in(nlohmann::json& value) {
  if (value.is_string()) {
    escape_in(value.get_ref<std::string&>());
  } else if (value.is_array()) {
    for (auto& item : value) {
      escape_in(item);
    }
  } else if (value.is_object()) {
    nlohmann::json escaped = nlohmann::json::object();
    for (auto& [key, item] : value.items()) {
      escape_in(item);
      escaped[util::escape_invalid_utf8(key)] = std::move(item);
    }
    value = std::move(escaped);
  }
}

} // namespace

void escape_invalid_utf8(Report& report) {
  for (auto& check : report.checks) {
    for (std::string* text :
         {&check.id, &check.group, &check.title, &check.expected, &check.found, &check.reason}) {
      escape_in(*text);
    }
    for (auto& figure : check.figures) {
      escape_in(figure.name);
      escape_in(figure.unit);
    }
    escape_in(check.details);
  }
  escape_in(report.details);
  for (auto& note : report.notes) {
    escape_in(note);
  }
  for (auto& uuid : report.gpu_uuids) {
    escape_in(uuid);
  }
  for (std::string* text :
       {&report.lock_sha256, &report.run.lock_path, &report.run.root, &report.run.hostname}) {
    escape_in(*text);
  }
}

} // namespace envlock::verify
