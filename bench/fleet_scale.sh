#!/usr/bin/env bash
# The cost of `envlock fleet verify --no-container` as the node count grows: starts a test
# cluster of N slurmd on this host (tests/e2e/lib/slurm.sh, SLURM_NODES=N), verifies every node
# once against the offline image fixture (tests/data/verify) and prints the wall time, the jobs
# submitted, the Slurm commands envlock ran (counted by wrappers on PATH; the batch script's own
# srun steps are counted apart), and envlock's CPU time (its own, and with the Slurm commands it
# ran). The cost envlock adds should grow linearly in N; asserts nothing.
# Usage (as root, with munge and slurm installed):
#   bash bench/fleet_scale.sh N [PARALLEL_STEPS]      e.g. bash bench/fleet_scale.sh 64
set -uo pipefail
N=${1:?usage: fleet_scale.sh N [PARALLEL_STEPS]}
PARALLEL=${2:-64}
REPO=$(cd "$(dirname "$0")/.." && pwd)
export REPO
ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
ENVLOCK_VERIFY=${ENVLOCK_VERIFY:-$REPO/build/envlock-verify}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-scale.XXXXXX")
export WORK
. "$REPO/tests/e2e/lib.sh"
skip() { echo "bench/fleet_scale.sh: $1" >&2; exit 3; }
cd "$WORK" || exit 3
export SLURM_NODES=$N
# Many slurmd on one host share one munged and one controller: give them time.
export SLURM_MESSAGE_TIMEOUT=60 SLURM_MUNGE_THREADS=8
up_start=$(date +%s.%N)
slurm_start
trap 'slurm_stop; e2e_cleanup; rm -rf "$WORK"' EXIT
up=$(echo "$(date +%s.%N) - $up_start" | bc)
bash "$REPO/tests/data/verify/make_rootfs.sh" root >/dev/null
mksquashfs root image.sqsh -mkfs-time 0 -all-time 0 -quiet -no-progress >/dev/null

# Counting wrappers: a call from envlock (outside any job) is logged as "envlock NAME", one from
# inside the job as "job NAME".
mkdir -p bin
for t in sbatch scontrol sinfo scancel squeue srun; do
  real=$(command -v "$t")
  cat >"bin/$t" <<SH
#!/bin/sh
if [ -n "\${SLURM_JOB_ID:-}" ]; then echo "job $t" >>"$WORK/calls.log"; else echo "envlock $t" >>"$WORK/calls.log"; fi
exec "$real" "\$@"
SH
  chmod +x "bin/$t"
done

# envlock run under python: wall time, its own CPU (last /proc sample, every 50 ms) and its CPU
# with the commands it ran (wait4).
PATH="$WORK/bin:$PATH" python3 - "$ENVLOCK" fleet verify --lock "$REPO/tests/data/verify/lock.json" \
  --image image.sqsh --nodes "node[1-$N]" --no-container --no-host-checks \
  --verifier "$ENVLOCK_VERIFY" --verifier-arg="--root=$WORK/root" --results r \
  --parallel-steps "$PARALLEL" >run.txt 2>run.err <<'PY'
import os, subprocess, sys, time
tick = os.sysconf("SC_CLK_TCK")
start = time.monotonic()
p = subprocess.Popen(sys.argv[1:], stdout=open("verify.out", "w"), stderr=open("verify.err", "w"))
own = 0.0
while True:
    try:
        f = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
        if f[0] != "Z":
            own = (int(f[11]) + int(f[12])) / tick
    except OSError:
        pass
    pid, status, ru = os.wait4(p.pid, os.WNOHANG)
    if pid:
        break
    time.sleep(0.05)
wall = time.monotonic() - start
print(f"{wall:.2f} {own:.2f} {ru.ru_utime + ru.ru_stime:.2f} {os.waitstatus_to_exitcode(status)}")
PY
read -r wall own total rc <run.txt
count() { grep -c "^$1\$" calls.log 2>/dev/null; }
summary=$(grep ' of .* nodes$' verify.out | tail -1)
printf 'fleet_scale: %s nodes, %s steps at a time (cluster up in %.1f s)\n' "$N" "$PARALLEL" "$up"
printf '  wall %.2f s, exit %s: %s\n' "$wall" "$rc" "$summary"
printf '  jobs submitted: %s\n' "$(count 'envlock sbatch')"
printf '  Slurm calls by envlock: %s (scontrol %s, sinfo %s, sbatch %s, scancel %s)\n' \
  "$(grep -c '^envlock ' calls.log)" "$(count 'envlock scontrol')" "$(count 'envlock sinfo')" \
  "$(count 'envlock sbatch')" "$(count 'envlock scancel')"
printf '  job steps (srun in the job): %s\n' "$(count 'job srun')"
printf '  envlock CPU: %.2f s own, %.2f s with the Slurm commands it ran\n' "$own" "$total"
[ "$rc" -le 1 ] || { echo "fleet verify failed:" >&2; tail -5 verify.err >&2; exit 1; }
