#include "verify/gpu/sdc.hpp"

#include "formats/sdc.hpp"
#include "util/sha256.hpp"
#include "verify/gpu/cuda_raii.hpp"
#include "verify/gpu/figures.hpp"
#include "verify/gpu/timer.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

namespace envlock::verify {

namespace {

constexpr std::size_t k_chain_workspace = std::size_t{32} << 20;
constexpr std::uint32_t k_chain_seed_a = 0x5DC1;
constexpr std::uint32_t k_chain_seed_x = 0x5DC2;
constexpr double k_quick_seconds = 1.5;
constexpr auto k_sample_every = std::chrono::milliseconds(200);
constexpr std::size_t k_digest_slice = std::size_t{4} << 20;
constexpr std::size_t k_digest_threads = 8;

std::string chain_prefix(const DeviceInfo& device) {
  return "gpu." + std::to_string(device.ordinal) + ".";
}

Status fill_chain(const cuda::Api& api, const SmokeKernels& kernels,
                  const cuda::DeviceBuffer& buffer, std::uint32_t seed, cuda::CuStream stream) {
  std::uint64_t elements = buffer.bytes() / 2;
  cuda::CuDevicePtr ptr = buffer.ptr();
  const auto grid = static_cast<unsigned>((elements + k_block_threads - 1) / k_block_threads);
  return launch(api, kernels.fill_bf16, grid, k_block_threads, stream, {&ptr, &seed, &elements});
}

Status fold(const cuda::Api& api, const SmokeKernels& kernels, const cuda::DeviceBuffer& d,
            const cuda::DeviceBuffer& x, cuda::CuStream stream) {
  std::uint64_t elements = x.bytes() / 2;
  cuda::CuDevicePtr from = d.ptr();
  cuda::CuDevicePtr to = x.ptr();
  const std::uint64_t threads = elements / 4;
  const auto grid = static_cast<unsigned>((threads + k_block_threads - 1) / k_block_threads);
  return launch(api, kernels.sdc_fold, grid, k_block_threads, stream, {&from, &to, &elements});
}

// Flips the lowest mantissa bit of the first normal element among the first 64 of `x` (the
// test-only --inject-bitflip), after the stream's work so far.
Status flip_bit(const cuda::Api& api, const cuda::DeviceBuffer& x, cuda::CuStream stream) {
  ENVLOCK_TRY(cuda::check(api, api.stream_synchronize(stream), "cuStreamSynchronize"));
  std::array<std::uint16_t, 64> head{};
  ENVLOCK_TRY(cuda::check(api, api.memcpy_dtoh(head.data(), x.ptr(), sizeof head), "cuMemcpyDtoH"));
  std::size_t index = 0;
  while (index + 1 < head.size() && (head[index] & 0x7F80U) == 0) {
    ++index;
  }
  head[index] ^= 1U;
  return cuda::check(api, api.memcpy_htod(x.ptr() + 2 * index, &head[index], sizeof head[index]),
                     "cuMemcpyHtoD");
}

// The digest of a chain state: SHA-256 over the SHA-256 digests of its 4 MiB slices in order,
// the slices hashed by up to 8 threads (a state of 128 MiB in a fraction of a second).
std::string slice_digest(const std::uint8_t* data, std::size_t bytes) {
  const std::size_t slices = (bytes + k_digest_slice - 1) / k_digest_slice;
  std::vector<util::Sha256Bytes> digests(slices);
  const std::size_t workers = std::min<std::size_t>(slices, k_digest_threads);
  {
    std::vector<std::jthread> threads;
    for (std::size_t worker = 0; worker < workers; ++worker) {
      threads.emplace_back([&, worker]() {
        for (std::size_t i = worker; i < slices; i += workers) {
          util::Sha256 sha;
          const std::size_t from = i * k_digest_slice;
          sha.update(data + from, std::min(k_digest_slice, bytes - from));
          digests[i] = sha.finish();
        }
      });
    }
  }
  util::Sha256 all;
  for (const auto& digest : digests) {
    all.update(digest.data(), digest.size());
  }
  return all.finish_hex();
}

// What the sampler saw while the chain ran.
struct Seen {
  std::size_t samples = 0;
  int temperature_min = -1;
  int temperature_max = -1;
  unsigned clock_min = 0;
  unsigned clock_max = 0;
  std::uint64_t reasons = 0;
  std::size_t slowdown_samples = 0;
  std::string error;
};

// Samples one GPU on a thread of its own until stopped.
class Sampling {
public:
  Sampling(GpuSampler* sampler, std::string uuid) : m_sampler(sampler), m_uuid(std::move(uuid)) {
    if (m_sampler != nullptr) {
      m_thread = std::jthread([this](const std::stop_token& stop) { loop(stop); });
    }
  }
  Seen stop() {
    if (m_thread.joinable()) {
      m_thread.request_stop();
      m_thread.join();
    }
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_seen;
  }

private:
  void loop(const std::stop_token& stop) {
    while (!stop.stop_requested()) {
      auto sample = m_sampler->sample(m_uuid);
      {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (!sample) {
          m_seen.error = sample.error().message;
          return;
        }
        add(*sample);
      }
      std::this_thread::sleep_for(k_sample_every);
    }
  }
  void add(const GpuSample& sample) {
    ++m_seen.samples;
    if (sample.temperature_c >= 0) {
      m_seen.temperature_min = m_seen.temperature_min < 0
                                   ? sample.temperature_c
                                   : std::min(m_seen.temperature_min, sample.temperature_c);
      m_seen.temperature_max = std::max(m_seen.temperature_max, sample.temperature_c);
    }
    if (sample.sm_clock_mhz > 0) {
      m_seen.clock_min = m_seen.clock_min == 0 ? sample.sm_clock_mhz
                                               : std::min(m_seen.clock_min, sample.sm_clock_mhz);
      m_seen.clock_max = std::max(m_seen.clock_max, sample.sm_clock_mhz);
    }
    m_seen.reasons |= sample.event_reasons;
    if ((sample.event_reasons & k_slowdown_reasons) != 0) {
      ++m_seen.slowdown_samples;
    }
  }

