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
check_eq "$(wc -l <<<"$tour")" 12 "the quick tour has its twelve lines"
check_eq "$ran" "$tour" "the demo ran every quick-tour line exactly as printed, in order"

kept=$(sed -n 's/^demo: files kept in //p' <<<"$d_out")
check_file "$kept/project/handover.md" "the kept outputs hold the handover record"
check_file "$kept/project/image.sqsh" "... and the .sqsh"
check_contains "$(cat "$kept/project/report.json")" '"outcome": "pass"' "the unpacked image passes its checks"
check_contains "$d_out" "executables: $(dirname "$(realpath "$ENVLOCK")")/envlock" \
  "the demo says where the executables are"
check_contains "$d_err" "envlock: comparing with image.squashfs-result.json" "squashfs verify names the result it found"

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
