#!/usr/bin/env bash
# envlock squashfs against a real docker-registry on loopback: the .sqsh is reproducible, equals
# an independent reference pipeline (umoci unpack + Enroot's files + mksquashfs), its tree digest
# reads back from the .sqsh, verify catches a flipped byte, and malicious layers are refused.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 umoci skopeo mksquashfs sqfs2tar docker-registry curl
export TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR"
E=1700000000

img_layout "$WORK/layout" sample >/dev/null || { fail "make sample layout" "python3"; finish; }
img_registry_start || skip "docker-registry did not start"
oci_digest=$(img_push "$WORK/layout" sample "$IMG_REGISTRY/test/sample:oci" oci)
v2_digest=$(img_push "$WORK/layout" sample "$IMG_REGISTRY/test/sample:v2" v2s2)
check_contains "$oci_digest" "sha256:" "pushed the OCI image"
check_contains "$v2_digest" "sha256:" "pushed the Docker v2 image"

# --- from the registry, twice, and from the Docker v2 push
run_cmd a "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample@$oci_digest" \
  --insecure-registry "$IMG_REGISTRY" --source-date-epoch $E -o "$WORK/a/img.sqsh"
check_eq "$a_rc" 0 "squashfs from the registry exits 0 ($a_err)"
check_file "$WORK/a/img.squashfs-result.json" "result written beside the .sqsh"
run_cmd b "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample@$oci_digest" \
  --insecure-registry "$IMG_REGISTRY" --source-date-epoch $E -o "$WORK/b/img.sqsh"
check_eq "$(sha256sum < "$WORK/b/img.sqsh")" "$(sha256sum < "$WORK/a/img.sqsh")" "same .sqsh twice"
check_eq "$(cat "$WORK/b/img.squashfs-result.json")" "$(cat "$WORK/a/img.squashfs-result.json")" \
  "same squashfs-result.json twice"
run_cmd c "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample@$v2_digest" \
  --insecure-registry "$IMG_REGISTRY" --source-date-epoch $E -o "$WORK/c/img.sqsh"
check_eq "$c_rc" 0 "squashfs of the Docker v2 push exits 0 ($c_err)"
check_eq "$(sha256sum < "$WORK/c/img.sqsh")" "$(sha256sum < "$WORK/a/img.sqsh")" \
  "Docker v2 and OCI pushes give the same .sqsh"
run_cmd d "$ENVLOCK" squashfs --oci-layout "$WORK/layout" --image sample --source-date-epoch $E \
  -o "$WORK/d/img.sqsh"
check_eq "$(sha256sum < "$WORK/d/img.sqsh")" "$(sha256sum < "$WORK/a/img.sqsh")" \
  "--oci-layout gives the same .sqsh as the registry"

# --- the independent reference pipeline
img_reference_sqsh "$WORK/layout" sample "$WORK/ref.sqsh" $E
check_eq "$(sha256sum < "$WORK/a/img.sqsh")" "$(sha256sum < "$WORK/ref.sqsh")" \
  "byte-identical to umoci unpack + Enroot's files + mksquashfs"
if ! cmp -s "$WORK/a/img.sqsh" "$WORK/ref.sqsh"; then
  sqfsdiff -a "$WORK/a/img.sqsh" -b "$WORK/ref.sqsh" | head -20
fi

