# Test images for the squashfs suites and benches (functions prefixed img_). Layers are written
# by python3's tarfile module so that whiteouts, opaque folders, hard links, odd modes and
# malicious entries can be made exactly; the layouts are plain OCI image layouts that umoci and
# skopeo read. Nothing here uses envlock's code.

# img_layout DIR KIND: writes an OCI layout DIR holding one image, tagged KIND.
# KIND: sample (3 layers: whiteouts, opaque folder, hard links, symlinks, modes 0555/0000/setuid,
# a full config), or one of the malicious single-layer images: traversal, symlink_escape,
# hardlink_escape, device, absolute; or an edge of Enroot's behaviour: relative_workdir
# (WorkingDir rel/dir), unicode (non-ASCII and unprintable characters in Entrypoint and Cmd),
# file_whiteout (a layer holding data/x as a file and the whiteout data/x/.wh.y), whiteout_file
# (the same two entries the other way round).
img_layout() {
  python3 - "$1" "$2" "$2" <<'PY'
import gzip, hashlib, io, json, os, sys, tarfile

out, tag, kind = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out + "/blobs/sha256", exist_ok=True)

def blob(data):
    d = hashlib.sha256(data).hexdigest()
    with open(f"{out}/blobs/sha256/{d}", "wb") as f:
        f.write(data)
    return "sha256:" + d, len(data)

def layer(entries, compress=True):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
        for e in entries:
            name, typ = e[0], e[1]
            ti = tarfile.TarInfo(name)
            ti.mtime = 1600000000
            data = None
            if typ == "d":
                ti.type, ti.mode = tarfile.DIRTYPE, e[2]
            elif typ == "f":
                ti.mode, data = e[2], e[3]
                ti.size = len(data)
            elif typ == "l":
                ti.type, ti.linkname, ti.mode = tarfile.SYMTYPE, e[2], 0o777
            elif typ == "h":
                ti.type, ti.linkname, ti.mode = tarfile.LNKTYPE, e[2], 0o644
            elif typ == "c":
                ti.type, ti.devmajor, ti.devminor, ti.mode = tarfile.CHRTYPE, 1, 3, 0o666
            t.addfile(ti, io.BytesIO(data) if data is not None else None)
    tar = raw.getvalue()
    diff_id = "sha256:" + hashlib.sha256(tar).hexdigest()
    if compress:
        data = gzip.compress(tar, mtime=0)
        mt = "application/vnd.oci.image.layer.v1.tar+gzip"
    else:
        data, mt = tar, "application/vnd.oci.image.layer.v1.tar"
    d, n = blob(data)
    return {"mediaType": mt, "digest": d, "size": n}, diff_id

def pseudo_random(n, seed):
    out, block = bytearray(), seed.encode()
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block
    return bytes(out[:n])

config = {"architecture": "amd64", "os": "linux", "config": {}}
if kind == "sample":
    deep = ["deep"] + ["deep/" + "/".join(f"d{i}" for i in range(1, k + 1)) for k in range(1, 17)]
    l1 = [("bin", "d", 0o755), ("bin/sh", "f", 0o755, b"#!fake shell v1\n"),
          ("etc", "d", 0o750), ("etc/passwd", "f", 0o644, b"root:x:0:0::/root:/bin/sh\n"),
          ("etc/environment", "f", 0o644, b"IMAGE_OWN=1\n"),
          ("etc/rc.local", "f", 0o600, b"echo image rc.local\n"),
          ("etc/passwd-hl", "h", "etc/passwd"),
          ("opt", "d", 0o755), ("opt/old", "d", 0o755), ("opt/old/a", "f", 0o644, b"a\n"),
          ("opt/old/sub", "d", 0o755), ("opt/old/sub/b", "f", 0o644, b"b\n"),
          ("del", "d", 0o755), ("del/file", "f", 0o644, b"gone\n"), ("del/keep", "f", 0o644, b"kept\n"),
          ("ro", "d", 0o555), ("ro/inside", "f", 0o444, b"read only\n"),
          ("zero", "f", 0o000, b"no permissions\n"), ("suid", "f", 0o4755, b"setuid\n"),
          ("sgid", "d", 0o2775), ("sticky", "d", 0o1777),
          ("dev", "d", 0o755), ("dev/null", "f", 0o644, b"excluded\n"), ("dev/sub", "d", 0o755),
          ("dev/sub/x", "f", 0o644, b"excluded too\n"),
          ("usr", "d", 0o755), ("usr/bin", "d", 0o755), ("usr/bin/sh2", "l", "../../bin/sh"),
          ("etcl", "l", "/etc"), ("work", "d", 0o700)]
    l1 += [(p, "d", 0o555) for p in deep]
    l2 = [("bin", "d", 0o755), ("bin/sh", "f", 0o755, b"#!fake shell v2\n"),
          ("del", "d", 0o755), ("del/.wh.file", "f", 0o644, b""),
          ("opt", "d", 0o755), ("opt/old", "d", 0o711), ("opt/old/.wh..wh..opq", "f", 0o644, b""),
          ("opt/old/new", "f", 0o644, b"new\n"),
          ("data", "d", 0o755), ("data/blob", "f", 0o644, pseudo_random(300000, "blob")),
          ("data/blob-hl", "h", "data/blob"), ("data/dup", "f", 0o644, pseudo_random(300000, "blob"))]
    l3 = [("usr", "d", 0o755), ("usr/bin", "d", 0o755), ("usr/bin/tool", "f", 0o700, b"tool\n"),
          (".wh.etcl", "f", 0o644, b""), ("empty", "f", 0o644, b"")]
    layers = [layer(l1), layer(l2), layer(l3, compress=False)]
    config["config"] = {
        "Env": ["PATH=/usr/bin:/bin", "QUOTE=it's \"quoted\""],
        "Entrypoint": ["/bin/sh", "-c"], "Cmd": ["echo 'hi' $HOME", "tab\there"],
        "WorkingDir": "/work/app",
        "Labels": {"org.example.title": "line one\nline two", "b.label": "v b"},
        "Volumes": {"/data": {}, "/cache": {}}}
