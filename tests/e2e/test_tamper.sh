# Tampering: a changed byte in a lock, a .sqsh or an installed file listed in RECORD is detected,
# and the report names what changed. Bytes are changed at many positions, not one.
. "$REPO/tests/e2e/lib.sh"
need_tools git skopeo umoci docker-registry curl python3 sha256sum mksquashfs
FIXTURE=$REPO/tests/data/megatron-lm/core_v0.19.0
need_fixture "$FIXTURE/uv.lock"
POSITIONS=${ENVLOCK_TAMPER_POSITIONS:-24}

# flip FILE OFFSET: changes the byte at OFFSET to another printable byte of the same class
# (digit to digit, letter to letter), so the file stays well-formed where it was.
flip() {
  python3 - "$1" "$2" <<'PY'
import sys
path, at = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
c = data[at]
if 48 <= c <= 57: data[at] = 48 + (c - 48 + 1) % 10
elif 97 <= c <= 102: data[at] = 97 + (c - 97 + 1) % 6
elif 97 <= c <= 122: data[at] = 97 + (c - 97 + 1) % 26
elif 65 <= c <= 90: data[at] = 65 + (c - 65 + 1) % 26
else: data[at] = c ^ 0x01
open(path, "wb").write(bytes(data))
PY
}

# ---- the lock: every value byte envlock resolved or hashed (digests, commit, sha256s, versions)
proj_make proj || skip "the project to lock could not be made (registry, umoci, skopeo)"
proj_manifest proj '{cuda: "13.3", nccl: "2.28.9", pytorch: "2.11.0"}' 'build:' \
  '  args: {MAX_JOBS: "8"}'
L=(--insecure-registry "$REG_PLAIN")
"$ENVLOCK" lock "${L[@]}" -f proj/envlock.yaml >/dev/null || { fail "lock" "envlock lock failed"; finish; }
cp proj/envlock.lock.json good.lock.json
# Offsets of the value bytes to change: each hex digest, the commit, the sha256s, the versions.
mapfile -t offsets < <(python3 - good.lock.json "$POSITIONS" <<'PY'
import random, re, sys
text = open(sys.argv[1]).read()
spans = [m.span(1) for m in re.finditer(r'"(?:digest|platform_digest|commit|sha256|manifest_sha256|pyproject_sha256|uv_sha256)": "(?:sha256:)?([0-9a-f]{40,64})"', text)]
spans += [m.span(1) for m in re.finditer(r'"version": "([0-9][^"]*)"', text)]
spans += [m.span(1) for m in re.finditer(r'"(?:cuda|nccl|pytorch|MAX_JOBS)": "([^"]+)"', text)]
rng = random.Random(7)
picked = sorted(rng.sample(spans, min(len(spans), int(sys.argv[2]))))
for start, end in picked:
    print(rng.randrange(start, end))
PY
)
check_eq "$(( ${#offsets[@]} >= POSITIONS / 2 ))" 1 "picked ${#offsets[@]} positions in the lock"
undetected=""
for at in "${offsets[@]}"; do
  cp good.lock.json proj/envlock.lock.json
  flip proj/envlock.lock.json "$at"
  run_cmd c "$ENVLOCK" lock "${L[@]}" -f proj/envlock.yaml --check --refresh
  if [ "$c_rc" -ne 1 ] && [ "$c_rc" -ne 2 ]; then
    undetected+=" $at(rc=$c_rc)"
  elif ! printf '%s' "$c_out$c_err" | grep -qE '^[a-z_]+(\.[A-Za-z0-9_.-]+)*:|envlock.lock.json'; then
    undetected+=" $at(no field named: $(printf '%s' "$c_out$c_err" | head -1))"
  fi
done
check_eq "$undetected" "" "lock: each of ${#offsets[@]} changed bytes is detected by lock --check --refresh and named"
cp good.lock.json proj/envlock.lock.json
run_cmd c "$ENVLOCK" lock "${L[@]}" -f proj/envlock.yaml --check --refresh
check_eq "$c_rc" 0 "lock: the untouched lock passes --check --refresh"

# ---- the .sqsh: any byte, anywhere in the file
img_layout layout sample >/dev/null || { fail "make sample layout" "python3"; finish; }
mkdir -p sq && "$ENVLOCK" squashfs --oci-layout layout --image sample -o sq/app.sqsh --source-date-epoch 1 >/dev/null 2>&1
size=$(stat -c %s sq/app.sqsh)
undetected=""
for i in $(seq "$POSITIONS"); do
  at=$(( (RANDOM * 32768 + RANDOM) % size ))
  cp sq/app.sqsh sq/t.sqsh
  flip sq/t.sqsh "$at"
  run_cmd v "$ENVLOCK" squashfs verify sq/t.sqsh --result sq/app.squashfs-result.json
  [ "$v_rc" -eq 1 ] && printf '%s' "$v_out$v_err" | grep -q "sha256" || undetected+=" $at(rc=$v_rc)"
done
check_eq "$undetected" "" "sqsh: each of $POSITIONS changed bytes fails squashfs verify, naming the sha256"

# ---- installed files listed in RECORD (verify --deep)
bash "$REPO/tests/data/verify/make_rootfs.sh" root
mapfile -t files < <(cd root && find opt/venv/lib/python3.12/site-packages -type f -size +0 \
  ! -path '*.dist-info/*' | sort)
check_ne "${#files[@]}" 0 "the fixture has installed files"
undetected=""
for f in "${files[@]}"; do
  rm -rf t && cp -a root t
  flip "t/$f" 0
  run_cmd d "$ENVLOCK_VERIFY" --root t --deep --check packages
  [ "$d_rc" -eq 1 ] && printf '%s' "$d_out" | grep -qF "$(basename "$f")" || undetected+=" $f(rc=$d_rc)"
done
check_eq "$undetected" "" "RECORD: each of ${#files[@]} changed files is detected by verify --deep and named"
finish
