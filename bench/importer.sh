#!/usr/bin/env bash
# The Pyxis importer's figures, on an image of about SIZE_MIB MiB in 5 layers pushed to a
# docker-registry on loopback and pinned by a lock:
#  - the cached `envlock-importer get` of an image already imported and verified (the median of
#    20 runs; target <= 50 ms), next to what its verified stamp spares it: a full sha256 of the
#    .sqsh (`sha256sum`), which a check without the stamp would pay on every job, and next to the
#    same get through the full tool (`envlock importer get`), whose start alone loads libcurl,
#    libgit2 and libarchive;
#  - the first `get` (a native import into the cache) next to `envlock squashfs --lock` of the
#    same image.
#  - as root, on a shared cluster (a private /etc in its own mount namespace, real users):
#    the cached get from root's shared cache as a non-root user, p50 and p99 over 640 sequential
#    and 64 concurrent gets (target p99 <= 50 ms), next to the same from the user's own cache;
#    the registry bytes and imports for one image of CLUSTER_MIB MiB across 4 users x 4 nodes
#    of the four-node test cluster, with the prolog filling each node's shared cache (target:
#    one import per node), next to the same with no shared cache; and the time the prolog's
#    image step (envlock-importer check and fill) adds to the prolog.
# Prints the figures side by side; asserts nothing.
# Usage: ENVLOCK=build/envlock bash bench/importer.sh [SIZE_MIB] [CLUSTER_MIB]  (256, 32)
set -uo pipefail
if [ "$(id -u)" -eq 0 ] && [ -z "${E2E_PRIVATE_ETC:-}" ] && command -v unshare >/dev/null; then
  export E2E_PRIVATE_ETC=1
  exec unshare --mount --propagation private bash "$0" "$@"
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
export REPO
ENVLOCK=$(realpath "${ENVLOCK:-$REPO/build/envlock}")
SIZE_MIB=${1:-256}
CLUSTER_MIB=${2:-32}
for t in docker-registry skopeo openssl python3 gzip tar curl bc; do
  command -v "$t" >/dev/null || { echo "bench/importer.sh: $t is missing" >&2; exit 3; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-importer.XXXXXX")
export WORK
. "$REPO/tests/e2e/lib.sh"
trap 'e2e_cleanup; rm -rf "$WORK"' EXIT
cd "$WORK" || exit 3
export TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR" "$WORK/locks" "$WORK/cache"
. "$REPO/bench/layout.sh"
bench_layout "$WORK" "$SIZE_MIB"
img_registry_start || { echo "bench/importer.sh: docker-registry did not start" >&2; exit 3; }
D=$(img_push "$WORK/layout" bench "$IMG_REGISTRY/bench/image:v1" oci)
python3 - "$REPO/tests/data/verify/lock.json" "$WORK/locks/bench.lock.json" "$IMG_REGISTRY/bench/image" "$D" <<'PY'
import json, sys
template, out, repo, digest = sys.argv[1:5]
d = json.load(open(template))
d["base_image"] = {"digest": digest, "media_type": "application/vnd.oci.image.manifest.v1+json",
                   "name": repo, "platform": "linux/amd64", "platform_digest": digest,
                   "reference": repo + ":v1", "tag": "v1"}
d["enroot"] = {"source_date_epoch": 1700000000, "squash_options": "-comp lzo -noD -exit-on-error"}
json.dump(d, open(out, "w"), indent=2, sort_keys=True)
PY
cat >"$WORK/importer.yaml" <<Y
locks: [$WORK/locks]
cache: $WORK/cache
registry: {insecure: [$IMG_REGISTRY]}
Y
# Under a job's environment the importer reads /etc/envlock/importer.yaml alone: as root the bench
# has a private /etc (lib/private_etc.sh) to put it in; otherwise the gets run outside a job.
if [ -n "${E2E_PRIVATE_ETC:-}" ]; then
  private_etc
  cp "$WORK/importer.yaml" /etc/envlock/importer.yaml
  JOB_ENV=(SLURM_JOB_ID=100 SLURM_STEP_ID=0 SLURM_JOB_UID=0 PYXIS_RUNTIME_PATH=/run/pyxis PYXIS_VERSION=0.24.0)
else
  JOB_ENV=(ENVLOCK_IMPORTER_CONFIG="$WORK/importer.yaml")
fi
IMPORTER=$(dirname "$ENVLOCK")/envlock-importer
URI="docker://$IMG_REGISTRY#bench/image:v1"
get() { # JOB [COMMAND...]: a get as Pyxis runs it (default command: envlock-importer)
  local job=$1
  shift
  [ $# -gt 0 ] || set -- "$IMPORTER"
  env -i PATH="$PATH" TMPDIR="$TMPDIR" "${JOB_ENV[@]}" SLURM_JOB_ID="$job" \
    "$@" get "$URI" </dev/null 2>/dev/null
}
now() { echo "$EPOCHREALTIME"; } # bash 5: no process is started to read the clock
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
sync

s=$(now)
"$ENVLOCK" squashfs --lock "$WORK/locks/bench.lock.json" --insecure-registry "$IMG_REGISTRY" \
  -o "$WORK/squashfs/bench.sqsh" >"$WORK/squashfs.log" 2>&1 || { echo "envlock squashfs failed:" >&2; cat "$WORK/squashfs.log" >&2; exit 3; }
squashfs_s=$(echo "$(now) - $s" | bc)
s=$(now)
sqsh=$(get 1) || { echo "the first get failed" >&2; exit 3; }
first_s=$(echo "$(now) - $s" | bc)
[ "$(sha256sum <"$sqsh")" = "$(sha256sum <"$WORK/squashfs/bench.sqsh")" ] ||
  echo "warning: the get's .sqsh differs from envlock squashfs's" >&2
cached_ms=$(for i in $(seq 20); do
  s=$EPOCHREALTIME; get $((100 + i)) >/dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
full_ms=$(for i in $(seq 20); do
  s=$EPOCHREALTIME; get $((200 + i)) "$ENVLOCK" importer >/dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
true_ms=$(for _ in $(seq 20); do
  s=$EPOCHREALTIME; env -i /bin/true </dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
hash_ms=$(for _ in 1 2 3; do
  s=$EPOCHREALTIME; sha256sum "$sqsh" >/dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
# CPU time, which a busy machine does not inflate as it does wall time (when perf is there).
cpu_ms=n/a
if command -v perf >/dev/null; then
  cpu_ms=$(env -i PATH="$PATH" "${JOB_ENV[@]}" \
    perf stat -x, -e task-clock -r 20 "$IMPORTER" get "$URI" 2>&1 >/dev/null </dev/null |
    awk -F, '/task-clock/{printf "%.1f", $1}')
fi
size=$(($(stat -c %s "$sqsh") / 1048576))

printf 'image: %s MiB in 5 layers; .sqsh %s MiB\n' "$(du -sm "$WORK/layout" | cut -f1)" "$size"
printf 'cached get (median of 20): %.1f ms (target <= 50 ms); a full sha256 of the .sqsh instead: %.1f ms;\n' \
  "$cached_ms" "$hash_ms"
printf '  its CPU time (perf stat task-clock): %s ms; the same get through envlock importer: %.1f ms;\n' \
  "$cpu_ms" "$full_ms"
printf '  env -i /bin/true, started the same way: %.1f ms; load average now: %s\n' "$true_ms" \
  "$(cut -d' ' -f1 /proc/loadavg)"
printf 'first get (import into the cache): %.2f s; envlock squashfs --lock of the same image: %.2f s; ratio %.3f\n' \
  "$first_s" "$squashfs_s" "$(echo "$first_s / $squashfs_s" | bc -l)"

[ -n "${E2E_PRIVATE_ETC:-}" ] || { echo "shared-cluster figures: skipped (they need root)"; exit 0; }
chmod 755 "$WORK"
chmod 1777 "$WORK/cache" "$TMPDIR"
pct() { # P: the P-th percentile of the numbers on stdin
  sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int((NR*p+99)/100); if (i<1) i=1; printf "%.1f", a[i]}'
}
user=envlock-bench1
test_user "$user" >/dev/null
cat >/etc/envlock/importer.yaml <<Y
locks: [$WORK/locks]
cache: $WORK/cache
shared_cache: $WORK/shared
registry: {insecure: [$IMG_REGISTRY]}
Y
env -i PATH="$PATH" SLURM_JOB_ID=1 "$IMPORTER" fill "$URI" >/dev/null 2>&1 || echo "warning: the fill failed" >&2
uid=$(id -u "$user") gid=$(id -g "$user")
# ugets FIRST COUNT [PARALLEL]: COUNT gets as the user, as Pyxis runs them (job FIRST, FIRST+1,
# ...), one after another or all at once; prints each get's wall time in ms, measured around the
# importer alone (the user's shell is started once, outside the figures).
ugets() {
  setpriv --reuid="$uid" --regid="$gid" --init-groups env -i PATH="$PATH" TMPDIR="$TMPDIR" \
    IMPORTER="$IMPORTER" URI="$URI" bash -c '
    one() {
      local s=$EPOCHREALTIME
      env SLURM_JOB_ID="$1" SLURM_STEP_ID=0 PYXIS_VERSION=0.24.0 "$IMPORTER" get "$URI" \
        </dev/null >/dev/null 2>&1
      local e=$EPOCHREALTIME
      echo "$(( (${e/./} - ${s/./}) ))"
    }
    for ((i = 0; i < $2; i++)); do
      if [ "${3:-}" = parallel ]; then one $(($1 + i)) & else one $(($1 + i)); fi
    done
    wait' ugets "$@" | awk '{printf "%.1f\n", $1 / 1000}'
}
ugets 2 1 >/dev/null
seq_ms=$(ugets 1000 640)
conc_ms=$(ugets 3000 64 parallel)
# The reference: the same user's own cache (no shared cache configured).
sed -i '/^shared_cache:/d' /etc/envlock/importer.yaml
ugets 4 1 >/dev/null
own_ms=$(ugets 5000 640)
printf 'cached get as a user, 640 sequential: shared cache p50 %s ms p99 %s ms; own cache p50 %s ms p99 %s ms (target p99 <= 50 ms)\n' \
  "$(pct 50 <<<"$seq_ms")" "$(pct 99 <<<"$seq_ms")" "$(pct 50 <<<"$own_ms")" "$(pct 99 <<<"$own_ms")"
printf '  64 concurrent from the shared cache: p50 %s ms p99 %s ms; load average now: %s\n' \
  "$(pct 50 <<<"$conc_ms")" "$(pct 99 <<<"$conc_ms")" "$(cut -d' ' -f1 /proc/loadavg)"

# ---- 4 users x 4 nodes, the prolog filling each node's shared cache
e2e_cleanup
E2E_PIDS=()
export IMG_REGISTRY_LOG_LEVEL=info
img_registry_start || { echo "docker-registry did not start" >&2; exit 3; }
bench_layout "$WORK/small" "$CLUSTER_MIB" >/dev/null 2>&1
D2=$(img_push "$WORK/small/layout" bench "$IMG_REGISTRY/bench/small:v1" oci)
python3 - "$REPO/tests/data/verify/lock.json" "$WORK/locks/small.lock.json" "$IMG_REGISTRY/bench/small" "$D2" <<'PY2'
import json, sys
template, out, repo, digest = sys.argv[1:5]
d = json.load(open(template))
d["base_image"] = {"digest": digest, "media_type": "application/vnd.oci.image.manifest.v1+json",
                   "name": repo, "platform": "linux/amd64", "platform_digest": digest,
                   "reference": repo + ":v1", "tag": "v1"}
d["enroot"] = {"source_date_epoch": 1700000000, "squash_options": "-comp lzo -noD -exit-on-error"}
json.dump(d, open(out, "w"), indent=2, sort_keys=True)
PY2
rm -f "$WORK/locks/bench.lock.json"
SMALL="docker://$IMG_REGISTRY#bench/small:v1"
mkdir -p "$WORK/bin" "$WORK/hooks"
for t in envlock envlock-verify envlock-importer; do ln -sf "$(dirname "$ENVLOCK")/$t" "$WORK/bin/$t"; done
cat >"$WORK/hooks/prolog" <<SH
#!/bin/sh
export ENVLOCK_LOCK=$WORK/no-lock.json ENVLOCK_BIN=$WORK/bin SLURM_CONF=$WORK/slurm/slurm.conf
exec $REPO/share/slurm/envlock-prolog
SH
chmod +x "$WORK/hooks/prolog"
cat >"$WORK/pyxis-option.c" <<'C'
#include <stddef.h>
#include <slurm/spank.h>
SPANK_PLUGIN(pyxis, 1);
static int image_option(int val, const char *optarg, int remote) {
  (void)val, (void)optarg, (void)remote;
  return 0;
}
struct spank_option spank_options[] = {
    {"container-image", "IMAGE", "the container image (a stand-in for Pyxis's option)", 1, 0,
     image_option},
    SPANK_OPTIONS_TABLE_END};
int slurm_spank_init(spank_t sp, int ac, char **av) {
  (void)sp, (void)ac, (void)av;
  return 0;
}
C
gcc -shared -fPIC -o "$WORK/pyxis-option.so" "$WORK/pyxis-option.c" || exit 3
echo "required $WORK/pyxis-option.so" >"$WORK/plugstack.conf"
export SLURM_EXTRA_CONF="PlugStackConfig=$WORK/plugstack.conf
Prolog=$WORK/hooks/prolog
PrologFlags=Alloc"
slurm_start
for n in 1 2 3 4; do mkdir -p "$WORK/slurm/local-node$n/cache" && chmod 1777 "$WORK/slurm/local-node$n/cache"; done
for u in 1 2 3 4; do test_user "envlock-bench-u$u" >/dev/null; done
cluster_run() { # SHARED(yes|no): every user's job on all four nodes at once; prints registry bytes
  sed -i '/^shared_cache:/d; s|^cache: .*|cache: '"$SLURM_LOCAL"'/cache|' /etc/envlock/importer.yaml
  [ "$1" = yes ] && echo "shared_cache: $SLURM_LOCAL/shared" >>/etc/envlock/importer.yaml
  local before after u pids=()
  before=$(awk '$6 == "\"GET" && $9 == 200 {s += $10} END {print s + 0}' "$WORK/img-registry/log")
  for u in 1 2 3 4; do
    as_user "envlock-bench-u$u" env -i PATH="$PATH" SLURM_CONF="$SLURM_CONF" TMPDIR="$TMPDIR" \
      srun -N4 --ntasks-per-node=1 --container-image="$SMALL" "$IMPORTER" get "$SMALL" >"$WORK/cl-$1-$u.out" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  after=$(awk '$6 == "\"GET" && $9 == 200 {s += $10} END {print s + 0}' "$WORK/img-registry/log")
  echo $((after - before))
}
image_bytes=$(du -sb "$WORK/small/layout/blobs" | cut -f1)
s=$EPOCHREALTIME
own_bytes=$(cluster_run no)
own_s=$(echo "$EPOCHREALTIME - $s" | bc)
rm -rf "$WORK"/slurm/local-node?/cache/*
s=$EPOCHREALTIME
shared_bytes=$(cluster_run yes)
shared_s=$(echo "$EPOCHREALTIME - $s" | bc)
printf '4 users x 4 nodes, one %s MiB image: with the shared cache %s registry bytes (%.1f imports; target 4, one per node) in %.1f s; per-user caches %s bytes (%.1f imports) in %.1f s\n' \
  "$CLUSTER_MIB" "$shared_bytes" "$(echo "$shared_bytes / $image_bytes" | bc -l)" "$shared_s" \
  "$own_bytes" "$(echo "$own_bytes / $image_bytes" | bc -l)" "$own_s"
printf '  gets served from the shared cache: %s of 16\n' "$(cat "$WORK"/cl-yes-?.out | grep -c "^$SLURM_LOCAL/shared/sqsh/")"

# ---- the prolog's added time for the image step (node checks off: no lock)
prolog_ms() { # [IMAGE]: the prolog's wall time in ms, as slurmd runs it for job 7 on node1
  local s e
  s=$EPOCHREALTIME
  env -i SLURMD_NODENAME=node1 SLURM_JOB_ID=7 SLURM_JOB_UID=0 SLURM_NODELIST=node1 \
    ${1:+SPANK__SLURM_SPANK_OPTION_pyxis_container_image=$1} "$WORK/hooks/prolog" >/dev/null 2>&1
  e=$EPOCHREALTIME
  echo "($e - $s) * 1000" | bc
}
without=$(for _ in $(seq 20); do prolog_ms; done | median)
with=$(for _ in $(seq 20); do prolog_ms "$SMALL"; done | median)
printf "the prolog's image step (check, and fill of an image already there): %.1f ms added (prolog %.1f ms with, %.1f ms without)\n" \
  "$(echo "$with - $without" | bc)" "$with" "$without"
