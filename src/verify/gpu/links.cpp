#include "verify/gpu/links.hpp"

#include "util/cpu_affinity.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "verify/gpu/cuda_raii.hpp"
#include "verify/gpu/figures.hpp"
#include "verify/gpu/link_verdict.hpp"
#include "verify/gpu/timer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace envlock::verify {

namespace {

constexpr std::uint32_t k_host_pattern = 0x5A5A5A5AU;
constexpr std::uintmax_t k_cpulist_limit = 4096;

// What each GPU's buffer holds between copies.
std::uint32_t device_pattern(const DeviceInfo& device) {
  return 0x3F800000U + static_cast<std::uint32_t>(device.ordinal);
}

// One GPU's end of the peer copies: its context (retained, made current where used), a stream
// and a buffer holding device_pattern.
struct PeerEnd {
  const DeviceInfo* device = nullptr;
  cuda::PrimaryContext context;
  cuda::Stream stream;
  cuda::DeviceBuffer buffer;
};

Status fill_device(const cuda::Api& api, const cuda::DeviceBuffer& buffer, std::uint32_t value,
                   const cuda::Stream& stream) {
  ENVLOCK_TRY(
      cuda::check(api, api.memset_d32_async(buffer.ptr(), value, buffer.bytes() / 4, stream.get()),
                  "cuMemsetD32Async"));
  return cuda::check(api, api.stream_synchronize(stream.get()), "cuStreamSynchronize");
}

// The first and last 32-bit words of device memory (the current context's or a peer's).
Result<std::array<std::uint32_t, 2>>
device_ends(const cuda::Api& api, const cuda::DeviceBuffer& buffer, std::size_t bytes) {
  std::array<std::uint32_t, 2> ends{};
  ENVLOCK_TRY(cuda::check(api, api.memcpy_dtoh(&ends[0], buffer.ptr(), 4), "cuMemcpyDtoH"));
  ENVLOCK_TRY(
      cuda::check(api, api.memcpy_dtoh(&ends[1], buffer.ptr() + bytes - 4, 4), "cuMemcpyDtoH"));
  return ends;
}

Status expect_ends(const std::array<std::uint32_t, 2>& ends, std::uint32_t expected) {
  if (ends[0] != expected || ends[1] != expected) {
    std::array<char, 96> text{};
    static_cast<void>(std::snprintf(text.data(), text.size(),
                                    "the copy arrived wrong: 0x%08x ... 0x%08x, expected 0x%08x",
                                    ends[0], ends[1], expected));
    return check_failed(text.data());
  }
  return {};
}

Result<PeerEnd> open_peer_end(const cuda::Api& api, const DeviceInfo& device, std::size_t bytes) {
  ENVLOCK_TRY_ASSIGN(auto context, cuda::PrimaryContext::open(api, device.device));
  ENVLOCK_TRY_ASSIGN(auto stream, cuda::Stream::create(api));
  ENVLOCK_TRY_ASSIGN(auto buffer, cuda::DeviceBuffer::allocate(api, bytes));
  ENVLOCK_TRY(fill_device(api, buffer, device_pattern(device), stream));
  return PeerEnd{&device, std::move(context), std::move(stream), std::move(buffer)};
}

// Peer access from `from`'s context to `to`'s memory, enabled for one pair's copies and disabled
// again when this run enabled it (an access enabled before, by NCCL say, stays).
class PeerAccess {
public:
  static Result<PeerAccess> enable(const cuda::Api& api, const PeerEnd& from, const PeerEnd& to) {
    ENVLOCK_TRY(from.context.make_current());
    const cuda::CuResult status = api.ctx_enable_peer_access(to.context.get(), 0);
    if (status == cuda::k_error_peer_access_already_enabled) {
      return PeerAccess(nullptr, nullptr, nullptr);
    }
    ENVLOCK_TRY(cuda::check(api, status, "cuCtxEnablePeerAccess"));
    return PeerAccess(&api, &from, &to);
  }
  PeerAccess(PeerAccess&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)), m_from(other.m_from), m_to(other.m_to) {}
  PeerAccess& operator=(PeerAccess&&) = delete;
  PeerAccess(const PeerAccess&) = delete;
  PeerAccess& operator=(const PeerAccess&) = delete;
  ~PeerAccess() {
    if (m_api != nullptr && m_from->context.make_current()) {
      static_cast<void>(m_api->ctx_disable_peer_access(m_to->context.get()));
    }
  }

private:
  PeerAccess(const cuda::Api* api, const PeerEnd* from, const PeerEnd* to)
      : m_api(api), m_from(from), m_to(to) {}
  const cuda::Api* m_api;
  const PeerEnd* m_from;
  const PeerEnd* m_to;
};

