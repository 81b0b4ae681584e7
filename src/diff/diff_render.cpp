#include "diff/diff_render.hpp"

#include "formats/schemas.hpp"
#include "util/json.hpp"

#include <map>
#include <sstream>

namespace envlock::diff {

using nlohmann::json;

namespace {

json optional_json(const std::optional<std::string>& v) {
  return v ? json(*v) : json(nullptr);
}

std::string shown(const std::optional<std::string>& v) {
  return v ? (v->empty() ? "\"\"" : *v) : "(none)";
}

std::string log_words(const CommitLog& log) {
  const std::string commits = log.count == 1 ? "commit" : "commits";
  if (log.direction == "behind") {
    return commits + " behind the old one (NEW is older)";
  }
  if (log.direction == "diverged") {
    return commits + " on the new side (the two have diverged)";
  }
  return commits + " since the old one";
}

char package_mark(PackageChangeKind kind) {
  switch (kind) {
  case PackageChangeKind::added:
    return '+';
  case PackageChangeKind::removed:
    return '-';
  case PackageChangeKind::upgraded:
    return '^';
  case PackageChangeKind::downgraded:
    return 'v';
  case PackageChangeKind::changed:
    return '~';
  }
  return '~';
}

} // namespace

std::map<std::string, std::size_t> package_counts(const LockDiff& diff) {
  std::map<std::string, std::size_t> counts = {{"added", 0},      {"removed", 0}, {"upgraded", 0},
                                               {"downgraded", 0}, {"changed", 0}, {"major", 0}};
  for (const auto& p : diff.packages) {
    ++counts[to_string(p.kind)];
    if (p.major) {
      ++counts["major"];
    }
  }
  return counts;
}

json diff_to_json(const LockDiff& diff) {
  json sections = json::array();
  for (const auto& s : diff.sections) {
    json changes = json::array();
    for (const auto& c : s.changes) {
      changes.push_back({{"field", c.field},
                         {"old", optional_json(c.old_value)},
                         {"new", optional_json(c.new_value)}});
    }
    sections.push_back({{"id", s.id}, {"title", s.title}, {"changes", changes}});
  }
  json packages = json::array();
  for (const auto& p : diff.packages) {
    json j = {{"name", p.name},       {"change", to_string(p.kind)},
              {"old", p.old_version}, {"new", p.new_version},
              {"major", p.major},     {"core", optional_json(p.core)}};
    if (!p.old_source.empty() || !p.new_source.empty()) {
      j["old_source"] = p.old_source;
      j["new_source"] = p.new_source;
    }
    if (!p.sources.empty()) {
      j["sources"] = p.sources;
    }
    packages.push_back(std::move(j));
  }
  json logs = json::array();
  for (const auto& l : diff.commit_logs) {
    json commits = json::array();
    for (const auto& [id, subject] : l.commits) {
      commits.push_back({{"id", id}, {"subject", subject}});
    }
    logs.push_back({{"source", l.source},
                    {"direction", l.direction},
                    {"count", l.count},
                    {"commits", commits},
                    {"unavailable", l.unavailable.empty() ? json(nullptr) : json(l.unavailable)}});
  }
  return {{"schema", formats::k_diff_schema},
          {"old", diff.old_label},
          {"new", diff.new_label},
          {"changed", !diff.empty()},
          {"sections", sections},
          {"packages", packages},
          {"package_counts", package_counts(diff)},
          {"commit_logs", logs},
          {"core_warnings", diff.core_warnings}};
}

std::string render_diff_text(const LockDiff& diff) {
  std::ostringstream out;
  out << "envlock diff: " << diff.old_label << " -> " << diff.new_label << "\n";
  if (diff.empty()) {
    out << "\nNo changes.\n";
    return out.str();
  }
  if (!diff.core_warnings.empty()) {
    out << "\nWARNING: the new lock replaces core dependencies of the base image:\n";
    for (const auto& w : diff.core_warnings) {
      out << "  ! " << w << "\n";
    }
  }
  for (const auto& s : diff.sections) {
    out << "\n" << s.title << "\n";
    for (const auto& c : s.changes) {
      out << "  " << c.field << ": " << shown(c.old_value) << " -> " << shown(c.new_value) << "\n";
    }
    if (s.id != "sources") {
      continue;
    }
    for (const auto& l : diff.commit_logs) {
      if (!l.unavailable.empty()) {
        out << "  " << l.source << " log: unavailable (" << l.unavailable << ")\n";
        continue;
      }
      out << "  " << l.source << " log: " << l.count << " " << log_words(l) << "\n";
      for (const auto& [id, subject] : l.commits) {
        out << "    " << id << " " << subject << "\n";
      }
      if (l.commits.size() < l.count) {
        out << "    ... " << (l.count - l.commits.size()) << " more\n";
      }
    }
  }
  if (!diff.packages.empty()) {
    const auto n = package_counts(diff);
    out << "\nuv packages: " << n.at("added") << " added, " << n.at("removed") << " removed, "
        << n.at("upgraded") << " upgraded, " << n.at("downgraded") << " downgraded, "
        << n.at("changed") << " changed (" << n.at("major") << " major)\n";
    for (const auto& p : diff.packages) {
      out << "  " << package_mark(p.kind) << " " << p.name << " ";
      if (p.kind == PackageChangeKind::added) {
        out << p.new_version;
      } else if (p.kind == PackageChangeKind::removed) {
        out << p.old_version;
      } else {
        out << p.old_version << " -> " << p.new_version;
      }
      if (!p.old_source.empty() || !p.new_source.empty()) {
        out << " [source: " << p.old_source << " -> " << p.new_source << "]";
      }
      if (!p.sources.empty()) {
        out << " [sources: " << p.sources << "]";
      }
      if (p.major) {
        out << " (major)";
      }
      if (p.core) {
        out << " (core: " << *p.core << ")";
      }
      out << "\n";
    }
  }
  return out.str();
}

Result<std::string> render_diff(const LockDiff& diff, DiffFormat format) {
  switch (format) {
  case DiffFormat::text:
    return render_diff_text(diff);
  case DiffFormat::markdown:
    return render_diff_markdown(diff);
  case DiffFormat::json:
    return util::canonical_json(diff_to_json(diff));
  }
  return render_diff_text(diff);
}

} // namespace envlock::diff
