# envlock resolve against real registries on loopback (plain, basic auth, TLS, Bearer token), and
# against the fault server for what a real registry cannot do (5xx, 429, stalls, truncation, bad
# digests, cross-host redirects). Digests are compared with skopeo's.
. "$REPO/tests/e2e/lib.sh"
reg_need

reg_start_plain || skip "docker-registry (plain) did not start"
reg_start_auth || skip "docker-registry (auth) did not start"
reg_start_tls || skip "docker-registry (TLS) did not start"
reg_start_token "$REG_PLAIN" || skip "token server did not start"
reg_start_faults || skip "fault server did not start"
reg_make_image amd64 amd64 && reg_make_image arm64 arm64 || skip "umoci could not build the test images"

CREDS=(--dest-creds "$REG_USER:$REG_PASSWORD")
reg_push amd64 "$REG_PLAIN/base:v1" || skip "skopeo push failed"
reg_push amd64 "$REG_PLAIN/base:v1-docker" --format v2s2
reg_push arm64 "$REG_PLAIN/base-arm:v1"
reg_push amd64 "$REG_AUTH/base:v1" "${CREDS[@]}"
reg_push amd64 "$REG_TLS/base:v1" "${CREDS[@]}" --dest-cert-dir "$WORK/reg/certs.d"
reg_push_index "$REG_PLAIN/multi:v1" "$REG_PLAIN/base:v1" "$REG_PLAIN/base-arm:v1" ||
  skip "buildah manifest push failed"

D_OCI=$(reg_digest "$REG_PLAIN/base:v1")
D_V2=$(reg_digest "$REG_PLAIN/base:v1-docker")
D_INDEX=$(reg_digest "$REG_PLAIN/multi:v1")
D_INDEX_AMD64=$(reg_raw "$REG_PLAIN/multi:v1" | python3 -c '
import json, sys
print([m["digest"] for m in json.load(sys.stdin)["manifests"] if m["platform"]["architecture"] == "amd64"][0])')
check_ne "$D_OCI" "$D_V2" "OCI and v2s2 pushes have different digests"

# --- plain registry: OCI, Docker v2s2, multi-arch index
run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_PLAIN" "$REG_PLAIN/base:v1"
check_eq "$r_rc" 0 "resolve OCI image: exit 0"
check_contains "$r_out" "digest: $D_OCI" "resolve OCI image: digest == skopeo's"
check_contains "$r_out" "platform_digest: $D_OCI" "single platform: platform digest == digest"
check_contains "$r_out" "media_type: application/vnd.oci.image.manifest.v1+json" "OCI media type"

run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_PLAIN" "$REG_PLAIN/base:v1-docker"
check_contains "$r_out" "digest: $D_V2" "resolve v2s2 image: digest == skopeo's (no schema1 rewrite)"
check_contains "$r_out" "media_type: application/vnd.docker.distribution.manifest.v2+json" \
  "v2s2 media type"

run_cmd r "$ENVLOCK" resolve --format json --insecure-registry "$REG_PLAIN" "$REG_PLAIN/multi:v1"
check_eq "$r_rc" 0 "resolve index: exit 0"
check_eq "$(printf '%s' "$r_out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])')" \
  "$D_INDEX" "index: digest == skopeo's index digest"
check_eq "$(printf '%s' "$r_out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["platform_digest"])')" \
  "$D_INDEX_AMD64" "index: platform digest == the amd64 entry of skopeo --raw"
run_cmd r2 "$ENVLOCK" resolve --format json --insecure-registry "$REG_PLAIN" "$REG_PLAIN/multi:v1"
check_eq "$r2_out" "$r_out" "--format json output is byte-identical across runs"

run_cmd r "$ENVLOCK" resolve --platform linux/arm64 --insecure-registry "$REG_PLAIN" "$REG_PLAIN/multi:v1"
check_ne "$(printf '%s' "$r_out" | grep platform_digest)" "platform_digest: $D_INDEX_AMD64" \
  "index: linux/arm64 picks another entry"
run_cmd r "$ENVLOCK" resolve --platform linux/s390x --insecure-registry "$REG_PLAIN" "$REG_PLAIN/multi:v1"
check_eq "$r_rc" 2 "index without the platform: exit 2"
check_contains "$r_err" "no manifest for linux/s390x in $REG_PLAIN/multi:v1 (available: linux/amd64, linux/arm64" \
  "index without the platform: message"
