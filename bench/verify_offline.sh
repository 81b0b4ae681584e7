#!/usr/bin/env bash
# envlock-verify offline (--root) on an unpacked image of 200 installed packages, against Python
# reading the same environment's metadata (importlib.metadata over the same site-packages), both
# warm, the median of five runs each. Target: envlock-verify ≤ 0.3 s.
# Usage: bench/verify_offline.sh [ENVLOCK_VERIFY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
verify=${1:-$repo/build/envlock-verify}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
bash "$repo/tests/data/verify/make_rootfs.sh" "$root" >/dev/null
site=$root/opt/venv/lib/python3.12/site-packages
python3 - "$repo/tests/data/verify/lock.json" "$site" "$work/lock.json" <<'PY'
import hashlib, base64, json, os, sys
template, site, out = sys.argv[1:4]
lock = json.load(open(template))
packages = lock["python"]["uv_lock"]["packages"]
for i in range(196):
    name, version = "pkg-%03d" % i, "1.%d.0" % i
    info = os.path.join(site, name.replace("-", "_") + "-" + version + ".dist-info")
    os.makedirs(info)
    files = {}
    for j in range(20):
        rel = "%s/mod_%02d.py" % (name.replace("-", "_"), j)
        os.makedirs(os.path.dirname(os.path.join(site, rel)), exist_ok=True)
        data = ("# module %d of %s\n" % (j, name)).encode() * 40
        open(os.path.join(site, rel), "wb").write(data)
        files[rel] = data
    open(os.path.join(info, "METADATA"), "w").write(
        "Metadata-Version: 2.1\nName: %s\nVersion: %s\n\n" % (name, version))
    lines = ["%s,sha256=%s,%d" % (rel, base64.urlsafe_b64encode(hashlib.sha256(d).digest())
             .rstrip(b"=").decode(), len(d)) for rel, d in sorted(files.items())]
    open(os.path.join(info, "RECORD"), "w").write("\n".join(lines) + "\n")
    packages.append({"name": name, "version": version,
                     "source": {"kind": "registry", "location": "https://pypi.example.invalid/simple"}})
lock["python"]["uv_lock"]["packages"] = sorted(packages, key=lambda p: p["name"])
json.dump(lock, open(out, "w"), indent=2, sort_keys=True)
PY
count=$(ls -d "$site"/*.dist-info | wc -l)
"$verify" --root "$root" --lock "$work/lock.json" >/dev/null || true   # warm the page cache
time_of() { # COMMAND...: the median wall seconds of five runs
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N)
    awk "BEGIN{print $t1 - $t0}"
  done | sort -g | sed -n 3p
}
ours=$(time_of "$verify" --root "$root" --lock "$work/lock.json")
deep=$(time_of "$verify" --root "$root" --lock "$work/lock.json" --deep)
ref=$(time_of python3 -c "import importlib.metadata as m, sys; [d.metadata['Name'] for d in m.distributions(path=[sys.argv[1]])]" "$site")
printf '%-58s %10s\n' "figure ($count packages, median of 5)" "seconds"
printf '%-58s %10.3f\n' "envlock-verify --root (every offline check)" "$ours"
printf '%-58s %10.3f\n' "envlock-verify --root --deep (every RECORD file hashed)" "$deep"
printf '%-58s %10.3f\n' "python3 importlib.metadata over the same site-packages" "$ref"
printf '%-58s %10.3f\n' "ratio envlock-verify / python" "$(awk "BEGIN{print $ours / $ref}")"
