# The upstream recipe (build.recipe: {upstream: megatron, path, target}): a Megatron-LM-like git
# repository holds an upstream-style docker/Dockerfile.ci.dev whose FROM lines name images through
# ARG defaults. `envlock lock` must pin each to the digest skopeo reports and record the recipe's
# sha256; `render` must rewrite those FROM lines; a real buildah build of the recipe plus the final
# stage must carry the training code, the project's uv.lock and the locked build arguments, give
# the same digest twice, and its provenance must name the recipe and its images. Drift (a changed
# build argument, a moved tag) and bad recipes are reported word for word.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools git tar sha256sum python3

json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "$@"; }
# layer_file IMAGE PATH: the bytes of PATH in the last layer of docker://IMAGE that holds it;
# "absent" when no layer does. Every layer is listed, so a PATH/ folder counts too.
layer_file() {
  rm -rf img-out && skopeo copy -q --src-tls-verify=false "docker://$1" oci:img-out:x >/dev/null &&
    python3 - "$2" <<'PY'
import json, sys, tarfile
want = sys.argv[1].lstrip("/")
idx = json.load(open("img-out/index.json"))
def blob(d): return "img-out/blobs/" + d.replace(":", "/")
man = json.load(open(blob(idx["manifests"][0]["digest"])))
found = None
for layer in man["layers"]:
    with tarfile.open(blob(layer["digest"])) as t:
        for m in t.getmembers():
            name = m.name.lstrip("./")
            if name == want and m.isfile():
                found = t.extractfile(m).read().decode()
            elif name.startswith(want + "/") or name == want:
                found = found if found is not None else "(folder)"
print("absent" if found is None else found, end="")
PY
}

reg_start_plain || skip "docker-registry did not start"
reg_make_image base amd64 >/dev/null && reg_push base "$REG_PLAIN/nvidia/pytorch:26.06-py3" &&
  reg_make_image tools amd64 >/dev/null && reg_push tools "$REG_PLAIN/tools/yq:4" ||
  skip "could not build and push the test images with umoci and skopeo"
D_BASE=$(reg_digest "$REG_PLAIN/nvidia/pytorch:26.06-py3")
D_TOOLS=$(reg_digest "$REG_PLAIN/tools/yq:4")

mkdir -p proj
cp "$REPO"/examples/demo/{pyproject.toml,uv.lock} proj/
git_make_repo proj/megatron-lm
mkdir -p proj/megatron-lm/docker proj/megatron-lm/megatron/core
cat > proj/megatron-lm/docker/Dockerfile.ci.dev <<DOCKERFILE
# An upstream-style recipe written for envlock's tests: the base image comes from an ARG default.
ARG FROM_IMAGE_NAME=$REG_PLAIN/nvidia/pytorch:26.06-py3
ARG TOOLS_IMAGE=$REG_PLAIN/tools/yq:4

FROM \$TOOLS_IMAGE AS tools

FROM \${FROM_IMAGE_NAME} AS main
ARG IMAGE_TYPE=dev
COPY README.md pyproject.toml uv.lock /workspace/
COPY megatron/core/__init__.py /workspace/megatron/core/
COPY --from=tools /etc/envlock-test /opt/tools-marker
RUN echo "\$IMAGE_TYPE" > /workspace/image-type

FROM main AS jet
RUN echo jet > /jet
DOCKERFILE
echo '# upstream uv.lock, replaced by the project one' > proj/megatron-lm/uv.lock
echo '[project]' > proj/megatron-lm/pyproject.toml
echo '__version__ = "0.19.0"' > proj/megatron-lm/megatron/core/__init__.py
git_env git -C proj/megatron-lm add -A && git_env git -C proj/megatron-lm commit -q -m recipe &&
  git_env git -C proj/megatron-lm tag -f v3 >/dev/null
