# bench_layout W SIZE_MIB: an OCI image layout W/layout of about SIZE_MIB MiB in 5 layers, tagged
# "bench": incompressible data (openssl rand), one third in a big file per layer, the rest in
# 1 MiB files, and 200 small files; gzip -1 layers, so making it stays fast. Used by
# bench/squashfs.sh and bench/importer.sh.
bench_layout() {
  local W=$1 SIZE_MIB=$2
  local per_layer i j d
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
}