// Copies `from`'s buffer into `to`'s on `from`'s stream (the source GPU's copy engine writes
// into the peer), timed; then checks what arrived and restores `to`'s pattern.
Result<double> time_peer_copy(const cuda::Api& api, const PeerEnd& from, const PeerEnd& to,
                              const LinkSizes& sizes) {
  ENVLOCK_TRY(from.context.make_current());
  const auto copy = [&]() {
    return cuda::check(api,
                       api.memcpy_peer_async(to.buffer.ptr(), to.context.get(), from.buffer.ptr(),
                                             from.context.get(), sizes.peer_bytes,
                                             from.stream.get()),
                       "cuMemcpyPeerAsync");
  };
  ENVLOCK_TRY_ASSIGN(const double seconds,
                     time_iterations(api, from.stream.get(), sizes.warmup, sizes.timed, copy));
  ENVLOCK_TRY(to.context.make_current());
  ENVLOCK_TRY_ASSIGN(const auto ends, device_ends(api, to.buffer, sizes.peer_bytes));
  ENVLOCK_TRY(expect_ends(ends, device_pattern(*from.device)));
  ENVLOCK_TRY(fill_device(api, to.buffer, device_pattern(*to.device), to.stream));
  return seconds;
}

// Both directions of one pair, peer access enabled where the driver allows it.
void measure_pair(const cuda::Api& api, const PeerEnd& a, const PeerEnd& b, const LinkSizes& sizes,
                  std::vector<LinkMeasure>& out) {
  for (const auto& [from, to] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    LinkMeasure link;
    link.from = from->device->ordinal;
    link.to = to->device->ordinal;
    int access = 0;
    if (auto status = cuda::check(
            api, api.device_can_access_peer(&access, from->device->device, to->device->device),
            "cuDeviceCanAccessPeer");
        !status) {
      link.error = status.error().message;
      out.push_back(link);
      continue;
    }
    link.direct = access != 0;
    if (api.device_get_p2p_attribute(&link.rank, cuda::k_p2p_performance_rank, from->device->device,
                                     to->device->device) != 0) {
      link.rank = 0;
    }
    std::optional<PeerAccess> enabled;
    if (link.direct) {
      auto access_now = PeerAccess::enable(api, *from, *to);
      if (!access_now) {
        link.error = access_now.error().message;
        out.push_back(link);
        continue;
      }
      enabled.emplace(std::move(*access_now));
    }
    auto seconds = time_peer_copy(api, *from, *to, sizes);
    if (seconds) {
      link.gbps = gbps(static_cast<double>(sizes.peer_bytes), *seconds);
    } else {
      link.error = seconds.error().message;
    }
    out.push_back(link);
  }
}

// The CPUs next to the GPU, from sysfs.
Result<std::vector<int>> local_cpus(const cuda::Api& api, const DeviceInfo& device) {
  std::array<char, 32> bus_id{};
  ENVLOCK_TRY(cuda::check(
      api, api.device_get_pci_bus_id(bus_id.data(), static_cast<int>(bus_id.size()), device.device),
      "cuDeviceGetPCIBusId"));
  const std::string address = sysfs_pci_address(bus_id.data());
  if (address.empty()) {
    return env_error(std::string("'") + bus_id.data() + "' is no PCI address");
  }
  const std::string path = "/sys/bus/pci/devices/" + address + "/local_cpulist";
  ENVLOCK_TRY_ASSIGN(const std::string text, util::read_regular_file(path, k_cpulist_limit));
  auto cpus = util::parse_cpu_list(text);
  if (!cpus) {
    return env_error(path + ": " + cpus.error().message);
  }
  return cpus;
}

