#!/usr/bin/env python3
"""The trainer of envlock's resume check (docs/manual/resume.md).

envlock-verify runs it with the image's own Python and PyTorch:

  envlock_resume.py compute --data PREFIX [model options]
      One training step of the small model (BF16 autocast, scaled_dot_product_attention, fused
      AdamW). Prints one JSON line: the attention backend that ran, and which parameters had a
      gradient that was not finite or all zero, or did not change.
  envlock_resume.py train --data PREFIX --stop N --records FILE [--save DIR] [--load DIR]
                          [--params FILE] [model options]
      Trains from step 0 (or the checkpoint in --load) up to step N, appending one JSON line per
      step to --records ({"kind": "step", "step": K, "loss": HEX, "lr": HEX}, floats as float.hex()),
      saving a checkpoint to --save and the final parameters (float32, little-endian, in
      parameter order) to --params. Under torchrun it trains with DistributedDataParallel.
  envlock_resume.py train --data PREFIX --load DIR --extra-steps N --records FILE [model options]
      Loads the checkpoint in DIR (written by this trainer, perhaps with another PyTorch) and
      trains N more steps: the checkpoint-load check (docs/manual/verify.md).

ENVLOCK_RESUME_BREAK=data_position (or rng), for testing the check itself, leaves that part of
the checkpoint unrestored. Errors go to stderr as "envlock-resume: error: ..." with exit status 3
(environment: no PyTorch, no GPU) or 2 (bad input: the token file); a checkpoint that cannot be
loaded is "envlock-resume: cannot load checkpoint FILE: ..." with exit status 1.
"""
import argparse
import hashlib
import json
import math
import os
import random
import struct
import sys
import time

_MAGIC = b"MMIDIDX\x00\x00"
_TOKEN_TYPES = {1: "uint8", 2: "int8", 3: "int16", 4: "int32", 5: "int64", 6: "float64",
                7: "float32", 8: "uint16"}
_BACKENDS = [("_scaled_dot_product_flash_attention", "flash"),
             ("_scaled_dot_product_cudnn_attention", "cudnn"),
             ("_scaled_dot_product_efficient_attention", "efficient"),
             ("_scaled_dot_product_attention_math", "math")]


def die(message, code=3):
    sys.stderr.write("envlock-resume: error: %s\n" % message)
    sys.exit(code)


def import_torch():
    try:
        import numpy
        import torch
    except ImportError as error:
        die("PyTorch and NumPy must be importable by %s: %s" % (sys.executable, error))
    if not torch.cuda.is_available():
        die("PyTorch %s sees no CUDA GPU" % torch.__version__)
    return numpy, torch


def options():
    parser = argparse.ArgumentParser(prog="envlock_resume.py")
    parser.add_argument("mode", choices=["compute", "train"])
    parser.add_argument("--data", required=True, help="indexed dataset prefix (PREFIX.bin/.idx)")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--seq", type=int, default=256)
    parser.add_argument("--batch", type=int, default=8, help="sequences per GPU and step")
    parser.add_argument("--vocab", type=int, default=0, help="0: the largest token id + 1")
    parser.add_argument("--steps", type=int, default=100, help="the planned run, for the schedule")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--min-lr", type=float, default=1e-4)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--stop", type=int, default=0, help="the last step to run")
    parser.add_argument("--extra-steps", type=int, default=0,
                        help="with --load: train this many steps after the checkpoint's")
    parser.add_argument("--records", help="the JSON lines file to append step records to")
    parser.add_argument("--save")
    parser.add_argument("--load")
    parser.add_argument("--params")
    return parser.parse_args()


def read_tokens(np, prefix):
    """The token stream of a Megatron indexed dataset, memory-mapped."""
    try:
        with open(prefix + ".idx", "rb") as index:
            head = index.read(34)
    except OSError as error:
        die("%s.idx: %s" % (prefix, error.strerror), 2)
    if len(head) < 34 or head[:9] != _MAGIC:
        die("%s.idx: not a Megatron indexed dataset index (bad magic)" % prefix, 2)
    version = struct.unpack("<Q", head[9:17])[0]
    if version != 1 or head[17] not in _TOKEN_TYPES:
        die("%s.idx: unsupported version %d or token type %d" % (prefix, version, head[17]), 2)
    sequences = struct.unpack("<Q", head[18:26])[0]
    lengths = np.memmap(prefix + ".idx", np.int32, "r", offset=34, shape=(sequences,))
    pointers = np.memmap(prefix + ".idx", np.int64, "r", offset=34 + 4 * sequences,
                         shape=(sequences,))
    dtype = np.dtype(_TOKEN_TYPES[head[17]])
    total = int(lengths.sum(dtype=np.int64))
    if sequences and (int(pointers[0]) != 0 or
                      int(pointers[-1]) + int(lengths[-1]) * dtype.itemsize != total * dtype.itemsize):
        die("%s.idx: sequences are not stored back to back in %s.bin" % (prefix, prefix), 2)
    return np.memmap(prefix + ".bin", dtype, "r", shape=(total,))


