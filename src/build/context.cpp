#include "build/context.hpp"

#include "build/render.hpp"

#include <system_error>

namespace envlock::build {

Result<PreparedContext> prepare_context(const ContextRequest& request) {
  const std::string origin = request.lock_path.string();
  std::error_code ec;
  if (!std::filesystem::exists(request.lock_path, ec)) {
    return input_error(origin + ": no such file; run 'envlock lock' to create it");
  }
  PreparedContext prepared;
  ENVLOCK_TRY_ASSIGN(prepared.lock, lock::read_lock(request.lock_path));
  const RenderRequest render{request.lock_path, request.template_path, request.options.verifier,
                             request.options.megatron_repo};
  ENVLOCK_TRY_ASSIGN(prepared.dockerfile, render_lock(prepared.lock, request.lock_path, render));
  ENVLOCK_TRY_ASSIGN(prepared.plan, plan_context(prepared.lock, request.lock_path,
                                                 prepared.dockerfile, request.options));
  return prepared;
}

} // namespace envlock::build
