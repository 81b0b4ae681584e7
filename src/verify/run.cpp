#include "verify/run.hpp"

#include "lock/lock.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/root_dir.hpp"
#include "util/strings.hpp"
#include "verify/chain.hpp"
#include "verify/gpu/gpu_checks.hpp"
#include "verify/probes/probes.hpp"
#include "verify/probes/python_env.hpp"
#include "verify/report/report.hpp"
#include "verify/resume/checkpoint_load.hpp"
#include "verify/resume/options.hpp"
#include "verify/resume/resume_check.hpp"
#include "verify/run_context.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <ctime>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// The largest lock read (as every JSON file envlock reads).
constexpr std::uintmax_t k_lock_limit = std::uintmax_t{64} << 20;

bool wanted(const VerifyOptions& options, std::string_view group) {
  if (group == "sdc") { // runs for a minute: only when --check names it
    return std::find(options.checks.begin(), options.checks.end(), group) != options.checks.end();
  }
  return options.checks.empty() ||
         std::find(options.checks.begin(), options.checks.end(), group) != options.checks.end();
}

// Whether --check names `group` (not merely: runs every group; the checks that run only when
// named, and the GPU groups --quick leaves out).
bool named(const VerifyOptions& options, std::string_view group) {
  return std::find(options.checks.begin(), options.checks.end(), group) != options.checks.end();
}

