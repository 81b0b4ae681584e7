#include "verify/gpu/allreduce.hpp"

#include "verify/gpu/cuda_raii.hpp"
#include "verify/gpu/figures.hpp"
#include "verify/gpu/known_answer.hpp"
#include "verify/gpu/timer.hpp"

#include <algorithm>

namespace envlock::verify {

namespace {

constexpr std::size_t k_check_floats = std::size_t{1} << 20;

// Per-GPU state: its context, stream, buffers and communicator.
struct Rank {
  cuda::PrimaryContext context;
  cuda::Stream stream;
  cuda::DeviceBuffer send;
  cuda::DeviceBuffer recv;
};

Result<std::vector<Rank>> open_ranks(const cuda::Api& api, const std::vector<DeviceInfo>& devices,
                                     std::size_t bytes) {
  std::vector<Rank> ranks;
  ranks.reserve(devices.size());
  for (const auto& device : devices) {
    ENVLOCK_TRY_ASSIGN(auto context, cuda::PrimaryContext::open(api, device.device));
    ENVLOCK_TRY_ASSIGN(auto stream, cuda::Stream::create(api));
    ENVLOCK_TRY_ASSIGN(auto send, cuda::DeviceBuffer::allocate(api, bytes));
    ENVLOCK_TRY_ASSIGN(auto recv, cuda::DeviceBuffer::allocate(api, bytes));
    ranks.push_back(Rank{std::move(context), std::move(stream), std::move(send), std::move(recv)});
  }
  return ranks;
}

// Enqueues one all-reduce of `count` floats on every rank, as one group.
Status all_reduce(const nccl::Api& nccl, const nccl::Communicators& comms,
                  const std::vector<Rank>& ranks, std::size_t count) {
  ENVLOCK_TRY(nccl::check(nccl, nccl.group_start(), "ncclGroupStart"));
  Status first;
  for (std::size_t r = 0; r < ranks.size() && first; ++r) {
    first = nccl::check(nccl,
                        nccl.all_reduce(ranks[r].send.address(), ranks[r].recv.address(), count,
                                        nccl::k_float32, nccl::k_sum, comms.at(r),
                                        ranks[r].stream.get()),
                        "ncclAllReduce");
  }
  ENVLOCK_TRY(nccl::check(nccl, nccl.group_end(), "ncclGroupEnd"));
  return first;
}

Status synchronize(const cuda::Api& api, const std::vector<Rank>& ranks) {
  for (const auto& rank : ranks) {
    ENVLOCK_TRY(rank.context.make_current());
    ENVLOCK_TRY(cuda::check(api, api.stream_synchronize(rank.stream.get()), "cuStreamSynchronize"));
  }
  return {};
}

// GPU k sends k + 1; every GPU must read N(N+1)/2 in every element.
Status known_answer(const cuda::Api& api, const nccl::Api& nccl, const nccl::Communicators& comms,
                    const std::vector<Rank>& ranks, CheckResult& check) {
  const auto n = static_cast<float>(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    ENVLOCK_TRY(ranks[r].context.make_current());
    const auto bits = known::float_bits(static_cast<float>(r + 1));
    // On the rank's stream: the all-reduce's non-blocking stream does not wait for the legacy one.
    ENVLOCK_TRY(cuda::check(
        api, api.memset_d32_async(ranks[r].send.ptr(), bits, k_check_floats, ranks[r].stream.get()),
        "cuMemsetD32Async"));
  }
  ENVLOCK_TRY(all_reduce(nccl, comms, ranks, k_check_floats));
  ENVLOCK_TRY(synchronize(api, ranks));
  const float expected = n * (n + 1) / 2;
  check.expected = std::to_string(static_cast<int>(expected)) + " on every GPU";
  std::vector<float> found(k_check_floats);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    ENVLOCK_TRY(ranks[r].context.make_current());
    ENVLOCK_TRY(cuda::check(
        api, api.memcpy_dtoh(found.data(), ranks[r].recv.ptr(), found.size() * sizeof(float)),
        "cuMemcpyDtoH"));
    const Mismatches wrong = allreduce_mismatches(found, expected);
    if (wrong.count > 0) {
      check.outcome = Outcome::fail;
      check.found = "GPU " + std::to_string(r) + " read " + std::to_string(found[wrong.first]);
      check.reason = std::to_string(wrong.count) + " wrong elements on GPU " + std::to_string(r);
      return {};
    }
  }
  check.found = check.expected;
  check.outcome = Outcome::pass;
  return {};
}

// Seconds per all-reduce of `bytes`: the slowest rank's event time.
Result<double> time_size(const cuda::Api& api, const nccl::Api& nccl,
                         const nccl::Communicators& comms, const std::vector<Rank>& ranks,
                         std::uint64_t bytes) {
  const std::size_t count = bytes / sizeof(float);
  for (int i = 0; i < k_warmup_runs; ++i) {
    ENVLOCK_TRY(all_reduce(nccl, comms, ranks, count));
  }
  std::vector<cuda::Event> starts;
  std::vector<cuda::Event> stops;
  for (const auto& rank : ranks) {
    ENVLOCK_TRY(rank.context.make_current());
    ENVLOCK_TRY_ASSIGN(auto start, cuda::Event::create(api));
    ENVLOCK_TRY_ASSIGN(auto stop, cuda::Event::create(api));
    ENVLOCK_TRY(
        cuda::check(api, api.event_record(start.get(), rank.stream.get()), "cuEventRecord"));
    starts.push_back(std::move(start));
    stops.push_back(std::move(stop));
  }
  for (int i = 0; i < k_timed_runs; ++i) {
    ENVLOCK_TRY(all_reduce(nccl, comms, ranks, count));
  }
  double slowest = 0;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    ENVLOCK_TRY(ranks[r].context.make_current());
    ENVLOCK_TRY(
        cuda::check(api, api.event_record(stops[r].get(), ranks[r].stream.get()), "cuEventRecord"));
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    ENVLOCK_TRY(ranks[r].context.make_current());
    ENVLOCK_TRY_ASSIGN(double seconds, cuda::elapsed_seconds(api, starts[r], stops[r]));
    slowest = std::max(slowest, seconds);
  }
  return slowest / k_timed_runs;
}

