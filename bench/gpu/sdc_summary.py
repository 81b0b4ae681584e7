"""Prints the SDC benchmark's figures from the reports bench/gpu/sdc.sh left in a folder."""
import json
import os
import sys

work = sys.argv[1]
times = {}
for line in open(os.path.join(work, "times")):
    name, seconds, rc = line.split()
    times[name] = (float(seconds), int(rc))


def report(name):
    try:
        return json.load(open(os.path.join(work, name + ".json")))
    except (OSError, ValueError):
        err = open(os.path.join(work, name + ".err")).read()[-300:]
        print(f"{name}: no report (exit {times.get(name, ('?', '?'))[1]}): {err}")
        return None


def check(rep, cid):
    return next((c for c in rep["checks"] if c["id"] == cid), None)


def digests(rep):
    c = check(rep, "gpu.0.sdc")
    if c is None or c["outcome"] != "pass":
        return None
    return [(d["step"], d["sha256"]) for d in c["details"]["digests"]]


for name in ("default", "quick"):
    rep = report(name)
    if rep is None:
        continue
    sdc, clocks, gemm = check(rep, "gpu.0.sdc"), check(rep, "gpu.0.clocks"), check(rep, "gpu.0.gemm_bf16")
    fig = {f["name"]: f["value"] for f in sdc["figures"]} if sdc else {}
    gfig = {f["name"]: f["value"] for f in gemm["figures"]} if gemm else {}
    d = sdc["details"] if sdc else {}
    print(f"== {name}: wall {times[name][0]:.1f} s (whole envlock-verify), exit {times[name][1]}")
    print(f"  gpu.0.sdc: {sdc['outcome']} {sdc['found']} {sdc['reason']}")
    print(f"  check seconds (chain, repeat and set-up): {rep['run']['check_seconds'].get('gpu.0.sdc')}")
    print(f"  sustained BF16 during the chain: {fig.get('sdc_bf16', 0):.1f} TFLOP/s over {fig.get('sdc_chain_seconds', 0):.1f} s; "
          f"GEMM check: {', '.join(f'{k} {v:.1f}' for k, v in gfig.items()) or 'not timed'}; "
          f"share {d.get('share_of_gemm_check', float('nan')):.3f}")
    print(f"  chain {d.get('chain')}, cuBLASLt {d.get('cublaslt_version')}, algo {d.get('algo')}, "
          f"driver {d.get('driver_version')}, serial {d.get('serial')!r}, steps {d.get('steps')}, "
          f"digests {len(d.get('digests', []))}, repeated {d.get('repeated')}")
    if clocks:
        cf = {f["name"]: f["value"] for f in clocks["figures"]}
        print(f"  gpu.0.clocks: {clocks['outcome']} {clocks['found']} {clocks['reason']} "
              f"reasons seen {clocks['details'].get('clock_event_reasons')} samples {clocks['details'].get('samples')} {cf}")
    node = check(rep, "sdc.node")
    if node:
        print(f"  sdc.node: {node['outcome']} {node['found']} {node['reason']}")

reference = None
same = 0
runs = 0
for i in range(1, 21):
    rep = report(f"repeat-{i}")
    got = digests(rep) if rep else None
    if got is None:
        print(f"repeat-{i}: the chain did not run")
        continue
    runs += 1
    reference = reference or got
    same += got == reference
    c = check(rep, "gpu.0.sdc")
    if not c["details"]["repeated"]:
        print(f"repeat-{i}: the first segment did not repeat within the run")
secs = sorted(times[f"repeat-{i}"][0] for i in range(1, 21) if f"repeat-{i}" in times)
print(f"== determinism: {runs} runs of {reference and reference[-1][0]} steps, {len(reference or [])} digests each; "
      f"every digest repeated in {same} of {runs} runs; wall per run median {secs[len(secs)//2] if secs else 'nan'} s")
print(f"  last digest: {reference and reference[-1][1]}")

caught = 0
flips = 0
for i in range(1, 21):
    step = 280 + 36 * i
    rep = report(f"flip-{i}")
    got = digests(rep) if rep else None
    if got is None or reference is None:
        print(f"flip-{i}: no digests")
        continue
    flips += 1
    before_equal = all(g == r for g, r in zip(got, reference) if g[0] < step)
    first = next((g[0] for g, r in zip(got, reference) if g[1] != r[1]), None)
    ok = before_equal and first is not None and first >= step
    caught += ok
    print(f"flip-{i}: bit flipped after step {step}: first differing digest at step {first}; "
          f"digests before it equal: {before_equal}; {'caught' if ok else 'NOT caught'}")
print(f"== injected bit flips: {caught} of {flips} caught")