Status check_options(const VerifyOptions& options) {
  for (const auto& group : options.checks) {
    const auto& groups = check_groups();
    if (std::find(groups.begin(), groups.end(), group) == groups.end()) {
      std::string message = "--check: unknown check group '" + group + "'";
      if (auto close = util::closest_match(group, groups)) {
        message += "; did you mean '" + *close + "'?";
      }
      return input_error(message + " (accepted: " + util::join(groups, ", ") + ")");
    }
  }
  if (const std::string& inject = options.sdc.inject; !inject.empty()) {
    const auto colon = inject.find(':');
    const auto digits = [](std::string_view text) {
      return !text.empty() && text.size() < 10 &&
             std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (colon == std::string::npos || !digits(std::string_view(inject).substr(0, colon)) ||
        !digits(std::string_view(inject).substr(colon + 1))) {
      return input_error("--inject-bitflip: '" + inject + "' is not GPU:STEP");
    }
  }
  if (!options.sdc.shape.empty() && options.sdc.shape != "small") {
    return input_error("--sdc-shape: '" + options.sdc.shape + "' is not one of small");
  }
  if (!(options.sdc.seconds > 0)) {
    return input_error("--sdc-seconds: must be more than 0");
  }
  if (!options.root.empty()) {
    std::error_code ec;
    if (!fs::is_directory(options.root, ec)) {
      return input_error("--root " + options.root.string() + ": not a folder");
    }
  }
  const bool resume = named(options, "resume");
  const bool load = named(options, "checkpoint-load");
  return check_training_options(options, resume && load ? TrainingChecks::both
                                         : resume       ? TrainingChecks::resume
                                         : load         ? TrainingChecks::checkpoint_load
                                                        : TrainingChecks::none);
}

// The lock: --lock FILE as given, else the default path (inside the root offline, resolved as
// every other path of the image). A regular file of at most the JSON limit only.
Result<lock::Lock> read_checked_lock(const VerifyOptions& options, const fs::path& shown) {
  Result<std::string> text = std::string();
  if (!options.lock_path.empty() || options.root.empty()) {
    text = util::read_regular_file(shown, k_lock_limit);
  } else {
    ENVLOCK_TRY_ASSIGN(const util::RootDir root, util::RootDir::open(options.root));
    text = root.read(k_default_lock, k_lock_limit);
    if (!text && text.error().message.starts_with(k_default_lock)) {
      text.error().message.replace(0, std::string_view(k_default_lock).size(), shown.string());
    }
  }
  if (!text) {
    Error error = std::move(text).error();
    // Nothing at all there (not a link, not a FIFO): the lock was never put in.
    std::error_code ec;
    // (Only the hint depends on this look; what is read was read inside the root above.)
    if (options.lock_path.empty() &&
        fs::symlink_status(shown, ec).type() == fs::file_type::not_found) {
      // The default: the image's own lock, which `render --with-verifier` puts there.
      error.message += options.root.empty()
                           ? "; outside an image built with --with-verifier, pass --lock FILE"
                           : "; the image was not built with --with-verifier: pass --lock FILE";
    }
    return error;
  }
  ENVLOCK_TRY_ASSIGN(const nlohmann::json json, util::parse_json(*text, shown.string()));
  return lock::from_json(json, shown.string());
}

// Whether a GPU group that --quick leaves out runs: --quick runs it only when --check names it.
Planned planned(const VerifyOptions& options, std::string_view group) {
  if (!wanted(options, group)) {
    return Planned::off;
  }
  return options.quick && !named(options, group) ? Planned::skip_quick : Planned::run;
}

// Runs a probe. Each result without a group gets `group`; each gets the probe's wall time (one
// probe's checks are found together).
void run_probe(std::vector<CheckResult>& out, std::string_view group,
               const std::function<std::vector<CheckResult>()>& probe) {
  const auto start = Clock::now();
  auto results = probe();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (auto& result : results) {
    if (result.group.empty()) {
      result.group = group;
    }
    result.seconds = seconds;
    out.push_back(std::move(result));
  }
}

// A signal one thread gives (once: later calls do nothing) and others wait for. It gives itself
// when it goes, so that no thread waits for it forever when the giver ends early.
class OnceSignal {
public:
  OnceSignal() = default;
  OnceSignal(const OnceSignal&) = delete;
  OnceSignal& operator=(const OnceSignal&) = delete;
  OnceSignal(OnceSignal&&) = delete;
  OnceSignal& operator=(OnceSignal&&) = delete;
  ~OnceSignal() { give(); }
  void give() {
    std::call_once(m_once, [this]() { m_promise.set_value(); });
  }
  [[nodiscard]] std::shared_future<void> future() const { return m_future; }

private:
  std::once_flag m_once;
  std::promise<void> m_promise;
  std::shared_future<void> m_future = m_promise.get_future().share();
};

// The GPU checks; their measurements wait for `host_done`; `libraries_loaded` is called once the
// set-up has loaded cuBLASLt and NCCL. Each check keeps its own time.
std::vector<CheckResult> gpu_results(const RunContext& context, const lock::Lock& lock,
                                     const std::vector<int>& devices,
                                     std::vector<std::filesystem::path> site_packages,
                                     std::shared_future<void> host_done,
                                     std::function<void()> libraries_loaded) {
  const auto& options = context.options();
  if (context.mode() == Mode::offline) {
    const std::string reason = "offline mode (--root): GPU checks need a running node";
    std::vector<CheckResult> checks = {skipped("gpu.count", "GPU count", "", reason),
                                       skipped("gpu.model", "GPU model", "", reason),
                                       skipped("nccl.allreduce", "NCCL all-reduce", "", reason)};
    checks[2].group = "allreduce";
    return checks;
  }
  GpuOptions gpu;
  gpu.no_gpu = options.no_gpu;
  gpu.devices = devices;
  gpu.quick = options.quick;
  gpu.smoke = wanted(options, "smoke");
  gpu.gemm = wanted(options, "gemm");
  gpu.links = planned(options, "links");
  gpu.allreduce = planned(options, "allreduce");
  gpu.sdc.run = wanted(options, "sdc");
  gpu.sdc.seconds = options.sdc.seconds;
  gpu.sdc.steps = options.sdc.steps;
  gpu.sdc.shape = options.sdc.shape == "small" ? SdcShape::small : SdcShape::full;
  if (gpu.sdc.run && !options.no_gpu) {
    if (!options.open_gpu_sampler) {
      gpu.sdc.sampler_problem = "this program reads no NVML";
    } else if (auto sampler = options.open_gpu_sampler()) {
      gpu.sdc.sampler = std::move(*sampler);
    } else {
      gpu.sdc.sampler_problem = sampler.error().message;
    }
  }
  if (!options.sdc.inject.empty()) {
    const auto colon = options.sdc.inject.find(':');
    gpu.sdc.inject.emplace(std::stoi(options.sdc.inject.substr(0, colon)),
                           std::stoull(options.sdc.inject.substr(colon + 1)));
  }
  gpu.site_packages = std::move(site_packages);
  gpu.measure_after = std::move(host_done);
  gpu.libraries_loaded = std::move(libraries_loaded);
  return run_gpu_checks(lock, gpu);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  if (std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
    return {};
  }
  return text;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) {
    return {};
  }
  return name;
}

} // namespace

Result<std::vector<int>> parse_devices(std::string_view text) {
  std::vector<int> out;
  if (util::trim(text).empty()) {
    return out;
  }
  for (const auto& raw : util::split(text, ',')) {
    const std::string_view item = util::trim(raw);
    int value = -1;
    const auto* end = item.data() + item.size();
    if (item.empty() || std::from_chars(item.data(), end, value).ptr != end || value < 0) {
      return input_error("--devices: '" + std::string(item) + "' is not a GPU index");
    }
    out.push_back(value);
  }
  return out;
}

