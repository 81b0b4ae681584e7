#!/usr/bin/env python3
"""Table of the Megatron-LM resume runs made by bench/gpu/megatron_resume.sh.

Usage: megatron_resume_report.py WORK [--printed]
(--printed: only the per-step table of the values envlock's default pattern reads, from the logs)
WORK holds logs/NAME.log (each with the ENVLOCK_PROBE lines of megatron_resume_probe.py),
logs/NAME.time and dump/NAME/{before,after}_STEP.pt.

For every variant it prints the per-step loss and learning rate of the continuous, first and
resumed runs, the largest |diff| per step range (exact values from the probe lines, and the
values envlock's default --loss-pattern reads from Megatron's own 7-digit iteration lines), and
which parts of the optimizer and model state a checkpoint load restored bit for bit.
"""
import json
import math
import os
import re
import sys

WORK = sys.argv[1]
CHECKPOINT = 10
STEPS = 20

# envlock's default --loss-pattern (src/verify/resume/step_log.cpp), as a Python regex.
NUMBER = r"([-+]?(?:0[xX][0-9a-fA-F.]+[pP][-+]?[0-9]+|[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?|nan|inf))"
MEGATRON_LINE = re.compile(r"iteration\s+([0-9]+)/.*\| learning rate: " + NUMBER +
                           r" \|.*\| lm loss: " + NUMBER + r" \|")


def load_run(name):
    path = os.path.join(WORK, "logs", name + ".log")
    run = {"name": name, "steps": {}, "printed": {}, "state": None, "time": None, "tail": ""}
    if not os.path.exists(path):
        run["missing"] = True
        return run
    lines = open(path, errors="replace").read().splitlines()
    for line in lines:
        if line.startswith("ENVLOCK_PROBE "):
            record = json.loads(line[len("ENVLOCK_PROBE "):])
            if record["kind"] == "step":
                run["steps"][record["step"]] = record
            else:
                run["state"] = record
        m = MEGATRON_LINE.search(line)
        if m:
            run["printed"][int(m.group(1))] = (float(m.group(3)), float(m.group(2)))
    run["tail"] = "\n".join(l for l in lines[-400:] if "Error" in l or "error" in l)[-1500:]
    time_path = os.path.join(WORK, "logs", name + ".time")
    if os.path.exists(time_path):
        run["time"] = open(time_path).read().strip()
    return run


def loss(run, step):
    value = run["steps"].get(step, {}).get("loss", {}).get("lm loss")
    return None if value is None else float.fromhex(value)


def lr(run, step, key="lr_after"):
    record = run["steps"].get(step)
    return None if record is None else float.fromhex(record[key])


def diffs(a, b, steps, value):
    out = {}
    for s in steps:
        x, y = value(a, s), value(b, s)
        if x is not None and y is not None:
            out[s] = (abs(x - y), abs(x - y) / abs(y) if y else math.inf)
    return out


def worst(d):
    if not d:
        return "n/a (no common steps)"
    step = max(d, key=lambda s: d[s][0])
    same = sum(1 for s in d if d[s][0] == 0)
    return "max |diff| %.3e (rel %.3e) at step %d; %d/%d steps bit-identical" % (
        d[step][0], d[step][1], step, same, len(d))


def printed_diffs(a, b, steps, index):
    out = {}
    for s in steps:
        if s in a["printed"] and s in b["printed"]:
            x, y = a["printed"][s][index], b["printed"][s][index]
            out[s] = (abs(x - y), abs(x - y) / abs(y) if y else math.inf)
    return out


def fmt(x):
    return "-" if x is None else "%.9e" % x