class Loader:
    """Fixed-length samples of the token stream in a seeded order per epoch; its state (epoch,
    position) is the data-reading position the checkpoint keeps."""

    def __init__(self, np, tokens, seq, global_batch, seed):
        self.np, self.tokens, self.seq, self.global_batch, self.seed = np, tokens, seq, global_batch, seed
        self.samples = (len(tokens) - 1) // seq
        if self.samples < global_batch:
            die("the token file holds %d samples of %d tokens, fewer than one batch (%d)"
                % (self.samples, seq + 1, global_batch), 2)
        self.epoch, self.position = 0, 0
        self._order = self._shuffle()

    def _shuffle(self):
        return self.np.random.default_rng(self.seed + self.epoch).permutation(self.samples)

    def state(self):
        return {"epoch": self.epoch, "position": self.position}

    def restore(self, state):
        self.epoch, self.position = state["epoch"], state["position"]
        self._order = self._shuffle()

    def next(self, rank, micro_batch):
        if self.position + self.global_batch > self.samples:
            self.epoch, self.position = self.epoch + 1, 0
            self._order = self._shuffle()
        chosen = self._order[self.position + rank * micro_batch:
                             self.position + (rank + 1) * micro_batch]
        self.position += self.global_batch
        rows = [self.np.asarray(self.tokens[i * self.seq:i * self.seq + self.seq + 1], dtype=self.np.int64)
                for i in chosen]
        return self.np.stack(rows)


def build_model(torch, args, vocab):
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(args.width), nn.LayerNorm(args.width)
            self.qkv = nn.Linear(args.width, 3 * args.width)
            self.proj = nn.Linear(args.width, args.width)
            self.fc = nn.Linear(args.width, 4 * args.width)
            self.out = nn.Linear(4 * args.width, args.width)

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, args.heads, c // args.heads).permute(2, 0, 3, 1, 4)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + F.dropout(self.proj(y.transpose(1, 2).reshape(b, t, c)), args.dropout, self.training)
            return x + F.dropout(self.out(F.gelu(self.fc(self.ln2(x)))), args.dropout, self.training)

    class Gpt(nn.Module):
        def __init__(self):
            super().__init__()
            self.tokens = nn.Embedding(vocab, args.width)
            self.positions = nn.Embedding(args.seq, args.width)
            self.blocks = nn.ModuleList(Block() for _ in range(args.layers))
            self.norm = nn.LayerNorm(args.width)
            self.head = nn.Linear(args.width, vocab, bias=False)

        def forward(self, x):
            h = self.tokens(x) + self.positions(torch.arange(x.shape[1], device=x.device))
            for block in self.blocks:
                h = block(h)
            return self.head(self.norm(h))

    return Gpt()


def schedule(args):
    """Linear warm-up, then cosine decay to min-lr at --steps; a factor of --lr per step."""
    floor = args.min_lr / args.lr

    def factor(done):
        if done < args.warmup:
            return (done + 1) / args.warmup
        progress = min(1.0, (done - args.warmup) / max(1, args.steps - args.warmup))
        return floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * progress))
    return factor


def deterministic(np, torch, seed):
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def loss_of(torch, model, batch, vocab):
    inputs, targets = batch[:, :-1], batch[:, 1:]
    with torch.autocast("cuda", dtype=torch.bfloat16):
        logits = model(inputs)
    return torch.nn.functional.cross_entropy(logits.float().reshape(-1, vocab), targets.reshape(-1))


def setup(args):
    np, torch = import_torch()
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    tokens = read_tokens(np, args.data)
    vocab = args.vocab or int(tokens.max()) + 1
    rank, world = int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    if world > 1:
        torch.distributed.init_process_group("nccl", device_id=torch.device("cuda", local))
    deterministic(np, torch, args.seed)
    return np, torch, tokens, vocab, rank, world


def compute(args):
    np, torch, tokens, vocab, _, _ = setup(args)
    device = torch.device("cuda", torch.cuda.current_device())
    model = build_model(torch, args, vocab).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, fused=True)
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    batch = torch.from_numpy(Loader(np, tokens, args.seq, args.batch, args.seed).next(0, args.batch)).to(device)
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        loss = loss_of(torch, model, batch, vocab)
        loss.backward()
    ops = {event.key for event in prof.key_averages()}
    backend = next((name for op, name in _BACKENDS if any(op in key for key in ops)), "unknown")
    not_finite, zero, unchanged = [], [], []
    for name, p in model.named_parameters():
        if p.grad is None or not bool(torch.isfinite(p.grad).all()):
            not_finite.append(name)
        elif not bool((p.grad != 0).any()):
            zero.append(name)
    optimizer.step()
    torch.cuda.synchronize()
    for name, p in model.named_parameters():
        if torch.equal(before[name], p.detach()):
            unchanged.append(name)
    print(json.dumps({"kind": "compute", "sdpa_backend": backend, "loss": float(loss),
                      "parameters": sum(p.numel() for p in model.parameters()),
                      "tensors": len(before), "not_finite": not_finite, "zero_grad": zero,
                      "unchanged": unchanged, "torch": torch.__version__,
                      "cuda": torch.version.cuda, "device": torch.cuda.get_device_name()},
                     sort_keys=True))


