#!/usr/bin/env bash
# envlock-importer, driven exactly as Pyxis drives its importer plugin (importers/README.md,
# importer.c): argv[0] is the configured path (the envlock-importer executable beside envlock),
# argv is `get URI` or `release`, stdin is /dev/null, the environment is the job's plus SLURM_JOB_UID,
# SLURM_JOB_GID, PYXIS_RUNTIME_PATH and PYXIS_VERSION (PATH from slurmstepd), stdout must hold
# the .sqsh path and nothing else, stderr is what Pyxis prints on a non-zero exit. Against a real
# docker-registry on loopback: first import (byte-identical to an independent reference), cached
# gets, eight concurrent gets importing once, a corrupted cache entry quarantined and imported
# again, unpinned images refused with the policy named (and let through with warn), release
# twice, a SIGKILL mid-import, pre-distributed images, LRU eviction that spares held images,
# configuration errors, and `srun -N4` on the four-node Slurm cluster with a cache per node. Then
# the shared cluster: the operator's /etc/envlock/importer.yaml is the only one read under a job
# (the suite runs in its own mount namespace with a private /etc, lib/private_etc.sh), the audit
# log, and the shared cache attacked by a real non-root user the suite creates.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 umoci skopeo mksquashfs docker-registry curl sha256sum setpriv useradd flock
private_etc
trusted_work
[ -x "$ENVLOCK" ] || skip "no envlock binary at $ENVLOCK"
[ -x "$ENVLOCK_VERIFY" ] || skip "no envlock-verify binary at $ENVLOCK_VERIFY"
export TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR" "$WORK/bin" "$WORK/locks" "$WORK/images"
E=1700000000
IMPORTER=${ENVLOCK_IMPORTER:-$(dirname "$ENVLOCK")/envlock-importer}
[ -x "$IMPORTER" ] || skip "no envlock-importer binary at $IMPORTER"
CFG=/etc/envlock/importer.yaml

img_layout "$WORK/layout" sample >/dev/null || { fail "make sample layout" "python3"; finish; }
img_layout "$WORK/layout-dev" device >/dev/null || { fail "make device layout" "python3"; finish; }
img_registry_start || skip "docker-registry did not start"
D=$(img_push "$WORK/layout" sample "$IMG_REGISTRY/test/sample:v1" oci)
D2=$(img_push "$WORK/layout-dev" device "$IMG_REGISTRY/test/device:v1" oci)
img_push "$WORK/layout" sample "$IMG_REGISTRY/test/unpinned:v1" oci >/dev/null
check_contains "$D$D2" "sha256:" "pushed the test images"

# make_lock OUT REPO TAG DIGEST: the verify test lock with its base image set to REPO:TAG@DIGEST.
make_lock() {
  python3 - "$REPO/tests/data/verify/lock.json" "$@" <<'PY'
import json, sys
template, out, repo, tag, digest = sys.argv[1:6]
d = json.load(open(template))
d["base_image"] = {"digest": digest, "media_type": "application/vnd.oci.image.manifest.v1+json",
                   "name": repo, "platform": "linux/amd64", "platform_digest": digest,
                   "reference": repo + ":" + tag, "tag": tag}
d["enroot"] = {"source_date_epoch": 1700000000, "squash_options": "-comp lzo -noD -exit-on-error"}
d["expect"].pop("host", None)
json.dump(d, open(out, "w"), indent=2, sort_keys=True)
PY
}
make_lock "$WORK/locks/train.lock.json" "$IMG_REGISTRY/test/sample" v1 "$D"
# The lock's sha256 as a verification report states it (envlock-verify, offline on an empty root).
mkdir -p "$WORK/empty"
"$ENVLOCK_VERIFY" --lock "$WORK/locks/train.lock.json" --root "$WORK/empty" --check image --format json -o "$WORK/lock-report.json" >/dev/null
LOCK_SHA=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lock_sha256"])' "$WORK/lock-report.json")

write_config() { # CACHE [EXTRA YAML LINES]
  cat >"$CFG" <<Y
locks: [$WORK/locks]
cache: $1
sqsh_dirs: ${SQSH_DIRS:-[$WORK/images]}
registry:
  insecure: [$IMG_REGISTRY]
lock_timeout_seconds: 60
${2:-}
Y
  chmod 644 "$CFG"
}
mkdir -p "$WORK/cache"
write_config "$WORK/cache"
CACHE=$WORK/cache/$(id -u)

# pyxis JOB ARGS...: the importer run the way Pyxis runs it, for job JOB step 0.
pyxis() {
  local job=$1; shift
  env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TMPDIR="$TMPDIR" SLURM_JOB_ID="$job" SLURM_STEP_ID=0 \
    SLURM_JOB_UID="$(id -u)" SLURM_JOB_GID="$(id -g)" PYXIS_RUNTIME_PATH=/run/pyxis \
    PYXIS_VERSION=0.24.0 "$IMPORTER" "$@" </dev/null
}
URI="docker://$IMG_REGISTRY#test/sample:v1"

img_reference_sqsh "$WORK/layout" sample "$WORK/ref.sqsh" $E || fail "reference .sqsh" "mksquashfs"
REF_SHA=$(sha256sum <"$WORK/ref.sqsh" | cut -c1-64)

