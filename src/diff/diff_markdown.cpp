// The Markdown form of a diff: the data for templates/diff.md.mustache.
#include "diff/diff_render.hpp"
#include "template/store.hpp"
#include "util/strings.hpp"

namespace envlock::diff {

using nlohmann::json;

namespace {

// A table cell: code-formatted, with pipes escaped; "(none)" for an absent value.
std::string cell(const std::optional<std::string>& v) {
  if (!v) {
    return "*(none)*";
  }
  if (v->empty()) {
    return "`\"\"`";
  }
  return "`" + util::replace_all(*v, "|", "\\|") + "`";
}

json sections_data(const LockDiff& diff) {
  json sections = json::array();
  for (const auto& s : diff.sections) {
    json rows = json::array();
    for (const auto& c : s.changes) {
      rows.push_back({{"field", c.field}, {"old", cell(c.old_value)}, {"new", cell(c.new_value)}});
    }
    json logs = json::array();
    if (s.id == "sources") {
      for (const auto& l : diff.commit_logs) {
        json commits = json::array();
        for (const auto& [id, subject] : l.commits) {
          commits.push_back({{"id", id}, {"subject", util::replace_all(subject, "|", "\\|")}});
        }
        std::string summary = l.unavailable.empty()
                                  ? std::to_string(l.count) +
                                        (l.count == 1 ? " commit " : " commits ") +
                                        (l.direction == "behind" ? "back (the new commit is older)"
                                                                 : "since the old commit")
                                  : "unavailable: " + l.unavailable;
        if (l.direction == "diverged") {
          summary += " (the two commits have diverged)";
        }
        json log = {{"source", l.source}, {"summary", summary}, {"commits", commits}};
        log["more"] = l.commits.size() < l.count
                          ? json(std::to_string(l.count - l.commits.size()) + " more")
                          : json(false);
        logs.push_back(std::move(log));
      }
    }
    sections.push_back({{"title", s.title}, {"rows", rows}, {"logs", logs}});
  }
  return sections;
}

json packages_data(const LockDiff& diff) {
  json packages = json::array();
  for (const auto& p : diff.packages) {
    std::string notes;
    if (p.major) {
      notes += "**major**";
    }
    if (p.core) {
      notes += std::string(notes.empty() ? "" : ", ") + "core: " + *p.core;
    }
    if (!p.old_source.empty() || !p.new_source.empty()) {
      notes += std::string(notes.empty() ? "" : ", ") + "source: `" + p.old_source + "` → `" +
               p.new_source + "`";
    }
    if (!p.sources.empty()) {
      notes += std::string(notes.empty() ? "" : ", ") + "sources: `" + p.sources + "`";
    }
    packages.push_back({{"name", p.name},
                        {"change", to_string(p.kind)},
                        {"old", p.old_version.empty() ? "" : "`" + p.old_version + "`"},
                        {"new", p.new_version.empty() ? "" : "`" + p.new_version + "`"},
                        {"notes", util::replace_all(notes, "|", "\\|")}});
  }
  return packages;
}

} // namespace

Result<std::string> render_diff_markdown(const LockDiff& diff) {
  json data = {{"old", diff.old_label}, {"new", diff.new_label}, {"unchanged", diff.empty()}};
  json warnings = json::array();
  for (const auto& w : diff.core_warnings) {
    warnings.push_back({{"text", w}});
  }
  data["core_warnings"] = warnings;
  data["has_core_warnings"] = !diff.core_warnings.empty();
  data["sections"] = sections_data(diff);
  const auto n = package_counts(diff);
  if (!diff.packages.empty()) {
    data["package_summary"] =
        std::to_string(n.at("added")) + " added, " + std::to_string(n.at("removed")) +
        " removed, " + std::to_string(n.at("upgraded")) + " upgraded, " +
        std::to_string(n.at("downgraded")) + " downgraded, " + std::to_string(n.at("changed")) +
        " changed (" + std::to_string(n.at("major")) + " major)";
  } else {
    data["package_summary"] = false;
  }
  data["packages"] = packages_data(diff);
  return templates::render_template("diff.md.mustache", data);
}

} // namespace envlock::diff