elif kind == "traversal":
    layers = [layer([("ok", "f", 0o644, b"ok\n"), ("../escape", "f", 0o644, b"pwned\n")])]
elif kind == "symlink_escape":
    layers = [layer([("evil", "l", "../../../../../../../../tmp"), ("evil/pwned", "f", 0o644, b"x\n")])]
elif kind == "hardlink_escape":
    layers = [layer([("hl", "h", "../../../../etc/passwd")])]
elif kind == "device":
    layers = [layer([("nodes", "d", 0o755), ("nodes/null", "c"), ("nodes/plain", "f", 0o644, b"p\n")])]
elif kind == "absolute":
    layers = [layer([("/abs", "d", 0o755), ("/abs/file", "f", 0o644, b"abs\n")])]
elif kind == "relative_workdir":
    layers = [layer([("bin", "d", 0o755), ("bin/sh", "f", 0o755, b"#!fake shell\n")])]
    config["config"] = {"WorkingDir": "rel/dir", "Cmd": ["/bin/sh"]}
elif kind == "unicode":
    layers = [layer([("bin", "d", 0o755), ("bin/sh", "f", 0o755, b"#!fake shell\n")])]
    config["config"] = {"Entrypoint": ["/bin/echo", "grüße"],
                        "Cmd": ["日本語 'x'", "plain", "tab\there ü", "nel\u0085", "ls\u2028",
                                "nbsp\u00a0", "bom\ufeff", "pua\ue000", "\U0001f600"]}
elif kind in ("file_whiteout", "whiteout_file"):
    lower = layer([("data", "d", 0o755), ("data/x", "d", 0o755),
                   ("data/x/y", "f", 0o644, b"lower y\n")])
    pair = [("data/x", "f", 0o644, b"the file's content\n"), ("data/x/.wh.y", "f", 0o644, b"")]
    layers = [lower, layer([("data", "d", 0o755)] + (pair if kind == "file_whiteout" else pair[::-1]))]
else:
    sys.exit(f"unknown image kind {kind}")

config["rootfs"] = {"type": "layers", "diff_ids": [d for _, d in layers]}
cd, cn = blob(json.dumps(config, separators=(",", ":")).encode())
manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": cd, "size": cn},
            "layers": [l for l, _ in layers]}
md, mn = blob(json.dumps(manifest, separators=(",", ":")).encode())
with open(out + "/oci-layout", "w") as f:
    f.write('{"imageLayoutVersion":"1.0.0"}')
with open(out + "/index.json", "w") as f:
    json.dump({"schemaVersion": 2, "manifests": [
        {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": md, "size": mn,
         "annotations": {"org.opencontainers.image.ref.name": tag}}]}, f)
print(md)
PY
}

# img_registry_start: starts docker-registry on a free loopback port; sets IMG_REGISTRY=127.0.0.1:PORT.
# Its log ($WORK/img-registry/log) is at IMG_REGISTRY_LOG_LEVEL (default error; info adds the
# access log, one line per request with the bytes sent).
img_registry_start() {
  local port
  port=$(free_port)
  mkdir -p "$WORK/img-registry"
  cat > "$WORK/img-registry/config.yml" <<YML
version: 0.1
storage: {filesystem: {rootdirectory: $WORK/img-registry/data}}
http: {addr: 127.0.0.1:$port}
log: {level: ${IMG_REGISTRY_LOG_LEVEL:-error}}
YML
  # lib.sh exports REGISTRY_AUTH_FILE for skopeo; docker-registry would read it as config.
  bg env -u REGISTRY_AUTH_FILE docker-registry serve "$WORK/img-registry/config.yml" >"$WORK/img-registry/log" 2>&1
  IMG_REGISTRY=127.0.0.1:$port
  wait_until 600 curl -sf "http://$IMG_REGISTRY/v2/"
}

