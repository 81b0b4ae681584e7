#!/usr/bin/env bash
# envlock sbom and envlock attest, timed: the SBOM of an unpacked NGC-style tree of 200 Python
# and 400 Debian packages (tests/e2e/lib/sbom_rootfs.py) and, with DEMO=DIR (a demo folder kept by
# ENVLOCK_DEMO_KEEP=1), of the demo image's .sqsh; beside `uv export --format cyclonedx1.5` of the
# demo's uv.lock where uv is installed, else beside the lock alone (its size and package count).
# Then the attest push + fetch round trip of that SBOM on a loopback docker-registry (the referrers
# tag schema), and the peak memory of the SBOM of a 157 MB dpkg status. Prints figures; asserts
# nothing. Best of 3 runs each.
# Usage: ENVLOCK=build/envlock [DEMO=DIR] bash bench/sbom.sh   (CI does not run benches)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ENVLOCK=$(realpath "${ENVLOCK:-$REPO/build/envlock}")
for t in docker-registry umoci skopeo curl python3 bc /usr/bin/time; do
  command -v "$t" >/dev/null || { echo "bench/sbom.sh: $t is missing" >&2; exit 3; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-sbom.XXXXXX")
. "$REPO/scripts/lib/demo_services.sh"
trap 'demo_stop_all; rm -rf "$W"' EXIT
now() { date +%s.%N; }
# best CMD...: the shortest wall time of three runs, in seconds; fails (naming CMD) when a run does.
best() {
  local b="" s t
  for _ in 1 2 3; do
    s=$(now)
    "$@" >/dev/null 2>"$W/best.err" || { echo "bench/sbom.sh: $* failed: $(tail -1 "$W/best.err")" >&2; return 1; }
    t=$(echo "$(now) - $s" | bc)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
  done
  printf '%.3f\n' "$b"
}
size() { stat -c %s "$1"; }

cd "$W"
python3 "$REPO/tests/e2e/lib/sbom_rootfs.py" tree 200 400
t=$(best "$ENVLOCK" sbom --root tree -o tree.cdx.json)
echo "sbom --root (200 Python, 400 Debian packages): $t s, $(size tree.cdx.json) bytes, $(grep -c '"bom-ref"' tree.cdx.json) bom-refs"

# A large dpkg status (158 MB: 20,000 installed packages whose descriptions run to 2,600 short
# continuation lines, the shape that cost a whole-file reader gigabytes), read stanza by stanza:
# envlock sbom's peak RSS beside dpkg-query's on the same status.
python3 "$REPO/tests/e2e/lib/sbom_rootfs.py" big 4 4
python3 - big/var/lib/dpkg/status <<'PY'
import sys
with open(sys.argv[1], "a") as f:
    body = " .\n" * 2600
    for i in range(20000):
        f.write(f"\nPackage: big-{i:05d}\nStatus: install ok installed\nArchitecture: amd64\n"
                f"Version: {i}.0-1\nDescription: package {i}\n" + body)
PY
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/^\tMaximum resident set size (kbytes): //p'; }
rss=$(peak "$ENVLOCK" sbom --root big -o big.cdx.json)
echo "sbom --root, a dpkg status of $(( $(size big/var/lib/dpkg/status) / 1000000 )) MB ($(grep -c '^Package:' big/var/lib/dpkg/status) stanzas): peak RSS $(( rss / 1024 )) MiB, $(grep -c '"purl": "pkg:deb/' big.cdx.json) deb components"
if command -v dpkg-query >/dev/null; then
  mkdir -p big-admin/updates big-admin/info && cp big/var/lib/dpkg/status big-admin/status
  rss=$(peak dpkg-query --admindir=big-admin -W)
  echo "dpkg-query -W on the same status: peak RSS $(( rss / 1024 )) MiB"
fi

if [ -n "${DEMO:-}" ]; then
  cd "$DEMO/project"
  t=$(best "$ENVLOCK" sbom --sqsh image.sqsh -o "$W/demo.cdx.json")
  echo "sbom --sqsh (the demo image): $t s, $(size "$W/demo.cdx.json") bytes"
  if command -v uv >/dev/null; then
    t=$(best uv export --format cyclonedx1.5 --frozen -o "$W/uv.cdx.json")
    echo "uv export --format cyclonedx1.5 (the demo's uv.lock): $t s, $(size "$W/uv.cdx.json") bytes"
  else
    echo "uv export: uv is not installed here; the lock alone: uv.lock $(size uv.lock) bytes," \
      "$(grep -c '^\[\[package\]\]' uv.lock) packages (every platform's, not what is installed)"
  fi
  cd "$W"
fi

demo_start_registry "$W/registry"
demo_push_base "$W/image" "$DEMO_REGISTRY/bench/app:v1" >/dev/null
digest=$(skopeo inspect --tls-verify=false --format '{{.Digest}}' "docker://$DEMO_REGISTRY/bench/app:v1")
image=$DEMO_REGISTRY/bench/app@$digest
s=$(now); "$ENVLOCK" attest push --image "$image" tree.cdx.json >/dev/null
push=$(printf '%.3f' "$(echo "$(now) - $s" | bc)")
s=$(now); "$ENVLOCK" attest fetch "$image" --type sbom -o fetched.cdx.json >/dev/null
fetch=$(printf '%.3f' "$(echo "$(now) - $s" | bc)")
cmp -s tree.cdx.json fetched.cdx.json && same="equal bytes" || same="DIFFERENT bytes"
echo "attest push (docker-registry, tag schema): $push s; fetch: $fetch s; $same ($(size tree.cdx.json) bytes)"
