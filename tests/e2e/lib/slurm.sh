# A real Slurm cluster on this host for the fleet suites: munged, slurmctld and $SLURM_NODES
# slurmd (node1..nodeN, default 4; many slurmd share the host as NodeName=nodeN
# NodeHostname=localhost Port=...) with free ports, every file under $WORK/slurm, stopped by PID
# when the suite ends (lib.sh's bg). Each slurmd runs in its own mount namespace in which $SLURM_LOCAL (the
# nodes' "local storage") is node N's own folder $WORK/slurm/local-nodeN, so files copied to a
# node (sbcast) and node-local trees differ per node although the nodes share one host.
#
#   slurm_start        skips the suite when munged/slurmctld/slurmd/unshare are missing; exports
#                      SLURM_CONF and SLURM_LOCAL; returns when sinfo shows $SLURM_NODES idle
#                      nodes (default 4).
#                      Lines in $SLURM_EXTRA_CONF (e.g. Prolog=...) are added to slurm.conf,
#                      $SLURM_AUTHINFO_EXTRA (e.g. cred_expire=10) to its AuthInfo.
#                      Each node has 8 GPUs as generic resources (Gres=gpu:8, gres.conf naming
#                      fake device files under $WORK/slurm/dev): Slurm allocates them and sets
#                      CUDA_VISIBLE_DEVICES, as on a GPU cluster, so a job that asks for none
#                      gets none.
#                      $SLURM_MESSAGE_TIMEOUT sets MessageTimeout (default 5 s),
#                      $SLURM_MUNGE_THREADS munged's threads (default 2).
#   slurm_node_states  "node1 idle\nnode2 drained\n..." (sorted)
#   slurm_slurmd_pid N the pid of nodeN's slurmd

slurm_need() {
  local t missing=()
  for t in munged mungekey slurmctld slurmd sinfo sbatch srun scontrol sbcast unshare mount; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
  done
  [ ${#missing[@]} -eq 0 ] || skip "Slurm test cluster needs: ${missing[*]} (scripts/install-deps.sh installs them)"
  [ "$(id -u)" -eq 0 ] || skip "Slurm test cluster needs root (SlurmUser=root, per-node mount namespaces)"
  unshare --mount --propagation private true 2>/dev/null ||
    skip "Slurm test cluster needs mount namespaces (unshare --mount failed)"
}

slurm_write_conf() { # $1 dir, $2 socket, $3 controller port, $4.. one slurmd port per node
  local d=$1 sock=$2 ctld=$3
  shift 3
  cat >"$d/slurm.conf" <<EOF
ClusterName=envlocktest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock${SLURM_AUTHINFO_EXTRA:+,$SLURM_AUTHINFO_EXTRA}
SlurmctldPort=$ctld
SlurmdPort=$1
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd-%n.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
GresTypes=gpu
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmdTimeout=10
MessageTimeout=${SLURM_MESSAGE_TIMEOUT:-5}
InactiveLimit=0
MinJobAge=300
KillWait=2
EOF
  [ -z "${SLURM_EXTRA_CONF:-}" ] || printf '%s\n' "$SLURM_EXTRA_CONF" >>"$d/slurm.conf"
  local n=1 p
  for p in "$@"; do
    echo "NodeName=node$n NodeHostname=localhost Port=$p CPUs=2 RealMemory=2000 Gres=gpu:8 State=UNKNOWN" >>"$d/slurm.conf"
    n=$((n + 1))
  done
  echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >>"$d/slurm.conf"
  # Fake GPU device files (character devices like /dev/null) for gres/gpu to allocate.
  mkdir -p "$d/dev"
  local g
  for g in 0 1 2 3 4 5 6 7; do
    [ -e "$d/dev/nvidia$g" ] || mknod -m 666 "$d/dev/nvidia$g" c 1 3
  done
  echo "NodeName=node[1-$#] Name=gpu File=$d/dev/nvidia[0-7]" >"$d/gres.conf"
}

slurm_all_idle() {
  [ "$(sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2=="idle"' | sort -u | wc -l)" -eq "${SLURM_NODES:-4}" ]
}

slurm_start() {
  slurm_need
  local d=$WORK/slurm
  mkdir -p "$d/munge/etc" "$d/munge/run" "$d/state" "$d/spool" "$d/log" "$d/run" "$d/local"
  # munged wants execute permission for all on every folder above its socket.
  chmod 755 "$WORK" "$d" "$d/munge" "$d/munge/run"
  chmod 700 "$d/munge/etc"
  mungekey --create --keyfile="$d/munge/etc/munge.key" >/dev/null 2>&1 || skip "mungekey failed"
  local sock=$d/munge/run/munge.socket.2
  bg munged -F --key-file="$d/munge/etc/munge.key" --socket="$sock" \
    --pid-file="$d/munge/run/munged.pid" --log-file="$d/munge/munged.log" \
    --seed-file="$d/munge/etc/munged.seed" --num-threads="${SLURM_MUNGE_THREADS:-2}" >/dev/null 2>&1
  wait_until 100 test -S "$sock" || skip "munged did not start (see $d/munge/munged.log)"
  local count=${SLURM_NODES:-4} ports=()
  # count + 1 free ports at once (held open together, so they differ).
  mapfile -t ports < <(python3 -c 'import socket,sys
ss=[socket.socket() for _ in range(int(sys.argv[1]) + 1)]
for s in ss: s.bind(("127.0.0.1", 0))
print("\n".join(str(s.getsockname()[1]) for s in ss))' "$count")
  slurm_write_conf "$d" "$sock" "${ports[@]}"
  export SLURM_CONF=$d/slurm.conf
  trap 'slurm_stop; e2e_cleanup' EXIT
  export SLURM_LOCAL=$d/local
  bg slurmctld -D >"$d/log/slurmctld.out" 2>&1
  local n
  for ((n = 1; n <= count; n++)); do
    mkdir -p "$d/local-node$n"
    bg unshare --mount --propagation private /bin/sh -c \
      'mount --bind "$1" "$2" && exec slurmd -D -N "$3"' sh "$d/local-node$n" "$SLURM_LOCAL" "node$n" \
      >"$d/log/slurmd-node$n.out" 2>&1
  done
  if ! wait_until $((300 + count * 5)) slurm_all_idle; then
    sinfo -N >&2
    tail -5 "$d/log/slurmctld.log" >&2
    fail "slurm cluster up" "$count nodes not idle after $((30 + count / 2)) s"
    finish
  fi
}

# Cancels this cluster's jobs, then stops the slurmstepd processes it left (found by the SLURM_CONF
# in their environment), before lib.sh's cleanup stops the daemons by PID.
slurm_stop() {
  [ -n "${SLURM_CONF:-}" ] || return 0
  scancel --user=root >/dev/null 2>&1 || true
  local p
  for p in $(pgrep -x slurmstepd 2>/dev/null); do
    if tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | grep -qxF "SLURM_CONF=$SLURM_CONF"; then
      kill "$p" 2>/dev/null || true
    fi
  done
}

slurm_node_states() {
  sinfo -h -N -o '%N %T' | sort -u
}

slurm_slurmd_pid() {
  cat "$WORK/slurm/run/slurmd-node$1.pid"
}
