#!/usr/bin/env bash
# Installs every Debian 12 package envlock needs to build, test and run its demo (run as root).
# Idempotent: packages already installed are not downloaded again.
set -euo pipefail
packages=(
  # build
  cmake g++ make pkg-config git ccache clang clang-format clang-tidy libclang-rt-14-dev
  libgit2-dev libarchive-dev libssl-dev libcurl4-openssl-dev nlohmann-json3-dev libyaml-cpp-dev
  libcli11-dev doctest-dev libtomlplusplus-dev libkainjow-mustache-dev
  # services and tools the tests and the demo use on loopback
  docker-registry apache2-utils openssl curl python3 busybox-static umoci skopeo buildah podman
  squashfs-tools squashfs-tools-ng libsquashfs-dev munge slurmctld slurmd slurm-client
  ca-certificates
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run this script as root" >&2
  exit 3
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: installed ${#missing[@]} packages"