run_cmd r "$ENVLOCK" resolve --platform linux/arm64 --insecure-registry "$REG_PLAIN" "$REG_PLAIN/base:v1"
check_eq "$r_rc" 2 "single-platform image for another platform: exit 2"
check_eq "$r_err" "envlock: error: $REG_PLAIN/base:v1 is a single-platform image for linux/amd64, not linux/arm64" \
  "single-platform image for another platform: message"

run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_PLAIN" "$REG_PLAIN/base@$D_OCI"
check_contains "$r_out" "digest: $D_OCI" "resolve by digest"
run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_PLAIN" "$REG_PLAIN/nothere:v1"
check_eq "$r_rc" 2 "unknown repository: exit 2"
check_eq "$r_err" "envlock: error: GET http://$REG_PLAIN/v2/nothere/manifests/v1: HTTP 404 (manifest unknown); GET http://$REG_PLAIN/v2/nothere/tags/list: HTTP 404 (name unknown)" \
  "unknown repository: message"
# An unknown tag lists the repository's tags, as skopeo list-tags does, and names the URL really
# used: here the plain HTTP a loopback registry fell back to.
SKOPEO_TAGS=$(skopeo list-tags --tls-verify=false "docker://$REG_PLAIN/base" |
  python3 -c 'import json,sys; print(", ".join(json.load(sys.stdin)["Tags"]))')
check_eq "$SKOPEO_TAGS" "v1, v1-docker" "skopeo lists the tags of base"
run_cmd r timeout 60 "$ENVLOCK" resolve "$REG_PLAIN/base:v9"
check_eq "$r_rc:$r_err" "2:envlock: error: GET http://$REG_PLAIN/v2/base/manifests/v9: HTTP 404 (manifest unknown); tags of base: $SKOPEO_TAGS" \
  "unknown tag: the URL it fell back to, and skopeo's tag list"
# Loopback is insecure by default, as in docker: HTTPS first, then plain HTTP when it answers so.
run_cmd r "$ENVLOCK" resolve "$REG_PLAIN/base:v1"
check_eq "$r_rc" 0 "plain loopback registry without --insecure-registry: exit 0 ($r_err)"
check_contains "$r_out" "digest: sha256:" "plain loopback registry without --insecure-registry: resolved"
# 0.0.0.0 reaches this host too, but is not a loopback name: the hint names the option.
ANY="0.0.0.0:${REG_PLAIN##*:}"
run_cmd r "$ENVLOCK" resolve "$ANY/base:v1"
check_eq "$r_rc:$r_err" "3:envlock: error: GET https://$ANY/v2/base/manifests/v1: the registry answered plain HTTP, not HTTPS; if it serves plain HTTP, name it with --insecure-registry $ANY (or list it in ENVLOCK_INSECURE_REGISTRIES)" \
  "a plain-HTTP registry reached over HTTPS: says so and names the option"
run_cmd r env ENVLOCK_INSECURE_REGISTRIES="registry.invalid, $ANY" "$ENVLOCK" resolve "$ANY/base:v1"
check_eq "$r_rc" 0 "ENVLOCK_INSECURE_REGISTRIES lists it once for every command: exit 0 ($r_err)"
run_cmd r "$ENVLOCK" resolve "Bad/Name"
check_eq "$r_err" "envlock: error: invalid image reference 'Bad/Name': repository must be lowercase" \
  "bad reference: message"
check_eq "$r_rc" 2 "bad reference: exit 2"

# --- basic auth: environment, docker config.json, enroot netrc
run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_AUTH" "$REG_AUTH/base:v1"
check_eq "$r_rc" 3 "auth registry without credentials: exit 3"
check_eq "$r_err" "envlock: error: $REG_AUTH requires a login and no credentials were found for it" \
  "auth registry without credentials: message"
ALL_OUT=""
run_cmd r env ENVLOCK_REGISTRY_USER="$REG_USER" ENVLOCK_REGISTRY_PASSWORD="$REG_PASSWORD" \
  "$ENVLOCK" resolve --insecure-registry "$REG_AUTH" "$REG_AUTH/base:v1"
check_contains "$r_out" "digest: $D_OCI" "auth registry, credentials from the environment"
ALL_OUT+="$r_out$r_err"
run_cmd r env ENVLOCK_REGISTRY_USER="$REG_USER" ENVLOCK_REGISTRY_PASSWORD=wrong-password \
  "$ENVLOCK" resolve --insecure-registry "$REG_AUTH" "$REG_AUTH/base:v1"