def state_compare(file_a, file_b):
    if not (os.path.exists(file_a) and os.path.exists(file_b)):
        return ["    (dump missing: %s or %s)" % (file_a, file_b)]
    import torch

    a = torch.load(file_a, weights_only=False)
    b = torch.load(file_b, weights_only=False)
    lines = []
    for key in ("model", "main", "exp_avg", "exp_avg_sq"):
        ta, tb = a[key], b[key]
        equal, maxdiff, permuted, n = 0, 0.0, 0, len(ta)
        absent = (sum(1 for x in ta if x is None), sum(1 for y in tb if y is None))
        for i, (x, y) in enumerate(zip(ta, tb)):
            if x is None or y is None:
                continue
            if x.shape == y.shape and torch.equal(x, y):
                equal += 1
                continue
            if x.shape == y.shape:
                maxdiff = max(maxdiff, (x.double() - y.double()).abs().max().item())
            if any(z is not None and z.shape == y.shape and torch.equal(z, y) for z in ta):
                permuted += 1
        lines.append("    %-10s %d/%d tensors bit-identical, max |diff| %.3e%s%s" % (
            key, equal, n, maxdiff,
            ", %d of the others equal a tensor at another position" % permuted if permuted else "",
            ", absent (empty optimizer state): %d vs %d" % absent if any(absent) else ""))
    sa, sb = sorted({s for s in a["steps"] if s is not None}), sorted(
        {s for s in b["steps"] if s is not None})
    lines.append("    optimizer step count: %s vs %s%s" % (sa, sb, "" if sa == sb else "  <-- differs"))
    lines.append("    scheduler num_steps: %s vs %s" % (a["sched_num_steps"], b["sched_num_steps"]))
    for i, (ga, gb) in enumerate(zip(a["groups"], b["groups"])):
        keys = sorted(set(ga) | set(gb), key=str)
        va = {k: ga.get(k) for k in keys}
        vb = {k: gb.get(k) for k in keys}
        if va != vb:
            lines.append("    param group %d differs: %s vs %s" % (
                i, {k: va[k] for k in keys if va[k] != vb[k]}, {k: vb[k] for k in keys if va[k] != vb[k]}))
    if a["groups"] == b["groups"]:
        lines.append("    param groups (all keys but params): identical")
    if len(a["groups"]) != len(b["groups"]):
        lines.append("    param group count %d vs %d" % (len(a["groups"]), len(b["groups"])))
    return lines


def hash_compare(first, resumed):
    """The probe's hashes after step 10 of the first run against before step 11 of the resumed."""
    before = resumed["state"]
    after = first["steps"].get(CHECKPOINT)
    if not before or not after:
        return "    (no probe state)"
    parts = []
    for key in ("model_params", "main_params", "exp_avg", "exp_avg_sq", "opt_steps",
                "sched_num_steps"):
        parts.append("%s %s" % (key, "same" if before.get(key) == after.get(key) else "DIFFERS"))
    for key in sorted(after["rng"]):
        parts.append("rng.%s %s" % (key, "same" if before["rng"].get(key) == after["rng"][key]
                                    else "DIFFERS"))
    return "    hashes, first run after step %d vs resumed run at load: %s" % (
        CHECKPOINT, ", ".join(parts))


def per_step_table(cont, first, resumed):
    rows = ["    step  continuous loss    first/resumed loss   |diff|      cont lr(after)   "
            "res lr(after)    batch"]
    for s in range(1, STEPS + 1):
        other = first if s <= CHECKPOINT else resumed
        c, o = loss(cont, s), loss(other, s)
        d = None if c is None or o is None else abs(c - o)
        cb = cont["steps"].get(s, {}).get("batches")
        ob = other["steps"].get(s, {}).get("batches")
        rows.append("    %4d  %s  %s  %s  %s  %s  %s" % (
            s, fmt(c), fmt(o), "-" if d is None else "%.3e" % d, fmt(lr(cont, s)),
            fmt(lr(other, s)), "same" if cb and cb == ob else ("-" if not ob else "DIFFERS")))
    return rows


