# envlock sbom on an NGC-style image tree made by the test (system Python in dist-packages, a
# dpkg status of 400 packages): what it lists is exactly what importlib.metadata and dpkg-query
# find installed, the document validates with CycloneDX's own library, two runs give the same
# bytes, and nothing outside the tree is read. The demo image's SBOM is checked in test_demo.sh.
. "$REPO/tests/e2e/lib.sh"
need_tools node dpkg-query /usr/bin/python3 mksquashfs unsquashfs sha256sum cmp
VALIDATE=$REPO/tools/cyclonedx/validate.js
if [ ! -d "$REPO/tools/cyclonedx/node_modules/@cyclonedx/cyclonedx-library" ]; then
  fail "validator" "CycloneDX's library is not installed (bash scripts/install-deps.sh installs it)"
  finish
fi
cd "$WORK"
/usr/bin/python3 "$REPO/tests/e2e/lib/sbom_rootfs.py" ngc 300 400

# ---- --root, no lock here or above
run_cmd a "$ENVLOCK" sbom --root ngc -o a.cdx.json
check_eq "$a_rc" 0 "sbom --root: exit 0 ($a_err)"
check_eq "$a_err" "envlock: no lock (envlock.lock.json not found here or above): the SBOM lists what is installed, compared with no lock" \
  "no lock: said, word for word"
run_cmd v node "$VALIDATE" a.cdx.json
check_eq "$v_rc:$v_out" "0:a.cdx.json: valid" "CycloneDX's JSON validator accepts it"
run_cmd t /usr/bin/python3 "$REPO/tests/e2e/lib/sbom_truth.py" a.cdx.json ngc \
  /usr/local/lib/python3.12/dist-packages /usr/lib/python3/dist-packages
