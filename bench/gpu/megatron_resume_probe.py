#!/usr/bin/env python3
"""Runs Megatron-LM's pretrain_gpt.py unchanged, with read-only probes added from outside.

Used by bench/gpu/megatron_resume.sh to see why a Megatron-LM resume does or does not match a
continuous run in the way `envlock-verify --check resume --train-cmd` compares them
(docs/manual/resume.md). Nothing in Megatron's files is edited: this script wraps functions of
the imported modules before running pretrain_gpt.py as __main__.

Usage: megatron_resume_probe.py MEGATRON_DIR [pretrain_gpt.py arguments...]
Environment:
  PROBE_DUMP_DIR    if set, the optimizer and model state is written there (torch.save) before the
                    first step of the process (before_<step>.pt) and after each step listed in
                    PROBE_DUMP_STEPS (after_<step>.pt), for bench/gpu/megatron_resume_compare.py.
  PROBE_DUMP_STEPS  comma-separated step numbers (1-based), default "10,11".

Adds to the output, one line per step, after Megatron's own iteration line:
  ENVLOCK_PROBE {"kind": "step", "step": 11, "loss": "0x1.4c...p+3", "lr_used": ..., ...}
with the loss and learning rates in exact hex (Megatron itself prints 7 significant digits),
the learning rate the step's update used and the one after the scheduler step (the one Megatron
logs), the grad norm, a hash of the token batch the step read, and hashes of the model
parameters, the optimizer's main parameters, moments and step count after the step. A line of
kind "state" gives the same hashes before the first step of the process, i.e. right after a
checkpoint was loaded.

The dataset helpers (megatron/core/datasets/helpers.cpp) are expected to be built beforehand
(megatron_resume.sh does it); if they cannot be imported, a Python version of the one function
a mock-data GPT run needs (build_sample_idx) stands in, and Megatron's own compile step is
skipped either way.
"""
import hashlib
import json
import os
import random
import runpy
import sys
import types


def _fallback_helpers():
    import numpy

    def build_sample_idx(sizes, document_idx, seq_length, num_epochs, tokens_per_epoch,
                         drop_last_partial_sequence=True, add_extra_token_to_sequence=1,
                         dtype=numpy.int32):
        # Same walk as build_sample_idx in megatron/core/datasets/helpers.cpp.
        if drop_last_partial_sequence:
            num_samples = (num_epochs * tokens_per_epoch - add_extra_token_to_sequence) // seq_length
        else:
            import math
            num_samples = math.ceil(float(num_epochs * tokens_per_epoch
                                          - add_extra_token_to_sequence) / seq_length)
        sizes = sizes.tolist()
        doc = document_idx.tolist()
        out = numpy.zeros((num_samples + 1, 2), dtype=dtype)
        index, doc_index, offset = 1, 0, 0
        while index <= num_samples:
            remaining = seq_length + add_extra_token_to_sequence
            while remaining != 0:
                length = sizes[doc[doc_index]] - offset
                remaining -= length
                if remaining <= 0:
                    offset += remaining + length - add_extra_token_to_sequence
                    remaining = 0
                else:
                    if doc_index == len(doc) - 1:
                        offset = sizes[doc[doc_index]] - add_extra_token_to_sequence
                        break
                    doc_index += 1
                    offset = 0
            out[index] = (doc_index, offset)
            index += 1
        return out

    module = types.ModuleType("megatron.core.datasets.helpers_cpp")
    module.build_sample_idx_int32 = lambda *a: build_sample_idx(*a, dtype=numpy.int32)
    module.build_sample_idx_int64 = lambda *a: build_sample_idx(*a, dtype=numpy.int64)
    return module


