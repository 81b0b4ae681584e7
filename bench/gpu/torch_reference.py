"""Reference figures from PyTorch for bench/gpu/bench_verify.sh, measured the way envlock-verify
measures its own: device-to-device copy bandwidth (bytes read + written), a BF16 matrix product
(TFLOP/s, mean of timed runs after warm-up) and an all-reduce's bus bandwidth at 1 GiB
(nccl-tests convention). Prints one "name value unit" line per figure."""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

COPY_BYTES = 2 << 30       # envlock-verify's bandwidth kernel copies 2 GiB
GEMM_N = 8192              # envlock-verify's GEMM is 8192^3
ALLREDUCE_BYTES = 1 << 30  # the busbw threshold is read at 1 GiB


def timed(fn, warmup, iters):
    for _ in range(warmup):
        fn()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(iters):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / 1000.0 / iters


def copy_bandwidth():
    src = torch.empty(COPY_BYTES, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    seconds = timed(lambda: dst.copy_(src), 3, 20)
    print(f"torch_copy_bandwidth {2 * COPY_BYTES / seconds / 1e12:.3f} TB/s", flush=True)


def gemm():
    gen = torch.Generator(device="cuda").manual_seed(1)
    a = torch.randn(GEMM_N, GEMM_N, device="cuda", generator=gen).to(torch.bfloat16)
    b = torch.randn(GEMM_N, GEMM_N, device="cuda", generator=gen).to(torch.bfloat16)
    seconds = timed(lambda: torch.matmul(a, b), 5, 20)
    print(f"torch_gemm_bf16 {2 * GEMM_N**3 / seconds / 1e12:.1f} TFLOP/s", flush=True)


def allreduce_worker(rank, world, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world,
                            device_id=torch.device("cuda", rank))
    x = torch.ones(ALLREDUCE_BYTES // 4, dtype=torch.float32, device="cuda")
    seconds = timed(lambda: dist.all_reduce(x), 5, 20)
    algbw = ALLREDUCE_BYTES / seconds / 1e9
    busbw = algbw * 2 * (world - 1) / world
    if rank == 0:
        print(f"torch_allreduce_busbw_1GiB {busbw:.1f} GB/s", flush=True)
    dist.destroy_process_group()


def main():
    what = sys.argv[1:] or ["copy", "gemm", "allreduce"]
    if "copy" in what:
        copy_bandwidth()
    if "gemm" in what:
        gemm()
    if "allreduce" in what:
        world = torch.cuda.device_count()
        if world < 2:
            print("torch_allreduce_busbw_1GiB skipped one-GPU", flush=True)
        else:
            mp.spawn(allreduce_worker, args=(world, 29511), nprocs=world, join=True)


if __name__ == "__main__":
    main()