check_eq "$t_out" "python: 303 installed, 0 missing, 0 extra
deb: 401 installed, 0 missing, 0 extra" "exactly what importlib.metadata and dpkg-query find"
"$ENVLOCK" sbom --root ngc -o b.cdx.json 2>/dev/null
cmp -s a.cdx.json b.cdx.json && ok "two runs: byte-identical" || fail "two runs" "they differ"
comp() { /usr/bin/python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for c in d["components"]:
    if c["name"] == sys.argv[2]:
        props = {p["name"]: p["value"] for p in c.get("properties", [])}
        print(c.get("version"), props.get(sys.argv[3], ""))' "$@"; }
check_eq "$(comp a.cdx.json cuda-runtime envlock:found-in)" "13.0.96 /usr/local/cuda/version.json (cuda_cudart)" "CUDA: version and the file read"
check_eq "$(comp a.cdx.json nccl envlock:found-in)" "2.28.9 /usr/lib/x86_64-linux-gnu/libnccl.so.2.28.9" "NCCL: version and the file read"
check_eq "$(comp a.cdx.json cudnn envlock:found-in)" "9.14.0 file name /usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0" "cuDNN: version and the file read"
check_eq "$(comp a.cdx.json cublas envlock:found-in)" "13.1.0.3 /usr/local/cuda/version.json (libcublas)" "cuBLAS: version and the file read"
check_eq "$(comp a.cdx.json ubuntu envlock:found-in)" "24.04 " "the distribution from os-release"
check_contains "$(cat a.cdx.json)" '"purl": "pkg:deb/ubuntu/libmulti@1.0-1?arch=i386&distro=ubuntu-24.04"' \
  "a package of two architectures: each its own purl"
check_contains "$(cat a.cdx.json)" '"purl": "pkg:pypi/lib-dotted-002@0.2.1%2Bcu130"' "pypi purl: normalised name, encoded version"
check_not_contains "$(cat a.cdx.json)" '"timestamp"' "no lock, no SOURCE_DATE_EPOCH: no timestamp"
SOURCE_DATE_EPOCH=1700000000 "$ENVLOCK" sbom --root ngc -o e.cdx.json 2>/dev/null
check_contains "$(cat e.cdx.json)" '"timestamp": "2023-11-14T22:13:20Z"' "SOURCE_DATE_EPOCH: the timestamp"

# ---- the negative control: the validator can fail
sed 's/"type": "library"/"type": "libraryx"/' a.cdx.json > bad.cdx.json
run_cmd bv node "$VALIDATE" bad.cdx.json
check_eq "$bv_rc" 1 "the validator refuses a document with a wrong component type"

# ---- --sqsh: the same components, and the file's sha256 on the image
mksquashfs ngc ngc.sqsh -quiet -no-progress -all-root -mkfs-time 0 -all-time 0 >/dev/null
run_cmd s "$ENVLOCK" sbom --sqsh ngc.sqsh -o s.cdx.json
check_eq "$s_rc" 0 "sbom --sqsh: exit 0 ($s_err)"
same=$(/usr/bin/python3 -c 'import json,sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); print(a["components"] == b["components"])' a.cdx.json s.cdx.json)
check_eq "$same" True "--sqsh lists the same components as --root"
check_contains "$(cat s.cdx.json)" "\"value\": \"$(sha256sum ngc.sqsh | cut -d' ' -f1)\"" "the .sqsh's sha256 is recorded"
run_cmd sv node "$VALIDATE" s.cdx.json
check_eq "$sv_rc" 0 "the --sqsh SBOM validates"

# ---- nothing outside the tree: a link to the host's os-release leads to the tree's own path
mkdir -p escape/usr/lib escape/var/lib/dpkg
ln -s /etc/os-release escape/usr/lib/os-release
ln -s ../../../../../../var/lib/dpkg/status escape/var/lib/dpkg/status
run_cmd x "$ENVLOCK" sbom --root escape -o x.cdx.json
check_eq "$x_rc" 0 "an image whose links point out of it: exit 0 ($x_err)"
check_not_contains "$(cat x.cdx.json)" '"operating-system"' "the host's os-release is not read"
check_not_contains "$(cat x.cdx.json)" 'pkg:deb/' "the host's dpkg status is not read"

# ---- hostile text: bytes that are not UTF-8 in a METADATA and in the dpkg status, and a stanza
# repeated (the same Package and Architecture): escaped as \xNN, merged with the reason
/usr/bin/python3 "$REPO/tests/e2e/lib/sbom_rootfs.py" hostile 4 4
H=hostile/usr/local/lib/python3.12/dist-packages
mkdir -p "$H/caf-1.0.dist-info" && printf 'Metadata-Version: 2.1\nName: caf\xe9\nVersion: 1.0\n\n' >"$H/caf-1.0.dist-info/METADATA"
printf 'Wheel-Version: 1.0\nTag: py3-none-any\n' >"$H/caf-1.0.dist-info/WHEEL"
printf 'pip\n' >"$H/caf-1.0.dist-info/INSTALLER" && : >"$H/caf-1.0.dist-info/RECORD"
status=hostile/var/lib/dpkg/status
printf '\nPackage: na\xefve\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1.0\xff\nDescription: \xc3\n' >>"$status"
sed -n '/^Package: deb-001$/,/^$/p' "$status" | sed '$d' | { printf '\n'; cat; } >>"$status"
run_cmd h "$ENVLOCK" sbom --root hostile -o h.cdx.json
check_eq "$h_rc" 0 "bytes that are not UTF-8: exit 0 ($h_err)"
run_cmd hv node "$VALIDATE" h.cdx.json
check_eq "$hv_rc:$hv_out" "0:h.cdx.json: valid" "... and the document validates"
check_eq "$(/usr/bin/python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for c in d["components"]:
    if c["name"].startswith(("caf", "na")):
        print(c["name"], c.get("version"), c.get("purl"))' h.cdx.json)" \
  'caf\xe9 1.0 pkg:pypi/caf%E9@1.0
na\xefve 1.0\xff pkg:deb/ubuntu/na%EFve@1.0%FF?arch=amd64&distro=ubuntu-24.04' \
  "each byte that is not UTF-8 written as \\xNN; the purl percent-encodes it"
"$ENVLOCK" sbom --root hostile -o h2.cdx.json 2>/dev/null
cmp -s h.cdx.json h2.cdx.json && ok "hostile text: two runs byte-identical" || fail "hostile text: two runs" "they differ"
lines=$(grep -n '^Package: deb-001$' "$status" | cut -d: -f1)
set -- $lines
check_eq "$(/usr/bin/python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
refs = [c["bom-ref"] for c in d["components"]]
print(len(refs) - len(set(refs)), [c["version"] for c in d["components"] if c["name"] == "deb-001"])
for p in d["metadata"]["properties"]:
    if p["name"] == "envlock:dpkg:duplicate":
        print(p["value"])' h.cdx.json)" \
  "0 ['1.1-1build1']
deb-001:all: 2 stanzas, line $1 (1.1-1build1, installed), line $2 (1.1-1build1, installed): merged into one component, the first installed stanza's" \
  "a repeated stanza: one component, no duplicate bom-ref, the reason in a property"

# ---- SPDX is not offered, and says why
run_cmd f "$ENVLOCK" sbom --root ngc --format spdx
check_eq "$f_rc:$f_err" "2:envlock: error: --format spdx: not offered: no SPDX 2.3 validator from the registries envlock's tests use can check it, so envlock writes CycloneDX 1.6 only (docs/manual/sbom.md)" \
  "--format spdx: exit 2 and why"
run_cmd g "$ENVLOCK" sbom --root ngc --sqsh ngc.sqsh
check_eq "$g_rc:$g_err" "2:envlock: error: give exactly one of --root DIR, --sqsh FILE and --image REF@DIGEST" "two inputs: refused"
finish
