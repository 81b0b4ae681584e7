// The node-side probes: each reads one part of the checked system (by loading its libraries when
// live, from files only when offline) and returns CheckResults keyed to the lock. None throws;
// what is missing becomes a failed or skipped check with the reason.
#pragma once

#include "verify/check.hpp"
#include "verify/run_context.hpp"

#include <vector>

namespace envlock::verify {

// "cuda.driver", "cuda.runtime", "cuda.compat": the driver's CUDA version and kernel module,
// the image's CUDA runtime against expect.cuda, and whether the driver supports that runtime.
std::vector<CheckResult> probe_cuda(const RunContext& context);

// "nccl.version": the NCCL that PyTorch loads (else the system's) against expect.nccl; both are
// described in details when they differ.
std::vector<CheckResult> probe_nccl(const RunContext& context);

// "torch.version", "torch.cuda", "torch.cudnn": torch/version.py against expect.pytorch and
// expect.cuda, and the cuDNN version found.
std::vector<CheckResult> probe_torch(const RunContext& context);

// "packages.installed", "packages.unexpected" and, with --deep, "packages.record": the installed
// distributions against the lock's uv.lock packages.
std::vector<CheckResult> probe_packages(const RunContext& context);

// "megatron.commit": the installed Megatron-LM commit against sources.megatron.commit.
std::vector<CheckResult> probe_megatron(const RunContext& context);

// "image.labels": the labels Enroot wrote into /etc/rc against the lock.
std::vector<CheckResult> probe_image(const RunContext& context);

// "gpu.visible": the GPUs seen here (details["uuids"] of the "gpu.count" result) against the
// host's list (--host-facts) or NVIDIA_VISIBLE_DEVICES; skipped when neither is given. A host
// facts file that cannot be read is a failed check naming it.
CheckResult compare_host_gpus(const RunContext& context,
                              const std::vector<CheckResult>& gpu_checks);

} // namespace envlock::verify
