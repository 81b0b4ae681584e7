#!/usr/bin/env bash
# Configures and builds envlock into build/ (warnings as errors): every target, or the ones named
# (e.g. `scripts/build.sh envlock envlock-verify`, what the demo needs).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENVLOCK_WERROR=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
