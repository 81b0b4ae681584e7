"""PyTorch's figures for the links envlock-verify's link check measures, taken the same way:
page-locked host memory to each GPU and back (64 MiB), and each GPU to every other (256 MiB,
the copy on the source GPU's stream), 10 timed copies after 2 warm-up copies between CUDA events.
Prints one "name value unit" line per link, named as envlock-verify's figures."""
import torch

HOST_BYTES = 64 << 20
PEER_BYTES = 256 << 20


def timed(stream, fn, warmup=2, iters=10):
    with torch.cuda.stream(stream):
        for _ in range(warmup):
            fn()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record(stream)
        for _ in range(iters):
            fn()
        stop.record(stream)
    stop.synchronize()
    return start.elapsed_time(stop) / 1000.0 / iters


def main():
    gpus = torch.cuda.device_count()
    for gpu in range(gpus):
        with torch.cuda.device(gpu):
            stream = torch.cuda.Stream()
            host = torch.empty(HOST_BYTES, dtype=torch.uint8).pin_memory()
            dev = torch.empty(HOST_BYTES, dtype=torch.uint8, device=f"cuda:{gpu}")
            seconds = timed(stream, lambda: dev.copy_(host, non_blocking=True))
            print(f"host_to_device_{gpu} {HOST_BYTES / seconds / 1e9:.1f} GB/s", flush=True)
            seconds = timed(stream, lambda: host.copy_(dev, non_blocking=True))
            print(f"device_to_host_{gpu} {HOST_BYTES / seconds / 1e9:.1f} GB/s", flush=True)
    buffers = [torch.empty(PEER_BYTES, dtype=torch.uint8, device=f"cuda:{g}") for g in range(gpus)]
    for a in range(gpus):
        for b in range(gpus):
            if a == b:
                continue
            with torch.cuda.device(a):
                stream = torch.cuda.Stream()
                seconds = timed(stream, lambda: buffers[b].copy_(buffers[a], non_blocking=True))
            print(f"peer_{a}_{b} {PEER_BYTES / seconds / 1e9:.1f} GB/s", flush=True)


if __name__ == "__main__":
    main()
