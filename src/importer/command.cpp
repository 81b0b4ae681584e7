#include "importer/command.hpp"

#include "cmdline/help.hpp"
#include "cmdline/program.hpp"
#include "importer/audit_log.hpp"
#include "importer/config_choice.hpp"
#include "importer/enforce.hpp"
#include "importer/importer.hpp"
#include "importer/log_query.hpp"
#include "importer/user_notice.hpp"
#include "util/interrupt.hpp"

#include <exception>
#include <iostream>
#include <memory>
#include <type_traits>
#include <unistd.h>

namespace envlock::importer {

namespace {

constexpr const char* k_manual = "docs/manual/importer.md";

// One command's run: its context, and the audit line it leaves.
class Run {
public:
  explicit Run(const std::string& command) : m_entry(new_audit_entry(command)) {}

  // Reads the configuration; the error says which file and what chose it.
  Status open() {
    const ConfigChoice choice = choose_config();
    m_entry.config = choice.file.string();
    ENVLOCK_TRY_ASSIGN(m_context.config, load_config(choice));
    m_log = m_context.config.log;
    m_context.step = job_step_from_environment();
    m_context.uid = ::getuid();
    m_context.audit = &m_entry;
    m_context.note = [this](const std::string& line) {
      std::cerr << "envlock importer: " << line << "\n";
      if (line.starts_with("warning: ")) {
        m_entry.warnings.push_back(line.substr(9));
      } else if (line.starts_with("evicted ") || line.starts_with("removed ")) {
        m_entry.warnings.push_back(line);
      } else if (line.starts_with("waiting ") || line.starts_with("waited ")) {
        m_entry.waits.push_back(line);
      }
    };
    if (!choice.ignored.empty()) {
      m_context.note("warning: " + std::string(k_config_variable) + "=" + choice.ignored +
                     " ignored: under a Slurm job only " + k_default_config + " is read");
    }
    return {};
  }

  [[nodiscard]] const Context& context() const { return m_context; }
  AuditEntry& entry() { return m_entry; }

