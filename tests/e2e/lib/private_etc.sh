# A private /etc for suites that need files the product reads at fixed paths there
# (/etc/envlock/importer.yaml) or real users: the suite re-runs itself in its own mount namespace
# in which /etc is an overlay of the machine's (the changes land in a tmpfs under $WORK and vanish
# with the namespace), so the machine's /etc is neither read for envlock's files nor changed.
#
#   private_etc        call first in a suite: re-executes it in the namespace (once) and mounts
#                      the overlay; skips the suite when it needs root or mount namespaces.
#   trusted_work       re-homes $WORK on a path only root can write (trusted_work below).
#   test_user NAME     adds the user NAME (a real, non-root account, its own group) to the private
#                      /etc and prints its uid; as_user NAME CMD... runs CMD as that user.

private_etc() {
  [ "$(id -u)" -eq 0 ] || skip "a private /etc needs root"
  if [ -z "${E2E_PRIVATE_ETC:-}" ]; then
    command -v unshare >/dev/null 2>&1 || skip "a private /etc needs unshare"
    export E2E_PRIVATE_ETC=1
    exec unshare --mount --propagation private bash "$0" "$@"
  fi
  mkdir -p "$WORK/etc-layer"
  mount -t tmpfs tmpfs "$WORK/etc-layer" || skip "a private /etc needs tmpfs mounts"
  mkdir -p "$WORK/etc-layer/upper" "$WORK/etc-layer/work"
  mount -t overlay overlay \
    -o "lowerdir=/etc,upperdir=$WORK/etc-layer/upper,workdir=$WORK/etc-layer/work" /etc ||
    skip "a private /etc needs overlayfs"
  mkdir -p /etc/envlock
  chmod 755 /etc/envlock
}

test_user() {
  local name=$1
  id -u "$name" >/dev/null 2>&1 || useradd --no-create-home --user-group --shell /bin/sh "$name" ||
    { fail "create user $name" "useradd"; finish; }
  id -u "$name"
}

as_user() {
  local name=$1
  shift
  setpriv --reuid="$(id -u "$name")" --regid="$(id -g "$name")" --init-groups "$@"
}

# trusted_work: moves the suite to a path every folder of which is root's and writable by no one
# else, as a root decision requires (docs/manual/trust.md; /tmp above $WORK is writable by all):
# $WORK is bind-mounted at /etc/envlock-e2e in this suite's mount namespace (an empty folder of
# the private /etc) and WORK names it from then on. Call after private_etc.
trusted_work() {
  chmod 755 "$WORK"
  mkdir -p /etc/envlock-e2e
  mount --bind "$WORK" /etc/envlock-e2e || skip "trusted_work needs bind mounts"
  WORK=/etc/envlock-e2e
  export WORK
  cd "$WORK" || skip "cannot enter $WORK"
}
