#!/usr/bin/env bash
# Installs the Debian 12 packages envlock needs (run as root):
#   scripts/install-deps.sh          to build and run every test (scripts/test.sh)
#   scripts/install-deps.sh --demo   to build envlock and run the demo (scripts/demo.sh) only
#   ... --list                       prints the set's packages, one a line, and installs nothing
# Idempotent: packages already installed are not downloaded again. When another apt or dpkg
# process holds their locks (unattended upgrades at boot), it waits up to ENVLOCK_APT_LOCK_WAIT
# seconds (default 600), saying which lock and process it waits for.
set -euo pipefail
. "$(dirname "$0")/lib/apt_lock.sh"
set_name=tests list=0
for arg in "$@"; do
  case $arg in
    --demo) set_name=demo ;;
    --list) list=1 ;; # print the packages of the set, one a line, and install nothing
    *) echo "install-deps: unknown option $arg (--demo: only what the demo needs; --list)" >&2; exit 2 ;;
  esac
done
# What the demo uses: the build of envlock, envlock-verify and envlock-importer, and the tools its
# flow runs on loopback (a registry, buildah to build, skopeo and umoci for the base image,
# mksquashfs/unsquashfs, busybox for the image's shell, git for the Megatron-LM stand-in).
demo_packages=(
  cmake g++ make pkg-config git ccache
  libgit2-dev libarchive-dev libssl-dev libcurl4-openssl-dev nlohmann-json3-dev libyaml-cpp-dev
  libcli11-dev doctest-dev libtomlplusplus-dev libkainjow-mustache-dev
  docker-registry curl python3 busybox-static umoci skopeo buildah squashfs-tools ca-certificates
)
# And what only the tests use: the sanitizer and fuzz build and the linters (clang), the other
# builder (podman), a reference squashfs reader, the Slurm cluster and its munge, TLS and basic
# auth for the registry, and a DSSE checker that is not envlock (tests/e2e/test_attest.sh).
test_packages=(
  clang clang-format clang-tidy libclang-rt-14-dev
  apache2-utils openssl podman squashfs-tools-ng libsquashfs-dev
  munge slurmctld slurmd slurm-client libslurm-dev
  python3-securesystemslib
)
packages=("${demo_packages[@]}")
[ "$set_name" = tests ] && packages+=("${test_packages[@]}")
if [ "$list" = 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
# CycloneDX's own validator (npm, the versions pinned in tools/cyclonedx/package-lock.json) for
# the SBOMs the tests write; installed into tools/cyclonedx/node_modules, which git ignores.
install_cyclonedx_validator() {
  local dir stamp
  dir="$(cd "$(dirname "$0")/.." && pwd)/tools/cyclonedx"
  stamp=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$dir/node_modules/.envlock-installed" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  if ! command -v npm >/dev/null; then
    echo "install-deps: npm is missing; the SBOM tests need it (tools/cyclonedx)" >&2
    return 3
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) &&
    echo "$stamp" >"$dir/node_modules/.envlock-installed" &&
    echo "install-deps: installed the CycloneDX validator (tools/cyclonedx)"
}
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The tests validate the SBOMs they write with CycloneDX's own library; the demo does not.
validator() { [ "$set_name" = demo ] || install_cyclonedx_validator; }
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  validator
  exit
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run this script as root" >&2
  exit 3
fi
export DEBIAN_FRONTEND=noninteractive
wait_limit=${ENVLOCK_APT_LOCK_WAIT:-600}
apt_wait_for_locks "$wait_limit" || exit 3
# apt waits too, for a holder that starts between the check above and apt-get.
apt-get update -qq -o DPkg::Lock::Timeout="$wait_limit"
apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout="$wait_limit" \
  "${missing[@]}" >/dev/null
echo "install-deps: installed ${#missing[@]} packages"
validator
