#!/usr/bin/env bash
# Installs every Debian 12 package envlock needs to build, test and run its demo (run as root).
# Idempotent: packages already installed are not downloaded again. When another apt or dpkg
# process holds their locks (unattended upgrades at boot), it waits up to ENVLOCK_APT_LOCK_WAIT
# seconds (default 600), saying which lock and process it waits for.
set -euo pipefail
. "$(dirname "$0")/lib/apt_lock.sh"
packages=(
  # build
  cmake g++ make pkg-config git ccache clang clang-format clang-tidy libclang-rt-14-dev
  libgit2-dev libarchive-dev libssl-dev libcurl4-openssl-dev nlohmann-json3-dev libyaml-cpp-dev
  libcli11-dev doctest-dev libtomlplusplus-dev libkainjow-mustache-dev
  # services and tools the tests and the demo use on loopback
  docker-registry apache2-utils openssl curl python3 busybox-static umoci skopeo buildah podman
  squashfs-tools squashfs-tools-ng libsquashfs-dev munge slurmctld slurmd slurm-client libslurm-dev
  ca-certificates
  # a tool that is not envlock checks the DSSE signatures envlock writes (tests/e2e/test_attest.sh)
  python3-securesystemslib
)
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
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  install_cyclonedx_validator
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
install_cyclonedx_validator
