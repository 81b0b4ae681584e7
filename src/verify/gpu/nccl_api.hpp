// NCCL, loaded with dlopen (libnccl.so.2: the copy PyTorch loads first, then the dynamic linker's),
// for the all-reduce check. Types and enum values are declared from nccl.h's documented ABI;
// every status is checked. RAII owner for the communicators of ncclCommInitAll.
#pragma once

#include "util/dl.hpp"
#include "util/result.hpp"
#include "verify/gpu/cuda_driver.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace envlock::verify::nccl {

using NcclResult = int; // ncclResult_t; 0 is ncclSuccess
using Comm = struct CommOpaque*;
inline constexpr int k_float32 = 7; // ncclFloat32
inline constexpr int k_sum = 0;     // ncclSum

struct Api {
  NcclResult (*get_version)(int*) = nullptr;
  NcclResult (*comm_init_all)(Comm*, int, const int*) = nullptr;
  NcclResult (*comm_destroy)(Comm) = nullptr;
  NcclResult (*all_reduce)(const void*, void*, std::size_t, int, int, Comm,
                           cuda::CuStream) = nullptr;
  NcclResult (*group_start)() = nullptr;
  NcclResult (*group_end)() = nullptr;
  const char* (*get_error_string)(NcclResult) = nullptr;
};

struct Library {
  util::DlHandle library;
  Api api;
  std::string path;    // the file loaded
  std::string version; // ncclGetVersion as MAJOR.MINOR.PATCH
};

// "MAJOR.MINOR.PATCH" of an ncclGetVersion code: below 2900 the code is 1000*major + 100*minor +
// patch, from 2.9 on 10000*major + 100*minor + patch (e.g. 22809 -> "2.28.9").
std::string version_string(int code);

// Loads the first of `candidates` that opens and resolves every entry point.
Result<Library> load(const std::vector<std::string>& candidates);

// Turns an NCCL status into a Status: "WHAT: <ncclGetErrorString> (ncclResult N)" on failure.
Status check(const Api& api, NcclResult status, const char* what);

// One communicator per local device, from ncclCommInitAll; destroyed together.
class Communicators {
public:
  // Fails with ncclCommInitAll's error.
  static Result<Communicators> init_all(const Api& api, const std::vector<int>& devices);
  Communicators(Communicators&& other) noexcept = default;
  Communicators& operator=(Communicators&& other) noexcept;
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;
  ~Communicators();
  [[nodiscard]] Comm at(std::size_t rank) const { return m_comms.at(rank); }
  [[nodiscard]] std::size_t size() const { return m_comms.size(); }

private:
  explicit Communicators(const Api* api) : m_api(api) {}
  void destroy() noexcept;
  const Api* m_api = nullptr;
  std::vector<Comm> m_comms;
};

} // namespace envlock::verify::nccl
