# Registry helpers for the end-to-end suites (sourced by tests/e2e/lib.sh): the Debian
# docker-registry on loopback in three modes, a Bearer-token front, the fault server, tiny
# busybox images built with umoci, and skopeo/buildah pushes. Everything lives under $WORK/reg.
# Functions set global variables (they cannot be used in $(...), which would lose the PIDs).

REG_USER=envlock-user
REG_PASSWORD=S3cret-envlock-pw

# reg_need: skips the suite unless the registry tools are installed.
reg_need() {
  need_tools docker-registry htpasswd openssl umoci skopeo buildah python3 curl
  [ -x /bin/busybox ] || skip "missing /bin/busybox (busybox-static)"
  # buildah refuses a REGISTRY_AUTH_FILE (set by lib.sh) that does not exist.
  [ -f "$REGISTRY_AUTH_FILE" ] || echo '{}' > "$REGISTRY_AUTH_FILE"
}

# reg_serve NAME EXTRA_YAML: writes $WORK/reg/NAME.yml, starts the registry on a free port and
# sets REG_PORT. EXTRA_YAML is appended to the config.
reg_serve() {
  local name=$1 extra=$2 scheme=${3:-http}
  mkdir -p "$WORK/reg/data-$name"
  REG_PORT=$(free_port)
  cat > "$WORK/reg/$name.yml" <<YML
version: 0.1
log: {level: warn}
storage: {filesystem: {rootdirectory: $WORK/reg/data-$name}, delete: {enabled: true}}
http:
  addr: 127.0.0.1:$REG_PORT
$extra
YML
  # lib.sh exports REGISTRY_AUTH_FILE for skopeo; the registry would read it as config.
  bg env -u REGISTRY_AUTH_FILE docker-registry serve "$WORK/reg/$name.yml" >"$WORK/reg/$name.log" 2>&1
  wait_until 150 curl -s -k -o /dev/null "$scheme://127.0.0.1:$REG_PORT/v2/"
}

reg_htpasswd() {
  mkdir -p "$WORK/reg"
  [ -f "$WORK/reg/htpasswd" ] || htpasswd -Bbn "$REG_USER" "$REG_PASSWORD" > "$WORK/reg/htpasswd"
}

# reg_start_plain: sets REG_PLAIN=127.0.0.1:PORT (no auth, plain HTTP).
reg_start_plain() {
  reg_serve plain "" && REG_PLAIN=127.0.0.1:$REG_PORT
}

# reg_start_auth: sets REG_AUTH (htpasswd basic auth, plain HTTP; $REG_USER / $REG_PASSWORD).
reg_start_auth() {
  reg_htpasswd
  reg_serve auth "auth: {htpasswd: {realm: basic-realm, path: $WORK/reg/htpasswd}}" &&
    REG_AUTH=127.0.0.1:$REG_PORT
}

# reg_start_tls: sets REG_TLS (TLS + basic auth) and REG_CA (the self-signed CA certificate).
reg_start_tls() {
  reg_htpasswd
  REG_CA=$WORK/reg/tls.crt
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -keyout "$WORK/reg/tls.key" -out "$REG_CA" \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null || return 1
  mkdir -p "$WORK/reg/certs.d" && cp "$REG_CA" "$WORK/reg/certs.d/ca.crt"
  reg_serve tls "  tls: {certificate: $REG_CA, key: $WORK/reg/tls.key}
auth: {htpasswd: {realm: basic-realm, path: $WORK/reg/htpasswd}}" https &&
    REG_TLS=127.0.0.1:$REG_PORT
}

# reg_start_token UPSTREAM: sets REG_TOKEN, a Bearer-token front for UPSTREAM (host:port) whose
# token endpoint wants $REG_USER / $REG_PASSWORD.
reg_start_token() {
  local port
  port=$(free_port)
  bg python3 "$REPO/tests/e2e/token_server.py" --port "$port" --upstream "http://$1" \
    --user "$REG_USER" --password "$REG_PASSWORD" --lifetime 600 --log "$WORK/reg/token.log"
  wait_until 150 curl -s -o /dev/null "http://127.0.0.1:$port/v2/" && REG_TOKEN=127.0.0.1:$port
}

