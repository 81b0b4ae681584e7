"""Writes a lock describing the machine it runs on, for the GPU runs of bench/gpu/bench_verify.sh:
tests/data/verify/lock.json with expect.* set from this machine's PyTorch, NCCL and GPUs, and
python.uv_lock.packages listing every installed distribution of this Python environment.

Usage: make_machine_lock.py TEMPLATE GPUS [NCCL_VERSION_OVERRIDE] > lock.json
"""
import importlib.metadata
import json
import re
import sys

import torch


def normalise(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def main():
    template, gpus = sys.argv[1], int(sys.argv[2])
    lock = json.load(open(template))
    nccl = ".".join(str(part) for part in torch.cuda.nccl.version())
    if len(sys.argv) > 3:
        nccl = sys.argv[3]
    expect = lock["expect"]
    expect["cuda"] = torch.version.cuda
    expect["nccl"] = nccl
    expect["pytorch"] = torch.__version__
    expect["python"] = "%d.%d" % sys.version_info[:2]
    expect["gpus"] = {"count": gpus, "model": torch.cuda.get_device_name(0)}
    expect["nccl_busbw_gbps"] = {torch.cuda.get_device_name(0): 300.0}
    lock.get("sources", {}).pop("megatron", None)
    lock["build_args"] = {"UV_PROJECT_ENVIRONMENT": sys.prefix}
    packages = {}
    for dist in importlib.metadata.distributions():
        name = normalise(dist.metadata["Name"])
        packages[name] = {"name": name, "version": dist.version,
                          "source": {"kind": "registry",
                                     "location": "https://pypi.example.invalid/simple"}}
    lock["python"]["uv_lock"]["packages"] = [packages[k] for k in sorted(packages)]
    json.dump(lock, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