def main():
    megatron_dir = os.path.abspath(sys.argv[1])
    script = os.path.join(megatron_dir, "pretrain_gpt.py")
    sys.path.insert(0, megatron_dir)
    sys.argv = [script] + sys.argv[2:]

    try:
        import megatron.core.datasets.helpers_cpp  # noqa: F401
        helpers = "compiled"
    except ImportError:
        sys.modules["megatron.core.datasets.helpers_cpp"] = _fallback_helpers()
        helpers = "python fallback"
    import megatron.core.datasets.utils as dataset_utils
    dataset_utils.compile_helpers = lambda: None

    import numpy
    import torch
    import megatron.training.training as training
    from megatron.core import tensor_parallel
    from megatron.core.rerun_state_machine import RerunDataIterator

    dump_dir = os.environ.get("PROBE_DUMP_DIR")
    dump_steps = {int(s) for s in os.environ.get("PROBE_DUMP_STEPS", "10,11").split(",") if s}
    batches = []

    def emit(record):
        print("ENVLOCK_PROBE " + json.dumps(record, sort_keys=True, default=str), flush=True)

    def tensor_bytes(t):
        t = t.detach()
        if t.dim() == 0:
            t = t.reshape(1)
        return t.contiguous().view(torch.uint8).cpu().numpy().tobytes()

    def digest(items):
        h = hashlib.sha256()
        for t in items:
            h.update(tensor_bytes(t) if isinstance(t, torch.Tensor) else repr(t).encode())
        return h.hexdigest()[:16]

    original_next = RerunDataIterator.__next__

    def probed_next(self):
        batch = original_next(self)
        if isinstance(batch, dict) and "tokens" in batch:
            batches.append(digest([batch["tokens"], batch.get("labels")]))
        return batch

    RerunDataIterator.__next__ = probed_next

    def torch_optimizers(opt):
        if hasattr(opt, "chained_optimizers"):
            return [t for c in opt.chained_optimizers for t in torch_optimizers(c)]
        return [opt.optimizer] if getattr(opt, "optimizer", None) is not None else []

    def collect(model, optimizer):
        main, exp_avg, exp_avg_sq, steps, groups = [], [], [], [], []
        for topt in torch_optimizers(optimizer):
            for group in topt.param_groups:
                groups.append({k: (float(v) if isinstance(v, torch.Tensor) else v)
                               for k, v in group.items() if k != "params"})
                for p in group["params"]:
                    state = topt.state.get(p, {})
                    main.append(p.detach())
                    exp_avg.append(state.get("exp_avg"))
                    exp_avg_sq.append(state.get("exp_avg_sq"))
                    step = state.get("step")
                    steps.append(None if step is None else float(step))
        model_params = [p.detach() for chunk in model for p in chunk.parameters()]
        return main, exp_avg, exp_avg_sq, steps, groups, model_params

    def rng_digests():
        tracker = tensor_parallel.get_cuda_rng_tracker().get_states()
        return {
            "python": hashlib.sha256(repr(random.getstate()).encode()).hexdigest()[:16],
            "numpy": hashlib.sha256(repr(numpy.random.get_state()).encode()).hexdigest()[:16],
            "torch_cpu": digest([torch.get_rng_state()]),
            "torch_cuda": digest([torch.cuda.get_rng_state()]),
            "tracker": digest([tracker[k] for k in sorted(tracker)]),
        }

    def state_record(model, optimizer, scheduler):
        main, exp_avg, exp_avg_sq, steps, groups, model_params = collect(model, optimizer)
        return {
            "model_params": digest(model_params),
            "main_params": digest(main),
            "exp_avg": digest([t for t in exp_avg if t is not None]),
            "exp_avg_sq": digest([t for t in exp_avg_sq if t is not None]),
            "opt_steps": sorted({s for s in steps if s is not None}),
            "opt_steps_missing": sum(1 for s in steps if s is None),
            "sched_num_steps": getattr(scheduler, "num_steps", None),
            "groups": [{k: g.get(k) for k in ("lr", "weight_decay", "betas", "eps", "wd_mult",
                                              "lr_mult", "max_lr", "min_lr")} for g in groups],
            "rng": rng_digests(),
        }

    def dump(name, model, optimizer, scheduler):
        if not dump_dir:
            return
        main, exp_avg, exp_avg_sq, steps, groups, model_params = collect(model, optimizer)
        cpu = lambda ts: [None if t is None else t.detach().float().cpu().clone() for t in ts]
        os.makedirs(dump_dir, exist_ok=True)
        torch.save({"main": cpu(main), "exp_avg": cpu(exp_avg), "exp_avg_sq": cpu(exp_avg_sq),
                    "steps": steps, "groups": groups, "model": cpu(model_params),
                    "sched_num_steps": getattr(scheduler, "num_steps", None)},
                   os.path.join(dump_dir, name + ".pt"))

    original_train_step = training.train_step
    first = [True]

    def probed_train_step(*args, **kwargs):
        model, optimizer, scheduler = args[2], args[3], args[4]
        iteration = kwargs.get("iteration")
        step = iteration + 1
        if first[0]:
            first[0] = False
            record = state_record(model, optimizer, scheduler)
            record.update({"kind": "state", "before_step": step, "helpers": helpers,
                           "torch": torch.__version__, "optimizer": [type(optimizer).__name__] +
                           [type(t).__name__ for t in torch_optimizers(optimizer)]})
            emit(record)
            dump("before_%d" % step, model, optimizer, scheduler)
        lr_used = [float(g["lr"]) for g in optimizer.param_groups]
        wd_used = [float(g["weight_decay"]) for g in optimizer.param_groups]
        seen = len(batches)
        out = original_train_step(*args, **kwargs)
        loss_dict, grad_norm = out[0], out[5]
        record = {"kind": "step", "step": step,
                  "loss": {k: float(v).hex() for k, v in loss_dict.items()},
                  "loss_dec": {k: repr(float(v)) for k, v in loss_dict.items()},
                  "lr_used": float(lr_used[0]).hex(), "lr_used_groups": [x.hex() for x in lr_used],
                  "wd_used_groups": wd_used,
                  "lr_after": float(optimizer.param_groups[0]["lr"]).hex(),
                  "grad_norm": None if grad_norm is None else float(grad_norm).hex(),
                  "batches": batches[seen:]}
        state = state_record(model, optimizer, scheduler)
        for key in ("model_params", "main_params", "exp_avg", "exp_avg_sq", "opt_steps",
                    "sched_num_steps", "rng"):
            record[key] = state[key]
        emit(record)
        if step in dump_steps:
            dump("after_%d" % step, model, optimizer, scheduler)
        return out

    training.train_step = probed_train_step
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