  GpuSampler* m_sampler;
  std::string m_uuid;
  std::mutex m_mutex;
  Seen m_seen;
  std::jthread m_thread;
};

void fill_clocks(const Seen& seen, const SdcOptions& options, CheckResult& clocks) {
  if (options.sampler == nullptr) {
    clocks.outcome = Outcome::skip;
    clocks.reason = "not sampled: " + (options.sampler_problem.empty() ? std::string("no NVML")
                                                                       : options.sampler_problem);
    return;
  }
  if (seen.samples == 0) {
    clocks.outcome = Outcome::skip;
    clocks.reason = "not sampled: " + (seen.error.empty() ? std::string("no sample") : seen.error);
    return;
  }
  nlohmann::json reasons = nlohmann::json::array();
  for (const auto& name : clock_event_names(seen.reasons)) {
    reasons.push_back(name);
  }
  clocks.details["samples"] = seen.samples;
  clocks.details["clock_event_reasons"] = reasons;
  clocks.details["slowdown_samples"] = seen.slowdown_samples;
  clocks.figures.push_back({"temperature_max", static_cast<double>(seen.temperature_max), "C"});
  clocks.figures.push_back({"sm_clock_min", static_cast<double>(seen.clock_min), "MHz"});
  clocks.figures.push_back({"sm_clock_max", static_cast<double>(seen.clock_max), "MHz"});
  clocks.expected = "no thermal or power slowdown under load";
  clocks.found = std::to_string(seen.temperature_min) + "-" + std::to_string(seen.temperature_max) +
                 " C, SM " + std::to_string(seen.clock_min) + "-" + std::to_string(seen.clock_max) +
                 " MHz";
  clocks.outcome = Outcome::pass;
  const auto slowdown = clock_event_names(seen.reasons & k_slowdown_reasons);
  if (!slowdown.empty()) {
    std::string names;
    for (const auto& name : slowdown) {
      names += (names.empty() ? "" : ", ") + name;
    }
    clocks.outcome = Outcome::fail;
    clocks.details["finding"] = "sdc.gpu.slowdown";
    clocks.details["action"] = "check the GPU's cooling and power; drain the node until fixed";
    clocks.reason = "sdc.gpu.slowdown: " + names + " in " + std::to_string(seen.slowdown_samples) +
                    " of " + std::to_string(seen.samples) + " samples under load";
  } else if ((seen.reasons & 0x4U) != 0) {
    clocks.reason = "warning: sw_power_cap under load (the GPU ran at its power limit)";
  }
}

} // namespace

ChainShape chain_shape(SdcShape shape) {
  if (shape == SdcShape::small) {
    return {64, 32, 4, "bf16-64x64x32-fold/v1"};
  }
  return {16384, 4096, 256, "bf16-16384x16384x4096-fold/v1"};
}

std::vector<CheckResult> new_sdc_checks(const DeviceInfo& device) {
  const std::string gpu = "GPU " + std::to_string(device.ordinal);
  return {new_check("sdc", chain_prefix(device) + "sdc", gpu + " SDC chain digests"),
          new_check("sdc", chain_prefix(device) + "clocks", gpu + " clocks under load")};
}

Status run_sdc(const cuda::Api& api, const SmokeKernels& kernels, const blaslt::Library& blas,
               const blaslt::Handle& handle, const DeviceInfo& device, const SdcOptions& options,
               bool quick, CheckResult& chain, CheckResult& clocks) {
  const ChainShape shape = chain_shape(options.shape);
  const std::size_t x_bytes = shape.m * shape.n * 2;
  ENVLOCK_TRY_ASSIGN(auto stream, cuda::Stream::create(api));
  ENVLOCK_TRY_ASSIGN(auto a, cuda::DeviceBuffer::allocate(api, shape.m * shape.m * 2));
  std::array<cuda::DeviceBuffer, 2> x;
  ENVLOCK_TRY_ASSIGN(x[0], cuda::DeviceBuffer::allocate(api, x_bytes));
  ENVLOCK_TRY_ASSIGN(x[1], cuda::DeviceBuffer::allocate(api, x_bytes));
  ENVLOCK_TRY_ASSIGN(auto d, cuda::DeviceBuffer::allocate(api, shape.m * shape.n * 4));
  ENVLOCK_TRY_ASSIGN(auto workspace, cuda::DeviceBuffer::allocate(api, k_chain_workspace));
  ENVLOCK_TRY_ASSIGN(auto gemm, blaslt::Gemm::plan(blas.api, handle, shape.m, shape.n, shape.m,
                                                   k_chain_workspace, blaslt::Output::fp32,
                                                   blaslt::Reduction::none));
  ENVLOCK_TRY_ASSIGN(const auto config, gemm.config());
  std::vector<cuda::HostBuffer> host;
  for (int i = 0; i < 2; ++i) {
    ENVLOCK_TRY_ASSIGN(auto buffer, cuda::HostBuffer::allocate(api, x_bytes));
    host.push_back(std::move(buffer));
  }
  std::vector<cuda::Event> done;
  for (int i = 0; i < 4; ++i) {
    ENVLOCK_TRY_ASSIGN(auto event, cuda::Event::create(api));
    done.push_back(std::move(event));
  }
  const cuda::Event& start = done[2];
  const cuda::Event& end = done[3];
  const cuda::CuStream s = stream.get();

  // The chain's state is x[current]; one step writes the other buffer.
  std::size_t current = 0;
  std::uint64_t step = 0;
  const auto restart = [&]() -> Status {
    current = 0;
    step = 0;
    return fill_chain(api, kernels, x[0], k_chain_seed_x, s);
  };
  const auto run_steps = [&](std::uint64_t count, bool inject) -> Status {
    for (std::uint64_t i = 0; i < count; ++i) {
      ENVLOCK_TRY(gemm.run(a.address(), x[current].address(), d.address(), workspace.address(), s));
      ENVLOCK_TRY(fold(api, kernels, d, x[1 - current], s));
      current = 1 - current;
      ++step;
      if (inject && options.inject && options.inject->first == device.ordinal &&
          options.inject->second == step) {
        ENVLOCK_TRY(flip_bit(api, x[current], s));
      }
    }
    return {};
  };
  const auto copy_out = [&](std::size_t slot) -> Status {
    ENVLOCK_TRY(cuda::check(api,
                            api.memcpy_dtoh_async(host[slot].get(), x[current].ptr(), x_bytes, s),
                            "cuMemcpyDtoHAsync"));
    return cuda::check(api, api.event_record(done[slot].get(), s), "cuEventRecord");
  };
  const auto digest = [&](std::size_t slot) -> Result<std::string> {
    ENVLOCK_TRY(cuda::check(api, api.event_synchronize(done[slot].get()), "cuEventSynchronize"));
    return slice_digest(static_cast<const std::uint8_t*>(host[slot].get()), x_bytes);
  };

  ENVLOCK_TRY(fill_chain(api, kernels, a, k_chain_seed_a, s));
  ENVLOCK_TRY(restart());
  ENVLOCK_TRY(cuda::check(api, api.stream_synchronize(s), "cuStreamSynchronize"));

  GpuIdentity identity;
  if (options.sampler != nullptr) {
    if (auto found = options.sampler->identity(device.uuid)) {
      identity = std::move(*found);
    }
  }
  const double budget = quick ? k_quick_seconds : options.seconds;
  const std::uint64_t target =
      options.steps == 0 ? 0 : (options.steps + shape.every - 1) / shape.every * shape.every;
  std::vector<std::pair<std::uint64_t, std::string>> checkpoints;
  Sampling sampling(options.sampler.get(), device.uuid);
  Stopwatch wall;
  double elapsed = 0;
  ENVLOCK_TRY(cuda::check(api, api.event_record(start.get(), s), "cuEventRecord"));
  std::optional<std::pair<std::size_t, std::uint64_t>> pending; // slot, step
  for (std::size_t segment = 0;; ++segment) {
    ENVLOCK_TRY(run_steps(shape.every, true));
    const std::size_t slot = segment % 2;
    ENVLOCK_TRY(copy_out(slot));
    bool more = true;
    if (pending) {
      ENVLOCK_TRY_ASSIGN(auto sha, digest(pending->first));
      checkpoints.emplace_back(pending->second, std::move(sha));
      elapsed += wall.lap();
      const double per_segment = elapsed / static_cast<double>(segment);
      more = target == 0 ? elapsed + 2 * per_segment <= budget : step < target;
    } else {
      more = target == 0 || step < target;
    }
    pending.emplace(slot, step);
    if (!more) {
      break;
    }
  }
  ENVLOCK_TRY(cuda::check(api, api.event_record(end.get(), s), "cuEventRecord"));
  ENVLOCK_TRY_ASSIGN(auto last, digest(pending->first));
  checkpoints.emplace_back(pending->second, last);
  ENVLOCK_TRY_ASSIGN(const double gpu_seconds, cuda::elapsed_seconds(api, start, end));
  const Seen seen = sampling.stop();
  const std::uint64_t steps = step;

  // The chain's first segment again, from the start: does it repeat on this GPU?
  ENVLOCK_TRY(restart());
  ENVLOCK_TRY(run_steps(shape.every, false));
  ENVLOCK_TRY(copy_out(0));
  ENVLOCK_TRY_ASSIGN(const auto repeat, digest(0));
  const bool repeated = repeat == checkpoints.front().second;

  const double flops = 2.0 * static_cast<double>(shape.m * shape.m * shape.n);
  const double tflops =
      gpu_seconds > 0 ? flops * static_cast<double>(steps) / gpu_seconds / 1e12 : 0;
  chain.figures.push_back({"sdc_bf16", tflops, "TFLOP/s"});
  chain.figures.push_back({"sdc_chain_seconds", gpu_seconds, "s"});
  formats::SdcDigests record;
  record.chain = shape.id;
  record.uuid = device.uuid;
  record.name = device.name;
  record.serial = identity.serial;
  record.driver_version = identity.driver_version;
  record.cuda_driver_api = options.driver_api_version;
  record.cublaslt_version = blas.version;
  record.algo = {config.id,      config.tile,   config.splitk, config.reduction,
                 config.swizzle, config.custom, config.stages};
  record.steps = steps;
  record.every = shape.every;
  record.digests = checkpoints;
  record.repeated = repeated;
  record.repeat_sha256 = repeat;
  if (options.inject && options.inject->first == device.ordinal) {
    record.injected_bitflip_step = options.inject->second;
  }
  chain.details = formats::to_json(record);
  chain.expected = "the chain repeats on this GPU";
  chain.found = std::to_string(steps) + " steps, " + std::to_string(checkpoints.size()) +
                " digests, " +
                std::to_string(static_cast<long long>(std::lround(tflops))) + // NOLINT
                " TFLOP/s";
  chain.outcome = Outcome::pass;
  if (!repeated) {
    chain.reason = "warning: the chain's first " + std::to_string(shape.every) +
                   " steps gave another digest when run again on this GPU; its digests are left "
                   "out of the comparisons";
  }
  fill_clocks(seen, options, clocks);
  return {};
}

std::vector<std::string> clock_event_names(std::uint64_t reasons) {
  static const std::array<const char*, 9> names = {"gpu_idle",
                                                   "applications_clocks_setting",
                                                   "sw_power_cap",
                                                   "hw_slowdown",
                                                   "sync_boost",
                                                   "sw_thermal_slowdown",
                                                   "hw_thermal_slowdown",
                                                   "hw_power_brake_slowdown",
                                                   "display_clock_setting"};
  std::vector<std::string> out;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if ((reasons >> bit & 1U) != 0) {
      out.emplace_back(bit < names.size() ? names[bit] : "bit_" + std::to_string(bit));
    }
  }
  return out;
}

} // namespace envlock::verify
