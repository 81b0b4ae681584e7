// `envlock context`: the build context of a lock as one reproducible tar. The lock is read, its
// Dockerfile rendered (as `envlock render` does) and the context planned (context_plan.hpp) and
// written (context_tar.hpp). docs/manual/context.md describes the layout and the tar format.
#pragma once

#include "build/context_plan.hpp"
#include "build/context_tar.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace envlock::build {

struct ContextRequest {
  std::filesystem::path lock_path = "envlock.lock.json";
  std::optional<std::filesystem::path> template_path; // empty: the default template
  ContextOptions options;
};

// The lock, its rendered Dockerfile and the context plan, ready to write.
struct PreparedContext {
  lock::Lock lock;
  std::string dockerfile;
  ContextPlan plan;
};

// Reads the lock, renders its Dockerfile and plans the context. Fails like render_file and
// plan_context.
Result<PreparedContext> prepare_context(const ContextRequest& request);

} // namespace envlock::build