  // Writes the audit line for `result` and passes it on.
  template <class T> Result<T> finish(Result<T> result) {
    if (!result) {
      m_entry.outcome =
          result.error().code == ExitCode::failed ? AuditOutcome::refused : AuditOutcome::failed;
      m_entry.exit_code = static_cast<int>(result.error().code);
      m_entry.message = result.error().message;
    } else if constexpr (std::is_same_v<T, ExitCode>) {
      // A command that ends with a finding but no error (scan found a corrupt image).
      if (*result != ExitCode::ok) {
        m_entry.outcome =
            *result == ExitCode::failed ? AuditOutcome::refused : AuditOutcome::failed;
        m_entry.exit_code = static_cast<int>(*result);
      }
    }
    if (const std::string problem = append_audit(m_log, m_entry); !problem.empty()) {
      std::cerr << "envlock importer: " << problem << "; the audit line went to syslog only\n";
    }
    return result;
  }

private:
  AuditEntry m_entry;
  Context m_context;
  std::filesystem::path m_log;
};

Result<ExitCode> run_get(const std::string& uri) {
  Run run("get");
  run.entry().image = uri;
  if (auto opened = run.open(); !opened) {
    return run.finish(Result<ExitCode>(opened.error()));
  }
  const Context& c = run.context();
  auto outcome = get(c, uri);
  if (outcome) {
    run.entry().sqsh_path = outcome->sqsh.string();
    run.entry().sqsh_sha256 = outcome->sha256;
    run.entry().sqsh_source = to_string(outcome->source);
    run.entry().sqsh_checked = outcome->sha256.empty() ? "" : to_string(outcome->checked);
  }
  if (!outcome) {
    return run.finish(Result<ExitCode>(outcome.error()));
  }
  // A stamp in the user's own cache is the user's word, so the line says whose check it was.
  c.note(std::string(to_string(outcome->source)) +
         (outcome->checked == Checked::caller_stamp
              ? ", sha256 as this user's own stamp says (not read again): "
              : ", sha256 checked: ") +
         outcome->sqsh.string());
  std::cout << outcome->sqsh.string() << "\n" << std::flush;
  if (!std::cout) {
    return run.finish(Result<ExitCode>(env_error("cannot write to standard output")));
  }
  if (const std::string problem = notify_job(c.step.job, run.entry().warnings); !problem.empty()) {
    c.note("could not tell the job's user: " + problem);
  }
  return run.finish(Result<ExitCode>(ExitCode::ok));
}

Result<ExitCode> run_release() {
  Run run("release");
  if (auto opened = run.open(); !opened) {
    // Nothing was got with this configuration, so nothing is held: get reports the error.
    std::cerr << "envlock importer: release: nothing to release (" << opened.error().message
              << ")\n";
    return ExitCode::ok;
  }
  const Context& c = run.context();
  auto released = release(c);
  if (!released) {
    return run.finish(Result<ExitCode>(released.error()));
  }
  if (c.step.job.empty()) {
    c.note("release: no SLURM_JOB_ID, nothing to release");
  } else {
    c.note("release: job " + c.step.job + " step " + c.step.step + ": " +
           std::to_string(*released) + " hold(s) released");
  }
  return run.finish(Result<ExitCode>(ExitCode::ok));
}

Result<ExitCode> run_check(const std::string& uri, const std::string& container) {
  Run run("check");
  run.entry().image = uri;
  if (!container.empty()) {
    run.entry().image += (uri.empty() ? "" : " ") + std::string("--container-name=") + container;
  }
  if (auto opened = run.open(); !opened) {
    return run.finish(Result<ExitCode>(opened.error()));
  }
  if (auto checked = check(run.context(), uri, container); !checked) {
    return run.finish(Result<ExitCode>(checked.error()));
  }
  run.context().note("check: " + run.entry().image + ": allowed");
  return run.finish(Result<ExitCode>(ExitCode::ok));
}

Result<ExitCode> run_fill(const std::string& uri) {
  Run run("fill");
  run.entry().image = uri;
  if (auto opened = run.open(); !opened) {
    return run.finish(Result<ExitCode>(opened.error()));
  }
  auto outcome = fill(run.context(), uri);
  if (!outcome) {
    return run.finish(Result<ExitCode>(outcome.error()));
  }
  run.entry().sqsh_path = outcome->sqsh.string();
  run.entry().sqsh_sha256 = outcome->sha256;
  run.entry().sqsh_source = to_string(outcome->source);
  run.entry().sqsh_checked = to_string(outcome->checked);
  run.context().note("fill: " + std::string(to_string(outcome->source)) + ": " +
                     outcome->sqsh.string());
  return run.finish(Result<ExitCode>(ExitCode::ok));
}

Result<ExitCode> run_scan() {
  Run run("scan");
  if (auto opened = run.open(); !opened) {
    return run.finish(Result<ExitCode>(opened.error()));
  }
  const auto corrupt = scan(run.context());
  for (const auto& line : corrupt) {
    run.context().note("warning: corrupt pre-distributed image " + line);
  }
  if (!corrupt.empty()) {
    run.entry().message = std::to_string(corrupt.size()) + " corrupt pre-distributed image" +
                          (corrupt.size() == 1 ? "" : "s");
    return run.finish(Result<ExitCode>(ExitCode::failed));
  }
  return run.finish(Result<ExitCode>(ExitCode::ok));
}

} // namespace

std::function<Result<ExitCode>()> add_importer_commands(CLI::App& app, const std::string& program) {
  app.require_subcommand(1);
  auto uri = std::make_shared<std::string>();
  auto container = std::make_shared<std::string>();
  auto query = std::make_shared<LogQuery>();
  const std::string uri_help =
      "docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:...] or a .sqsh path";
  const std::string example_uri = "docker://nvcr.io#nvidia/pytorch:26.06-py3";
  CLI::App* get_command = app.add_subcommand("get", "Print the path of the checked .sqsh of URI");
  get_command->add_option("uri", *uri, uri_help)->required();
  cmdline::set_footer(*get_command, program + " get " + example_uri, k_manual);
  CLI::App* release_command =
      app.add_subcommand("release", "End this job step's use of its images");
  cmdline::set_footer(*release_command, program + " release", k_manual);
  CLI::App* check_command =
      app.add_subcommand("check", "Apply the policy to a job's image before the job (the prolog)");
  check_command->add_option("uri", *uri, uri_help);
  check_command->add_option("--container-name", *container,
                            "The job's --container-name (NAME[:FLAG]), as Pyxis takes it");
  cmdline::set_footer(*check_command, program + " check /local/images/train.sqsh", k_manual);
  CLI::App* fill_command =
      app.add_subcommand("fill", "Put a pinned image in the node's shared cache (as root)");
  fill_command->add_option("uri", *uri, uri_help)->required();
  cmdline::set_footer(*fill_command, program + " fill " + example_uri, k_manual);
  CLI::App* scan_command =
      app.add_subcommand("scan", "Check every pre-distributed .sqsh against its record");
  cmdline::set_footer(*scan_command, program + " scan", k_manual);
  CLI::App* log_command = app.add_subcommand("log", "Which image each job ran: the audit log");
  add_log_options(*log_command, *query);
  cmdline::set_footer(*log_command, program + " log --job 1234", k_manual);
  return [=]() -> Result<ExitCode> {
    if (get_command->parsed()) {
      return run_get(*uri);
    }
    if (release_command->parsed()) {
      return run_release();
    }
    if (check_command->parsed()) {
      return run_check(*uri, *container);
    }
    if (fill_command->parsed()) {
      return run_fill(*uri);
    }
    if (scan_command->parsed()) {
      return run_scan();
    }
    if (log_command->parsed()) {
      return run_log(*query);
    }
    return input_error("importer: a command is required");
  };
}

int importer_main(int argc, char** argv) {
  CLI::App app{"envlock-importer: the Pyxis importer; a checked .sqsh for each job's image",
               "envlock-importer"};
  cmdline::set_up_program(app, "envlock-importer get docker://nvcr.io#nvidia/pytorch:26.06-py3",
                          k_manual);
  const auto runner = add_importer_commands(app, "envlock-importer");
  if (const auto exit_code = cmdline::parse(app, argc, argv)) {
    return *exit_code;
  }
  util::install_interrupt_handlers();
  try {
    Result<ExitCode> result = runner();
    std::cout << std::flush;
    if (!result) {
      std::cerr << "envlock: error: " << result.error().message << "\n";
      return util::exit_after(static_cast<int>(result.error().code), true, "envlock-importer");
    }
    return util::exit_after(static_cast<int>(*result), false, "envlock-importer");
  } catch (const std::exception& e) {
    std::cerr << "envlock: internal error: " << e.what() << "\n";
    return util::exit_after(static_cast<int>(ExitCode::environment), true, "envlock-importer");
  }
}

} // namespace envlock::importer
