# Services and fixtures for scripts/demo.sh (sourced; functions prefixed demo_). Every process
# started is recorded in DEMO_PIDS and stopped by demo_stop_all, which the demo runs on exit.
# Needs: docker-registry, curl, python3, umoci, skopeo, busybox-static, git.

DEMO_PIDS=()

# demo_stop_all: stops every process demo_ functions started, by PID, and waits for them.
demo_stop_all() {
  local p
  for p in "${DEMO_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${DEMO_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  DEMO_PIDS=()
}

# demo_free_port: a free TCP port on 127.0.0.1.
demo_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# demo_start_registry DIR: starts docker-registry on a free loopback port, storage in DIR, and
# sets DEMO_REGISTRY=127.0.0.1:PORT.
demo_start_registry() {
  local dir=$1 port
  port=$(demo_free_port)
  mkdir -p "$dir/data"
  printf 'version: 0.1\nlog: {level: warn}\nstorage: {filesystem: {rootdirectory: %s}}\nhttp: {addr: 127.0.0.1:%s}\n' \
    "$dir/data" "$port" > "$dir/config.yml"
  # docker-registry reads REGISTRY_* variables as configuration (REGISTRY_AUTH_FILE would become
  # auth.file), so it starts without the one the container tools use.
  env -u REGISTRY_AUTH_FILE docker-registry serve "$dir/config.yml" > "$dir/log" 2>&1 &
  DEMO_PIDS+=($!)
  for _ in $(seq 100); do
    if curl -sf -o /dev/null "http://127.0.0.1:$port/v2/"; then
      DEMO_REGISTRY=127.0.0.1:$port
      return 0
    fi
    sleep 0.1
  done
  echo "demo: docker-registry did not start; its log:" >&2
  cat "$dir/log" >&2
  return 1
}

# demo_push_base DIR DEST: builds a tiny linux/amd64 image (busybox) with umoci in DIR and pushes
# it to docker://DEST with skopeo (plain HTTP).
demo_push_base() {
  local dir=$1 dest=$2
  mkdir -p "$dir"
  umoci init --layout "$dir/oci" &&
    umoci new --image "$dir/oci:base" &&
    umoci unpack --rootless --image "$dir/oci:base" "$dir/bundle" >/dev/null || return 1
  mkdir -p "$dir/bundle/rootfs/bin" "$dir/bundle/rootfs/etc"
  cp /bin/busybox "$dir/bundle/rootfs/bin/busybox"
  local applet
  for applet in sh cat echo sha256sum tar; do ln -sf busybox "$dir/bundle/rootfs/bin/$applet"; done
  echo "envlock demo base image" > "$dir/bundle/rootfs/etc/envlock-demo"
  umoci repack --image "$dir/oci:base" "$dir/bundle" &&
    umoci config --image "$dir/oci:base" --config.cmd /bin/sh --config.env PATH=/bin \
      --os linux --architecture amd64 &&
    skopeo copy -q --dest-tls-verify=false "oci:$dir/oci:base" "docker://$dest"
}

# demo_git_repo DIR TAG: a git repository with two commits (fixed names and dates) and an
# annotated tag TAG on the second; a stand-in for Megatron-LM.
demo_git_repo() {
  local dir=$1 tag=$2
  local g=(env GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
    GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.invalid GIT_AUTHOR_DATE=2026-01-01T00:00:00Z
    GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.invalid
    GIT_COMMITTER_DATE=2026-01-01T00:00:00Z git -C "$dir")
  mkdir -p "$dir/megatron/core"
  "${g[@]}" init -q -b main
  echo "Megatron-LM stand-in for the envlock demo" > "$dir/README.md"
  echo "__version__ = '0.0.1'" > "$dir/megatron/core/package_info.py"
  "${g[@]}" add README.md megatron
  "${g[@]}" commit -q -m "first commit"
  echo "__version__ = '0.0.1'  # released" > "$dir/megatron/core/package_info.py"
  "${g[@]}" commit -q -am "release 0.0.1"
  "${g[@]}" tag -a "$tag" -m "release $tag"
}

# demo_git_release DIR TAG: one more commit in the stand-in repository, tagged TAG (annotated).
demo_git_release() {
  local dir=$1 tag=$2
  local g=(env GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
    GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.invalid GIT_AUTHOR_DATE=2026-02-01T00:00:00Z
    GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.invalid
    GIT_COMMITTER_DATE=2026-02-01T00:00:00Z git -C "$dir")
  echo "__version__ = '${tag#core_v}'" > "$dir/megatron/core/package_info.py"
  "${g[@]}" commit -q -am "release ${tag#core_v}"
  "${g[@]}" tag -a "$tag" -m "release $tag"
}