# --- contents
listing=$(unsquashfs -lln "$WORK/a/img.sqsh")
check_not_contains "$listing" "squashfs-root/del/file" "whiteout removed del/file"
check_contains "$listing" "squashfs-root/del/keep" "whiteout kept del/keep"
check_not_contains "$listing" "squashfs-root/opt/old/a" "opaque folder hid opt/old/a"
check_not_contains "$listing" "squashfs-root/opt/old/sub" "opaque folder hid opt/old/sub"
check_contains "$listing" "squashfs-root/opt/old/new" "opaque folder kept its own entry"
check_not_contains "$listing" "squashfs-root/dev/null" "dev/* excluded"
has_line() { grep -Eq "$1" <<<"$listing" && echo yes || echo no; }
check_eq "$(has_line '^-r-------- 0/0 .* squashfs-root/zero$')" yes "0000 file became 0400 (fixperms)"
check_contains "$listing" "-rwsr-xr-x 0/0" "setuid bit kept"
check_eq "$(has_line '^drwxr-xr-x 0/0 .* squashfs-root/ro$')" yes "0555 folder became 0755 (fixperms)"
check_eq "$(has_line '^dr-xr-xr-x 0/0 .*/d13/d14$')" yes "folders deeper than 14 keep 0555"
check_eq "$(has_line '^drwxr-xr-x 0/0 .*/d12/d13$')" yes "folders at depth 14 gain u+w"
check_not_contains "$listing" "squashfs-root/etcl" "whiteout removed a symlink"
rc=$(unsquashfs -cat "$WORK/a/img.sqsh" etc/rc)
check_contains "$rc" "# org.example.title line one line two" "label newline folded"
ep=(/bin/sh -c); cmd=("echo 'hi' \$HOME" $'tab\there')
check_contains "$rc" "    exec ${ep[@]@Q} ${cmd[@]@Q}" "exec line quoted as bash's @Q quotes"
check_eq "$(unsquashfs -cat "$WORK/a/img.sqsh" etc/environment)" \
  "$(printf 'PATH=/usr/bin:/bin\nQUOTE=it'\''s "quoted"')" "/etc/environment from Env"
check_eq "$(unsquashfs -cat "$WORK/a/img.sqsh" etc/fstab)" \
  "$(printf '${ENROOT_ROOTFS}/cache /cache none x-create=dir,bind,rw,nosuid,nodev\n${ENROOT_ROOTFS}/data /data none x-create=dir,bind,rw,nosuid,nodev')" \
  "/etc/fstab from Volumes, sorted"

# --- tree digest: from the layers (result) == from the .sqsh == from the reference
tree=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tree_digest"])' "$WORK/a/img.squashfs-result.json")
run_cmd t "$ENVLOCK" squashfs digest "$WORK/a/img.sqsh"
check_eq "$t_out" "$tree" "tree digest read back from the .sqsh"
run_cmd t "$ENVLOCK" squashfs digest "$WORK/ref.sqsh"
check_eq "$t_out" "$tree" "tree digest of the reference .sqsh"
run_cmd t "$ENVLOCK" squashfs digest "$WORK/nothing"
check_eq "$t_out$t_err" "envlock: error: $WORK/nothing: no such file or folder" "digest of a missing path"
mkdir -p "$WORK/gz/empty"
mksquashfs "$WORK/gz/empty" "$WORK/gz/x.sqsh" -comp gzip -quiet -no-progress >/dev/null
run_cmd t "$ENVLOCK" squashfs digest "$WORK/gz/x.sqsh"
check_contains "$t_out" "sha256:" "tree digest of a gzip image"

# --- verify
run_cmd v "$ENVLOCK" squashfs verify "$WORK/a/img.sqsh" --result "$WORK/a/img.squashfs-result.json" --tree
check_eq "$v_rc" 0 "verify --tree of an untouched image exits 0"
check_contains "$v_out" "compression: lzo" "verify reports the compression"
check_contains "$v_out" "mkfs time: $E" "verify reports the mkfs time"
cp "$WORK/a/img.sqsh" "$WORK/flipped.sqsh"
printf '\x55' | dd of="$WORK/flipped.sqsh" bs=1 seek=5000 conv=notrunc 2>/dev/null
run_cmd v "$ENVLOCK" squashfs verify "$WORK/flipped.sqsh" --result "$WORK/a/img.squashfs-result.json"
check_eq "$v_rc" 1 "a flipped byte fails verify"
check_contains "$v_err" "envlock: error: $WORK/flipped.sqsh: sha256: expected $(sha256sum < "$WORK/a/img.sqsh" | cut -c1-64), got" \
  "the mismatch names the sha256"
head -c 4096 /dev/zero | tr '\0' 'x' > "$WORK/plain.sqsh"
run_cmd v "$ENVLOCK" squashfs verify "$WORK/plain.sqsh" --result "$WORK/a/img.squashfs-result.json"
check_eq "$v_rc" 2 "verify of a non-squashfs file exits 2"
check_eq "$v_err" "envlock: error: $WORK/plain.sqsh: not a squashfs image (bad magic)" "its message"