// One GPU's two host links, on the calling thread (placed on the GPU's CPUs first, so that the
// page-locked buffer comes from their memory node).
struct HostLinks {
  LinkMeasure to_device;
  LinkMeasure to_host;
  double to_device_seconds = 0;
  double to_host_seconds = 0;
  std::string placement; // the CPUs, or why the thread was not placed
};

Status measure_host_links(const cuda::Api& api, const DeviceInfo& device, const LinkSizes& sizes,
                          HostLinks& out) {
  Stopwatch watch;
  auto cpus = local_cpus(api, device);
  if (cpus) {
    cpus = util::place_this_thread(*cpus);
  }
  out.to_device.direct = out.to_host.direct = cpus.has_value();
  out.placement = cpus ? "CPUs " + util::cpu_list_text(*cpus) : cpus.error().message;
  ENVLOCK_TRY_ASSIGN(auto context, cuda::PrimaryContext::open(api, device.device));
  ENVLOCK_TRY_ASSIGN(auto stream, cuda::Stream::create(api));
  ENVLOCK_TRY_ASSIGN(auto buffer, cuda::DeviceBuffer::allocate(api, sizes.host_bytes));
  ENVLOCK_TRY_ASSIGN(auto host, cuda::HostBuffer::allocate(api, sizes.host_bytes));
  auto* words = static_cast<std::uint32_t*>(host.get());
  std::fill(words, words + sizes.host_bytes / 4, k_host_pattern);
  const auto to_device = [&]() {
    return cuda::check(
        api, api.memcpy_htod_async(buffer.ptr(), host.get(), sizes.host_bytes, stream.get()),
        "cuMemcpyHtoDAsync");
  };
  auto seconds = time_iterations(api, stream.get(), sizes.warmup, sizes.timed, to_device);
  Status arrived = seconds ? Status{} : Status{seconds.error()};
  if (arrived) {
    auto ends = device_ends(api, buffer, sizes.host_bytes);
    arrived = ends ? expect_ends(*ends, k_host_pattern) : Status{ends.error()};
  }
  if (arrived) {
    out.to_device.gbps = gbps(static_cast<double>(sizes.host_bytes), *seconds);
  } else {
    out.to_device.error = arrived.error().message;
  }
  out.to_device_seconds = watch.lap();

  ENVLOCK_TRY(fill_device(api, buffer, device_pattern(device), stream));
  const auto to_host = [&]() {
    return cuda::check(
        api, api.memcpy_dtoh_async(host.get(), buffer.ptr(), sizes.host_bytes, stream.get()),
        "cuMemcpyDtoHAsync");
  };
  seconds = time_iterations(api, stream.get(), sizes.warmup, sizes.timed, to_host);
  arrived = seconds ? Status{} : Status{seconds.error()};
  if (arrived) {
    arrived = expect_ends({words[0], words[sizes.host_bytes / 4 - 1]}, device_pattern(device));
  }
  if (arrived) {
    out.to_host.gbps = gbps(static_cast<double>(sizes.host_bytes), *seconds);
  } else {
    out.to_host.error = arrived.error().message;
  }
  out.to_host_seconds = watch.lap();
  return {};
}

// The model the lock's minimums are looked up for: the devices' one model; empty when mixed.
std::string one_model(const std::vector<DeviceInfo>& devices) {
  std::set<std::string> names;
  for (const auto& device : devices) {
    names.insert(device.name);
  }
  return names.size() == 1 ? *names.begin() : "";
}

} // namespace

