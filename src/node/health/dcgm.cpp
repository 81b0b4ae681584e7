#include "node/health/dcgm.hpp"

#include "node/health/value.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

namespace envlock::node::health {

using nlohmann::json;

namespace {

json dcgm_skipped(const std::string& why) {
  return {{"value", nullptr}, {"source", k_dcgm_command}, {"skipped", why}};
}

std::string dcgm_text_of(const json& item) {
  if (item.is_string()) {
    return item.get<std::string>();
  }
  if (item.is_object()) {
    for (const char* key : {"warning", "message", "info"}) {
      if (item.contains(key) && item[key].is_string()) {
        return item[key].get<std::string>();
      }
    }
  }
  return "";
}

json dcgm_result(const std::string& category, const std::string& test, const json& result) {
  json gpu = nullptr;
  for (const char* key : {"entity_id", "gpu_id"}) {
    if (result.contains(key) && result[key].is_number_integer()) {
      gpu = result[key];
    }
  }
  std::vector<std::string> notes;
  for (const char* key : {"warnings", "info"}) {
    if (result.contains(key) && result[key].is_array()) {
      for (const auto& item : result[key]) {
        if (const std::string text = dcgm_text_of(item); !text.empty()) {
          notes.push_back(text);
        }
      }
    }
  }
  return {{"category", category},
          {"test", test},
          {"gpu", gpu},
          {"status", result.value("status", std::string("?"))},
          {"warning", util::join(notes, "; ")}};
}

} // namespace

json parse_dcgm_diag(const std::string& text, int exit_code) {
  const auto open = text.find('{');
  const auto close = text.rfind('}');
  const std::string exit_text = "exit status " + std::to_string(exit_code);
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return missing_value(k_dcgm_command, std::string(k_dcgm_command) + ": " + exit_text +
                                             ", no JSON in its output");
  }
  json doc = json::parse(text.substr(open, close - open + 1), nullptr, false);
  const json* diag = nullptr;
  for (const char* key : {"DCGM Diagnostic", "DCGM GPU Diagnostic"}) {
    if (doc.is_object() && doc.contains(key) && doc[key].is_object()) {
      diag = &doc[key];
    }
  }
  if (diag == nullptr || !diag->contains("test_categories") ||
      !(*diag)["test_categories"].is_array()) {
    return missing_value(k_dcgm_command, std::string(k_dcgm_command) + ": " + exit_text +
                                             ", no test results in its JSON");
  }
  json results = json::array();
  for (const auto& category : (*diag)["test_categories"]) {
    const std::string name = category.value("category", std::string("?"));
    if (!category.contains("tests") || !category["tests"].is_array()) {
      continue;
    }
    for (const auto& test : category["tests"]) {
      const std::string test_name = test.value("name", std::string("?"));
      if (!test.contains("results") || !test["results"].is_array()) {
        continue;
      }
      for (const auto& result : test["results"]) {
        if (result.is_object()) {
          results.push_back(dcgm_result(name, test_name, result));
        }
      }
    }
  }
  if (results.empty()) {
    return missing_value(k_dcgm_command, std::string(k_dcgm_command) + ": " + exit_text +
                                             ", no test results in its JSON");
  }
  return value_fact(std::move(results), k_dcgm_command);
}

json run_dcgm_diag(RunDcgm run) {
  if (run == RunDcgm::no) {
    return dcgm_skipped("not run (--no-dcgm or offline facts)");
  }
  if (!util::find_program("dcgmi")) {
    return dcgm_skipped("dcgmi: not in PATH (DCGM is not installed)");
  }
  auto result = util::run_process({"dcgmi", "diag", "-r", "1", "--json"});
  if (!result) {
    return missing_value(k_dcgm_command,
                         std::string(k_dcgm_command) + ": " + result.error().message);
  }
  return parse_dcgm_diag(result->out, result->exit_code);
}

} // namespace envlock::node::health
