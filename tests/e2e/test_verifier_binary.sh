# The envlock-verify that `render --with-verifier` and `context` put into images: stripped, with its
# debug information kept beside it, and free of the folders it was built in, so its bytes (and the
# context sha256 of a --with-verifier build) do not depend on where envlock was built.
. "$REPO/tests/e2e/lib.sh"
need_tools objdump readelf
V=$(realpath "$ENVLOCK_VERIFY")
BUILD=$(dirname "$V")

size=$(stat -c %s "$V")
check_eq "$((size <= 5 * 1024 * 1024))" 1 "envlock-verify is at most 5 MB ($size bytes)"
check_eq "$(objdump -h "$V" | grep -c '\.debug_')" 0 "envlock-verify has no debug sections"
check_eq "$(objdump -h "$V" | grep -c ' \.symtab')" 0 "envlock-verify has no symbol table"
check_eq "$(readelf -n "$V" | grep -c 'Build ID')" 0 \
  "no build-id (the linker would hash the debug sections into it, which do not always repeat)"
check_file "$V.debug" "its debug information is kept beside it"
check_eq "$(grep -c -a -F "$REPO" "$V")" 0 "no byte of envlock-verify names the source folder"
check_eq "$(grep -c -a -F "$BUILD" "$V")" 0 "no byte of envlock-verify names the build folder"
check_eq "$(grep -c -a -F "$REPO/" "$V.debug")" 0 "the debug information names no source folder either"
finish