COMMIT=$(git_commit_id proj/megatron-lm v3)
RECIPE_SHA=$(git -C proj/megatron-lm show "$COMMIT:docker/Dockerfile.ci.dev" | sha256sum | cut -d' ' -f1)
MANIFEST=$PWD/proj/envlock.yaml
write_manifest() { # IMAGE_TYPE [EXTRA BUILD ARG LINE]
  cat > "$MANIFEST" <<YAML
envlock: 1
image: {name: ml/train, tag: v1, repository: $REG_PLAIN/ml/train}
base: {image: "$REG_PLAIN/nvidia/pytorch:26.06-py3"}
sources:
  megatron: {git: ${GIT_LOCATION:-megatron-lm}, ref: v3}
python:
  uv: {version: 0.7.2, sha256: $(printf uv | sha256sum | cut -d' ' -f1)}
build:
  recipe: {upstream: megatron, path: docker/Dockerfile.ci.dev, target: main}
  args:
    IMAGE_TYPE: $1
${2:-}
enroot: {source_date_epoch: 1700000000}
YAML
}
write_manifest lts
cd proj

# ---- lock: the recipe's sha256, each FROM image by the digest skopeo reports
run_cmd l "$ENVLOCK" lock --insecure-registry "$REG_PLAIN"
check_eq "$l_rc" 0 "lock: exit 0 ($l_err)"
check_contains "$l_out" "  recipe docker/Dockerfile.ci.dev (target main): 2 images pinned" "lock: says what it pinned"
check_eq "$l_err" "" "lock: no warning, base.image is one of the recipe's images"
check_eq "$(json envlock.lock.json '["recipe"]["sha256"]')" "$RECIPE_SHA" "lock: recipe sha256 == git show | sha256sum"
check_eq "$(json envlock.lock.json '["recipe"]["images"][0]["line"]'):$(json envlock.lock.json '["recipe"]["images"][0]["image"]')" \
  "5:$REG_PLAIN/tools/yq:4" "lock: first image, from ARG TOOLS_IMAGE, line 5"
check_eq "$(json envlock.lock.json '["recipe"]["images"][0]["digest"]')" "$D_TOOLS" "lock: tools digest == skopeo"
check_eq "$(json envlock.lock.json '["recipe"]["images"][1]["from"]')" '${FROM_IMAGE_NAME}' "lock: second image as written"
check_eq "$(json envlock.lock.json '["recipe"]["images"][1]["digest"]')" "$D_BASE" "lock: base digest == skopeo"
check_eq "$(json envlock.lock.json '["recipe"]["images"].__len__()')" "2" "lock: 'FROM main' is a stage, not an image"
cp envlock.lock.json first.lock.json
"$ENVLOCK" lock --insecure-registry "$REG_PLAIN" >/dev/null
cmp -s envlock.lock.json first.lock.json && ok "lock: twice, identical bytes" || fail "lock: twice, identical bytes" "differ"

# ---- render: FROM lines pinned, the recipe otherwise as written, the final stage after it
run_cmd r "$ENVLOCK" render -o recipe.Dockerfile
check_eq "$r_rc" 0 "render: exit 0 ($r_err)"
dockerfile=$(cat recipe.Dockerfile)
check_contains "$dockerfile" "FROM $REG_PLAIN/tools/yq@$D_TOOLS AS tools" "render: tools FROM pinned"
check_contains "$dockerfile" "FROM $REG_PLAIN/nvidia/pytorch@$D_BASE AS main" "render: main FROM pinned"
check_contains "$dockerfile" "COPY --from=tools /etc/envlock-test /opt/tools-marker" "render: the rest as written"
check_contains "$dockerfile" "FROM main AS envlock" "render: the final stage builds on the target"
check_eq "$(grep -c '^FROM .*\$' recipe.Dockerfile)" "0" "render: no FROM names a variable"
run_cmd li "$ENVLOCK" lint recipe.Dockerfile
check_eq "$li_rc:$li_out" "0:recipe.Dockerfile: 0 errors, 0 warnings" "lint: the rendered recipe passes"

# ---- build: buildah, pushed, twice
IMAGE=$REG_PLAIN/ml/train
run_cmd b1 "$ENVLOCK" build -q --push --insecure-registry "$REG_PLAIN" --result r1/build-result.json
check_eq "$b1_rc" 0 "build: exit 0 ($(tail -5 r1/build-result.log 2>/dev/null))"
SKOPEO=$(reg_digest "$IMAGE:v1")
check_eq "$(json r1/build-result.json '["image"]["digest"]')" "$SKOPEO" "build: digest == skopeo inspect"
check_eq "$(json r1/build-result.json '["build_args"]')" "{'IMAGE_TYPE': 'lts'}" "build: locked build args recorded"
check_eq "$(layer_file "$IMAGE@$SKOPEO" workspace/image-type)" "lts" "image: the locked build argument reached the recipe"
check_eq "$(layer_file "$IMAGE@$SKOPEO" workspace/uv.lock)" "$(cat uv.lock)" "image: the project's uv.lock, not the tree's"
check_eq "$(layer_file "$IMAGE@$SKOPEO" opt/megatron-lm/megatron/core/__init__.py)" '__version__ = "0.19.0"' \
  "image: the training code of the commit"
