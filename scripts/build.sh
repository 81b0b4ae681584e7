#!/usr/bin/env bash
# Configures and builds envlock into build/ (warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENVLOCK_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
