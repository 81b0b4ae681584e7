// The data a Dockerfile template sees: every field of the lock's canonical JSON under its own
// name ({{base_image.digest}}, {{sources.megatron.commit}}), plus values derived from the lock
// ({{base_image.pinned}}, {{build_args}} as a list, {{python.uv.url}}, {{labels}}, ...).
// docs/manual/render.md lists every name. Building the context also checks that the lock pins
// everything the Dockerfile needs, so no floating reference can reach a rendered Dockerfile.
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::build {

// Whether the image carries envlock-verify and the lock (render --with-verifier).
enum class Verifier { omit, include };

// The template context for `lock`, as JSON. Fails (exit 2) with "ORIGIN: FIELD: problem" when a
// field the Dockerfile relies on is not pinned or cannot be written into a Dockerfile: a digest
// that is not sha256:<64 hex>, a commit that is not 40 hex digits, a checksum that is not 64 hex
// digits, a platform without a uv release archive, a build argument name Docker refuses, or a
// value with a line break.
Result<nlohmann::json> template_context(const lock::Lock& lock, const std::string& origin,
                                        Verifier verifier);

} // namespace envlock::build