check_eq "$(layer_file "$IMAGE@$SKOPEO" opt/megatron-lm/.envlock-commit)" "$COMMIT" "image: the commit"
check_eq "$(layer_file "$IMAGE@$SKOPEO" opt/megatron-lm/.envlock)" "absent" "image: no .envlock/ folder"
check_eq "$(layer_file "$IMAGE@$SKOPEO" opt/tools-marker)" "envlock test image tools" "image: the tools stage's file"
check_eq "$(layer_file "$IMAGE@$SKOPEO" jet)" "absent" "image: stages after the target are not built into it"
run_cmd b2 "$ENVLOCK" build -q --push --insecure-registry "$REG_PLAIN" --result r2/build-result.json
check_eq "$b2_rc" 0 "second build: exit 0"
check_eq "$(json r2/build-result.json '["image"]["digest"]')" "$SKOPEO" "second build: same image digest"
check_eq "$(json r2/build-result.json '["context_sha256"]')" "$(json r1/build-result.json '["context_sha256"]')" \
  "second build: same context sha256"

# ---- provenance: the recipe and its images among the resolved dependencies
run_cmd p "$ENVLOCK" provenance --build-result r1/build-result.json -o provenance.json
check_eq "$p_rc" 0 "provenance: exit 0 ($p_err)"
check_eq "$(json provenance.json '["subject"][0]["digest"]["sha256"]')" "${SKOPEO#sha256:}" "provenance: subject == skopeo digest"
deps=$(json provenance.json '["predicate"]["buildDefinition"]["resolvedDependencies"]')
check_contains "$deps" "'digest': {'sha256': '$RECIPE_SHA'}, 'name': 'recipe'" "provenance: the recipe by sha256"
check_contains "$deps" "'name': 'recipe.images[docker/Dockerfile.ci.dev:7]', 'uri': 'docker://$REG_PLAIN/nvidia/pytorch:26.06-py3'" \
  "provenance: the base image of the recipe"

# ---- drift: a build argument that changes a FROM; a moved tag
write_manifest lts "    FROM_IMAGE_NAME: $REG_PLAIN/tools/yq:4"
run_cmd k "$ENVLOCK" lock --check
check_eq "$k_rc" 1 "drift: changed FROM_IMAGE_NAME: exit 1"
check_contains "$k_out" "drift: recipe.images[docker/Dockerfile.ci.dev:7].image: lock has $REG_PLAIN/nvidia/pytorch:26.06-py3, manifest gives $REG_PLAIN/tools/yq:4" \
  "drift: changed FROM_IMAGE_NAME: named"
run_cmd w "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o warn.lock.json
check_eq "$w_rc:$w_err" "0:envlock: warning: base.image ($REG_PLAIN/nvidia/pytorch:26.06-py3) is none of the images the recipe's FROM lines name; labels and provenance will still name it as the base image" \
  "lock: a warning when base.image is not what the recipe builds from"
write_manifest lts
run_cmd k0 "$ENVLOCK" lock --check
check_eq "$k0_rc" 0 "drift: back to the locked manifest: exit 0 ($k0_out)"
reg_push tools "$REG_PLAIN/nvidia/pytorch:26.06-py3"
run_cmd kr "$ENVLOCK" lock --check --refresh --insecure-registry "$REG_PLAIN"
check_eq "$kr_rc" 1 "drift: moved tag: exit 1"
check_contains "$kr_out" "drift: recipe.images[docker/Dockerfile.ci.dev:7].digest: $REG_PLAIN/nvidia/pytorch:26.06-py3 moved from $D_BASE to $D_TOOLS" \
  "drift: moved tag: named"

