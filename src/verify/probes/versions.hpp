// The integer version encodings of the CUDA, NCCL and cuDNN libraries, and the text forms the
// verifier compares.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace envlock::verify {

// CUDA driver and runtime: 1000*major + 10*minor (13030 -> "13.3").
std::string cuda_version_text(int code);

// NCCL: below 2900 major*1000 + minor*100 + patch, else major*10000 + minor*100 + patch
// (23007 -> "2.30.7", 2708 -> "2.7.8").
std::string nccl_version_text(int code);

// cuDNN: from 9 on major*10000 + minor*100 + patch (91400 -> "9.14.0"), before
// major*1000 + minor*100 + patch (8902 -> "8.9.2").
std::string cudnn_version_text(long code);

// "MAJOR.MINOR" of a dotted version ("13.0.96" -> "13.0"); nothing when it has no minor part.
std::optional<std::string> major_minor(std::string_view version);

// The version in a versioned library file name: "libcudart.so.13.0.96" with stem "libcudart.so."
// gives "13.0.96"; nothing when the name does not start with the stem or has no digits after it.
std::optional<std::string> version_from_file_name(std::string_view file_name,
                                                  std::string_view stem);

// The leading version of an NCCL version string: "2.28.9+cuda13.0" -> "2.28.9".
std::string strip_build_suffix(std::string_view version);

} // namespace envlock::verify
