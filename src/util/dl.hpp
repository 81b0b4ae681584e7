// dlopen behind RAII: the verifier loads the CUDA driver, libcudart, NCCL, cuBLASLt and cuDNN from
// the image at run time and links none of them. One helper, shared by every probe.
#pragma once

#include "util/result.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::util {

// A loaded shared library. Libraries are opened with RTLD_NODELETE: GPU libraries start threads
// and register atexit handlers, so they are never unloaded; the destructor only drops the
// reference.
class DlHandle {
public:
  DlHandle() = default;
  DlHandle(void* handle, std::string name) : m_handle(handle), m_name(std::move(name)) {}
  DlHandle(const DlHandle&) = delete;
  DlHandle& operator=(const DlHandle&) = delete;
  DlHandle(DlHandle&& other) noexcept;
  DlHandle& operator=(DlHandle&& other) noexcept;
  ~DlHandle();

  [[nodiscard]] void* get() const { return m_handle; }
  // The name that was passed to dlopen and worked (a soname or a path).
  [[nodiscard]] const std::string& name() const { return m_name; }

private:
  void* m_handle = nullptr;
  std::string m_name;
};

// Opens the first of `names` (sonames searched by the dynamic linker, or paths) that loads. Fails
// with an environment error "NAME not found" (one name) or "none of A, B found" (several) when no
// file exists, or "NAME: <dlerror>" when a file exists but does not load (a missing dependency,
// a wrong architecture).
Result<DlHandle> dl_open(const std::vector<std::string>& names);
Result<DlHandle> dl_open(std::initializer_list<std::string_view> names);

// The raw address of `symbol`, or an environment error "LIBRARY: symbol SYMBOL not found".
Result<void*> dl_symbol(const DlHandle& handle, const char* symbol);

// The function `symbol` of the library as a pointer of type T (e.g. int (*)(int*)).
template <typename T> Result<T> dl_sym(const DlHandle& handle, const char* symbol) {
  ENVLOCK_TRY_ASSIGN(void* address, dl_symbol(handle, symbol));
  return reinterpret_cast<T>(address); // NOLINT: dlsym returns object pointers for functions.
}

// Binds the function pointer `slot` to the library's `symbol`: the one way a table of a library's
// functions is filled. Fails like dl_symbol.
template <typename T> Status dl_bind(const DlHandle& handle, T& slot, const char* symbol) {
  ENVLOCK_TRY_ASSIGN(slot, dl_sym<T>(handle, symbol));
  return {};
}

// The file the library was loaded from, as the dynamic linker resolved it (dlinfo
// RTLD_DI_LINKMAP), e.g. "/usr/lib/x86_64-linux-gnu/libnccl.so.2"; empty if the linker does not
// say.
std::string dl_path(const DlHandle& handle);

} // namespace envlock::util
