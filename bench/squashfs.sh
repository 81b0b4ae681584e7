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
per_layer=$((SIZE_MIB / 5))

mkdir -p "$W/layout/blobs/sha256" "$W/layers"
for i in 1 2 3 4 5; do
  d=$W/layers/$i
  mkdir -p "$d/opt/layer$i/small"
  # one third in a few big files, the rest in 1 MiB files, plus 200 small files
  openssl rand -out "$d/opt/layer$i/big" $((per_layer / 3 * 1048576))
  for j in $(seq $((per_layer - per_layer / 3))); do
    openssl rand -out "$d/opt/layer$i/f$j" 1048576
  done
  for j in $(seq 200); do echo "layer $i file $j" > "$d/opt/layer$i/small/s$j"; done
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$d" -cf "$W/layers/$i.tar" .
  sha256sum < "$W/layers/$i.tar" | cut -c1-64 > "$W/layers/$i.diff"
  gzip -1 -n "$W/layers/$i.tar"
  rm -rf "$d"
done
python3 - "$W" <<'PY'
import hashlib, json, os, shutil, sys
w = sys.argv[1]
def blob(path=None, data=None):
    h = hashlib.sha256()
    if data is None:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    else:
        h.update(data)
    d = h.hexdigest()
    dst = f"{w}/layout/blobs/sha256/{d}"
    if data is None:
        shutil.move(path, dst)
    else:
        open(dst, "wb").write(data)
    return "sha256:" + d, os.path.getsize(dst)
layers = []
for i in range(1, 6):
    d, n = blob(f"{w}/layers/{i}.tar.gz")
    layers.append({"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": d, "size": n})
cfg = json.dumps({"architecture": "amd64", "os": "linux",
                  "config": {"Env": ["PATH=/usr/bin:/bin"], "Cmd": ["/bin/sh"], "WorkingDir": "/opt"},
                  "rootfs": {"type": "layers", "diff_ids": ["sha256:" + open(f"{w}/layers/{i}.diff").read().strip() for i in range(1, 6)]}}).encode()
cd, cn = blob(data=cfg)
man = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                  "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": cd, "size": cn},
                  "layers": layers}).encode()
md, mn = blob(data=man)
open(f"{w}/layout/oci-layout", "w").write('{"imageLayoutVersion":"1.0.0"}')
json.dump({"schemaVersion": 2, "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
           "digest": md, "size": mn, "annotations": {"org.opencontainers.image.ref.name": "bench"}}]},
          open(f"{w}/layout/index.json", "w"))
PY
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
