#include "handover/render.hpp"
#include "formats/schemas.hpp"

#include "template/store.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

namespace envlock::handover {

namespace {

std::size_t missing_count(const Handover& h) {
  std::size_t n = 0;
  for (const auto& row : h.rows) {
    for (const auto& item : row.items) {
      n += item.value ? 0 : 1;
    }
  }
  return n;
}

// Markdown table cells: no pipes, no line breaks.
std::string md_cell(const std::string& text) {
  return util::replace_all(util::replace_all(text, "|", "\\|"), "\n", " ");
}

nlohmann::json template_data(const Handover& h, const Records& records, HandoverFormat format) {
  auto cell = [format](const std::string& s) {
    return format == HandoverFormat::markdown ? md_cell(s) : s;
  };
  nlohmann::json rows = nlohmann::json::array();
  std::size_t number = 0;
  for (const auto& row : h.rows) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& item : row.items) {
      items.push_back({{"label", cell(item.label)},
                       {"value", cell(item.value.value_or("missing"))},
                       {"source", cell(item.source)},
                       {"missing", !item.value.has_value()}});
    }
    rows.push_back({{"number", std::to_string(++number)},
                    {"id", row.id},
                    {"title", row.title},
                    {"purpose", row.purpose},
                    {"items", items}});
  }
  nlohmann::json files = nlohmann::json::array();
  for (const Record* r : records.all()) {
    files.push_back({{"role", r->role}, {"name", cell(r->name)}, {"sha256", r->sha256}});
  }
  return {{"rows", rows},
          {"records", files},
          {"has_records", !files.empty()},
          {"no_records", files.empty()},
          {"missing_count", std::to_string(missing_count(h))}};
}

} // namespace

Result<HandoverFormat> handover_format_for(const std::filesystem::path& output) {
  const std::string ext = util::to_lower(output.extension().string());
  if (ext == ".md" || ext == ".markdown") {
    return HandoverFormat::markdown;
  }
  if (ext == ".html" || ext == ".htm") {
    return HandoverFormat::html;
  }
  if (ext == ".json") {
    return HandoverFormat::json;
  }
  return input_error(output.string() + ": unknown extension '" + ext +
                     "'; use .md, .html or .json");
}

nlohmann::json handover_to_json(const Handover& h, const Records& records) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : h.rows) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& item : row.items) {
      items.push_back({{"label", item.label},
                       {"value", item.value ? nlohmann::json(*item.value) : nlohmann::json()},
                       {"source", item.value ? nlohmann::json(item.source) : nlohmann::json()}});
    }
    rows.push_back(
        {{"id", row.id}, {"title", row.title}, {"purpose", row.purpose}, {"items", items}});
  }
  nlohmann::json files = nlohmann::json::array();
  for (const Record* r : records.all()) {
    files.push_back({{"role", r->role}, {"name", r->name}, {"sha256", r->sha256}});
  }
  return {{"schema", formats::k_handover_schema},
          {"records", files},
          {"rows", rows},
          {"missing", missing_count(h)}};
}

Result<std::string> render_handover(const Handover& h, const Records& records,
                                    HandoverFormat format) {
  switch (format) {
  case HandoverFormat::json:
    return util::canonical_json(handover_to_json(h, records));
  case HandoverFormat::markdown:
    return templates::render_template("handover.md.mustache", template_data(h, records, format));
  case HandoverFormat::html:
    return templates::render_html_template("handover.html.mustache",
                                           template_data(h, records, format));
  }
  return env_error("unknown handover format");
}

} // namespace envlock::handover