# ---- first get: imports natively, byte-identical to the reference pipeline
run_cmd g pyxis 101 get "$URI"
check_eq "$g_rc" 0 "first get exits 0 ($g_err)"
check_eq "$(printf '%s\n' "$g_out" | wc -l)" 1 "stdout holds one line"
SQSH=$g_out
check_contains "$SQSH" "$CACHE/images/sha256-${D#sha256:}-" "the path is in this user's cache, named by the manifest"
check_eq "${SQSH:0:1}" "/" "the path is absolute"
check_eq "$(sha256sum <"$SQSH" | cut -c1-64)" "$REF_SHA" "the .sqsh is byte-identical to umoci + Enroot's files + mksquashfs"
check_contains "$g_err" "envlock importer: importing $IMG_REGISTRY/test/sample@$D for linux/amd64" "stderr says it imports"
check_contains "$g_err" "envlock importer: imported, sha256 checked: $SQSH" "stderr says where it came from"
run_cmd s "$ENVLOCK" squashfs --lock "$WORK/locks/train.lock.json" --insecure-registry "$IMG_REGISTRY" -o "$WORK/sq/train.sqsh"
check_eq "$(sha256sum <"$WORK/sq/train.sqsh" | cut -c1-64)" "$REF_SHA" "the same bytes as envlock squashfs --lock"
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
check_eq "$(jq_py "$SQSH.json" 'd["schema"], d["image"]["digest"], d["image"]["manifest_digest"], d["sqsh"]["sha256"], d["lock"]["sha256"], d["lock"]["pin"], d["expected_from"]')" \
  "envlock.image-record/v1 $D $D $REF_SHA $LOCK_SHA base_image first import" "the record beside the .sqsh: image digest, sha256, lock sha256"
check_eq "$(ls "$CACHE/holds")" "101.0.$(basename "$SQSH" .sqsh)" "get left a hold for job 101 step 0"
check_eq "$(ls "$CACHE/tmp" | wc -l)" 0 "no import folder left"