run_cmd v "$ENVLOCK" squashfs verify "$WORK/plain.sqsh"
check_eq "$v_rc:$v_err" "2:envlock: error: no squashfs result describes $WORK/plain.sqsh (looked for $WORK/plain.squashfs-result.json, $WORK/squashfs-result.json); give --result FILE" \
  "verify with nothing beside the .sqsh: every path looked at"

# --- Enroot itself is not installed here
run_cmd n env PATH=/usr/bin:/bin "$ENVLOCK" squashfs --enroot --image "$IMG_REGISTRY/test/sample@$oci_digest" \
  --source-date-epoch $E -o "$WORK/e/img.sqsh"
check_eq "$n_rc" 3 "--enroot without enroot exits 3"
check_eq "$n_err" "envlock: error: enroot: not found in PATH" "--enroot message"

# --- usage errors
run_cmd u env -u SOURCE_DATE_EPOCH "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample@$oci_digest" -o "$WORK/u.sqsh"
check_eq "$u_rc" 2 "no --source-date-epoch without --lock exits 2"
check_eq "$u_err" "envlock: error: --source-date-epoch (or SOURCE_DATE_EPOCH in the environment) is required without --lock (Enroot's output is only reproducible with SOURCE_DATE_EPOCH)" "its message"
run_cmd u "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample:oci" --source-date-epoch 0 -o "$WORK/u.sqsh"
check_eq "$u_err" "envlock: error: --image '$IMG_REGISTRY/test/sample:oci' has no digest; give REF@sha256:... so the image is pinned (\`envlock resolve $IMG_REGISTRY/test/sample:oci\` prints the digest it points to now)" "a tag without digest is refused, pointing to envlock resolve"

# --- malicious layers: refused or neutralised, nothing written outside the rootfs
for kind in traversal symlink_escape hardlink_escape device absolute; do
  img_layout "$WORK/bad-$kind" "$kind" >/dev/null
done
layer_of() { python3 -c 'import json,sys; d=sys.argv[1]; i=json.load(open(d+"/index.json")); m=json.load(open(d+"/blobs/sha256/"+i["manifests"][0]["digest"][7:])); print(m["layers"][int(sys.argv[2])]["digest"])' "$1" "${2:-0}"; }
bad() { run_cmd m "$ENVLOCK" squashfs --oci-layout "$WORK/bad-$1" --source-date-epoch 0 -o "$WORK/bad-$1.sqsh"; }
bad traversal
check_eq "$m_rc" 2 "path traversal refused (exit 2)"
check_eq "$m_err" "envlock: error: layer $(layer_of "$WORK/bad-traversal"): '../escape': name contains '..'; refusing to write outside the rootfs" "path traversal message"
check_eq "$(find "$WORK" -name escape | wc -l)" 0 "nothing named escape was written"
bad symlink_escape
check_eq "$m_rc" 2 "write through a symlink refused (exit 2)"
check_eq "$m_err" "envlock: error: layer $(layer_of "$WORK/bad-symlink_escape"): 'evil/pwned': goes through the symbolic link 'evil' of the same layer" "symlink escape message"
check_eq "$(find / -xdev -name pwned 2>/dev/null | wc -l)" 0 "nothing named pwned was written"
bad hardlink_escape
check_eq "$m_rc" 2 "escaping hard link refused (exit 2)"
check_eq "$m_err" "envlock: error: layer $(layer_of "$WORK/bad-hardlink_escape"): 'hl': hard link target '../../../../etc/passwd' leaves the rootfs" "hard link escape message"
bad device
check_eq "$m_rc" 0 "device node neutralised (exit 0)"
check_contains "$m_err" "envlock: warning: layer $(layer_of "$WORK/bad-device"): 'nodes/null': device node, FIFO or socket skipped" "device node warning"
check_not_contains "$(unsquashfs -lln "$WORK/bad-device.sqsh")" "nodes/null" "no device node in the image"
bad absolute
check_eq "$m_rc" 0 "absolute names neutralised (exit 0)"
check_contains "$m_err" "envlock: warning: layer $(layer_of "$WORK/bad-absolute"): '/abs/file': leading '/' removed" "absolute name warning"
check_contains "$(unsquashfs -lln "$WORK/bad-absolute.sqsh")" "squashfs-root/abs/file" "absolute entry landed inside the rootfs"

