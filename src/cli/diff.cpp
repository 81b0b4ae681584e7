// envlock diff [OLD [NEW]]: what changed between two locks, in ML terms (docs/manual/diff.md).
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "diff/commit_log.hpp"
#include "diff/diff_render.hpp"
#include "diff/lock_source.hpp"

#include <unistd.h>

namespace envlock::cli::diff_command {

namespace {

struct DiffOptions {
  std::vector<std::string> revisions;
  std::string lock_path = "envlock.lock.json";
  std::string format; // text, md or json; empty: by -o's extension, else by the stream
  std::string output; // empty: standard output
  std::string megatron_repo;
};

Result<ExitCode> run_diff(const DiffOptions& o) {
  if (o.revisions.size() > 2) {
    return input_error("diff takes at most two locks or revisions (OLD NEW)");
  }
  diff::LoadedLock old_lock;
  diff::LoadedLock new_lock;
  if (o.revisions.empty()) {
    ENVLOCK_TRY_ASSIGN(old_lock, diff::load_lock_arg("HEAD", o.lock_path));
  } else {
    ENVLOCK_TRY_ASSIGN(old_lock, diff::load_lock_arg(o.revisions[0], o.lock_path));
  }
  if (o.revisions.size() == 2) {
    ENVLOCK_TRY_ASSIGN(new_lock, diff::load_lock_arg(o.revisions[1], o.lock_path));
  } else {
    ENVLOCK_TRY_ASSIGN(new_lock, diff::load_lock_file(o.lock_path));
  }
  diff::LockDiff diff = diff::diff_locks(old_lock.lock, new_lock.lock);
  diff.old_label = old_lock.label;
  diff.new_label = new_lock.label;
  diff::add_commit_logs(diff, old_lock.lock, new_lock.lock, o.megatron_repo);

  std::string name = o.format;
  if (name.empty()) {
    const bool terminal = (o.output.empty() || o.output == "-") && isatty(STDOUT_FILENO) != 0;
    name = cmdline::format_for_extension(o.output, {"text", "md", "json"})
               .value_or(terminal ? "text" : "md");
  }
  const diff::DiffFormat format = name == "json" ? diff::DiffFormat::json
                                  : name == "md" ? diff::DiffFormat::markdown
                                                 : diff::DiffFormat::text;
  ENVLOCK_TRY_ASSIGN(const std::string text, diff::render_diff(diff, format));
  ENVLOCK_TRY(cmdline::write_output(o.output, text));
  return diff.empty() ? ExitCode::ok : ExitCode::failed;
}

} // namespace

CommandSpec spec() {
  return {
      "diff",
      "Show what changed between two locks (files or git revisions), in ML terms",
      [](CLI::App& app) -> Runner {
        auto o = std::make_shared<DiffOptions>();
        app.add_option("locks", o->revisions,
                       "OLD and NEW: lock files or git revisions (REV or REV:PATH); default: HEAD "
                       "and the working lock");
        app.add_option("--lock", o->lock_path,
                       "The working lock, and the path a bare revision reads (default: "
                       "envlock.lock.json)")
            ->type_name("FILE");
        cmdline::add_format_option(app, o->format, {"text", "md", "json"},
                                   "default: by -o's extension, else text on a terminal and md "
                                   "otherwise");
        cmdline::add_output_option(app, o->output,
                                   "Write the diff here; - for standard output (default: standard "
                                   "output)");
        cmdline::add_old_flag(app, "--json", "--format json", [o] { o->format = "json"; });
        app.add_option("--megatron-repo", o->megatron_repo,
                       "A local clone of Megatron-LM, to list the commits between the two pins")
            ->type_name("DIR");
        cmdline::set_footer(app, "envlock diff HEAD~1 --format md", "docs/manual/diff.md");
        return [o] { return run_diff(*o); };
      },
  };
}

} // namespace envlock::cli::diff_command