check_eq "$r_rc" 3 "wrong password: exit 3"
check_eq "$r_err" "envlock: error: GET http://$REG_AUTH/v2/base/manifests/v1: HTTP 401 (authentication failed)" \
  "wrong password: message"
mkdir -p "$HOME/.docker"
printf '{"auths": {"http://%s/v1/": {"auth": "%s"}}}\n' "$REG_AUTH" \
  "$(printf '%s:%s' "$REG_USER" "$REG_PASSWORD" | base64 -w0)" > "$HOME/.docker/config.json"
run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_AUTH" "$REG_AUTH/base:v1"
check_contains "$r_out" "digest: $D_OCI" "auth registry, credentials from ~/.docker/config.json"
ALL_OUT+="$r_out$r_err"
rm "$HOME/.docker/config.json"
mkdir -p "$WORK/enroot"
printf 'machine 127.0.0.1 login %s password %s\n' "$REG_USER" "$REG_PASSWORD" > "$WORK/enroot/.credentials"
run_cmd r env ENROOT_CONFIG_PATH="$WORK/enroot" "$ENVLOCK" resolve --insecure-registry "$REG_AUTH" "$REG_AUTH/base:v1"
check_contains "$r_out" "digest: $D_OCI" "auth registry, credentials from the enroot netrc"
ALL_OUT+="$r_out$r_err"

# --- TLS + basic auth
export ENROOT_CONFIG_PATH="$WORK/enroot"
run_cmd r "$ENVLOCK" resolve --ca-file "$REG_CA" "$REG_TLS/base:v1"
check_contains "$r_out" "digest: $D_OCI" "TLS registry with --ca-file"
ALL_OUT+="$r_out$r_err"
run_cmd r "$ENVLOCK" resolve "$REG_TLS/base:v1"
check_eq "$r_rc" 3 "TLS registry without --ca-file: exit 3"
check_contains "$r_err" "envlock: error: GET https://$REG_TLS/v2/base/manifests/v1: SSL certificate problem" \
  "TLS registry without --ca-file: message"
ALL_OUT+="$r_out$r_err"

# --- Bearer token front (token endpoint wants basic credentials from the netrc)
printf 'machine 127.0.0.1 login %s password %s\n' "$REG_USER" "$REG_PASSWORD" > "$WORK/enroot/.credentials"
run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_TOKEN" "$REG_TOKEN/multi:v1"
check_contains "$r_out" "digest: $D_INDEX" "Bearer-token registry: index digest"
check_contains "$r_out" "platform_digest: $D_INDEX_AMD64" "Bearer-token registry: platform digest"
check_eq "$(grep -c '^GET /token' "$WORK/reg/token.log")" 1 "one token fetched and reused for the scope"
ALL_OUT+="$r_out$r_err"
unset ENROOT_CONFIG_PATH
run_cmd r "$ENVLOCK" resolve --insecure-registry "$REG_TOKEN" "$REG_TOKEN/multi:v1"
check_eq "$r_rc" 3 "token endpoint refuses anonymous: exit 3"
check_contains "$r_err" "HTTP 401 (authentication failed)" "token endpoint refuses anonymous: message"

# --- faults
F=(--insecure-registry "$REG_FAULT" --registry-timeout 1)
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/err503-2/app:v1"
check_eq "$r_rc" 0 "two 503s then OK: retried, exit 0"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/err503-0/app:v1"
check_eq "$r_rc" 3 "always 503: exit 3"
check_eq "$r_err" "envlock: error: GET http://$REG_FAULT/v2/err503-0/app/manifests/v1: HTTP 503 after 4 attempts" \
  "always 503: message"
run_cmd r "$ENVLOCK" resolve "${F[@]}" --registry-attempts 2 "$REG_FAULT/err500-0/app:v1"
check_eq "$r_err" "envlock: error: GET http://$REG_FAULT/v2/err500-0/app/manifests/v1: HTTP 500 after 2 attempts" \
  "--registry-attempts 2: message"
start=$(date +%s%N)
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/ratelimit-1/app:v1"
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
check_eq "$r_rc" 0 "429 then OK: exit 0"
times=$(grep ' /v2/ratelimit-1/app/manifests/v1 ' "$WORK/reg/fault.log" | sed 's/.* t=//')
gap=$(printf '%s\n' "$times" | python3 -c 'import sys; t=[float(x) for x in sys.stdin]; print(int(t[1]-t[0] >= 0.95))')
check_eq "$gap" 1 "429: Retry-After (1 s) honoured before the retry"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/stall-1/app:v1"
check_eq "$r_rc" 0 "one stall past the timeout, then OK: exit 0"
run_cmd r "$ENVLOCK" resolve "${F[@]}" --registry-attempts 2 "$REG_FAULT/stall-0/app:v1"
check_eq "$r_rc" 3 "always stalling: exit 3"
check_contains "$r_err" "envlock: error: GET http://$REG_FAULT/v2/stall-0/app/manifests/v1: stalled: no data for 1 s after 2 attempts" \
  "always stalling: message names the timeout"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/truncate-1/app:v1"