# img_push LAYOUT TAG DEST [FORMAT]: copies the layout's image to docker://DEST with skopeo
# (FORMAT: oci or v2s2) and prints the pushed manifest digest.
img_push() {
  local layout=$1 tag=$2 dest=$3 format=${4:-oci}
  skopeo copy -q --dest-tls-verify=false --format "$format" --digestfile "$WORK/.img-digest" \
    "oci:$layout:$tag" "docker://$dest" >/dev/null && cat "$WORK/.img-digest"
}

# img_reference_sqsh LAYOUT TAG OUT EPOCH [SQUASH OPTIONS...]: the reference pipeline, independent
# of envlock: umoci unpack, drop dev/*, Enroot's fixperms, Enroot 4.1.2's four files written by
# bash from the config, then mksquashfs with Enroot's arguments. /etc/rc's words are quoted by
# bash's ${word@Q} under the caller's locale (LC_ALL=C or LC_ALL=C.UTF-8 before the call).
img_reference_sqsh() {
  local layout=$1 tag=$2 out=$3 epoch=$4; shift 4
  local opts=("$@")
  [ ${#opts[@]} -gt 0 ] || opts=(-comp lzo -noD -exit-on-error)
  local b
  b=$(mktemp -d "$WORK/ref.XXXXXX")
  umoci unpack --image "$layout:$tag" "$b/bundle" >/dev/null || return 1
  local r=$b/bundle/rootfs
  find "$r/dev" -mindepth 1 -delete 2>/dev/null
  chmod -f -R u+rX "$r"
  find "$r" -mindepth 1 -maxdepth 14 -type d ! -perm -u=w -exec chmod -f u+w {} +
  python3 - "$layout" "$tag" "$b" <<'PY'
import json, sys
layout, tag, b = sys.argv[1:4]
idx = json.load(open(layout + "/index.json"))
m = [x for x in idx["manifests"] if x.get("annotations", {}).get("org.opencontainers.image.ref.name") == tag][0]
man = json.load(open(layout + "/blobs/sha256/" + m["digest"][7:]))
cfg = json.load(open(layout + "/blobs/sha256/" + man["config"]["digest"][7:], encoding="utf-8")).get("config") or {}
def lines(name, items):
    with open(f"{b}/{name}", "w", encoding="utf-8") as f:
        for i in items:
            f.write(i + "\n")
lines("env", cfg.get("Env") or [])
lines("fstab", ["${ENROOT_ROOTFS}%s %s none x-create=dir,bind,rw,nosuid,nodev" % (v, v) for v in sorted((cfg.get("Volumes") or {}).keys())])
lines("labels", ["# %s %s" % (k, v.replace("\n", " ")) for k, v in (cfg.get("Labels") or {}).items()])
lines("workdir", [cfg.get("WorkingDir") or ""])
lines("entrypoint", [l for w in (cfg.get("Entrypoint") or []) for l in w.split("\n")])
lines("cmd", [l for w in (cfg.get("Cmd") or []) for l in w.split("\n")])
PY
  (
    umask 022
    local workdir entrypoint=() cmd=()
    read -r workdir < "$b/workdir"
    readarray -t entrypoint < "$b/entrypoint"
    readarray -t cmd < "$b/cmd"
    [ ${#entrypoint[@]} -eq 0 ] && [ ${#cmd[@]} -eq 0 ] && cmd=("/bin/sh")
    rm -rf "$r/etc/fstab" "$r/etc/environment" "$r/etc/rc" "$r/etc/rc.local"
    mkdir -p "$r/etc" && chmod 0755 "$r" "$r/etc"
    cp "$b/fstab" "$r/etc/fstab"; cp "$b/env" "$r/etc/environment"; cp "$b/labels" "$r/etc/rc"
    [ -s "$r/etc/rc" ] && echo >> "$r/etc/rc"
    local d=$r p
    # Enroot's `mkdir -p "${rootfs}${workdir}"` puts a relative WorkingDir beside the rootfs.
    if [ "${workdir#/}" != "$workdir" ]; then
      for p in $(tr '/' ' ' <<<"$workdir"); do d=$d/$p; mkdir -p "$d"; chmod 0755 "$d"; done
    fi
    cat >> "$r/etc/rc" <<RC
mkdir -p "${workdir:-/}" 2> /dev/null
cd "${workdir:-/}" && unset OLDPWD || exit 1

if [ -s /etc/rc.local ]; then
    . /etc/rc.local
fi

if [ \$# -gt 0 ]; then
    exec ${entrypoint[@]+${entrypoint[@]@Q}} "\$@"
else
    exec ${entrypoint[@]+${entrypoint[@]@Q}} ${cmd[@]+${cmd[@]@Q}}
fi
RC
    printf '%s\n' "# This file is sourced by /etc/rc when the container starts." \
      "# It can be used to manipulate the entrypoint or the command of the container." > "$r/etc/rc.local"
    chmod 0644 "$r/etc/fstab" "$r/etc/environment" "$r/etc/rc" "$r/etc/rc.local"
  )
  env -i PATH="$PATH" mksquashfs "$r" "$out" -mkfs-time "$epoch" -all-time "$epoch" -all-root \
    -no-progress "${opts[@]}" >/dev/null
  local rc=$?
  rm -rf "$b"
  return $rc
}
