// The fleet report for people: Markdown (for a ticket or a handover) and the terminal table.
#include "fleet/fleet_report.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cstddef>
#include <iomanip>
#include <sstream>

namespace envlock::fleet {

namespace {

std::string number(double value) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << value;
  return out.str();
}

std::string cell(std::string text) {
  return util::replace_all(util::replace_all(std::move(text), "|", "\\|"), "\n", " ");
}

std::string summary_line(const FleetReport& report) {
  const std::size_t not_verified = report.nodes_with(NodeOutcome::not_verified).size();
  return std::to_string(report.nodes_with(NodeOutcome::pass).size()) + " passed, " +
         std::to_string(report.nodes_with(NodeOutcome::fail).size()) + " failed, " +
         std::to_string(report.nodes_with(NodeOutcome::missing).size()) + " missing" +
         (not_verified > 0 ? ", " + std::to_string(not_verified) + " not verified" : "") + " of " +
         std::to_string(report.nodes.size()) + " nodes";
}

std::string matrix_cell(const FleetReport& report, const std::string& node,
                        const std::string& check) {
  const auto row = report.matrix.find(node);
  if (row == report.matrix.end()) {
    return "";
  }
  const auto it = row->second.find(check);
  if (it == row->second.end()) {
    return "-";
  }
  return it->second == "fail" ? "**FAIL**" : it->second;
}

std::string failure_words(const Failure& f) {
  if (!f.drain.empty()) {
    return f.drain;
  }
  std::string text = f.check;
  if (!f.expected.empty() || !f.found.empty()) {
    text += " (expected " + f.expected + ", found " + f.found + ")";
  }
  return text;
}

} // namespace

std::string fleet_report_to_markdown(const FleetReport& report) {
  std::ostringstream out;
  out << "# Fleet verification\n\n";
  out << "- image: `" << report.image << "` (" << report.image_digest << ")\n";
  out << "- lock sha256: " << report.lock_sha256 << "\n";
  out << "- reference node: " << report.reference_node << "\n";
  out << "- outcome: **" << (report.passed() ? "pass" : "fail") << "**, " << summary_line(report)
      << "\n\n## Matrix\n\n| node | outcome | chain | health |";
  for (const auto& check : report.checks) {
    out << " " << check << " |";
  }
  out << "\n| --- | --- | --- | --- |";
  for (std::size_t i = 0; i < report.checks.size(); ++i) {
    out << " --- |";
  }
  out << "\n";
  for (const auto& node : report.nodes) {
    const auto chain = report.chain.find(node);
    const auto health = report.health.find(node);
    out << "| " << node << " | " << to_string(report.node_outcomes.at(node)) << " | "
        << (chain == report.chain.end() ? ""
            : chain->second == "fail"   ? "**FAIL**"
                                        : chain->second)
        << " | "
        << (health != report.health.end() ? (health->second == "fail" ? "**FAIL**" : health->second)
            : report.matrix.count(node) > 0 ? "-"
                                            : "")
        << " |";
    for (const auto& check : report.checks) {
      out << " " << matrix_cell(report, node, check) << " |";
    }
    out << "\n";
  }
  if (!report.failures.empty()) {
    out << "\n## Failures\n\n| node | check | expected | found | reason |\n| --- | --- | --- | --- "
           "| --- |\n";
    for (const auto& f : report.failures) {
      out << "| " << f.node << " | " << f.check << " | " << cell(f.expected) << " | "
          << cell(f.found) << " | " << cell(f.reason) << " |\n";
    }
  }
  if (!report.outliers.empty()) {
    out << "\n## Outliers\n\n| node | check | figure | value | against | compared with |\n"
        << "| --- | --- | --- | --- | --- | --- |\n";
    for (const auto& o : report.outliers) {
      out << "| " << o.node << " | " << o.check << " | " << o.figure << " | " << number(o.value)
          << " " << o.unit << " | " << number(o.against) << " " << o.unit << " | " << o.source
          << " |\n";
    }
  }
  if (!report.sdc.groups.empty()) {
    out << "\n## SDC digests\n\n| group | GPUs | nodes | verdict |\n| --- | --- | --- | --- |\n";
    for (const auto& g : report.sdc.groups) {
      std::string verdict = g.verdict;
      if (g.verdict == "tie") {
        verdict = "tie at step " + std::to_string(g.tie_step) + ":";
        for (const auto& [digest, gpus] : g.tie_sides) {
          verdict += " " + std::to_string(gpus) + " GPUs " + digest.substr(0, 12);
        }
        verdict += "; no GPU named";
      } else if (g.verdict == "too_small") {
        verdict = "too small for a majority; nothing compared";
      }
      if (!g.left_out.empty()) {
        verdict +=
            "; left out: " + std::to_string(g.left_out.size()) + " GPUs whose chain did not repeat";
      }
      out << "| " << cell(g.group) << " | " << g.gpus << " | " << g.nodes << " | " << cell(verdict)
          << " |\n";
    }
    for (const auto& m : report.sdc.minority) {
      out << "\n- " << m.node << " GPU " << m.gpu << " (" << m.uuid
          << (m.serial.empty() ? "" : ", serial " + m.serial) << "): differs from "
          << m.majority_gpus << " of " << m.compared_gpus << " GPUs at step " << m.step
          << "; isolate the GPU, return it for repair";
    }
    if (!report.sdc.minority.empty()) {
      out << "\n";
    }
  }
  if (!report.missing.empty()) {
    out << "\n## Nodes without a report\n\n| node | reason |\n| --- | --- |\n";
    for (const auto& m : report.missing) {
      out << "| " << m.node << " | " << cell(m.reason) << " |\n";
    }
  }
  if (!report.not_verified.empty()) {
    out << "\n## Nodes not verified\n\n| node | why |\n| --- | --- |\n";
    for (const auto& n : report.not_verified) {
      out << "| " << n.node << " | " << cell(n.reason) << " |\n";
    }
  }
  return out.str();
}

std::string fleet_report_to_table(const FleetReport& report) {
  std::size_t width = 4;
  for (const auto& node : report.nodes) {
    width = std::max(width, node.size());
  }
  std::ostringstream out;
  out << "      " << std::left << std::setw(static_cast<int>(width)) << "node"
      << "  problems\n";
  for (const auto& node : report.nodes) {
    const NodeOutcome outcome = report.node_outcomes.at(node);
    std::vector<std::string> problems;
    for (const auto& f : report.failures) {
      if (f.node == node) {
        problems.push_back(failure_words(f));
      }
    }
    for (const auto& o : report.outliers) {
      if (o.node == node) {
        problems.push_back(o.check + " " + o.figure + " " + number(o.value) + " " + o.unit + " < " +
                           number(o.against) + " (" + o.source + ")");
      }
    }
    for (const auto& m : report.missing) {
      if (m.node == node) {
        problems.push_back("no report: " + m.reason);
      }
    }
    for (const auto& n : report.not_verified) {
      if (n.node == node) {
        problems.push_back("not verified: " + n.reason);
      }
    }
    const char* label = outcome == NodeOutcome::pass      ? "PASS"
                        : outcome == NodeOutcome::fail    ? "FAIL"
                        : outcome == NodeOutcome::missing ? "MISS"
                                                          : "SKIP";
    const std::string text = util::join(problems, "; ");
    if (text.empty()) {
      out << label << "  " << node << "\n";
    } else {
      out << label << "  " << std::setw(static_cast<int>(width)) << node << "  " << text << "\n";
    }
  }
  out << summary_line(report) << "\n";
  return out.str();
}

} // namespace envlock::fleet