check_eq "$r_rc" 0 "one truncated body, then OK: exit 0"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/truncate-0/app:v1"
check_eq "$r_rc" 3 "always truncated: exit 3"
check_contains "$r_err" "after 4 attempts" "always truncated: attempt count"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/baddigest/app:v1"
check_eq "$r_rc" 3 "config blob with other bytes: exit 3"
check_contains "$r_err" "envlock: error: blob sha256:" "config blob with other bytes: message names the blob"
check_contains "$r_err" ": digest mismatch (got sha256:" "config blob with other bytes: digest mismatch"
D_FAULT=$(curl -s "http://$REG_FAULT/v2/ok/app/manifests/v1" | sha256sum | cut -d' ' -f1)
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/baddigest/app@sha256:$D_FAULT"
check_eq "$r_rc" 3 "manifest by digest with other bytes: exit 3"
check_contains "$r_err" "envlock: error: manifest sha256:$D_FAULT: digest mismatch (got sha256:" \
  "manifest by digest with other bytes: message"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/redirect/app:v1"
check_eq "$r_rc" 0 "blob redirected to another host:port: exit 0"
check_contains "$(cat "$WORK/reg/fault.log")" "GET /v2/redirect/app/manifests/v1 auth=Bearer" \
  "redirect: the registry got the Bearer token"
check_contains "$(cat "$WORK/reg/peer.log")" "GET /storage/sha256:" "redirect: the blob came from the peer"
check_not_contains "$(cat "$WORK/reg/peer.log")" "auth=Bearer" "redirect: no Authorization sent to the peer"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/tokenfail/app:v1"
check_eq "$r_rc" 3 "failing token endpoint: exit 3"
check_contains "$r_err" "/token?tokenfail=1&service=fault&scope=repository%3Atokenfail%2Fapp%3Apull: HTTP 500 after 4 attempts" \
  "failing token endpoint: message"
ALL_OUT+="$r_out$r_err"

# --- hostile registries: a body without end, four bytes a second, a silent TLS port. Each run is
# bounded by `timeout` (a hang fails the check instead of the suite hanging).
run_cmd r timeout 60 "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/endless404/app:v1"
check_eq "$r_rc:$r_err" "2:envlock: error: GET http://$REG_FAULT/v2/endless404/app/manifests/v1: HTTP 404 (not found); GET http://$REG_FAULT/v2/endless404/app/tags/list: HTTP 404 (name unknown)" \
  "a 404 whose body never ends: answered from its start"
run_cmd r timeout 60 "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/endless401/app:v1"
check_eq "$r_rc:$r_err" "3:envlock: error: $REG_FAULT requires a login and no credentials were found for it" \
  "a 401 whose body never ends: the challenge is answered"
run_cmd r timeout 60 "$ENVLOCK" resolve "${F[@]}" --registry-deadline 3 "$REG_FAULT/trickle/app:v1"
check_eq "$r_rc:$r_err" "3:envlock: error: GET http://$REG_FAULT/v2/trickle/app/manifests/v1: not complete after 3 s (--registry-deadline)" \
  "a manifest at four bytes a second: the request deadline, not retried"
check_eq "$(grep -c ' /v2/trickle/app/manifests/v1 ' "$WORK/reg/fault.log")" 1 \
  "a manifest at four bytes a second: asked once"
