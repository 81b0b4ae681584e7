#!/usr/bin/env bash
# Compiles each target's sources as ONE unity batch, syntax only: two files of a target that
# define the same name in an anonymous namespace (or `static`) clash here, whatever batches of 16
# they fall into as files are added. A clash is then found by this check, not by a later merge.
# Configures build-unity-check/ (no precompiled headers, no kernels); compiles nothing else.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=build-unity-check
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DENVLOCK_UNITY=ON -DENVLOCK_UNITY_BATCH_SIZE=0 \
  -DENVLOCK_PCH=OFF -DENVLOCK_KERNELS=OFF -DCMAKE_CXX_COMPILER_LAUNCHER= >/dev/null ||
  { echo "unity-check.sh: cmake could not configure $dir" >&2; exit 2; }
python3 - "$dir" <<'PY'
import json, os, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
build = sys.argv[1]
entries = [e for e in json.load(open(os.path.join(build, "compile_commands.json")))
           if "/Unity/unity_" in e["file"]]
def syntax_only(entry):
    args = shlex.split(entry["command"])
    if "-o" in args:
        i = args.index("-o")
        del args[i:i + 2]
    run = subprocess.run(args + ["-fsyntax-only"], cwd=entry["directory"], capture_output=True,
                         text=True)
    target = entry["file"].split("/CMakeFiles/")[1].split(".dir/")[0]
    return target, run.returncode, run.stderr
failed = 0
with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    for target, rc, err in pool.map(syntax_only, entries):
        if rc != 0:
            failed += 1
            print(f"unity-check: {target}: its files do not compile as one batch:")
            print("\n".join(l for l in err.splitlines() if "error" in l)[:4000])
print(f"unity-check: {len(entries)} targets, {failed} with clashes")
sys.exit(1 if failed else 0)
PY