_STATE_KEYS = ("model", "optimizer", "scheduler", "step", "loader", "rng")


def load_checkpoint(torch, path, model, optimizer, scheduler):
    """The checkpoint's state, restored into the model, optimizer and scheduler; a checkpoint
    that cannot be read or is another trainer's ends the run with exit status 1."""
    def refuse(why):
        sys.stderr.write("envlock-resume: cannot load checkpoint %s: %s\n" % (path, why))
        sys.exit(1)
    try:
        state = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as error:  # torch raises RuntimeError, pickle errors, EOFError, ...
        refuse("%s: %s" % (type(error).__name__, error))
    if not isinstance(state, dict) or any(key not in state for key in _STATE_KEYS):
        found = ", ".join(sorted(map(str, state))) if isinstance(state, dict) else type(state).__name__
        refuse("not a checkpoint of envlock_resume.py (it holds %s; expected %s)"
               % (found or "nothing", ", ".join(_STATE_KEYS)))
    try:
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
    except Exception as error:  # a model of other sizes: --resume-args must match the writer's
        refuse("%s: %s" % (type(error).__name__, str(error).splitlines()[0] if str(error) else ""))
    return state


def save_checkpoint(torch, path, state):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save(state, path + ".tmp")
    os.replace(path + ".tmp", path)


def train(args):
    np, torch, tokens, vocab, rank, world = setup(args)
    device = torch.device("cuda", torch.cuda.current_device())
    model = build_model(torch, args, vocab).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95),
                                  weight_decay=0.1, fused=True)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule(args))
    loader = Loader(np, tokens, args.seq, args.batch * world, args.seed)
    broken = set(filter(None, os.environ.get("ENVLOCK_RESUME_BREAK", "").split(",")))
    step = 0
    if args.load:
        state = load_checkpoint(torch, os.path.join(args.load, "rank%d.pt" % rank), model,
                                optimizer, scheduler)
        step = state["step"]
        if args.extra_steps:
            args.stop = step + args.extra_steps
        if "data_position" not in broken:
            loader.restore(state["loader"])
        if "rng" not in broken:
            random.setstate(state["rng"]["python"])
            np.random.set_state(state["rng"]["numpy"])
            torch.set_rng_state(state["rng"]["torch"])
            torch.cuda.set_rng_state(state["rng"]["cuda"])
    trained = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index]) \
        if world > 1 else model
    log = open(args.records, "a") if rank == 0 and args.records else None

    def record(entry):
        if log:
            log.write(json.dumps(entry, sort_keys=True) + "\n")
            log.flush()
    record({"kind": "run", "start": step, "stop": args.stop, "world_size": world,
            "device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "broken": sorted(broken) if args.load else []})
    model.train()
    while step < args.stop:
        lr = scheduler.get_last_lr()[0]
        batch = torch.from_numpy(loader.next(rank, args.batch)).to(device)
        loss = loss_of(torch, trained, batch, vocab)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        step += 1
        shown = loss.detach().clone()
        if world > 1:
            torch.distributed.all_reduce(shown)
            shown /= world
        record({"kind": "step", "step": step, "loss": float(shown).hex(), "lr": float(lr).hex()})
    if args.save:
        save_checkpoint(torch, os.path.join(args.save, "rank%d.pt" % rank), {
            "model": model.state_dict(), "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(), "step": step, "loader": loader.state(),
            "rng": {"python": random.getstate(), "numpy": np.random.get_state(),
                    "torch": torch.get_rng_state(), "cuda": torch.cuda.get_rng_state()}})
    if rank == 0 and args.params:
        flat = torch.cat([p.detach().float().reshape(-1) for p in model.parameters()]).cpu().numpy()
        data = flat.astype("<f4").tobytes()
        with open(args.params, "wb") as out:
            out.write(data)
        record({"kind": "params", "count": int(flat.size), "sha256": hashlib.sha256(data).hexdigest()})
    if world > 1:
        torch.distributed.barrier()
        torch.distributed.destroy_process_group()


def main():
    args = options()
    started = time.time()
    if args.mode == "compute":
        compute(args)
    else:
        if args.extra_steps and not args.load:
            die("--extra-steps needs --load DIR", 2)
        if (args.stop < 1 and args.extra_steps < 1) or not args.records:
            die("train needs --stop N or --load DIR --extra-steps N (N >= 1) and --records FILE", 2)
        train(args)
    sys.stderr.write("envlock-resume: %s done in %.1f s\n" % (args.mode, time.time() - started))


if __name__ == "__main__":
    main()
