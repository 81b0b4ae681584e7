// The handover record on disk: Markdown (templates/handover.md.mustache), a self-contained HTML
// page (templates/handover.html.mustache) or canonical JSON (envlock.handover/v1). Pure
// functions of the handover and its records, so the same records give the same bytes.
#pragma once

#include "handover/handover.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::handover {

enum class HandoverFormat { markdown, html, json };

// The format named by an output file's extension (.md, .html/.htm, .json); an input error
// "OUT: unknown extension '.x'; use .md, .html or .json" otherwise.
Result<HandoverFormat> handover_format_for(const std::filesystem::path& output);

// The JSON object of a handover.
nlohmann::json handover_to_json(const Handover& handover, const Records& records);

// The handover in `format`; fails only when a built-in template is broken.
Result<std::string> render_handover(const Handover& handover, const Records& records,
                                    HandoverFormat format);

} // namespace envlock::handover