def printed_table(get):
    """Per resumed step, the |diff| envlock's default pattern sees (Megatron's 7-digit lines)."""
    print("## printed values (envlock's default --loss-pattern), resumed run vs continuous run")
    print("   per step: |loss diff| / rel / |lr diff|; step %d compared also with the mean of the"
          " continuous run's steps %d and %d" % (CHECKPOINT + 2, CHECKPOINT + 1, CHECKPOINT + 2))
    for p in ("bf16", "fp32"):
        for res_name, cont_name in (("res-full", "cont-a"), ("res-torch", "cont-a"),
                                    ("det-res-full", "det-cont-a"), ("res-nooptim", "cont-a"),
                                    ("res-norng", "cont-a")):
            res, cont = get("%s-%s" % (p, res_name)), get("%s-%s" % (p, cont_name))
            rows, worst_all, worst_rel, lr_all = [], 0.0, 0.0, []
            for s in range(CHECKPOINT + 1, STEPS + 1):
                if s not in res["printed"] or s not in cont["printed"]:
                    continue
                (rl, rlr), (cl, clr) = res["printed"][s], cont["printed"][s]
                d = abs(rl - cl)
                worst_all, worst_rel = max(worst_all, d), max(worst_rel, d / abs(cl))
                lr_all.append(abs(rlr - clr))
                rows.append("%d:%.2e/%.1e/%.1e" % (s, d, d / abs(cl), abs(rlr - clr)))
            a, b = CHECKPOINT + 1, CHECKPOINT + 2
            mean_note = ""
            if all(s in cont["printed"] for s in (a, b)) and b in res["printed"]:
                mean = (cont["printed"][a][0] + cont["printed"][b][0]) / 2
                mean_note = "; step %d vs mean(cont %d, %d): %.2e" % (
                    b, a, b, abs(res["printed"][b][0] - mean))
            print("  %s-%s: %s" % (p, res_name, " ".join(rows)))
            print("      max loss |diff| %.3e (rel %.3e), lr |diff| max %.3e min %.3e%s" % (
                worst_all, worst_rel, max(lr_all, default=0), min(lr_all, default=0), mean_note))


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--printed":
        printed_table(load_run)
        return
    names = sorted(f[:-5] for f in os.listdir(os.path.join(WORK, "logs")) if f.endswith(".time")
                   and f != "all.time")
    runs = {n: load_run(n) for n in names}
    print("# Megatron-LM resume runs (bench/gpu/megatron_resume.sh)")
    print("# steps 1-%d, checkpoint at %d; losses and lr from the probe's exact hex values unless"
          " marked 'printed'" % (STEPS, CHECKPOINT))
    print()
    print("## runs (rc, wall time; phase 1 and 2 ran concurrently on the one GPU, solo-* alone)")
    for n in names:
        r = runs[n]
        state = r["state"] or {}
        print("  %-40s steps %2d..%-2d  printed lines %2d  %s" % (
            r["time"] or n + " (no time)", min(r["steps"], default=0), max(r["steps"], default=0),
            len(r["printed"]), "optimizer %s helpers %s" % (state.get("optimizer"), state.get("helpers"))
            if state else ""))
        if r["tail"] and not r["steps"]:
            print("      error lines: " + r["tail"].replace("\n", "\n      "))
    all_time = os.path.join(WORK, "logs", "all.time")
    if os.path.exists(all_time):
        print("  " + open(all_time).read().strip())
    print()

    def get(n):
        return runs.get(n) or load_run(n)

    for p in ("bf16", "fp32"):
        print("## %s" % p)
        print("### noise floor: identical continuous runs, steps 1-%d" % STEPS)
        pairs = [("cont-a", "cont-b"), ("det-cont-a", "det-cont-b"), ("cont-a", "det-cont-a")]
        if p == "bf16":
            pairs += [("cont-a", "cont-nosave"), ("cont-a", "../solo-cont")]
        for x, y in pairs:
            nx = "%s-%s" % (p, x)
            ny = y[3:] if y.startswith("../") else "%s-%s" % (p, y)
            a, b = get(nx), get(ny)
            rng = range(1, STEPS + 1)
            print("  %s vs %s: loss %s" % (nx, ny, worst(diffs(b, a, rng, loss))))
            print("  %s vs %s: lr   %s" % (nx, ny, worst(diffs(b, a, rng, lr))))
        print()
        variants = [("res-full", "first", "cont-a", "everything restored (torch_dist)"),
                    ("res-torch", "first-torch", "cont-a", "everything restored (--ckpt-format torch)"),
                    ("res-nooptim", "first", "cont-a", "--no-load-optim"),
                    ("res-norng", "first", "cont-a", "--no-load-rng"),
                    ("det-res-full", "det-first", "det-cont-a", "--deterministic-mode, everything restored")]
        for res_name, first_name, cont_name, what in variants:
            cont, first, res = get("%s-%s" % (p, cont_name)), get("%s-%s" % (p, first_name)), get(
                "%s-%s" % (p, res_name))
            print("### %s-%s: %s (continuous = %s-%s)" % (p, res_name, what, p, cont_name))
            head = range(1, CHECKPOINT + 1)
            tail = range(CHECKPOINT + 1, STEPS + 1)
            d_first = diffs(first, cont, head, loss)
            d_res = diffs(res, cont, tail, loss)
            print("  first vs continuous, steps 1-%d: loss %s" % (CHECKPOINT, worst(d_first)))
            for s in (CHECKPOINT + 1, CHECKPOINT + 2):
                if s in d_res:
                    print("  resumed step %d: |diff| %.3e (rel %.3e)" % (s, d_res[s][0], d_res[s][1]))
            print("  resumed vs continuous, steps %d-%d: loss %s" % (CHECKPOINT + 1, STEPS, worst(d_res)))
            print("  resumed vs continuous, steps %d-%d: lr(after step, as Megatron logs) %s" % (
                CHECKPOINT + 1, STEPS, worst(diffs(res, cont, tail, lr))))
            print("  resumed vs continuous, steps %d-%d: lr(used by the step) %s" % (
                CHECKPOINT + 1, STEPS, worst(diffs(res, cont, tail, lambda r, s: lr(r, s, "lr_used")))))
            print("  printed (envlock's default pattern), steps %d-%d: loss %s" % (
                CHECKPOINT + 1, STEPS, worst(printed_diffs(res, cont, tail, 0))))
            print("  printed (envlock's default pattern), steps %d-%d: lr %s" % (
                CHECKPOINT + 1, STEPS, worst(printed_diffs(res, cont, tail, 1))))
            print(hash_compare(first, res))
            print("  state dump, first run after step %d vs resumed run at load:" % CHECKPOINT)
            for line in state_compare(
                    os.path.join(WORK, "dump", first["name"], "after_%d.pt" % CHECKPOINT),
                    os.path.join(WORK, "dump", res["name"], "before_%d.pt" % (CHECKPOINT + 1))):
                print(line)
            if res_name in ("res-full", "det-res-full"):
                print("  state dump, continuous after step %d vs first run after step %d:" % (
                    CHECKPOINT, CHECKPOINT))
                for line in state_compare(
                        os.path.join(WORK, "dump", cont["name"], "after_%d.pt" % CHECKPOINT),
                        os.path.join(WORK, "dump", first["name"], "after_%d.pt" % CHECKPOINT)):
                    print(line)
                print("  state dump, continuous vs resumed, after step %d:" % (CHECKPOINT + 1))
                for line in state_compare(
                        os.path.join(WORK, "dump", cont["name"], "after_%d.pt" % (CHECKPOINT + 1)),
                        os.path.join(WORK, "dump", res["name"], "after_%d.pt" % (CHECKPOINT + 1))):
                    print(line)
            for row in per_step_table(cont, first, res):
                print(row)
            print()
    solo = [get(n) for n in ("solo-cont", "solo-first", "solo-res-full")]
    print("## solo bf16 trio (alone on the GPU)")
    for r in solo:
        print("  %s" % (r["time"] or r["name"] + " (no time)"))
    print("  solo resumed vs solo continuous: loss %s" % worst(
        diffs(solo[2], solo[0], range(CHECKPOINT + 1, STEPS + 1), loss)))
    print("  solo first vs solo continuous: loss %s" % worst(
        diffs(solo[1], solo[0], range(1, CHECKPOINT + 1), loss)))
    print()
    printed_table(get)


if __name__ == "__main__":
    main()