Status sweep(const cuda::Api& api, const nccl::Api& nccl, const nccl::Communicators& comms,
             const std::vector<Rank>& ranks, const std::vector<std::uint64_t>& sizes,
             CheckResult& check, double& last_busbw) {
  nlohmann::json rows = nlohmann::json::array();
  const int n = static_cast<int>(ranks.size());
  for (const std::uint64_t bytes : sizes) {
    ENVLOCK_TRY_ASSIGN(double seconds, time_size(api, nccl, comms, ranks, bytes));
    const double algbw = gbps(static_cast<double>(bytes), seconds);
    last_busbw = allreduce_busbw(algbw, n);
    const std::string label = size_label(bytes);
    check.figures.push_back({"time_" + label, seconds * 1e6, "us"});
    check.figures.push_back({"algbw_" + label, algbw, "GB/s"});
    check.figures.push_back({"busbw_" + label, last_busbw, "GB/s"});
    rows.push_back({{"bytes", bytes},
                    {"time_us", seconds * 1e6},
                    {"algbw_gbps", algbw},
                    {"busbw_gbps", last_busbw}});
  }
  check.details["sweep"] = rows;
  return {};
}

} // namespace

Result<CheckResult> allreduce_known_answer(const cuda::Api& api, const nccl::Library& nccl,
                                           const nccl::Communicators& comms,
                                           const std::vector<DeviceInfo>& devices) {
  CheckResult check = new_run_check("nccl.allreduce");
  ENVLOCK_TRY_ASSIGN(const auto ranks, open_ranks(api, devices, k_check_floats * sizeof(float)));
  ENVLOCK_TRY(known_answer(api, nccl.api, comms, ranks, check));
  return check;
}

std::vector<CheckResult> allreduce_checks(const cuda::Api& api, const lock::Lock& lock,
                                          const std::vector<DeviceInfo>& devices, NcclSetup& setup,
                                          const GpuOptions& options) {
  CheckResult correct = new_run_check("nccl.allreduce");
  CheckResult busbw = new_run_check("nccl.busbw");
  const auto fail_both = [&](const std::string& reason) {
    for (CheckResult* check : {&correct, &busbw}) {
      check->outcome = Outcome::fail;
      check->reason = reason;
    }
    return std::vector<CheckResult>{correct, busbw};
  };
  const auto with_setup = [&]() {
    correct.seconds = setup.load_seconds + setup.init_seconds + setup.known_answer_seconds;
    correct.details["setup"] = {{"library_load_seconds", setup.load_seconds},
                                {"comm_init_seconds", setup.init_seconds},
                                {"known_answer_seconds", setup.known_answer_seconds}};
  };
  with_setup();
  if (!setup.library) {
    return fail_both(setup.library.error().message);
  }
  const nccl::Library& nccl = *setup.library;
  if (!setup.comms) {
    return fail_both(setup.comms.error().message);
  }
  if (!setup.known_answer) {
    return fail_both(setup.known_answer.error().message);
  }
  correct = std::move(*setup.known_answer);
  with_setup();
  for (CheckResult* check : {&correct, &busbw}) {
    check->details["library"] = nccl.path;
    check->details["version"] = nccl.version;
    check->details["ranks"] = devices.size();
  }
  const nccl::Communicators& comms = *setup.comms;
  Stopwatch watch;
  const auto sizes = sweep_sizes(options.sweep_min, options.sweep_max);
  const std::uint64_t largest = sizes.empty() ? k_check_floats * 4 : sizes.back();
  auto ranks = open_ranks(api, devices, largest);
  double last_busbw = 0;
  Status swept =
      ranks ? sweep(api, nccl.api, comms, *ranks, sizes, busbw, last_busbw) : Status{ranks.error()};
  if (!swept) {
    busbw.outcome = Outcome::fail;
    busbw.reason = swept.error().message;
  } else {
    judge_busbw(lock.expect, devices.front().name, static_cast<int>(devices.size()), largest,
                last_busbw, busbw);
  }
  busbw.seconds = watch.lap();
  return {correct, busbw};
}

} // namespace envlock::verify
