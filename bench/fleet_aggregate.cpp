// Aggregating 640 synthetic node reports (the seed's fleet) into the fleet report: reading the
// per-node files, folding them and rendering JSON and Markdown. Prints the time against the
// reference of only reading and parsing the same files (target: the whole fold <= 1 s).
#include "fleet/fleet_report.hpp"
#include "fleet/node_results.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using envlock::util::canonical_json;

constexpr int k_nodes = 640;
constexpr int k_checks = 24;

nlohmann::json synthetic_report(int node) {
  nlohmann::json checks = nlohmann::json::array();
  for (int c = 0; c < k_checks; ++c) {
    const bool fails = node % 97 == 5 && c == 3;
    nlohmann::json figures = nlohmann::json::array();
    if (c >= 16) {
      const double value = node % 113 == 7 ? 2.1 : 3.9 + (node % 10) * 0.01;
      figures.push_back({{"name", "copy_bandwidth"}, {"value", value}, {"unit", "TB/s"}});
    }
    checks.push_back({{"id", "check." + std::to_string(c)},
                      {"title", "check " + std::to_string(c)},
                      {"outcome", fails ? "fail" : "pass"},
                      {"expected", "2.13.0"},
                      {"found", fails ? "2.12.0" : "2.13.0"},
                      {"reason", fails ? "differs" : ""},
                      {"figures", figures},
                      {"details", {{"path", "/usr/lib/x86_64-linux-gnu/libnccl.so.2"}}}});
  }
  return {{"schema", "envlock.report/v1"}, {"outcome", "pass"}, {"checks", checks}};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main() {
  const envlock::util::TempDir dir = envlock::util::TempDir::create("envlock-bench-fleet").value();
  std::filesystem::create_directories(envlock::fleet::nodes_dir(dir.path()));
  std::vector<std::string> nodes;
  for (int n = 1; n <= k_nodes; ++n) {
    const std::string node = "gpu" + std::to_string(n);
    nodes.push_back(node);
    if (n == 600) {
      continue; // one node never reports
    }
    const auto base = envlock::fleet::nodes_dir(dir.path()) / node;
    if (!envlock::util::write_json_file(base.string() + ".json", synthetic_report(n)) ||
        !envlock::util::write_file_atomic(base.string() + ".rc", "0\n")) {
      (void)std::fprintf(stderr, "cannot write the synthetic reports\n");
      return 3;
    }
  }
  auto start = std::chrono::steady_clock::now();
  std::size_t parsed = 0;
  for (const auto& node : nodes) {
    parsed +=
        envlock::util::read_json_file(envlock::fleet::nodes_dir(dir.path()) / (node + ".json")) ? 1
                                                                                                : 0;
  }
  const double read_only = seconds_since(start);

  start = std::chrono::steady_clock::now();
  auto inputs = envlock::fleet::read_node_results(dir.path(), nodes);
  const auto report = envlock::fleet::aggregate(std::move(inputs), {});
  const std::string json = canonical_json(envlock::formats::to_json(report));
  const std::string markdown = envlock::fleet::fleet_report_to_markdown(report);
  const double fold = seconds_since(start);

  std::printf("fleet_aggregate: %d nodes x %d checks (%zu reports parsed), %zu failures, %zu "
              "outliers, %zu missing\n",
              k_nodes, k_checks, parsed, report.failures.size(), report.outliers.size(),
              report.missing.size());
  std::printf("  envlock read + aggregate + JSON + Markdown: %.3f s (target <= 1 s; %zu + %zu "
              "bytes)\n",
              fold, json.size(), markdown.size());
  std::printf("  reference, reading and parsing the reports only: %.3f s\n", read_only);
  return 0;
}
