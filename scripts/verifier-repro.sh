#!/usr/bin/env bash
# Builds envlock-verify from one commit in two different folders, without ccache, and compares the
# bytes: the copy `render --with-verifier` puts into images must not depend on where it was built.
# Usage: scripts/verifier-repro.sh [COMMIT] (default HEAD). Prints both sha256s; exit 0 when they
# are equal, 1 when they differ, 2 when a build fails. Takes two release builds of the verifier.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git rev-parse "${1:-HEAD}")
work=$(mktemp -d "${TMPDIR:-/tmp}/envlock-repro.XXXXXX")
trap 'rm -rf "$work"' EXIT
for where in one/a "two/b c"; do
  git clone -q --no-checkout . "$work/$where"
  git -C "$work/$where" checkout -q "$commit"
  (cd "$work/$where" &&
    CCACHE_DISABLE=1 cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENVLOCK_TESTS=OFF \
      >/dev/null &&
    CCACHE_DISABLE=1 cmake --build build -j"$(nproc)" --target envlock-verify >/dev/null) ||
    { echo "verifier-repro: the build in $work/$where failed" >&2; exit 2; }
done
a=$(sha256sum <"$work/one/a/build/envlock-verify" | cut -d' ' -f1)
b=$(sha256sum <"$work/two/b c/build/envlock-verify" | cut -d' ' -f1)
echo "commit $commit"
echo "one/a/build/envlock-verify    sha256 $a ($(stat -c %s "$work/one/a/build/envlock-verify") bytes)"
echo "two/b c/build/envlock-verify  sha256 $b"
if [ "$a" = "$b" ]; then
  echo "same bytes"
else
  kept=$(mktemp -d "${TMPDIR:-/tmp}/envlock-repro-differ.XXXXXX")
  cp "$work/one/a/build/envlock-verify" "$kept/a"
  cp "$work/two/b c/build/envlock-verify" "$kept/b"
  echo "verifier-repro: the two builds differ in $(cmp -l "$kept/a" "$kept/b" | wc -l) bytes; both kept in $kept" >&2
  exit 1
fi
