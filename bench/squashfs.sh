#!/usr/bin/env bash
# Squashing an image of about 1 GiB in 5 layers: `envlock squashfs --oci-layout` against the
# reference route `umoci unpack` + `mksquashfs` with the same arguments. Prints both wall times
# and their ratio (target <= 1.0); asserts nothing. Layers hold incompressible data (openssl rand)
# and are gzip -1 compressed, so making the image stays fast.
# Usage: ENVLOCK=build/envlock bash bench/squashfs.sh [SIZE_MIB]   (CI does not run benches)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
SIZE_MIB=${1:-1024}
for t in umoci mksquashfs openssl python3 gzip tar; do
  command -v "$t" >/dev/null || { echo "bench/squashfs.sh: $t is missing" >&2; exit 3; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-squashfs.XXXXXX")
trap 'rm -rf "$W"' EXIT
E=1700000000
. "$REPO/bench/layout.sh"
bench_layout "$W" "$SIZE_MIB"
sync
ARGS=(-mkfs-time $E -all-time $E -all-root -no-progress -comp lzo -noD -exit-on-error)
now() { date +%s.%N; }

s=$(now)
TMPDIR=$W "$ENVLOCK" squashfs --oci-layout "$W/layout" --image bench --source-date-epoch $E \
  -o "$W/envlock.sqsh" >/dev/null
ours=$(echo "$(now) - $s" | bc)

s=$(now)
umoci unpack --image "$W/layout:bench" "$W/bundle" >/dev/null 2>&1
env -i PATH="$PATH" mksquashfs "$W/bundle/rootfs" "$W/ref.sqsh" "${ARGS[@]}" >/dev/null
theirs=$(echo "$(now) - $s" | bc)

size=$(du -sm "$W/layout" | cut -f1)
printf 'squashfs of a %s MiB image in 5 layers: envlock %.2f s, umoci unpack + mksquashfs %.2f s; ratio %.3f\n' \
  "$size" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)"