# ---- cached get: same path, no import; the stamp spares the hash
run_cmd c pyxis 102 get "$URI"
check_eq "$c_rc:$c_out" "0:$SQSH" "cached get prints the same path"
check_contains "$c_err" "envlock importer: cached, sha256 as this user's own stamp says (not read again): $SQSH" "cached get says cached, and whose stamp vouched for it"
check_not_contains "$c_err" "importing" "cached get does not import"
check_eq "$(grep -l "\"sha256\": \"$REF_SHA\"" "$CACHE"/stamps/*.json | wc -l)" 1 "a verified stamp records the sha256"
run_cmd c pyxis 102 get "docker://$IMG_REGISTRY/test/sample@$D"
check_eq "$c_rc:$c_out" "0:$SQSH" "the Docker form with a digest names the same image"
run_cmd c pyxis 102 get "docker://$IMG_REGISTRY#test/sample:${D}"
check_eq "$c_rc:$c_out" "0:$SQSH" "Enroot 3's IMAGE:sha256:HEX names the same image"

# ---- release: idempotent, and twice is fine
run_cmd r pyxis 101 release
check_eq "$r_rc" 0 "release exits 0"
check_eq "$(ls "$CACHE/holds" | grep -c '^101\.')" 0 "release removed job 101's hold"
check_eq "$(ls "$CACHE/holds" | grep -c '^102\.')" 1 "job 102's hold stays"
run_cmd r pyxis 101 release
check_eq "$r_rc:$r_out" "0:" "release twice exits 0 and prints nothing on stdout"
check_contains "$r_err" "release: job 101 step 0: 0 hold(s) released" "the second release had nothing left"
run_cmd r pyxis 102 release
rm -rf "$WORK/nocache"
mkdir -p "$WORK/nocache"
write_config "$WORK/nocache"
run_cmd r pyxis 103 release
check_eq "$r_rc" 0 "release before any get exits 0"
check_eq "$(ls "$WORK/nocache" | wc -l)" 0 "release before any get creates nothing"
write_config "$WORK/cache"

# ---- a corrupted cached file: refused, quarantined, imported again
printf 'X' | dd of="$SQSH" bs=1 seek=4096 conv=notrunc 2>/dev/null
BAD_SHA=$(sha256sum <"$SQSH" | cut -c1-64)
KEY=$(basename "$SQSH" .sqsh)
run_cmd q pyxis 104 get "$URI"
check_eq "$q_rc:$q_out" "1:" "a corrupted cached file fails (exit 1, nothing on stdout)"
check_eq "$q_err" "envlock: error: $SQSH: sha256 $BAD_SHA, expected $REF_SHA (from $SQSH.json, first import); moved to $CACHE/quarantine/$KEY.sqsh; the next get imports the image again" "the message names expected and found"
check_eq "$(sha256sum <"$CACHE/quarantine/$KEY.sqsh" | cut -c1-64)" "$BAD_SHA" "the corrupted file is in quarantine"
check_file "$CACHE/quarantine/$KEY.sqsh.json" "its record went with it"
run_cmd q pyxis 104 get "$URI"
check_eq "$q_rc:$q_out" "0:$SQSH" "the next get imports again"
check_contains "$q_err" "importing" "it imported"
check_eq "$(sha256sum <"$SQSH" | cut -c1-64)" "$REF_SHA" "the re-imported file is right"

# ---- eight concurrent gets of one image import once
rm -rf "$CACHE"
for i in 1 2 3 4 5 6 7 8; do
  pyxis "20$i" get "$URI" >"$WORK/c$i.out" 2>"$WORK/c$i.err" &
  pids[$i]=$!
done
rcs=""
for i in 1 2 3 4 5 6 7 8; do wait "${pids[$i]}"; rcs="$rcs$?"; done
check_eq "$rcs" "00000000" "eight concurrent gets exit 0"
check_eq "$(cat "$WORK"/c?.out | sort -u)" "$SQSH" "eight identical paths"
check_eq "$(cat "$WORK"/c?.out | wc -l)" 8 "one line each"
check_eq "$(cat "$WORK"/c?.err | grep -c 'envlock importer: importing ')" 1 "exactly one imported"
check_eq "$(cat "$WORK"/c?.err | grep -c "envlock importer: cached, sha256 as this user's own stamp says")" 7 "seven reused its result"
check_eq "$(ls "$CACHE/holds" | wc -l)" 8 "eight holds"
check_eq "$(sha256sum <"$SQSH" | cut -c1-64)" "$REF_SHA" "the shared file is right"

# ---- SIGKILL in the middle of an import, then a get
# (mksquashfs through a wrapper that waits: the kill lands mid-import whatever the machine's speed)
rm -rf "$CACHE"
mkdir -p "$WORK/slowbin"
printf '#!/bin/sh\ntouch "%s/mksquashfs-started"\nsleep 30\nexec mksquashfs "$@"\n' "$WORK" >"$WORK/slowbin/mksquashfs"
chmod +x "$WORK/slowbin/mksquashfs"
env -i PATH="$WORK/slowbin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  TMPDIR="$TMPDIR" SLURM_JOB_ID=301 SLURM_STEP_ID=0 SLURM_JOB_UID="$(id -u)" SLURM_JOB_GID="$(id -g)" \
  PYXIS_RUNTIME_PATH=/run/pyxis PYXIS_VERSION=0.24.0 "$IMPORTER" get "$URI" </dev/null >"$WORK/k.out" 2>"$WORK/k.err" &
kpid=$!
in_import() { [ -e "$WORK/mksquashfs-started" ]; }
if wait_until 300 in_import; then
  kill -9 "$kpid"
  wait "$kpid"
  check_eq "$?" 137 "the import was killed (SIGKILL)"
  check_eq "$(ls "$CACHE/images" | wc -l)" 0 "nothing was published"
  check_eq "$(ls "$CACHE/tmp" | wc -l)" 1 "its import folder is left behind"
else
  wait "$kpid"
  fail "kill mid-import" "mksquashfs never started ($(cat "$WORK/k.err"))"
fi
run_cmd k pyxis 302 get "$URI"
check_eq "$k_rc:$k_out" "0:$SQSH" "a get after the SIGKILL succeeds"
check_eq "$(sha256sum <"$SQSH" | cut -c1-64)" "$REF_SHA" "and its file is right"
check_eq "$(ls "$CACHE/tmp" | wc -l)" 0 "the dead import's folder is gone"

# ---- SIGTERM in the middle of an import (a Slurm time limit): it cleans up after itself. A
# mksquashfs first in PATH starts its output and waits, so that the signal lands mid-import.
rm -rf "$CACHE"
mkdir -p "$WORK/fakebin"
cat >"$WORK/fakebin/mksquashfs" <<SH
#!/bin/sh
case "\$1" in -version) exec "$(command -v mksquashfs)" "\$@" ;; esac
echo partial >"\$2"
echo \$\$ >"$WORK/mksquashfs.running"
exec sleep 600
SH
chmod +x "$WORK/fakebin/mksquashfs"
# As pyxis() runs it, but started directly, so that the signal goes to the importer itself.
env -i PATH="$WORK/fakebin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  TMPDIR="$TMPDIR" SLURM_JOB_ID=303 SLURM_STEP_ID=0 \
  SLURM_JOB_UID="$(id -u)" SLURM_JOB_GID="$(id -g)" PYXIS_RUNTIME_PATH=/run/pyxis \
  PYXIS_VERSION=0.24.0 "$IMPORTER" get "$URI" </dev/null >"$WORK/t.out" 2>"$WORK/t.err" &
kpid=$!
if wait_until 300 test -e "$WORK/mksquashfs.running"; then
  kill -TERM "$kpid"
  wait "$kpid"
  check_eq "$?" 143 "the import was interrupted (SIGTERM): exit 143"
  check_contains "$(cat "$WORK/t.err")" "interrupted by SIGTERM" "SIGTERM mid-import: message"
  check_eq "$(ls "$CACHE/images" | wc -l)" 0 "SIGTERM mid-import: nothing was published"
  check_eq "$(ls -A "$CACHE/tmp" | wc -l)" 0 "SIGTERM mid-import: its import folder is removed"
  check_eq "$(ls -A "$TMPDIR" | grep -c '^envlock-')" 0 "SIGTERM mid-import: nothing left in TMPDIR"
  kill -0 "$(cat "$WORK/mksquashfs.running")" 2>/dev/null &&
    fail "SIGTERM mid-import: mksquashfs ended" "still running" || ok "SIGTERM mid-import: mksquashfs ended"
else
  kill -9 "$kpid"
  wait "$kpid"
  fail "SIGTERM mid-import" "mksquashfs did not start: $(tail -3 "$WORK/t.err")"
fi
rm -rf "$WORK/fakebin"

# ---- images no lock pins: refused with the policy named, or let through with warn
run_cmd u pyxis 401 get "docker://$IMG_REGISTRY#test/unpinned:v1"
check_eq "$u_rc:$u_out" "1:" "an unpinned image is refused (exit 1)"
check_eq "$u_err" "envlock: error: docker://$IMG_REGISTRY#test/unpinned:v1: $IMG_REGISTRY/test/unpinned:v1 is pinned by no lock (1 lock read from $WORK/locks); policy 'refuse' ($CFG (default)) refuses it" "the refusal names the policy"
run_cmd u pyxis 401 get "docker://$IMG_REGISTRY#test/sample:v2"
check_eq "$u_rc" 1 "a tag the lock does not pin is refused"
run_cmd u pyxis 401 get "docker://$IMG_REGISTRY#test/sample"
check_contains "$u_err" "$IMG_REGISTRY/test/sample:latest is pinned by no lock" "no tag means latest, which is not pinned"
write_config "$WORK/cache" "policy: warn"
run_cmd u pyxis 402 get "docker://$IMG_REGISTRY#test/unpinned:v1"
check_eq "$u_rc" 0 "policy warn lets it through ($u_err)"
check_contains "$u_err" "envlock importer: warning: docker://$IMG_REGISTRY#test/unpinned:v1: $IMG_REGISTRY/test/unpinned:v1 is pinned by no lock (1 lock read from $WORK/locks); policy 'warn' ($CFG:7:9) lets it through unchecked" "the warning names the policy and where it is set"
check_eq "$(jq_py "$u_out.json" 'd["lock"]["pin"], d["lock"]["sha256"] == "", d["expected_from"]')" "none True first import" "its record says no lock pins it"
write_config "$WORK/cache"

# ---- pre-distributed images, and a .sqsh given by path
mkdir -p "$WORK/images/train"
"$ENVLOCK" squashfs --lock "$WORK/locks/train.lock.json" --insecure-registry "$IMG_REGISTRY" -o "$WORK/images/train/train.sqsh" >/dev/null 2>&1
run_cmd p pyxis 501 get "$URI"
check_eq "$p_rc:$p_out" "0:$WORK/images/train/train.sqsh" "a pre-distributed .sqsh is used in place"
check_contains "$p_err" "pre-distributed, sha256 checked" "stderr says pre-distributed"
run_cmd p pyxis 501 get "$WORK/images/train/train.sqsh"
check_eq "$p_rc:$p_out" "0:$WORK/images/train/train.sqsh" "a .sqsh path with its squashfs-result.json is checked and named"
printf 'X' | dd of="$WORK/images/train/train.sqsh" bs=1 seek=4096 conv=notrunc 2>/dev/null
write_config "$WORK/cache" "on_corrupt: refuse"
run_cmd p pyxis 502 get "$URI"
check_eq "$p_rc:$p_out" "1:" "on_corrupt: refuse: a corrupted pre-distributed .sqsh fails the job"
check_contains "$p_err" "envlock: error: $WORK/images/train/train.sqsh: sha256 $BAD_SHA, expected $REF_SHA (from $WORK/images/train/train.squashfs-result.json); refusing it" "its message"
write_config "$WORK/cache"
run_cmd p pyxis 502 get "$URI"
check_eq "$p_rc:$p_out" "0:$SQSH" "by default the job gets the pinned image from the cache instead"
check_contains "$p_err" "envlock importer: warning: corrupt pre-distributed image $WORK/images/train/train.sqsh: sha256 $BAD_SHA, expected $REF_SHA (from $WORK/images/train/train.squashfs-result.json); the job gets the image from the shared cache or the registry instead (on_corrupt: fallback)" "and says the pre-distributed file is corrupt"
run_cmd p "$IMPORTER" scan
check_eq "$p_rc" 1 "scan (the health check's) finds the corrupt file (exit 1)"
check_contains "$p_err" "envlock importer: warning: corrupt pre-distributed image $WORK/images/train/train.sqsh: sha256 $BAD_SHA, expected $REF_SHA" "and names it"
cp "$WORK/ref.sqsh" "$WORK/stray.sqsh"
run_cmd p pyxis 503 get "$WORK/stray.sqsh"
check_eq "$p_rc" 1 "a .sqsh with no record beside it is refused"
check_contains "$p_err" "$WORK/stray.sqsh: no squashfs-result.json beside it names it, so it is pinned by no lock" "its message"
rm -rf "$WORK/images/train" "$WORK/stray.sqsh"

# ---- eviction: least recently used first, never an image a job step holds
make_lock "$WORK/locks/dev.lock.json" "$IMG_REGISTRY/test/device" v1 "$D2"
URI2="docker://$IMG_REGISTRY#test/device:v1"
rm -rf "$CACHE"
SIZE=$(stat -c %s "$WORK/ref.sqsh")
write_config "$WORK/cache" "cache_max_bytes: $((SIZE + 100))"
run_cmd e pyxis 601 get "$URI"
run_cmd e pyxis 601 release
run_cmd e pyxis 602 get "$URI2"
check_eq "$e_rc" 0 "a second image imports ($e_err)"
check_contains "$e_err" "envlock importer: evicted $KEY (least recently used)" "the released image was evicted"
check_eq "$(ls "$CACHE/images" | grep -c "^$KEY")" 0 "its file and record are gone"
run_cmd e pyxis 603 get "$URI"
check_contains "$e_err" "over cache_max_bytes $((SIZE + 100)), with 2 image(s) in use" "a held image is not evicted; the cache says it is over its budget"
check_eq "$(ls "$CACHE/images" | grep -c '\.sqsh$')" 2 "both images stay while job 602 holds one"
rm -f "$WORK/locks/dev.lock.json"
write_config "$WORK/cache"

# ---- configuration errors: FILE:LINE:COL, exit 2, naming what chose the file
printf 'locks: [%s]\ncache: %s\npolicy: refuse-all\n' "$WORK/locks" "$WORK/cache" >"$WORK/bad.yaml"
run_cmd b env ENVLOCK_IMPORTER_CONFIG="$WORK/bad.yaml" "$IMPORTER" get "$URI"
check_eq "$b_rc:$b_out" "2:" "a bad configuration exits 2"
check_eq "$b_err" "envlock: error: importer configuration (chosen by ENVLOCK_IMPORTER_CONFIG): $WORK/bad.yaml:3:9: 'policy' must be refuse or warn, got 'refuse-all'
policy: refuse-all
        ^" "the error is located and says what chose the file"
run_cmd b pyxis 701 get "dockerd://ubuntu"
check_eq "$b_rc" 2 "a dockerd:// URI exits 2"
run_cmd b env ENVLOCK_IMPORTER_CONFIG="$WORK/none.yaml" "$IMPORTER" get "$URI"
check_eq "$b_rc:$b_err" "2:envlock: error: importer configuration (chosen by ENVLOCK_IMPORTER_CONFIG): $WORK/none.yaml: No such file or directory" "a missing configuration is named, with what chose it"
run_cmd b env ENVLOCK_IMPORTER_CONFIG="$WORK/none.yaml" "$IMPORTER" release
check_eq "$b_rc:$b_out" "0:" "release never fails for a broken configuration: nothing was got with it"

# ---- the policy is the operator's: under a job only /etc/envlock/importer.yaml is read
printf 'locks: [%s]\ncache: %s\npolicy: warn\nregistry: {insecure: [%s]}\n' "$WORK/locks" "$WORK/cache" "$IMG_REGISTRY" >"$WORK/my-warn.yaml"
run_cmd a env -i PATH="$PATH" TMPDIR="$TMPDIR" SLURM_JOB_ID=801 SLURM_STEP_ID=0 ENVLOCK_IMPORTER_CONFIG="$WORK/my-warn.yaml" \
  PYXIS_VERSION=0.24.0 "$IMPORTER" get "docker://$IMG_REGISTRY#test/unpinned:v1"
check_eq "$a_rc:$a_out" "1:" "the attack: a job's ENVLOCK_IMPORTER_CONFIG=my-warn.yaml does not let an unpinned image through"
check_contains "$a_err" "envlock importer: warning: ENVLOCK_IMPORTER_CONFIG=$WORK/my-warn.yaml ignored: under a Slurm job only /etc/envlock/importer.yaml is read" "it says the variable was ignored"
check_contains "$a_err" "policy 'refuse' ($CFG (default)) refuses it" "the operator's policy refused it"
run_cmd a env -i PATH="$PATH" TMPDIR="$TMPDIR" SLURM_STEP_ID=0 SLURM_JOB_UID=0 ENVLOCK_IMPORTER_CONFIG="$WORK/my-warn.yaml" \
  "$IMPORTER" get "docker://$IMG_REGISTRY#test/unpinned:v1"
check_eq "$a_rc" 1 "unsetting SLURM_JOB_ID does not help: Pyxis sets SLURM_JOB_UID and PYXIS_VERSION"
run_cmd a env -i PATH="$PATH" TMPDIR="$TMPDIR" ENVLOCK_IMPORTER_CONFIG="$WORK/my-warn.yaml" \
  "$IMPORTER" get "docker://$IMG_REGISTRY#test/unpinned:v1"
check_eq "$a_rc" 0 "outside a job the variable still chooses the file (an operator trying it)"
chmod 666 "$CFG"
run_cmd a pyxis 802 get "$URI"
check_eq "$a_rc:$a_out" "3:" "a system configuration others can write is refused (exit 3)"
check_eq "$a_err" "envlock: error: importer configuration (the system's, read under a Slurm job (SLURM_JOB_ID is set)): $CFG: writable by others (mode 0666); it must be owned by root and writable by no one else, with every folder above it" "clearly"
chmod 644 "$CFG"
U1=$(test_user envlock-u1)
chown envlock-u1 "$CFG"
run_cmd a pyxis 803 get "$URI"
check_eq "$a_rc:$a_err" "3:envlock: error: importer configuration (the system's, read under a Slurm job (SLURM_JOB_ID is set)): $CFG: owned by uid $U1, not root; it must be owned by root and writable by no one else, with every folder above it" "and so is one a user owns"
run_cmd a pyxis 803 release
check_eq "$a_rc" 0 "release still exits 0: the error comes once, from get"
chown root "$CFG"

# ---- the audit trail: one line per get and release, read back per job
: >"$WORK/audit.log"
chmod 644 "$WORK/audit.log"
write_config "$WORK/cache" "log: $WORK/audit.log"
run_cmd l pyxis 1234 get "$URI"
run_cmd l pyxis 1234 release
run_cmd l pyxis 1235 get "docker://$IMG_REGISTRY#test/unpinned:v1"
check_eq "$(wc -l <"$WORK/audit.log")" 3 "three commands, three audit lines"
run_cmd l "$IMPORTER" log --job 1234 --command get --format json
check_eq "$l_rc" 0 "envlock-importer log --job 1234 finds the job"
check_eq "$(printf '%s' "$l_out" | python3 -c 'import json,sys; e=json.load(sys.stdin)[0]; print(e["schema"], e["job"], e["step"], e["user"], e["image"], e["pin"]["role"], e["pin"]["manifest_digest"], e["sqsh"]["sha256"], e["outcome"])')" \
  "envlock.importer-audit/v2 1234 0 root $URI base_image $D $REF_SHA ok" "which image job 1234 ran: the pin, its manifest and the .sqsh's sha256"
run_cmd l "$IMPORTER" log --job 1235
check_contains "$l_out" "get  refused  docker://$IMG_REGISTRY#test/unpinned:v1" "the refusal is on record"
check_contains "$l_out" "error: docker://$IMG_REGISTRY#test/unpinned:v1: $IMG_REGISTRY/test/unpinned:v1 is pinned by no lock" "with its reason"
run_cmd l "$IMPORTER" log --job 999
check_eq "$l_rc" 1 "a job with no line: exit 1"

# ---- one verified image per node, shared by every user; a real non-root user attacks it
SHARED=$WORK/shared
chmod 755 "$WORK"
chmod 1777 "$WORK/cache" "$TMPDIR"
write_config "$WORK/cache" "shared_cache: $SHARED
log: $WORK/audit.log"
run_cmd f pyxis 900 fill "$URI"
check_eq "$f_rc" 0 "root fills the shared cache ($f_err)"
SHARED_SQSH=$SHARED/sqsh/$REF_SHA.sqsh
check_eq "$(stat -c '%U %a' "$SHARED_SQSH" "$SHARED/sqsh" "$SHARED")" "root 444
root 755
root 755" "the image is root's and read-only, named by its sha256, in folders only root can write"
as_pyxis() { # USER JOB ARGS...: the importer as Pyxis runs it for USER's job
  local user=$1 job=$2
  shift 2
  as_user "$user" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/nonexistent \
    TMPDIR="$TMPDIR" SLURM_JOB_ID="$job" SLURM_STEP_ID=0 SLURM_JOB_UID="$(id -u "$user")" \
    PYXIS_RUNTIME_PATH=/run/pyxis PYXIS_VERSION=0.24.0 "$IMPORTER" "$@" </dev/null
}
run_cmd s as_pyxis envlock-u1 901 get "$URI"
check_eq "$s_rc:$s_out" "0:$SHARED_SQSH" "a user's get is served from the shared cache ($s_err)"
check_contains "$s_err" "envlock importer: shared, sha256 checked: $SHARED_SQSH" "after the stamp check"
check_eq "$(ls "$WORK/cache/$U1/images" | wc -l)" 0 "nothing was imported into the user's own cache"
run_cmd s as_user envlock-u1 cp "$WORK/ref.sqsh" "$SHARED/sqsh/planted.sqsh"
check_eq "$s_rc" 1 "a user cannot plant a file in the shared cache ($s_err)"
run_cmd s as_user envlock-u1 mv "$SHARED_SQSH" "$SHARED/sqsh/x.sqsh"
check_eq "$s_rc" 1 "nor rename one"
# What a user could do if the folder let them: a file of their own under the trusted name.
cp "$SHARED_SQSH" "$WORK/planted.sqsh"
chown envlock-u1 "$WORK/planted.sqsh"
mv -f "$WORK/planted.sqsh" "$SHARED_SQSH"
run_cmd s as_pyxis envlock-u1 902 get "$URI"
check_eq "$s_rc:$s_out" "0:$WORK/cache/$U1/images/$KEY.sqsh" "a file a user owns there is not used: the user's own cache stands in"
check_contains "$s_err" "envlock importer: warning: shared cache entry not used: $SHARED_SQSH: owned by uid $U1, not root; using this user's cache" "and says why"
run_cmd f pyxis 903 fill "$URI"
check_contains "$f_err" "filling it again" "root's next fill replaces it"
run_cmd s as_pyxis envlock-u1 904 get "$URI"
check_eq "$s_out" "$SHARED_SQSH" "served from the shared cache again"
# Replaced after it was verified: other bytes, root's, read-only, under the same name.
cp "$SHARED_SQSH" "$WORK/swap.sqsh"
printf 'X' | dd of="$WORK/swap.sqsh" bs=1 seek=4096 conv=notrunc 2>/dev/null
chmod 444 "$WORK/swap.sqsh"
mv -f "$WORK/swap.sqsh" "$SHARED_SQSH"
run_cmd s as_pyxis envlock-u1 905 get "$URI"
check_eq "$s_out" "$WORK/cache/$U1/images/$KEY.sqsh" "a file replaced after verification is not used"
check_contains "$s_err" "envlock importer: warning: shared cache entry not used: $SHARED_SQSH: sha256 $BAD_SHA, not the $REF_SHA it is named by (replaced or corrupted after it was verified)" "its stamp no longer matched, so it was hashed"
pyxis 906 fill "$URI" >/dev/null 2>&1
# A symbolic link in the folder, to a file the user controls.
cp "$WORK/ref.sqsh" "$WORK/user.sqsh"
chown envlock-u1 "$WORK/user.sqsh"
ln -sf "$WORK/user.sqsh" "$SHARED_SQSH"
run_cmd s as_pyxis envlock-u1 907 get "$URI"
check_eq "$s_out" "$WORK/cache/$U1/images/$KEY.sqsh" "a symbolic link there is not followed"
check_contains "$s_err" "envlock importer: warning: shared cache entry not used: $SHARED_SQSH: a symbolic link; using this user's cache" "and says so"
rm -f "$SHARED_SQSH"
pyxis 908 fill "$URI" >/dev/null 2>&1
# The audit file is root's: a user's get goes to syslog (with its sender's uid), never to the file.
check_eq "$(python3 -c 'import json,sys
print(sorted({(e["uid"], e["job_claimed"]) for e in map(json.loads, open(sys.argv[1]))}))' "$WORK/audit.log")" \
  "[(0, False)]" "only root's lines are in the file, and root's job ids are not claims"
run_cmd s as_user envlock-u1 sh -c "printf '{\"partial' >>'$WORK/audit.log'"
check_ne "$s_rc" 0 "a user cannot append a partial line to the audit file"

# ---- issue 33 attacks on the importer, run as a second real user would run them
U2=$(test_user envlock-u2)
audit_of() { # JOB: the audit lines of JOB, one field set per line
  python3 -c 'import json,sys
for e in map(json.loads, open(sys.argv[1])):
    if e["job"] == sys.argv[2]:
        print(e["command"], e["outcome"], e["pin"]["role"], e["pin"]["manifest_digest"], e["sqsh"]["source"], e["sqsh"]["checked"], len(e["waits"]))' "$WORK/audit.log" "$1"
}
# Another user's cache folder, made first (CACHE is 1777): not used, said; the shared cache serves.
mkdir -p "$WORK/cache" && chmod 1777 "$WORK/cache"
rm -rf "$WORK/cache/$U2" "$WORK/cache/0"
as_user envlock-u1 mkdir -m 700 "$WORK/cache/$U2"
run_cmd s as_pyxis envlock-u2 1001 get "$URI"
check_eq "$s_rc:$s_out" "0:$SHARED_SQSH" "CACHE/<uid> made by another user does not deny the get: the shared cache serves it"
check_contains "$s_err" "envlock importer: warning: $WORK/cache/$U2: owned by uid $U1 with mode 0700; the cache of uid $U2 must be its own and writable by it alone; this user's cache is not used" "and says why"
# CACHE/0 made by a user: root's check and scan do not fail, they read every .sqsh whole.
as_user envlock-u1 mkdir -m 700 "$WORK/cache/0"
mkdir -p "$WORK/images/train"
"$ENVLOCK" squashfs --lock "$WORK/locks/train.lock.json" --insecure-registry "$IMG_REGISTRY" -o "$WORK/images/train/train.sqsh" >/dev/null 2>&1
run_cmd k "$IMPORTER" check "$WORK/images/train/train.sqsh"
check_eq "$k_rc" 0 "root's check of a pinned .sqsh passes with CACHE/0 squatted ($k_err)"
check_contains "$k_err" "envlock importer: warning: $WORK/cache/0: owned by uid $U1 with mode 0700; the cache of uid 0 must be its own and writable by it alone; no stamps are used: every .sqsh is read whole" "it says the squatted folder is not used"
run_cmd k "$IMPORTER" scan
check_eq "$k_rc" 0 "scan reports no corrupt image that does not exist ($k_err)"
check_not_contains "$k_err" "corrupt" "no corrupt image is named"
rm -rf "$WORK/cache/0" "$WORK/cache/$U2"

# A subfolder of root's sqsh_dirs a user owns, with a .sqsh and a record forged to name the pinned
# image: ignored (said), and root's own record wins.
mkdir -p "$WORK/images/u1" && chown envlock-u1 "$WORK/images/u1"
cp "$WORK/ref.sqsh" "$WORK/forged.sqsh" && printf 'EVIL' | dd of="$WORK/forged.sqsh" bs=1 seek=4096 conv=notrunc 2>/dev/null
FORGED_SHA=$(sha256sum <"$WORK/forged.sqsh" | cut -c1-64)
as_user envlock-u1 cp "$WORK/forged.sqsh" "$WORK/images/u1/aaa.sqsh"
python3 - "$WORK/images/train/train.squashfs-result.json" "$FORGED_SHA" >"$WORK/forged.json" <<'PY2'
import json, sys
d = json.load(open(sys.argv[1])); d["sqsh"]["file"] = "aaa.sqsh"; d["sqsh"]["sha256"] = sys.argv[2]
print(json.dumps(d))
PY2
as_user envlock-u1 cp "$WORK/forged.json" "$WORK/images/u1/aaa.squashfs-result.json"
run_cmd s as_pyxis envlock-u2 1002 get "$URI"
check_eq "$s_rc:$s_out" "0:$WORK/images/train/train.sqsh" "another user's get is served root's pre-distributed image, not the planted one"
check_contains "$s_err" "envlock importer: warning: $WORK/images/u1: owned by uid $U1, not root; folder ignored: a user could plant records in it" "the planted folder is named"
mv "$WORK/images/train" "$WORK/train.away"
run_cmd s as_pyxis envlock-u2 1003 get "$URI"
check_eq "$s_rc:$s_out" "0:$SHARED_SQSH" "without root's record the planted one still serves no one"
run_cmd k "$IMPORTER" check "$WORK/images/u1/aaa.sqsh"
check_eq "$k_rc" 1 "root's check refuses the planted .sqsh"
check_contains "$k_err" "$WORK/images/u1/aaa.sqsh: not a path only root can change ($WORK/images/u1: owned by uid $U1, not root)" "and says why"
rm -rf "$WORK/images/u1"
# A sqsh_dirs entry that is sticky and writable by all, like /tmp: not used.
mkdir -p "$WORK/public" && chmod 1777 "$WORK/public"
SQSH_DIRS="[$WORK/images, $WORK/public]" write_config "$WORK/cache" "shared_cache: $SHARED
log: $WORK/audit.log"
run_cmd s as_pyxis envlock-u2 1004 get "$URI"
check_contains "$s_err" "envlock importer: warning: sqsh_dirs entry ignored: $WORK/public: writable by others (mode 1777); a user could plant records in it" "a sticky sqsh_dirs entry is no exception"

# A lock file a user owns in root's locks folder pins nothing, for the check and for the fill.
make_lock "$WORK/u1.lock.json" "$IMG_REGISTRY/test/unpinned" v1 "$D"
install -o envlock-u1 -m 644 "$WORK/u1.lock.json" "$WORK/locks/u1.lock.json"
UNPINNED="docker://$IMG_REGISTRY#test/unpinned:v1"
run_cmd k env SLURM_JOB_ID=1005 "$IMPORTER" check "$UNPINNED"
check_eq "$k_rc" 1 "root's check refuses the image only the user's lock pins"
check_contains "$k_err" "envlock importer: warning: $WORK/locks/u1.lock.json: owned by uid $U1, not root; lock ignored, it pins nothing: a user could have planted it" "and names the lock it ignored"
run_cmd f env SLURM_JOB_ID=1005 "$IMPORTER" fill "$UNPINNED"
check_eq "$f_rc" 2 "root's fill puts nothing in the shared cache for it"
check_eq "$(ls "$SHARED/records" | wc -l)" 1 "the shared cache still holds the one pinned image"
rm -f "$WORK/locks/u1.lock.json"

# A read-only flock on root's lock file (readable as it once was): the fill does not wait for it.
LOCKF=$(ls "$SHARED"/locks/*.lock | head -1)
chmod 644 "$LOCKF"
as_user envlock-u1 flock -o -s "$LOCKF" sleep 120 &
holder=$!
sleep 1
rm -f "$SHARED"/records/*.json
run_cmd f timeout 50 env SLURM_JOB_ID=1006 "$IMPORTER" fill "$URI"
check_eq "$f_rc" 0 "root's fill is not held up by a user's flock ($f_err)"
check_contains "$f_err" "warning: $LOCKF was held by pid" "the fill says whose lock it did not wait for"
check_contains "$f_err" "that is not root's: not waited for; the lock file was replaced" "and what it did"
check_eq "$(stat -c '%U %a' "$LOCKF")" "root 600" "root's lock file is root's alone now"
run_cmd s as_user envlock-u1 flock -n "$LOCKF" true
check_ne "$s_rc" 0 "a user can no longer open it to hold it"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
check_eq "$(audit_of 1006)" "fill ok base_image $D imported hashed 0" "the fill's line: the pin, imported (not found), no wait"
run_cmd f env SLURM_JOB_ID=1007 "$IMPORTER" fill "$URI"
check_eq "$(audit_of 1007)" "fill ok base_image $D shared root stamp 0" "a fill that found the image says so"
run_cmd k env SLURM_JOB_ID=1008 "$IMPORTER" check "$URI"
check_eq "$(audit_of 1008)" "check ok base_image $D   0" "a check line carries the pin"

# A fill killed by SIGKILL leaves its staging folder; the next scan removes it.
rm -f "$SHARED"/records/*.json "$WORK/mksquashfs-started"
env PATH="$WORK/slowbin:$PATH" SLURM_JOB_ID=1009 "$IMPORTER" fill "$URI" >/dev/null 2>&1 &
fpid=$!
if wait_until 300 in_import; then
  kill -9 "$fpid"; wait "$fpid"
  check_eq "$(ls "$SHARED/tmp" | wc -l)" 1 "a killed fill leaves its staging folder"
  run_cmd k "$IMPORTER" scan
  check_eq "$(ls "$SHARED/tmp" | wc -l)" 0 "the next scan removes it"
  check_contains "$k_err" "envlock importer: removed $SHARED/tmp/" "and says so"
else
  kill -9 "$fpid"; wait "$fpid"
  fail "kill mid-fill" "mksquashfs never started"
fi
pyxis 1010 fill "$URI" >/dev/null 2>&1

# The audit file: 0622 (users could append) is not written by root; a FIFO never blocks root.
write_config "$WORK/cache" "log: $WORK/audit.log"
chmod 622 "$WORK/audit.log"
run_cmd k env SLURM_JOB_ID=1013 "$IMPORTER" check "$UNPINNED"
check_eq "$k_rc" 1 "root's check still refuses"
check_contains "$k_err" "envlock importer: $WORK/audit.log: not written: $WORK/audit.log: writable (mode 0622)" "and says the file others can write was not written"
chmod 644 "$WORK/audit.log"
write_config "$WORK/cache" "log: $WORK/public/audit.log"
as_user envlock-u1 mkfifo "$WORK/public/audit.log"
run_cmd k timeout 20 env SLURM_JOB_ID=1014 "$IMPORTER" check "$UNPINNED"
check_eq "$k_rc" 1 "a FIFO planted as the log does not block root's check: it refuses at once"
check_contains "$k_err" "$WORK/public/audit.log: not written: $WORK/public: writable by others (mode 1777)" "the log in a folder users can write is not used"
rm -f "$WORK/public/audit.log"
write_config "$WORK/cache" "log: $WORK/audit.log"
mv "$WORK/train.away" "$WORK/images/train"
printf 'X' | dd of="$WORK/images/train/train.sqsh" bs=1 seek=4096 conv=notrunc 2>/dev/null
run_cmd k env SLURM_JOB_ID=1015 "$IMPORTER" scan
check_eq "$k_rc" 1 "scan finds the corrupt image"
check_eq "$(audit_of 1015 | cut -d' ' -f1-2)" "scan refused" "and its line is not 'ok'"
rm -rf "$WORK/images/train" "$WORK/public"
write_config "$WORK/cache"

# A stamp rewritten in the user's own cache: the get says the user's stamp vouched for it.
rm -rf "$WORK/cache/$U2"
run_cmd s as_pyxis envlock-u2 1011 get "$URI"
U2_SQSH=$WORK/cache/$U2/images/$KEY.sqsh
check_eq "$s_out" "$U2_SQSH" "the user's own cache holds the image"
as_user envlock-u2 sh -c "chmod u+w '$U2_SQSH'; printf 'EVIL' | dd of='$U2_SQSH' bs=1 seek=4096 conv=notrunc 2>/dev/null"
STAMP=$(grep -l "\"path\": \"$U2_SQSH\"" "$WORK/cache/$U2"/stamps/*.json)
python3 - "$STAMP" "$U2_SQSH" <<'PY2' >"$WORK/forged-stamp.json"
import json, os, sys
d = json.load(open(sys.argv[1])); st = os.stat(sys.argv[2])
d.update(inode=st.st_ino, size=st.st_size, mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns, device=st.st_dev)
print(json.dumps(d, indent=2, sort_keys=True))
PY2
as_user envlock-u2 sh -c "cat '$WORK/forged-stamp.json' >'$STAMP'"
run_cmd s as_pyxis envlock-u2 1012 get "$URI"
check_not_contains "$s_err" "sha256 checked" "a get vouched for only by the user's own stamp does not claim a check"
check_contains "$s_err" "envlock importer: cached, sha256 as this user's own stamp says (not read again): $U2_SQSH" "it says whose word it took"


# ---- srun -N4 on the four-node cluster: every node imports into its own cache
slurm_start
mkdir -p "$WORK"/slurm/local-node{1,2,3,4}/cache
write_config "$SLURM_LOCAL/cache"
run_cmd n srun -N4 "$IMPORTER" get "$URI"
NODE_SQSH=$SLURM_LOCAL/cache/$(id -u)/images/$KEY.sqsh
check_eq "$n_rc" 0 "srun -N4 importer get exits 0 ($n_err)"
check_eq "$(printf '%s\n' "$n_out" | sort | uniq -c | awk '{print $1, $2}')" "4 $NODE_SQSH" "four nodes print the same path"
for n in 1 2 3 4; do
  f=$WORK/slurm/local-node$n/cache/$(id -u)/images/$KEY.sqsh
  check_eq "$(sha256sum <"$f" 2>/dev/null | cut -c1-64)" "$REF_SHA" "node$n imported into its own cache"
done
check_eq "$(printf '%s\n' "$n_err" | grep -c 'envlock importer: importing ')" 4 "each node imported once"
run_cmd n srun -N4 "$IMPORTER" get "$URI"
check_eq "$(printf '%s\n' "$n_err" | grep -c "envlock importer: cached, sha256 as this user's own stamp says")" 4 "the second srun finds every node's cache"
for n in 1 2 3 4; do
  check_eq "$(ls "$WORK/slurm/local-node$n/cache/$(id -u)/holds" | wc -l)" 2 "node$n holds the image for both job steps"
done
finish