# ---- bad recipes, word for word; nothing written
sed -i 's|target: main|target: dev|' envlock.yaml
run_cmd t "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o bad.lock.json
check_eq "$t_rc:$t_err" "2:envlock: error: build.recipe.target: 'dev' is not a stage of docker/Dockerfile.ci.dev (its stages: tools, main, jet)" \
  "error: a target that is no stage"
sed -i 's|target: dev|target: main|; s|path: docker/Dockerfile.ci.dev|path: docker/Dockerfile.gone|' envlock.yaml
run_cmd g "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o bad.lock.json
check_eq "$g_rc" 2 "error: a recipe missing at the commit: exit 2"
check_contains "$g_err" "envlock: error: build.recipe: docker/Dockerfile.gone not found at commit $COMMIT" \
  "error: a recipe missing at the commit: message"
write_manifest lts "    FROM_IMAGE_NAME: $REG_PLAIN/Bad/Ref:1"
run_cmd bi "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o bad.lock.json
check_eq "$bi_rc:$bi_err" "2:envlock: error: build.recipe: docker/Dockerfile.ci.dev:7: invalid image reference '$REG_PLAIN/Bad/Ref:1': repository must be lowercase" \
  "error: a build argument that makes a bad image reference"
write_manifest lts "    FROM_IMAGE_NAME: $REG_PLAIN/nvidia/pytorch:no-such-tag"
run_cmd bt "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o bad.lock.json
check_contains "$bt_err" "envlock: error: build.recipe: docker/Dockerfile.ci.dev:7: " \
  "error: an image the registry does not have names the recipe's line"
[ ! -e bad.lock.json ] && ok "errors: no lock written" || fail "errors: no lock written" "bad.lock.json exists"

# ---- a remote source: the recipe is read from a local clone given with --megatron-repo
reg_push base "$REG_PLAIN/nvidia/pytorch:26.06-py3"
# (git daemon on loopback serves the repository by git://, as a remote host would)
GIT_PORT=$(free_port)
bg git daemon --listen=127.0.0.1 --port="$GIT_PORT" --base-path="$PWD" --export-all --reuseaddr "$PWD"
git_up() { git ls-remote "git://127.0.0.1:$GIT_PORT/megatron-lm" >/dev/null 2>&1; }
wait_until 100 git_up || fail "git daemon" "did not answer on port $GIT_PORT"
GIT_LOCATION=git://127.0.0.1:$GIT_PORT/megatron-lm write_manifest lts
run_cmd rm1 "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o remote.lock.json
check_eq "$rm1_rc:$rm1_err" "2:envlock: error: sources.megatron: git://127.0.0.1:$GIT_PORT/megatron-lm is a remote repository; pass --megatron-repo DIR, a local clone that holds commit $COMMIT" \
  "remote source: lock needs --megatron-repo"
run_cmd rm2 "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o remote.lock.json --megatron-repo megatron-lm
check_eq "$rm2_rc" 0 "remote source: lock --megatron-repo: exit 0 ($rm2_err)"
check_eq "$(json remote.lock.json '["recipe"]')" "$(json first.lock.json '["recipe"]')" \
  "remote source: the same recipe pins as from the local repository"
run_cmd rm3 "$ENVLOCK" render --lock remote.lock.json
check_eq "$rm3_rc" 2 "remote source: render without the clone: exit 2"
run_cmd rm4 "$ENVLOCK" render --lock remote.lock.json --megatron-repo megatron-lm -o remote.Dockerfile
check_eq "$rm4_rc" 0 "remote source: render --megatron-repo: exit 0 ($rm4_err)"
check_contains "$(cat remote.Dockerfile)" "FROM $REG_PLAIN/nvidia/pytorch@$D_BASE AS main" "remote source: rendered and pinned"

# ---- file:// is a repository on this machine, as git takes it: no clone needed
GIT_LOCATION=file://$PWD/megatron-lm write_manifest lts
run_cmd fl "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o file.lock.json
check_eq "$fl_rc" 0 "file:// source: locked without --megatron-repo ($fl_err)"
check_eq "$(json file.lock.json '["recipe"]')" "$(json first.lock.json '["recipe"]')" \
  "file:// source: the same recipe pins as from the path"
run_cmd fr "$ENVLOCK" render --lock file.lock.json -o file.Dockerfile
check_eq "$fr_rc" 0 "file:// source: render reads the recipe without a clone ($fr_err)"
finish