# An open connection that never answers, not even the TLS handshake: a stall well before the
# deadline. On a terminal envlock says what it waits for and each retry; elsewhere only the error.
SILENT=$(free_port)
bg python3 "$REPO/tests/e2e/fault_server.py" --silent --port "$SILENT" --lifetime 600
wait_until 150 python3 -c "import socket; socket.create_connection(('127.0.0.1', $SILENT)).close()"
S_URL="https://127.0.0.1:$SILENT/v2/base/manifests/v1"
S_ERR="envlock: error: GET $S_URL: stalled: no TLS handshake after 2 s after 2 attempts"
run_cmd r timeout 60 "$ENVLOCK" resolve --registry-timeout 2 --registry-attempts 2 "127.0.0.1:$SILENT/base:v1"
check_eq "$r_rc:$r_err" "3:$S_ERR" "a silent TLS port: a stall, retried, then the error alone"
run_cmd r script -qec "timeout 60 $ENVLOCK resolve --registry-timeout 2 --registry-attempts 2 127.0.0.1:$SILENT/base:v1" /dev/null
check_eq "$(printf '%s' "$r_out" | tr -d '\r' | sed 's/\x1b\[K//g')" "envlock: GET $S_URL: waiting for the TLS handshake (1 s so far; giving up after 2 s)
envlock: GET $S_URL: stalled: no TLS handshake after 2 s; attempt 2 of 2 after 0.5 s
envlock: GET $S_URL: waiting for the TLS handshake (1 s so far; giving up after 2 s)
$S_ERR" "a silent TLS port on a terminal: what it waits for, and the retry"

# --- connection resets; faults while a layer downloads for `envlock squashfs`: retried, then the
# documented error (exit 3); the .sqsh already there is left as it was, and no partial or
# temporary file is left behind, beside the output or in TMPDIR.
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/reset-2/app:v1"
check_eq "$r_rc" 0 "two connection resets, then OK: exit 0"
run_cmd r "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/reset-0/app:v1"
check_eq "$r_rc" 3 "connection always reset: exit 3"
check_eq "$r_err" "envlock: error: GET http://$REG_FAULT/v2/reset-0/app/manifests/v1: Recv failure: Connection reset by peer after 4 attempts" \
  "connection always reset: message"
LAYER=$(curl -s "http://$REG_FAULT/v2/ok/app/manifests/v1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["layers"][0]["digest"])')
LAYER_SIZE=$(curl -s "http://$REG_FAULT/v2/ok/app/manifests/v1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["layers"][0]["size"])')
declare -A LAYER_ERR=(
  [layer-truncate-0]="GET http://$REG_FAULT/v2/layer-truncate-0/app/blobs/$LAYER: transfer closed with 32868 bytes remaining to read after 4 attempts"
  [layer-reset-0]="GET http://$REG_FAULT/v2/layer-reset-0/app/blobs/$LAYER: Recv failure: Connection reset by peer after 4 attempts"
  [layer-stall-0]="GET http://$REG_FAULT/v2/layer-stall-0/app/blobs/$LAYER: stalled: no data for 1 s after 4 attempts"
  [layer-baddigest]="blob $LAYER: digest mismatch (got sha256:"
  [layer-endless]="blob $LAYER: more than $LAYER_SIZE bytes, the size its descriptor gives (GET http://$REG_FAULT/v2/layer-endless/app/blobs/$LAYER)"
)
for mode in layer-truncate-0 layer-reset-0 layer-stall-0 layer-baddigest layer-endless; do
  out=$WORK/sq-$mode
  mkdir -p "$out" "$out.tmp"
  echo "the previous image" >"$out/app.sqsh"
  run_cmd r env TMPDIR="$out.tmp" timeout 120 "$ENVLOCK" squashfs "${F[@]}" \
    --image "$REG_FAULT/$mode/app@sha256:$D_FAULT" -o "$out/app.sqsh" --source-date-epoch 0
  check_ne "$r_rc" 124 "squashfs, $mode: bounded"
  check_eq "$r_rc" 3 "squashfs, $mode: exit 3"
  check_contains "$r_err" "envlock: error: ${LAYER_ERR[$mode]}" "squashfs, $mode: message"
  check_eq "$(cat "$out/app.sqsh")" "the previous image" "squashfs, $mode: the old .sqsh is kept"
  check_eq "$(ls -A "$out" | tr '\n' ' ')" "app.sqsh " "squashfs, $mode: nothing else beside it"
  check_eq "$(ls -A "$out.tmp" | wc -l)" 0 "squashfs, $mode: nothing left in TMPDIR"
  ALL_OUT+="$r_out$r_err"
done
run_cmd r env TMPDIR="$WORK" "$ENVLOCK" squashfs "${F[@]}" \
  --image "$REG_FAULT/layer-reset-1/app@sha256:$D_FAULT" -o "$WORK/sq-reset-1.sqsh" --source-date-epoch 0
check_eq "$r_rc" 0 "squashfs, one reset while the layer downloads: retried, exit 0"

check_not_contains "$ALL_OUT" "$REG_PASSWORD" "the password never appears in any output"
check_not_contains "$ALL_OUT" "fault-token-" "a token never appears in any output"
finish
