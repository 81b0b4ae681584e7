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
check_file "$WORK/a/squashfs-result.json" "result written beside the .sqsh"
run_cmd b "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample@$oci_digest" \
  --insecure-registry "$IMG_REGISTRY" --source-date-epoch $E -o "$WORK/b/img.sqsh"
check_eq "$(sha256sum < "$WORK/b/img.sqsh")" "$(sha256sum < "$WORK/a/img.sqsh")" "same .sqsh twice"
check_eq "$(cat "$WORK/b/squashfs-result.json")" "$(cat "$WORK/a/squashfs-result.json")" \
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
tree=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tree_digest"])' "$WORK/a/squashfs-result.json")
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
run_cmd v "$ENVLOCK" squashfs verify "$WORK/a/img.sqsh" --result "$WORK/a/squashfs-result.json" --tree
check_eq "$v_rc" 0 "verify --tree of an untouched image exits 0"
check_contains "$v_out" "compression: lzo" "verify reports the compression"
check_contains "$v_out" "mkfs time: $E" "verify reports the mkfs time"
cp "$WORK/a/img.sqsh" "$WORK/flipped.sqsh"
printf '\x55' | dd of="$WORK/flipped.sqsh" bs=1 seek=5000 conv=notrunc 2>/dev/null
run_cmd v "$ENVLOCK" squashfs verify "$WORK/flipped.sqsh" --result "$WORK/a/squashfs-result.json"
check_eq "$v_rc" 1 "a flipped byte fails verify"
check_contains "$v_err" "envlock: error: $WORK/flipped.sqsh: sha256: expected $(sha256sum < "$WORK/a/img.sqsh" | cut -c1-64), got" \
  "the mismatch names the sha256"
head -c 4096 /dev/zero | tr '\0' 'x' > "$WORK/plain.sqsh"
run_cmd v "$ENVLOCK" squashfs verify "$WORK/plain.sqsh" --result "$WORK/a/squashfs-result.json"
check_eq "$v_rc" 2 "verify of a non-squashfs file exits 2"
check_eq "$v_err" "envlock: error: $WORK/plain.sqsh: not a squashfs image (bad magic)" "its message"

# --- Enroot itself is not installed here
run_cmd n env PATH=/usr/bin:/bin "$ENVLOCK" squashfs --enroot --image "$IMG_REGISTRY/test/sample@$oci_digest" \
  --source-date-epoch $E -o "$WORK/e/img.sqsh"
check_eq "$n_rc" 3 "--enroot without enroot exits 3"
check_eq "$n_err" "envlock: error: enroot: not found in PATH" "--enroot message"

# --- usage errors
run_cmd u "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample@$oci_digest" -o "$WORK/u.sqsh"
check_eq "$u_rc" 2 "no --source-date-epoch without --lock exits 2"
check_eq "$u_err" "envlock: error: --source-date-epoch is required without --lock (Enroot's output is only reproducible with SOURCE_DATE_EPOCH)" "its message"
run_cmd u "$ENVLOCK" squashfs --image "$IMG_REGISTRY/test/sample:oci" --source-date-epoch 0 -o "$WORK/u.sqsh"
check_eq "$u_err" "envlock: error: --image '$IMG_REGISTRY/test/sample:oci' has no digest; give REF@sha256:... so the image is pinned" "a tag without digest is refused"

# --- malicious layers: refused or neutralised, nothing written outside the rootfs
for kind in traversal symlink_escape hardlink_escape device absolute; do
  img_layout "$WORK/bad-$kind" "$kind" >/dev/null
done
layer_of() { python3 -c 'import json,sys; d=sys.argv[1]; i=json.load(open(d+"/index.json")); m=json.load(open(d+"/blobs/sha256/"+i["manifests"][0]["digest"][7:])); print(m["layers"][0]["digest"])' "$1"; }
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
check_eq "$(ls "$TMPDIR" | wc -l)" 0 "temporary folders removed"
finish
