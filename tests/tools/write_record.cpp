// envlock_write_record TYPE: the record of TYPE (a docs/formats page's name: build-result,
// squashfs-result, report, rollback-report, fleet-report, distribute-report, rollout-state,
// image-record, node-facts, provenance) read from standard input by its reader and written to
// standard output by its writer. The end-to-end suites make the records they need but no command
// of theirs writes (an importer's record beside a .sqsh, a statement to sign) with it, so every
// fixture has the exact shape envlock writes: what the reader refuses is refused here (exit 2).
#include "formats/build_result.hpp"
#include "formats/distribute_report.hpp"
#include "formats/fleet_report.hpp"
#include "formats/image_record.hpp"
#include "formats/node_facts.hpp"
#include "formats/provenance.hpp"
#include "formats/report.hpp"
#include "formats/rollback_report.hpp"
#include "formats/rollout_state.hpp"
#include "formats/squashfs_result.hpp"
#include "util/json.hpp"

#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <string>

namespace {

using namespace envlock;

template <class T> Result<std::string> rewrite(const nlohmann::json& value) {
  ENVLOCK_TRY_ASSIGN(const T record, formats::from_json<T>(value, "standard input"));
  return util::canonical_json(formats::to_json(record));
}

using Rewrite = std::function<Result<std::string>(const nlohmann::json&)>;

const std::map<std::string, Rewrite>& rewrites() {
  static const std::map<std::string, Rewrite> all = {
      {"build-result", rewrite<formats::BuildResult>},
      {"squashfs-result", rewrite<formats::SquashfsResult>},
      {"report", rewrite<formats::Report>},
      {"rollback-report", rewrite<formats::RollbackReport>},
      {"fleet-report", rewrite<formats::FleetReport>},
      {"distribute-report", rewrite<formats::DistributeReport>},
      {"rollout-state", rewrite<formats::RolloutState>},
      {"image-record", rewrite<formats::ImageRecord>},
      {"node-facts", rewrite<formats::NodeFacts>},
      {"provenance", rewrite<formats::Statement>}};
  return all;
}

} // namespace

int main(int argc, char** argv) {
  const auto it = argc == 2 ? rewrites().find(argv[1]) : rewrites().end();
  if (it == rewrites().end()) {
    std::cerr << "usage: envlock_write_record TYPE < RECORD.json (TYPE: ";
    for (const auto& [name, unused] : rewrites()) {
      std::cerr << name << (name == rewrites().rbegin()->first ? ")\n" : ", ");
    }
    return 2;
  }
  const std::string text(std::istreambuf_iterator<char>(std::cin), {});
  auto value = util::parse_json(text, "standard input");
  auto out = value ? it->second(*value) : Result<std::string>(std::move(value).error());
  if (!out) {
    std::cerr << "envlock_write_record: error: " << out.error().message << "\n";
    return 2;
  }
  std::cout << *out;
  return 0;
}
