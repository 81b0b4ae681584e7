# A project to lock, for the suites that need a real lock (functions prefixed proj_): a base image
# in the plain loopback registry, a git repository with tags v1 and v2, and Megatron-LM's uv.lock
# and pyproject.toml from tests/data/megatron-lm.

# proj_make DIR: starts the plain registry (REG_PLAIN), pushes nvidia/pytorch:26.06-py3 to it and
# fills DIR (megatron/, uv.lock, pyproject.toml). Returns non-zero when a step fails.
proj_make() {
  local dir=$1 fixture=$REPO/tests/data/megatron-lm/core_v0.19.0
  need_fixture "$fixture/uv.lock"
  reg_start_plain || return 1
  umoci init --layout "$WORK/proj-img" >/dev/null &&
    umoci new --image "$WORK/proj-img:base" >/dev/null &&
    umoci config --image "$WORK/proj-img:base" --os linux --architecture amd64 \
      --config.cmd /bin/sh >/dev/null &&
    skopeo copy -q --dest-tls-verify=false "oci:$WORK/proj-img:base" \
      "docker://$REG_PLAIN/nvidia/pytorch:26.06-py3" || return 1
  mkdir -p "$dir"
  git_make_repo "$dir/megatron"
  cp "$fixture/uv.lock" "$fixture/pyproject.toml" "$dir/"
  chmod u+w "$dir/uv.lock" "$dir/pyproject.toml"
}

# proj_manifest DIR EXPECT [YAML...]: writes DIR/envlock.yaml for the project proj_make made, with
# `expect: EXPECT` (a YAML flow mapping) and any further top-level YAML lines.
proj_manifest() {
  local dir=$1 expect=$2
  shift 2
  {
    cat <<YAML
envlock: 1
image: {name: ml/train, tag: v1, repository: $REG_PLAIN/ml/train}
base: {image: "$REG_PLAIN/nvidia/pytorch:26.06-py3"}
sources:
  megatron: {git: "megatron", ref: v2}
python:
  uv: {version: 0.7.2}
expect: $expect
YAML
    printf '%s\n' "$@"
  } >"$dir/envlock.yaml"
}
