// Does uv.lock contradict the manifest's `expect`? A lock whose uv.lock installs torch 2.8.0 while
// `expect.pytorch` says 2.7.1 fails `envlock-verify` on every node; this finds it when locking.
// Compared: `expect.pytorch` with each locked `torch`, `expect.nccl` with each locked
// `nvidia-nccl-cu*` (only where one is locked), `expect.python` with uv.lock's requires-python.
#pragma once

#include "lock/lock.hpp"

#include <string>
#include <vector>

namespace envlock::uv {

// One line per contradiction, naming both sides: "expect.pytorch is '2.7.1+cu128'; uv.lock locks
// torch 2.8.0+cu128". Empty when nothing contradicts (an empty expectation, or a package uv.lock
// does not lock, is not compared).
//
// A version agrees with an expectation when the two are equal as PEP 440 versions, a local label
// ("+cu128") compared only when both have one (torch's wheels report one uv.lock may not record).
// Several locked versions of one package (one per platform) agree when one of them does.
// A package in `not_installed` (SatisfiesResult::never_installed: uv.lock locks it, uv sync never
// installs it) is not compared. `expect.python` (MAJOR.MINOR) agrees when some MAJOR.MINOR.N
// satisfies requires-python.
std::vector<std::string> expect_contradictions(const lock::Expect& expect,
                                               const lock::UvLockPin& uv_lock,
                                               const std::vector<std::string>& not_installed = {});

// Whether a locked version agrees with an expected one, as expect_contradictions reads them.
bool version_agrees(const std::string& locked, const std::string& expected);

} // namespace envlock::uv
