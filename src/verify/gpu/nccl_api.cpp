#include "verify/gpu/nccl_api.hpp"

#include <utility>

namespace envlock::verify::nccl {

std::string version_string(int code) {
  const int major_unit = code < 2900 ? 1000 : 10000;
  const int major = code / major_unit;
  const int minor = (code % major_unit) / 100;
  const int patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

Result<Library> load(const std::vector<std::string>& candidates) {
  ENVLOCK_TRY_ASSIGN(auto handle, util::dl_open(candidates));
  Library library;
  library.library = std::move(handle);
  Api& api = library.api;
  const util::DlHandle& lib = library.library;
  ENVLOCK_TRY(util::dl_bind(lib, api.get_version, "ncclGetVersion"));
  ENVLOCK_TRY(util::dl_bind(lib, api.comm_init_all, "ncclCommInitAll"));
  ENVLOCK_TRY(util::dl_bind(lib, api.comm_destroy, "ncclCommDestroy"));
  ENVLOCK_TRY(util::dl_bind(lib, api.all_reduce, "ncclAllReduce"));
  ENVLOCK_TRY(util::dl_bind(lib, api.group_start, "ncclGroupStart"));
  ENVLOCK_TRY(util::dl_bind(lib, api.group_end, "ncclGroupEnd"));
  ENVLOCK_TRY(util::dl_bind(lib, api.get_error_string, "ncclGetErrorString"));
  library.path = util::dl_path(library.library);
  int code = 0;
  ENVLOCK_TRY(check(api, api.get_version(&code), "ncclGetVersion"));
  library.version = version_string(code);
  return library;
}

Status check(const Api& api, NcclResult status, const char* what) {
  if (status == 0) {
    return {};
  }
  const char* text = api.get_error_string != nullptr ? api.get_error_string(status) : nullptr;
  return env_error(std::string(what) + ": " + (text != nullptr ? text : "unknown error") +
                   " (ncclResult " + std::to_string(status) + ")");
}

Result<Communicators> Communicators::init_all(const Api& api, const std::vector<int>& devices) {
  Communicators comms(&api);
  comms.m_comms.assign(devices.size(), nullptr);
  const Status status = check(
      api,
      api.comm_init_all(comms.m_comms.data(), static_cast<int>(devices.size()), devices.data()),
      "ncclCommInitAll");
  if (!status) {
    comms.m_comms.clear();
    return status.error();
  }
  return comms;
}

Communicators& Communicators::operator=(Communicators&& other) noexcept {
  if (this != &other) {
    destroy();
    m_api = other.m_api;
    m_comms = std::exchange(other.m_comms, {});
  }
  return *this;
}

void Communicators::destroy() noexcept {
  if (m_api == nullptr) {
    return;
  }
  for (Comm comm : m_comms) {
    if (comm != nullptr) {
      static_cast<void>(m_api->comm_destroy(comm));
    }
  }
  m_comms.clear();
}

Communicators::~Communicators() {
  destroy();
}

} // namespace envlock::verify::nccl
