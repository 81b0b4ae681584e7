// The three forms of a lock diff: plain text for a terminal, Markdown for a pull-request comment
// (templates/diff.md.mustache) and canonical JSON (envlock.diff/v1, docs/manual/diff.md).
// Each is a pure function of the diff, so the same locks always give the same bytes.
#pragma once

#include "diff/lock_diff.hpp"
#include "util/result.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::diff {

enum class DiffFormat { text, markdown, json };

// How many packages were added, removed, upgraded, downgraded, changed, and how many of those
// changed their major version ("major").
std::map<std::string, std::size_t> package_counts(const LockDiff& diff);

// The JSON object of a diff.
nlohmann::json diff_to_json(const LockDiff& diff);

// Plain text, one change per line.
std::string render_diff_text(const LockDiff& diff);

// Markdown; fails only when the built-in template is broken (environment error).
Result<std::string> render_diff_markdown(const LockDiff& diff);

// Any of the three forms.
Result<std::string> render_diff(const LockDiff& diff, DiffFormat format);

} // namespace envlock::diff