# --- a file and a whiteout under its path in one layer: Enroot's tar fails, so envlock refuses
for kind in file_whiteout whiteout_file; do
  img_layout "$WORK/bad-$kind" "$kind" >/dev/null
  top=$(layer_of "$WORK/bad-$kind" 1)
  mkdir -p "$WORK/tar-$kind"
  tar -C "$WORK/tar-$kind" --warning=no-timestamp --anchored --exclude='dev/*' --exclude='./dev/*' \
    --delay-directory-restore -pxf "$WORK/bad-$kind/blobs/sha256/${top#sha256:}" 2>/dev/null
  check_eq "$?" 2 "$kind: GNU tar with Enroot's options fails on the layer"
done
bad file_whiteout
check_eq "$m_rc" 2 "file, then a whiteout under it: refused (exit 2)"
check_eq "$m_err" "envlock: error: layer $(layer_of "$WORK/bad-file_whiteout" 1): 'data/x/.wh.y': lies under 'data/x', which the same layer holds as a file (Enroot's import fails on this layer; envlock will not turn the file into a folder)" \
  "file, then a whiteout under it: the layer and both paths"
[ ! -e "$WORK/bad-file_whiteout.sqsh" ] && ok "file, then a whiteout under it: no .sqsh" ||
  fail "file, then a whiteout under it: no .sqsh" "written"
bad whiteout_file
check_eq "$m_rc" 2 "a whiteout, then a file over its folder: refused (exit 2)"
check_eq "$m_err" "envlock: error: layer $(layer_of "$WORK/bad-whiteout_file" 1): 'data/x': replaces the folder that holds 'data/x/.wh.y' in the same layer (Enroot's import fails on this layer; envlock will not drop what the layer put in the folder)" \
  "a whiteout, then a file over its folder: the layer and both paths"

# --- a relative WorkingDir: no folder in the image (Enroot creates it beside the rootfs), a warning
img_layout "$WORK/relwd" relative_workdir >/dev/null
run_cmd w "$ENVLOCK" squashfs --oci-layout "$WORK/relwd" --source-date-epoch $E -o "$WORK/relwd/img.sqsh"
check_eq "$w_rc" 0 "relative WorkingDir: exit 0"
check_eq "$w_err" "envlock: warning: image config: WorkingDir 'rel/dir' is relative; as Enroot 4.1.2 does, no folder is created in the image (/etc/rc creates it when the container starts, relative to the folder it starts in)" \
  "relative WorkingDir: the warning"
check_not_contains "$(unsquashfs -lln "$WORK/relwd/img.sqsh")" "squashfs-root/rel" "relative WorkingDir: no /rel in the image"
check_contains "$(unsquashfs -cat "$WORK/relwd/img.sqsh" etc/rc)" "$(printf 'mkdir -p "rel/dir" 2> /dev/null\ncd "rel/dir" && unset OLDPWD || exit 1')" \
  "relative WorkingDir: /etc/rc creates and enters it"
LC_ALL=C.UTF-8 img_reference_sqsh "$WORK/relwd" relative_workdir "$WORK/relwd/ref.sqsh" $E
check_eq "$(sha256sum < "$WORK/relwd/img.sqsh")" "$(sha256sum < "$WORK/relwd/ref.sqsh")" \
  "relative WorkingDir: byte-identical to the reference of Enroot's steps"

# --- /etc/rc's exec lines as bash's ${word@Q} writes them under LC_ALL=C and a UTF-8 locale
img_layout "$WORK/uni" unicode >/dev/null
ep=(/bin/echo "grüße")
cmd=("日本語 'x'" plain $'tab\there ü' $'nel\xc2\x85' $'ls\xe2\x80\xa8' $'nbsp\xc2\xa0' $'bom\xef\xbb\xbf'
  $'pua\xee\x80\x80' $'\xf0\x9f\x98\x80')
