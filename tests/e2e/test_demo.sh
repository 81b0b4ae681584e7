# README command 1's flow: scripts/demo.sh with this build's envlock, and the README's quick tour
# run exactly as printed: every line of its first code block is a `$ LINE` the demo ran, in order.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools buildah unsquashfs git curl python3 busybox
need_fixture "$REPO/examples/demo/envlock.yaml"

run_cmd d env ENVLOCK="$(realpath "$ENVLOCK")" ENVLOCK_DEMO_KEEP=1 TMPDIR="$WORK" \
  bash "$REPO/scripts/demo.sh"
check_eq "$d_rc" 0 "the demo runs to the end ($(tail -5 <<<"$d_err"))"

# The quick tour: the first ```sh block after "## A quick tour", comments removed.
tour=$(awk '/^## A quick tour/{t=1} t&&/^```sh/{b=1;next} b&&/^```/{exit} b' "$REPO/README.md" |
  sed 's/ \{2,\}#.*$//; s/ *$//')
ran=$(sed -n 's/^\$ //p' <<<"$d_out")
check_eq "$(wc -l <<<"$tour")" 14 "the quick tour has its fourteen lines"
check_eq "$ran" "$tour" "the demo ran every quick-tour line exactly as printed, in order"

kept=$(sed -n 's/^demo: files kept in //p' <<<"$d_out")
check_file "$kept/project/handover.md" "the kept outputs hold the handover record"
check_file "$kept/project/image.sqsh" "... and the .sqsh"
check_contains "$(cat "$kept/project/report.json")" '"outcome": "pass"' "the unpacked image passes its checks"
check_contains "$d_out" "executables: $(dirname "$(realpath "$ENVLOCK")")/envlock" \
  "the demo says where the executables are"
check_contains "$d_err" "envlock: comparing with image.squashfs-result.json" "squashfs verify names the result it found"

# ---- the handover from the records the demo made (build -> squashfs -> verify --root), named as
# a user names them: every item of rows 3 (code) and 4 (image) is there, read from the field that
# holds it (image.reference, sqsh.file, sqsh.sha256), never guessed.
P=$kept/project
run_cmd h "$ENVLOCK" handover --lock "$P/envlock.lock.json" --build-result "$P/build-result.json" \
  --squashfs-result "$P/image.squashfs-result.json" --provenance "$P/provenance.json" \
  --reports "$P/reports" --format json -o "$WORK/handover.json"
check_eq "$h_rc" 0 "handover from the demo's records: exit 0 ($h_err)"
rows_34() { python3 -c 'import json,sys
for row in json.load(open(sys.argv[1]))["rows"]:
    if row["id"] in ("code", "image"):
        for item in row["items"]:
            print(row["id"], item["label"], "=", item["value"], "<-", item["source"])' "$1"; }
check_eq "$(rows_34 "$WORK/handover.json" | grep -c ' = None <- ')" "0" \
  "rows 3 and 4: no item missing ($(rows_34 "$WORK/handover.json" | grep ' = None <- ' | tr '\n' ';'))"
field_of() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d" + sys.argv[2]))' "$@"; }
check_contains "$(rows_34 "$WORK/handover.json")" \
  "image Built image = $(field_of "$P/build-result.json" '["image"]["reference"]') <- build-result.json: image.reference" \
  "Built image: the build result's image.reference"
check_contains "$(rows_34 "$WORK/handover.json")" \
  "image Squashfs file = image.sqsh <- image.squashfs-result.json: sqsh.file" "Squashfs file: sqsh.file"
check_contains "$(rows_34 "$WORK/handover.json")" \
  "image Squashfs sha256 = $(sha256sum "$P/image.sqsh" | cut -d' ' -f1) <- image.squashfs-result.json: sqsh.sha256" \
  "Squashfs sha256: the .sqsh's own sha256, from sqsh.sha256"
check_contains "$(rows_34 "$WORK/handover.json")" \
  "image Provenance subject digest = $(field_of "$P/build-result.json" '["image"]["digest"][7:]') <- provenance.json: subject[0].digest.sha256" \
  "Provenance subject digest: the built image's"
check_eq "$(grep -c '| \*\*missing\*\* |' "$P/handover.md")" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["missing"])' "$WORK/handover.json")" \
  "the demo's own handover (the usual files of its folder) misses what the named records miss"

# ---- the demo image's SBOM: valid, exactly what is installed, the same bytes twice
sbom=$kept/project/sbom.cdx.json
if [ -d "$REPO/tools/cyclonedx/node_modules/@cyclonedx/cyclonedx-library" ]; then
  run_cmd v node "$REPO/tools/cyclonedx/validate.js" "$sbom"
  check_eq "$v_rc" 0 "CycloneDX's JSON validator accepts the demo's SBOM ($v_out)"
else
  fail "validator" "CycloneDX's library is not installed (bash scripts/install-deps.sh installs it)"
fi
run_cmd t /usr/bin/python3 "$REPO/tests/e2e/lib/sbom_truth.py" "$sbom" "$kept/project/rootfs" \
  $(cd "$kept/project/rootfs" && find . -name '*.dist-info' -printf '/%h\n' | sort -u)
check_eq "$t_out" "python: 0 installed, 0 missing, 0 extra
deb: 0 installed, 0 missing, 0 extra" "the demo image: 0 missing, 0 extra against what is installed"
check_contains "$(cat "$sbom")" '"name": "envlock:python:locked-not-installed",
        "value": "pkg:pypi/six@1.16.0"' "six is locked but not installed, and said so"
commit=$(git -C "$kept/project/megatron-lm" rev-parse core_v0.0.1^{commit})
check_contains "$(cat "$sbom")" "\"version\": \"$commit\"" "Megatron-LM's commit"
(cd "$kept/project" && "$ENVLOCK" sbom --sqsh image.sqsh -o again.cdx.json 2>/dev/null)
cmp -s "$sbom" "$kept/project/again.cdx.json" && ok "the demo's SBOM twice: byte-identical" ||
  fail "SBOM twice" "differs"
check_contains "$d_out" "pushed sbom.cdx.json (sbom) as " "the demo attaches the SBOM to the image"

# ---- what the demo points at: cmake --install of the build it made, into a prefix
if [ -f "$REPO/build/cmake_install.cmake" ]; then
  run_cmd in cmake --install "$REPO/build" --prefix "$WORK/prefix"
  check_eq "$in_rc" 0 "cmake --install of the build: exit 0 ($(tail -2 <<<"$in_err"))"
  for f in bin/envlock bin/envlock-verify bin/envlock-importer share/envlock/templates/Dockerfile.mustache \
    share/envlock/resume/envlock_resume.py; do
    check_file "$WORK/prefix/$f" "installed: $f"
  done
  check_eq "$("$WORK/prefix/bin/envlock" version)" "$("$ENVLOCK" version)" "the installed envlock runs"
fi
finish
