#include "fleet/node_results.hpp"

#include "formats/node_facts.hpp"
#include "formats/report.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <charconv>
#include <system_error>

namespace envlock::fleet {

namespace fs = std::filesystem;

namespace {

std::optional<int> read_exit_code(const fs::path& path) {
  const auto text = util::read_file_limited(path, 64);
  if (!text) {
    return std::nullopt;
  }
  const std::string_view digits = util::trim(*text);
  int value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

// NODE.host.json, when there is one: host checks that cannot be read fail the node; they are
// never left out quietly.
void read_host(const fs::path& dir, NodeInput& input) {
  const fs::path host = dir / (input.node + ".host.json");
  if (!util::path_exists(host)) {
    return;
  }
  input.answered = true;
  auto facts = formats::read_node_facts(host);
  if (facts) {
    input.host = std::move(*facts);
    return;
  }
  formats::CheckResult unread;
  unread.id = "host";
  unread.title = "Host facts and expect.host checks";
  unread.outcome = formats::Outcome::fail;
  unread.reason = facts.error().message;
  input.report.checks.push_back(std::move(unread));
}

NodeInput read_node(const fs::path& dir, const std::string& node) {
  NodeInput input;
  input.node = node;
  input.exit_code = read_exit_code(dir / (node + ".rc"));
  input.answered = input.exit_code.has_value() || util::path_exists(dir / (node + ".rc"));
  read_host(dir, input);
  const fs::path json = dir / (node + ".json");
  if (!util::path_exists(json)) {
    if (util::path_exists(dir / (node + ".not-verified.json"))) {
      const auto skipped = util::read_json_file(dir / (node + ".not-verified.json"));
      if (skipped && skipped->is_object() &&
          skipped->value("reason", nlohmann::json()).is_string()) {
        input.not_verified = (*skipped)["reason"].get<std::string>();
        return input;
      }
    }
    if (!input.answered) {
      // Nothing reached the results folder: the node did not answer. It is not verified, and
      // never judged (or drained) for it.
      input.not_verified = "no result from the node";
      return input;
    }
    input.problem = input.exit_code ? "envlock-verify exited " + std::to_string(*input.exit_code) +
                                          " without a report"
                                    : "no report";
    return input;
  }
  input.answered = true;
  auto report = formats::read_report(json);
  if (!report) {
    input.problem = report.error().message;
    return input;
  }
  input.reported = true;
  auto host_checks = std::move(input.report.checks); // an unreadable NODE.host.json
  input.report = std::move(*report);
  for (auto& check : host_checks) {
    input.report.checks.push_back(std::move(check));
  }
  return input;
}

} // namespace

fs::path nodes_dir(const fs::path& results) {
  return results / "nodes";
}

std::size_t count_done(const fs::path& results, const std::vector<std::string>& nodes) {
  std::size_t done = 0;
  for (const auto& node : nodes) {
    done += util::path_exists(nodes_dir(results) / (node + ".rc")) ? 1 : 0;
  }
  return done;
}

std::vector<NodeInput> read_node_results(const fs::path& results,
                                         const std::vector<std::string>& nodes) {
  std::vector<NodeInput> out;
  out.reserve(nodes.size());
  for (const auto& node : nodes) {
    out.push_back(read_node(nodes_dir(results), node));
  }
  return out;
}

Status write_not_verified(const fs::path& results, const std::string& node,
                          const std::string& reason) {
  std::error_code ec;
  fs::create_directories(nodes_dir(results), ec);
  if (ec) {
    return env_error(nodes_dir(results).string() + ": " + ec.message());
  }
  return util::write_json_file(nodes_dir(results) / (node + ".not-verified.json"),
                               {{"node", node}, {"reason", reason}});
}

} // namespace envlock::fleet