quoted() { env LC_ALL="$1" bash -c 'shift; printf %s "${*@Q}"' _ "$@"; }
for form in C C.UTF-8; do
  run_cmd q "$ENVLOCK" squashfs --oci-layout "$WORK/uni" --source-date-epoch $E --locale "$form" \
    -o "$WORK/uni-$form/img.sqsh"
  check_eq "$q_rc" 0 "locale $form: exit 0 ($q_err)"
  rc=$(unsquashfs -cat "$WORK/uni-$form/img.sqsh" etc/rc; echo .)
  expected="    exec $(quoted "$form" "${ep[@]}") \"\$@\"
else
    exec $(quoted "$form" "${ep[@]}") $(quoted "$form" "${cmd[@]}")
fi
."
  check_eq "${rc#*"if [ \$# -gt 0 ]; then"$'\n'}" "$expected" "locale $form: the exec lines, byte for byte, as bash writes them"
  check_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["enroot"]["locale"])' "$WORK/uni-$form/img.squashfs-result.json")" \
    "$form" "locale $form: recorded in squashfs-result.json"
  LC_ALL=$form img_reference_sqsh "$WORK/uni" unicode "$WORK/uni-$form/ref.sqsh" $E
  check_eq "$(sha256sum < "$WORK/uni-$form/img.sqsh")" "$(sha256sum < "$WORK/uni-$form/ref.sqsh")" \
    "locale $form: byte-identical to the reference pipeline under LC_ALL=$form"
done
check_ne "$(sha256sum < "$WORK/uni-C/img.sqsh")" "$(sha256sum < "$WORK/uni-C.UTF-8/img.sqsh")" "the two forms differ"
check_contains "$(unsquashfs -cat "$WORK/uni-C/img.sqsh" etc/rc)" "exec '/bin/echo' \$'gr\\303\\274\\303\\237e'" \
  "locale C: ü and ß as octal escapes"
run_cmd q "$ENVLOCK" squashfs --oci-layout "$WORK/uni" --source-date-epoch $E -o "$WORK/uni-default/img.sqsh"
check_eq "$(sha256sum < "$WORK/uni-default/img.sqsh")" "$(sha256sum < "$WORK/uni-C.UTF-8/img.sqsh")" \
  "without --locale: the C.UTF-8 form"
python3 - "$REPO/tests/data/render/good_lock.json" "$WORK/lock-c.json" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
lock["enroot"].update({"locale": "C", "source_date_epoch": 1700000000})
json.dump(lock, open(sys.argv[2], "w"))
PY
run_cmd q "$ENVLOCK" squashfs --oci-layout "$WORK/uni" --lock "$WORK/lock-c.json" -o "$WORK/uni-lock/img.sqsh"
check_eq "$q_rc" 0 "the lock's enroot.locale: exit 0 ($q_err)"
check_eq "$(sha256sum < "$WORK/uni-lock/img.sqsh")" "$(sha256sum < "$WORK/uni-C/img.sqsh")" \
  "the lock's enroot.locale C gives the C form"
# --- verify --lock: the settings do not identify the content, so a tampered file is "not verified"
mkdir -p "$WORK/tampered"
cp "$WORK/uni-lock/img.sqsh" "$WORK/tampered/t.sqsh"
printf '\x55' | dd of="$WORK/tampered/t.sqsh" bs=1 seek=5000 conv=notrunc 2>/dev/null
run_cmd tv "$ENVLOCK" squashfs verify "$WORK/tampered/t.sqsh" --lock "$WORK/lock-c.json"
check_eq "$tv_rc" 1 "verify --lock with no result: exit 1"
check_eq "$(printf '%s\n' "$tv_out" | tail -n 3)" "checked against $WORK/lock-c.json: mkfs time, compression
not checked: size, sha256, tree digest: no squashfs result to compare with (give --result FILE)
not verified: nothing to compare the file with" \
  "verify --lock with no result: what was and was not checked, never ok"
check_eq "$tv_err" "envlock: error: $WORK/tampered/t.sqsh: not verified: nothing to compare the file with ($WORK/lock-c.json names no sha256 of the .sqsh; give --result FILE, the t.squashfs-result.json \`envlock squashfs\` wrote)" \
  "verify --lock with no result: the error says what to give"