Result<Report> run_verification(const VerifyOptions& options) {
  const auto start = Clock::now();
  ENVLOCK_TRY(check_options(options));
  ENVLOCK_TRY_ASSIGN(const auto devices, parse_devices(options.devices));
  fs::path lock_path = options.lock_path;
  if (lock_path.empty()) {
    lock_path = options.root.empty() ? fs::path(k_default_lock)
                                     : options.root / fs::path(k_default_lock).relative_path();
  }
  ENVLOCK_TRY_ASSIGN(const lock::Lock lock, read_checked_lock(options, lock_path));
  ENVLOCK_TRY_ASSIGN(const RunContext context, RunContext::create(lock, options));

  Report report;
  report.tool_version = ENVLOCK_VERSION;
  report.mode = context.mode() == Mode::live ? "live" : "offline";
  report.lock_sha256 = lock::lock_sha256(lock);
  report.run = {utc_now(), host_name(), lock_path.string(), options.root.string(), 0};
  ENVLOCK_TRY_ASSIGN(ChainLinks chain, find_chain_links(options));
  report.image_digest = chain.image_digest;
  report.sqsh_sha256 = chain.sqsh_sha256;
  report.details["chain"] = std::move(chain.details);
  const PythonEnvironment& env = context.python();
  report.details["environment"] = environment_json(context, env);
  report.notes.push_back(describe_environment(context, env));
  for (const auto& warning : context.warnings()) {
    report.notes.push_back("warning: " + warning);
  }
  for (const auto& warning : env.warnings) {
    report.notes.push_back("warning: " + warning);
  }
  report.notes.push_back("lock sha256 " + report.lock_sha256 + ", image " +
                         report.image_digest.value_or("not given") + ", .sqsh sha256 " +
                         report.sqsh_sha256.value_or("not given"));

  // The GPU checks run on a thread of their own while the host checks run here; their
  // measurements wait until the host checks are done (docs/manual/verify.md, "Order of a run").
  std::vector<CheckResult> host;
  std::vector<CheckResult> gpu;
  {
    // Declared first, so that host_done (given when it goes) lets it finish before it is joined.
    std::future<std::vector<CheckResult>> gpu_run;
    OnceSignal host_done;
    // The host checks load libraries too (libcudart, NCCL, cuDNN): they start once the set-up has
    // loaded its own, rather than wait behind it on the dynamic linker with their clocks running.
    // The GPU thread gives the signal then, or when it ends, whichever comes first.
    auto loaded = std::make_shared<OnceSignal>();
    if (wanted(options, "gpu") || wanted(options, "smoke") || wanted(options, "gemm") ||
        wanted(options, "links") || wanted(options, "allreduce") || wanted(options, "sdc")) {
      std::vector<fs::path> sites = env.sites;
      sites.insert(sites.end(), env.inherited_sites.begin(), env.inherited_sites.end());
      gpu_run = std::async(std::launch::async, [&, loaded, sites = std::move(sites)]() mutable {
        struct GiveAtEnd {
          std::shared_ptr<OnceSignal> signal;
          ~GiveAtEnd() { signal->give(); }
        } const at_end{loaded};
        return gpu_results(context, lock, devices, std::move(sites), host_done.future(),
                           [loaded]() { loaded->give(); });
      });
    } else {
      loaded->give();
    }
    loaded->future().wait();
    const std::vector<std::pair<const char*, std::vector<CheckResult> (*)(const RunContext&)>>
        probes = {{"cuda", probe_cuda},         {"nccl", probe_nccl},
                  {"torch", probe_torch},       {"packages", probe_packages},
                  {"megatron", probe_megatron}, {"image", probe_image}};
    for (const auto& [group, probe] : probes) {
      if (wanted(options, group)) {
        run_probe(host, group, [&, probe = probe] { return probe(context); });
      }
    }
    host_done.give();
    if (gpu_run.valid()) {
      gpu = gpu_run.get();
      for (auto& result : gpu) {
        if (result.group.empty()) {
          result.group = "gpu";
        }
      }
      if (wanted(options, "gpu")) {
        run_probe(gpu, "gpu",
                  [&] { return std::vector<CheckResult>{compare_host_gpus(context, gpu)}; });
      }
    }
  }
  auto& checks = report.checks;
  for (const auto& result : gpu) {
    if (result.group == "gpu" && wanted(options, "gpu")) {
      checks.push_back(result);
    }
  }
  checks.insert(checks.end(), host.begin(), host.end());
  for (const auto& result : gpu) {
    if (result.group != "gpu" && wanted(options, result.group)) {
      checks.push_back(result);
    }
  }
  // The resume and checkpoint-load checks train for minutes: they run only when --check names
  // them. Like every probe, one that cannot run is a failed check with the reason; each check
  // keeps its own time (the runs it timed).
  const std::pair<const char*, std::vector<CheckResult> (*)(const RunContext&)> training[] = {
      {"resume", run_resume_check}, {"checkpoint-load", run_checkpoint_load_check}};
  for (const auto& [group, check_group] : training) {
    if (named(options, group)) {
      for (auto& check : check_group(context)) {
        check.group = group;
        checks.push_back(std::move(check));
      }
    }
  }
  for (const auto& check : checks) {
    if (check.id == "gpu.count" && check.details.contains("uuids") &&
        check.details["uuids"].is_array()) {
      for (const auto& uuid : check.details["uuids"]) {
        if (uuid.is_string()) {
          report.gpu_uuids.push_back(uuid.get<std::string>());
        }
      }
    }
  }
  report.run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  escape_invalid_utf8(report);
  return report;
}

} // namespace envlock::verify
