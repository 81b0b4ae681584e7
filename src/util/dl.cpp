#include "util/dl.hpp"

#include <dlfcn.h>
#include <link.h>
#include <utility>

namespace envlock::util {

DlHandle::DlHandle(DlHandle&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr)), m_name(std::move(other.m_name)) {}

DlHandle& DlHandle::operator=(DlHandle&& other) noexcept {
  if (this != &other) {
    if (m_handle != nullptr) {
      ::dlclose(m_handle);
    }
    m_handle = std::exchange(other.m_handle, nullptr);
    m_name = std::move(other.m_name);
  }
  return *this;
}

DlHandle::~DlHandle() {
  if (m_handle != nullptr) {
    ::dlclose(m_handle);
  }
}

namespace {

bool is_not_found(const std::string& message) {
  return message.find("No such file or directory") != std::string::npos;
}

} // namespace

Result<DlHandle> dl_open(const std::vector<std::string>& names) {
  std::string load_error;
  for (const auto& name : names) {
    void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle != nullptr) {
      return DlHandle(handle, name);
    }
    const char* text = ::dlerror();
    const std::string message = text != nullptr ? text : name + ": cannot be loaded";
    if (!is_not_found(message) && load_error.empty()) {
      load_error = message;
    }
  }
  if (!load_error.empty()) {
    return env_error(load_error);
  }
  if (names.size() == 1) {
    return env_error(names.front() + " not found");
  }
  std::string list;
  for (const auto& name : names) {
    list += (list.empty() ? "" : ", ") + name;
  }
  return env_error("none of " + list + " found");
}

Result<DlHandle> dl_open(std::initializer_list<std::string_view> names) {
  std::vector<std::string> list;
  list.reserve(names.size());
  for (auto name : names) {
    list.emplace_back(name);
  }
  return dl_open(list);
}

Result<void*> dl_symbol(const DlHandle& handle, const char* symbol) {
  if (handle.get() == nullptr) {
    return env_error(std::string("no library loaded: symbol ") + symbol + " not found");
  }
  ::dlerror();
  void* address = ::dlsym(handle.get(), symbol);
  if (address == nullptr) {
    return env_error(handle.name() + ": symbol " + symbol + " not found");
  }
  return address;
}

std::string dl_path(const DlHandle& handle) {
  if (handle.get() == nullptr) {
    return {};
  }
  struct link_map* map = nullptr;
  if (::dlinfo(handle.get(), RTLD_DI_LINKMAP, static_cast<void*>(&map)) != 0 || map == nullptr ||
      map->l_name == nullptr) {
    return {};
  }
  return map->l_name;
}

} // namespace envlock::util