run_cmd tv "$ENVLOCK" squashfs verify "$WORK/tampered/t.sqsh" --lock "$WORK/lock-c.json" \
  --result "$WORK/uni-lock/img.squashfs-result.json"
check_eq "$tv_rc" 1 "verify --lock --result of the tampered file: exit 1"
check_contains "$tv_out" "MISMATCH sha256: expected" "verify --lock --result: the sha256 mismatch"
run_cmd tv "$ENVLOCK" squashfs verify "$WORK/uni-lock/img.sqsh" --lock "$WORK/lock-c.json"
check_eq "$tv_rc:$tv_err" "0:envlock: comparing with $WORK/uni-lock/img.squashfs-result.json" \
  "verify --lock of the untouched file finds the result beside it"
check_eq "$(printf '%s\n' "$tv_out" | tail -n 4)" "checked against $WORK/uni-lock/img.squashfs-result.json: size, sha256
checked against $WORK/lock-c.json: mkfs time, compression
not checked: tree digest (give --tree)
ok" "verify --lock with the result beside: both records named, then ok"
run_cmd tv "$ENVLOCK" squashfs verify "$WORK/tampered/t.sqsh" --lock "$WORK/lock-c.json" --format json
check_eq "$tv_rc" 1 "verify --format json without a result: exit 1"
check_eq "$(printf '%s' "$tv_out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["verdict"], [c["what"] for c in d["checked"]], d["not_checked"])')" \
  "not verified ['mkfs time', 'compression'] ['size, sha256, tree digest: no squashfs result to compare with (give --result FILE)']" \
  "verify --format json: the verdict and what was checked"
run_cmd q "$ENVLOCK" squashfs --oci-layout "$WORK/uni" --source-date-epoch $E --locale en_US -o "$WORK/q.sqsh"
check_eq "$q_rc:$q_err" "2:envlock: error: --locale 'en_US' is not one of C.UTF-8, C" "an unknown --locale"

# --- SOURCE_DATE_EPOCH from the environment; the flag wins; the value used is recorded
epoch_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["enroot"]["source_date_epoch"])' "$1"; }
run_cmd s env SOURCE_DATE_EPOCH=1600000000 "$ENVLOCK" squashfs --oci-layout "$WORK/layout" --image sample \
  -o "$WORK/sde/img.sqsh"
check_eq "$s_rc" 0 "SOURCE_DATE_EPOCH without the flag or a lock: exit 0"
check_eq "$s_err" "envlock: SOURCE_DATE_EPOCH=1600000000 from the environment" "SOURCE_DATE_EPOCH: the note"
check_eq "$(epoch_of "$WORK/sde/img.squashfs-result.json")" 1600000000 "SOURCE_DATE_EPOCH: recorded"
check_contains "$("$ENVLOCK" squashfs verify "$WORK/sde/img.sqsh" --result "$WORK/sde/img.squashfs-result.json")" \
  "mkfs time: 1600000000" "SOURCE_DATE_EPOCH: the image's mkfs time"
run_cmd s env SOURCE_DATE_EPOCH=1600000000 "$ENVLOCK" squashfs --oci-layout "$WORK/layout" --image sample \
  --source-date-epoch $E -o "$WORK/sde-flag/img.sqsh"
check_eq "$s_rc:$s_err" "0:" "the flag and the variable: exit 0, no note"
check_eq "$(sha256sum < "$WORK/sde-flag/img.sqsh")" "$(sha256sum < "$WORK/a/img.sqsh")" "the flag wins"
run_cmd s env SOURCE_DATE_EPOCH=1600000000 "$ENVLOCK" squashfs --oci-layout "$WORK/uni" --lock "$WORK/lock-c.json" \
  -o "$WORK/sde-lock/img.sqsh"
check_eq "$s_err" "envlock: SOURCE_DATE_EPOCH=1600000000 from the environment (the lock has 1700000000)" \
  "the variable over the lock: the note names both"
check_eq "$(epoch_of "$WORK/sde-lock/img.squashfs-result.json")" 1600000000 "the variable over the lock: recorded"
run_cmd s env SOURCE_DATE_EPOCH=1.5e9 "$ENVLOCK" squashfs --oci-layout "$WORK/layout" --image sample -o "$WORK/s.sqsh"
check_eq "$s_rc:$s_err" "2:envlock: error: SOURCE_DATE_EPOCH='1.5e9' in the environment: not a number of seconds from 0 to 4294967295" \
  "a malformed SOURCE_DATE_EPOCH"
