#!/usr/bin/env bash
# The overhead of `envlock fleet verify --no-container` on the four-node test cluster (the one
# tests/e2e/lib/slurm.sh starts) against the references `srun -N4 hostname` and the same through a
# batch job (`sbatch --wait`, which fleet verify also needs): each is run 5 times
# and the median wall time printed, with their difference; asserts nothing. The verifier checks an
# unpacked image fixture offline (tests/data/verify), so the figure is Slurm + envlock's own cost.
# Usage (as root, with munge and slurm installed): ENVLOCK=build/envlock
#   ENVLOCK_VERIFY=build/envlock-verify bash bench/fleet_overhead.sh
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
export REPO
ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
ENVLOCK_VERIFY=${ENVLOCK_VERIFY:-$REPO/build/envlock-verify}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-fleet.XXXXXX")
export WORK
. "$REPO/tests/e2e/lib.sh"
skip() { echo "bench/fleet_overhead.sh: $1" >&2; exit 3; }
cd "$WORK" || exit 3
slurm_start
trap 'slurm_stop; e2e_cleanup; rm -rf "$WORK"' EXIT
bash "$REPO/tests/data/verify/make_rootfs.sh" root >/dev/null
for n in 1 2 3 4; do cp -a root "$WORK/slurm/local-node$n/root"; done
mksquashfs root image.sqsh -mkfs-time 0 -all-time 0 -quiet -no-progress >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_of() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
ref=$(for _ in 1 2 3 4 5; do time_of srun -N4 hostname; done | median)
batch=$(for _ in 1 2 3 4 5; do time_of sbatch --wait -N4 -o /dev/null --wrap 'srun hostname'; done | median)
ours=$(for i in 1 2 3 4 5; do
  time_of "$ENVLOCK" fleet verify --lock "$REPO/tests/data/verify/lock.json" --image image.sqsh \
    --nodes 'node[1-4]' --no-container --verifier "$ENVLOCK_VERIFY" \
    --verifier-arg="--root=$SLURM_LOCAL/root" --results "r$i"
done | median)
printf 'fleet_overhead: 4 nodes, median of 5\n'
printf '  envlock fleet verify --no-container: %.2f s\n' "$ours"
printf '  reference srun -N4 hostname:         %.2f s\n' "$ref"
printf '  reference sbatch --wait -N4 (srun hostname inside): %.2f s\n' "$batch"
printf '  difference to srun: %.2f s, to sbatch: %.2f s\n' "$(echo "$ours - $ref" | bc)" "$(echo "$ours - $batch" | bc)"