# reg_start_faults: sets REG_FAULT and REG_PEER (two fault servers; the first redirects blobs to
# the second). Requests are logged to $WORK/reg/fault.log and $WORK/reg/peer.log.
reg_start_faults() {
  local port peer
  mkdir -p "$WORK/reg"
  port=$(free_port) peer=$(free_port)
  bg python3 "$REPO/tests/e2e/fault_server.py" --port "$peer" --lifetime 600 --log "$WORK/reg/peer.log"
  bg python3 "$REPO/tests/e2e/fault_server.py" --port "$port" --peer "http://127.0.0.1:$peer" \
    --lifetime 600 --log "$WORK/reg/fault.log"
  wait_until 150 curl -s -o /dev/null "http://127.0.0.1:$port/v2/" &&
    wait_until 150 curl -s -o /dev/null "http://127.0.0.1:$peer/v2/" &&
    REG_FAULT=127.0.0.1:$port REG_PEER=127.0.0.1:$peer
}

# reg_make_image NAME ARCH: an OCI layout $WORK/reg/img with tag NAME: busybox, for linux/ARCH.
reg_make_image() {
  local name=$1 arch=$2 dir=$WORK/reg/img-build-$1
  mkdir -p "$WORK/reg"
  [ -d "$WORK/reg/img" ] || umoci init --layout "$WORK/reg/img" || return 1
  umoci new --image "$WORK/reg/img:$name" &&
    umoci unpack --rootless --image "$WORK/reg/img:$name" "$dir" >/dev/null || return 1
  mkdir -p "$dir/rootfs/bin" "$dir/rootfs/etc"
  cp /bin/busybox "$dir/rootfs/bin/busybox"
  ln -sf busybox "$dir/rootfs/bin/sh"
  echo "envlock test image $name" > "$dir/rootfs/etc/envlock-test"
  umoci repack --image "$WORK/reg/img:$name" "$dir" &&
    umoci config --image "$WORK/reg/img:$name" --config.cmd /bin/sh --config.env PATH=/bin \
      --os linux --architecture "$arch"
}

# reg_push NAME DEST [SKOPEO_OPTION...]: copies layout image NAME to docker://DEST.
reg_push() {
  local name=$1 dest=$2; shift 2
  skopeo copy -q --dest-tls-verify=false "$@" "oci:$WORK/reg/img:$name" "docker://$dest"
}

# reg_push_index DEST AMD64_SRC ARM64_SRC: pushes a two-platform OCI index made by buildah from
# two images already in a registry (host:port/repo:tag, plain HTTP).
reg_push_index() {
  local b=(buildah --root "$WORK/reg/buildah" --runroot "$WORK/reg/buildah-run" --storage-driver vfs)
  "${b[@]}" manifest create multi-envlock >/dev/null &&
    "${b[@]}" manifest add --tls-verify=false multi-envlock "docker://$2" >/dev/null &&
    "${b[@]}" manifest add --tls-verify=false --arch arm64 multi-envlock "docker://$3" >/dev/null &&
    "${b[@]}" manifest push -q --all --tls-verify=false multi-envlock "docker://$1"
}

# reg_digest IMAGE [SKOPEO_OPTION...]: prints skopeo's digest of docker://IMAGE.
reg_digest() {
  local image=$1; shift
  skopeo inspect --tls-verify=false "$@" --format '{{.Digest}}' "docker://$image"
}

# reg_raw IMAGE [SKOPEO_OPTION...]: prints the raw manifest (or index) of docker://IMAGE.
reg_raw() {
  local image=$1; shift
  skopeo inspect --tls-verify=false "$@" --raw "docker://$image"
}