# --- a stream as -o: the result goes where --result says, or nothing is done
for out in /dev/null -; do
  run_cmd st "$ENVLOCK" squashfs --oci-layout "$WORK/layout" --image sample --source-date-epoch $E -o "$out"
  check_eq "$st_rc:$st_err" "2:envlock: error: -o $out: not a file, so no result can be written beside it; give --result FILE" \
    "-o $out without --result: refused before any work"
done
[ ! -e /dev/null.squashfs-result.json ] && [ ! -e ./-.squashfs-result.json ] &&
  ok "-o /dev/null and -o -: no result file made" || fail "-o /dev/null and -o -: no result file made" "written"
mkdir -p "$WORK/stream"
"$ENVLOCK" squashfs --oci-layout "$WORK/layout" --image sample --source-date-epoch $E -o - \
  --result "$WORK/stream/img.squashfs-result.json" >"$WORK/stream/out.sqsh" 2>"$WORK/stream/err"
check_eq "$?" 0 "-o - --result FILE: exit 0 ($(cat "$WORK/stream/err"))"
"$ENVLOCK" squashfs --oci-layout "$WORK/layout" --image sample --source-date-epoch $E \
  -o "$WORK/stream/file.sqsh" 2>/dev/null
check_eq "$(sha256sum < "$WORK/stream/out.sqsh")" "$(sha256sum < "$WORK/stream/file.sqsh")" \
  "-o -: the .sqsh on standard output, the same bytes as a file"
check_file "$WORK/stream/img.squashfs-result.json" "-o - --result FILE: the result where --result says"

# --- a full disk: the new .sqsh is never published without its result
cat >"$WORK/full.sh" <<'FULL'
set -e
mkdir -p "$1" && mount -t tmpfs -o size=8m none "$1"
cp "$2" "$1/img.sqsh" && cp "${2%.sqsh}.squashfs-result.json" "$1/img.squashfs-result.json"
size=$(stat -c %s "$3")
# Leave room for the staged .sqsh only (tmpfs counts 4 KiB pages), not for a result beside it.
free=$(( $(stat -f -c %a "$1") * $(stat -f -c %S "$1") ))
fill=$(( free - (size + 4095) / 4096 * 4096 ))
[ "$fill" -gt 0 ] && head -c "$fill" /dev/zero >"$1/filler" 2>/dev/null || true
set +e
"$ENVLOCK" squashfs --oci-layout "$4" --image sample --source-date-epoch 1600000000 -o "$1/img.sqsh" 2>"$1.err"
echo "rc=$?"
sha256sum "$1/img.sqsh" | cut -d' ' -f1
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sqsh"]["sha256"])' "$1/img.squashfs-result.json"
ls -A "$1" | grep -v -x -e img.sqsh -e img.squashfs-result.json -e filler | wc -l
FULL
run_cmd fd env ENVLOCK="$ENVLOCK" unshare --mount --propagation private bash "$WORK/full.sh" "$WORK/full" \
  "$WORK/a/img.sqsh" "$WORK/sde/img.sqsh" "$WORK/layout"
fd_lines=$(printf '%s\n' "$fd_out")
check_eq "$(sed -n 1p <<<"$fd_lines")" "rc=3" "a full disk: exit 3 ($(cat "$WORK/full.err" 2>/dev/null))"
check_eq "$(sed -n 2p <<<"$fd_lines")" "$(sed -n 3p <<<"$fd_lines")" "a full disk: the .sqsh there still matches its result"
check_eq "$(sed -n 2p <<<"$fd_lines")" "$(sha256sum < "$WORK/a/img.sqsh" | cut -d' ' -f1)" "a full disk: the old .sqsh untouched"
check_eq "$(sed -n 4p <<<"$fd_lines")" 0 "a full disk: no temporary file left beside the output"
check_eq "$(ls "$TMPDIR" | wc -l)" 0 "temporary folders removed"
finish