std::string sysfs_pci_address(const std::string& bus_id) {
  // DOMAIN:BUS:SLOT.FUNCTION, hex digits only; the domain of any width, the others of two, two
  // and one.
  const auto colon = bus_id.find(':');
  const std::string domain = bus_id.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : bus_id.substr(colon + 1);
  const auto is_hex = [](const std::string& text) {
    return !text.empty() && text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
  };
  if (domain.size() > 8 || !is_hex(domain) || rest.size() != 7 || rest[2] != ':' ||
      rest[5] != '.' || !is_hex(rest.substr(0, 2)) || !is_hex(rest.substr(3, 2)) ||
      !is_hex(rest.substr(6))) {
    return "";
  }
  const unsigned long domain_number = std::stoul(domain, nullptr, 16); // NOLINT(google-runtime-int)
  const unsigned slot = std::stoul(rest.substr(3, 2), nullptr, 16);
  const unsigned function = std::stoul(rest.substr(6), nullptr, 16);
  if (slot > 0x1f || function > 7) {
    return "";
  }
  std::array<char, 32> text{};
  static_cast<void>(std::snprintf(text.data(), text.size(), "%04lx:%s:%02x.%x", domain_number,
                                  util::to_lower(rest.substr(0, 2)).c_str(), slot, function));
  return text.data();
}

std::vector<CheckResult> link_checks(const cuda::Api& api, const lock::Lock& lock,
                                     const std::vector<DeviceInfo>& devices,
                                     const LinkSizes& sizes) {
  std::vector<CheckResult> checks = {new_run_check("links.peer"),
                                     new_run_check("links.host_to_device"),
                                     new_run_check("links.device_to_host")};
  CheckResult& peer = checks[0];
  const std::string model = one_model(devices);
  for (auto& check : checks) {
    check.details["bytes_per_copy"] = &check == &peer ? sizes.peer_bytes : sizes.host_bytes;
    check.details["timed_copies"] = sizes.timed;
    if (model.empty()) {
      check.details["models"] = "mixed: the lock's minimums are not applied";
    }
  }

  // Host links, one GPU after the other, each from a thread of its own placed on its CPUs.
  std::vector<LinkMeasure> to_device;
  std::vector<LinkMeasure> to_host;
  nlohmann::json placement = nlohmann::json::object();
  for (const auto& device : devices) {
    HostLinks links;
    links.to_device.from = links.to_host.from = device.ordinal;
    Status status;
    std::thread([&]() { status = measure_host_links(api, device, sizes, links); }).join();
    if (!status) {
      for (LinkMeasure* link : {&links.to_device, &links.to_host}) {
        if (link->error.empty() && link->gbps == 0) {
          link->error = status.error().message;
        }
      }
    }
    to_device.push_back(links.to_device);
    to_host.push_back(links.to_host);
    placement[std::to_string(device.ordinal)] = links.placement;
    checks[1].seconds += links.to_device_seconds;
    checks[2].seconds += links.to_host_seconds;
  }
  for (std::size_t i = 1; i < 3; ++i) {
    checks[i].details["placement"] = placement;
    const LinkKind kind = i == 1 ? LinkKind::host_to_device : LinkKind::device_to_host;
    judge_links(kind, i == 1 ? to_device : to_host,
                model.empty() ? std::nullopt : link_minimum(lock.expect.links, model, kind), model,
                checks[i]);
  }

  // Peer links, one pair and direction after the other.
  Stopwatch watch;
  if (devices.size() < 2) {
    peer.outcome = Outcome::skip;
    peer.reason = "one GPU: no pair to measure";
    return checks;
  }
  std::vector<PeerEnd> ends;
  for (const auto& device : devices) {
    auto end = open_peer_end(api, device, sizes.peer_bytes);
    if (!end) {
      peer.outcome = Outcome::fail;
      peer.reason = "GPU " + std::to_string(device.ordinal) + ": " + end.error().message;
      peer.seconds = watch.lap();
      return checks;
    }
    ends.push_back(std::move(*end));
  }
  std::vector<LinkMeasure> pairs;
  for (std::size_t a = 0; a < ends.size(); ++a) {
    for (std::size_t b = a + 1; b < ends.size(); ++b) {
      measure_pair(api, ends[a], ends[b], sizes, pairs);
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const LinkMeasure& x, const LinkMeasure& y) {
    return std::pair{x.from, x.to} < std::pair{y.from, y.to};
  });
  judge_links(LinkKind::peer, pairs,
              model.empty() ? std::nullopt : link_minimum(lock.expect.links, model, LinkKind::peer),
              model, peer);
  peer.seconds = watch.lap();
  return checks;
}

} // namespace envlock::verify
