// The Markdown form of a diff: the data for templates/diff.md.mustache.
#include "diff/diff_render.hpp"
#include "template/store.hpp"
#include "util/strings.hpp"

namespace envlock::diff {

namespace mu = kainjow::mustache;

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

mu::data sections_data(const LockDiff& diff) {
  mu::list sections;
  for (const auto& s : diff.sections) {
    mu::list rows;
    for (const auto& c : s.changes) {
      mu::object row{{"field", c.field}, {"old", cell(c.old_value)}, {"new", cell(c.new_value)}};
      rows.emplace_back(row);
    }
    mu::list logs;
    if (s.id == "sources") {
      for (const auto& l : diff.commit_logs) {
        mu::list commits;
        for (const auto& [id, subject] : l.commits) {
          commits.emplace_back(
              mu::object{{"id", id}, {"subject", util::replace_all(subject, "|", "\\|")}});
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
        mu::object log{{"source", l.source}, {"summary", summary}, {"commits", commits}};
        log["more"] = l.commits.size() < l.count
                          ? mu::data(std::to_string(l.count - l.commits.size()) + " more")
                          : mu::data(false);
        logs.emplace_back(log);
      }
    }
    sections.emplace_back(mu::object{{"title", s.title}, {"rows", rows}, {"logs", logs}});
  }
  return sections;
}

mu::data packages_data(const LockDiff& diff) {
  mu::list packages;
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
    packages.emplace_back(
        mu::object{{"name", p.name},
                   {"change", to_string(p.kind)},
                   {"old", p.old_version.empty() ? "" : "`" + p.old_version + "`"},
                   {"new", p.new_version.empty() ? "" : "`" + p.new_version + "`"},
                   {"notes", util::replace_all(notes, "|", "\\|")}});
  }
  return packages;
}

} // namespace

Result<std::string> render_diff_markdown(const LockDiff& diff) {
  mu::data data;
  data.set("old", diff.old_label);
  data.set("new", diff.new_label);
  data.set("unchanged", mu::data(diff.empty()));
  mu::list warnings;
  for (const auto& w : diff.core_warnings) {
    warnings.emplace_back(mu::object{{"text", w}});
  }
  data.set("core_warnings", warnings);
  data.set("has_core_warnings", mu::data(!diff.core_warnings.empty()));
  data.set("sections", sections_data(diff));
  const auto n = package_counts(diff);
  if (!diff.packages.empty()) {
    data.set("package_summary", std::to_string(n.at("added")) + " added, " +
                                    std::to_string(n.at("removed")) + " removed, " +
                                    std::to_string(n.at("upgraded")) + " upgraded, " +
                                    std::to_string(n.at("downgraded")) + " downgraded, " +
                                    std::to_string(n.at("changed")) + " changed (" +
                                    std::to_string(n.at("major")) + " major)");
  } else {
    data.set("package_summary", mu::data(false));
  }
  data.set("packages", packages_data(diff));
  return templates::render_template("diff.md.mustache", data);
}

} // namespace envlock::diff
