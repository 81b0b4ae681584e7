# envlock-verify --root against hostile image trees: every path of the image resolves inside it
# (links absolute, relative with "..", NGC's /etc/alternatives chains, ".." in ld.so.conf.d,
# VIRTUAL_ENV, the default lock path, RECORD lines with "../" or "/"), with the kernel's resolver
# (openat2) and the user-space one (ENVLOCK_ROOT_RESOLVER=user-space). The image lies at h/img;
# marker files planted in h/ (where a path escaping the image would land) are never reported.
# FIFOs and devices where a file belongs are named, never opened; RECORD is bounded; bytes that
# are not UTF-8 are escaped in the report. Every run is bounded by `timeout`.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 mkfifo timeout
V=$ENVLOCK_VERIFY
[ -x "$V" ] || skip "no envlock-verify binary at $V"
DATA=$REPO/tests/data/verify
bash "$DATA/make_rootfs.sh" base
site=opt/venv/lib/python3.12/site-packages
# The host side, beside the image: what an escaping path would read.
mkdir -p h/cuda-host h/hostlib h/hostvenv/bin h/hostvenv/lib/python3.12/site-packages/hostonly-6.6.6.dist-info
printf '{"cuda": {"version": "99.9.0"}}\n' >h/cuda-host/version.json
printf 'NCCL version 9.9.9+host\0' >h/hostlib/libnccl.so.2
printf 'home = /usr/bin\nversion = 3.12.3\n' >h/hostvenv/pyvenv.cfg
printf '#!/bin/sh\n' >h/hostvenv/bin/python3
printf 'Name: hostonly\nVersion: 6.6.6\n' >h/hostvenv/lib/python3.12/site-packages/hostonly-6.6.6.dist-info/METADATA
printf 'root:host-shadow-marker:19000:0:99999:7:::\n' >h/shadow
shadow_hash=$(python3 -c 'import base64,hashlib,sys; print(base64.urlsafe_b64encode(hashlib.sha256(open(sys.argv[1],"rb").read()).digest()).rstrip(b"=").decode())' h/shadow)
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["expect"]["cuda"]="99.9"
json.dump(d, open("h/hostlock.json","w"), indent=2, sort_keys=True)' "$DATA/lock.json"

# fresh: a new copy of the fixture image at h/img.
fresh() { rm -rf h/img; cp -a base h/img; }
# v NAME ARGS...: envlock-verify on h/img, bounded in time, with the resolver of this round.
v() { local name=$1; shift; run_cmd "$name" env $resolver_env timeout 60 "$V" --root h/img "$@"; }
# squeezed TEXT: the table with runs of spaces as one.
squeezed() { printf '%s\n' "$1" | tr -s ' '; }
# add_record LINE: appends a line to six's RECORD.
add_record() { printf '%s\n' "$1" >>"h/img/$site/six-1.17.0.dist-info/RECORD"; }

for resolver in kernel user-space; do
  resolver_env=""
  [ "$resolver" = user-space ] && resolver_env=ENVLOCK_ROOT_RESOLVER=user-space
  r="($resolver)"

  # ---- NGC's alternatives chain resolves inside the image and gives the image's CUDA
  fresh
  mv h/img/usr/local/cuda h/img/usr/local/cuda-13.3
  mkdir -p h/img/etc/alternatives
  ln -s /usr/local/cuda-13.3 h/img/etc/alternatives/cuda
  ln -s /etc/alternatives/cuda h/img/usr/local/cuda
  v c --check cuda --format json -o c.json
  check_eq "$c_rc" 0 "alternatives chain: exit 0 $r"
  check_contains "$(squeezed "$c_out")" "PASS cuda.runtime 13.3 13.3.41" "alternatives chain: the image's CUDA $r"
  check_eq "$(python3 -c 'import json; print([c["details"]["source"] for c in json.load(open("c.json"))["checks"] if c["id"]=="cuda.runtime"][0])')" \
    "/usr/local/cuda/version.json (cuda_cudart)" "alternatives chain: the source is the image's path $r"

  # ---- a relative link with ".." past the image's root stops at the root
  fresh
  rm -r h/img/usr/local/cuda
  ln -s ../../../cuda-host h/img/usr/local/cuda
  v c --check cuda
  check_eq "$c_rc" 1 "'..' past the root: exit 1 $r"
  check_contains "$c_out" "no CUDA runtime found (libcudart.so.*, /usr/local/cuda/version.json)" "'..' past the root: the host's CUDA is not the image's $r"
  check_not_contains "$c_out" "99.9" "'..' past the root: the host marker is not read $r"

  # ---- an absolute link to a host path names the image's path of that name
  fresh
  rm -r h/img/usr/local/cuda
  ln -s "$WORK/h/cuda-host" h/img/usr/local/cuda
  v c --check cuda
  check_contains "$c_out" "no CUDA runtime found" "absolute link: read inside the image $r"
  check_not_contains "$c_out" "99.9" "absolute link: the host marker is not read $r"
  mkdir -p "h/img$WORK/h/cuda-host"
  printf '{"cuda": {"version": "13.3.7"}}\n' >"h/img$WORK/h/cuda-host/version.json"
  v c --check cuda
  check_contains "$(squeezed "$c_out")" "PASS cuda.runtime 13.3 13.3.7" "absolute link: the image's file of that path $r"

  # ---- ".." in ld.so.conf.d stays inside the image
  fresh
  mkdir -p h/img/etc/ld.so.conf.d
  printf '/../../../hostlib\n' >h/img/etc/ld.so.conf.d/evil.conf
  v n --check nccl
  check_eq "$n_rc" 0 "ld.so.conf.d '..': exit 0 $r"
  check_contains "$(squeezed "$n_out")" "PASS nccl.version 2.30.7 2.30.7" "ld.so.conf.d '..': the image's NCCL $r"
  check_not_contains "$n_out" "9.9.9" "ld.so.conf.d '..': the host's NCCL is not read $r"
  # a conf file linking out of the image
  ln -s ../../../../hostlib/libnccl.so.2 h/img/etc/ld.so.conf.d/link.conf
  v n --check nccl
  check_not_contains "$n_out" "9.9.9" "ld.so.conf.d link out: not followed out $r"

  # ---- VIRTUAL_ENV with ".." names a folder of the image
  fresh
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["build_args"].pop("UV_PROJECT_ENVIRONMENT")
json.dump(d, open(sys.argv[2],"w"), indent=2, sort_keys=True)' "$DATA/lock.json" h/img/etc/envlock/lock.json
  printf 'VIRTUAL_ENV=/../../../hostvenv\nPATH=/usr/bin:/bin\n' >h/img/etc/environment
  v p --check packages --format json -o p.json
  check_not_contains "$p_out" "hostonly" "VIRTUAL_ENV '..': the host's venv is not checked $r"
  check_not_contains "$p_out" "VIRTUAL_ENV" "VIRTUAL_ENV '..': not found in the image, so not chosen $r"
  check_contains "$p_out" "python: /opt/venv/bin/python3 (found by /opt/venv)" "VIRTUAL_ENV '..': the image's environment instead $r"

  # ---- the default lock path through a link out of the image
  fresh
  rm h/img/etc/envlock/lock.json
  ln -s ../../../hostlock.json h/img/etc/envlock/lock.json
  v l --check cuda
  check_eq "$l_rc" 2 "lock link out: exit 2 $r"
  check_eq "$l_err" "envlock-verify: error: h/img/etc/envlock/lock.json: No such file or directory" "lock link out: the host's lock is not read $r"
  rm h/img/etc/envlock/lock.json
  ln -s "$WORK/h/hostlock.json" h/img/etc/envlock/lock.json
  v l --check cuda
  check_eq "$l_err" "envlock-verify: error: h/img/etc/envlock/lock.json: No such file or directory" "lock absolute link: the host's lock is not read $r"

  # ---- RECORD lines with "../" and "/" are the image's files
  fresh
  add_record "../../../../../../../shadow,sha256=$shadow_hash,44"
  add_record "/dev/zero,sha256=$shadow_hash,1"
  v d --deep --check packages --format json -o d.json
  check_eq "$d_rc" 1 "RECORD '../' and '/': exit 1 $r"
  check_contains "$d_out" "2 files differ from RECORD: six-1.17.0.dist-info: ../../../../../../../shadow (missing), six-1.17.0.dist-info: /dev/zero (missing)" "RECORD '../' and '/': both missing in the image $r"
  printf 'root:image-shadow:19000:0:99999:7:::\n' >h/img/shadow
  v d --deep --check packages
  check_contains "$d_out" "six-1.17.0.dist-info: ../../../../../../../shadow (hash differs)" "RECORD '../': the image's /shadow is hashed $r"

  # ---- FIFOs where a file belongs: named, never opened
  fresh
  rm "h/img/$site/six-1.17.0.dist-info/METADATA" && mkfifo "h/img/$site/six-1.17.0.dist-info/METADATA"
  v m --check packages
  check_eq "$m_rc" 1 "FIFO METADATA: exit 1 $r"
  check_contains "$m_out" "1 unreadable (/$site/six-1.17.0.dist-info/METADATA: is a FIFO, not a regular file)" "FIFO METADATA: named $r"

  fresh
  rm h/img/etc/envlock/lock.json && mkfifo h/img/etc/envlock/lock.json
  v l
  check_eq "$l_rc" 2 "FIFO lock: exit 2 $r"
  check_eq "$l_err" "envlock-verify: error: h/img/etc/envlock/lock.json: is a FIFO, not a regular file" "FIFO lock: named $r"
  mkfifo lock.fifo 2>/dev/null || true
  run_cmd l env $resolver_env timeout 60 "$V" --lock lock.fifo --check cuda
  check_eq "$l_err" "envlock-verify: error: lock.fifo: is a FIFO, not a regular file" "FIFO --lock: named $r"

  fresh
  rm h/img/etc/environment && mkfifo h/img/etc/environment
  v e --check cuda
  check_contains "$e_out" "warning: /etc/environment: is a FIFO, not a regular file; the image's variables are not known" "FIFO /etc/environment: a warning $r"

  fresh
  tv=h/img/usr/local/lib/python3.12/dist-packages/torch/version.py
  rm "$tv" && mkfifo "$tv"
  v t --check torch
  check_eq "$t_rc" 1 "FIFO version.py: exit 1 $r"
  check_contains "$t_out" "/usr/local/lib/python3.12/dist-packages/torch/version.py: is a FIFO, not a regular file" "FIFO version.py: named $r"

  fresh
  rm h/img/usr/lib/x86_64-linux-gnu/libnccl.so.2.30.7 && mkfifo h/img/usr/lib/x86_64-linux-gnu/libnccl.so.2.30.7
  v n --check nccl
  check_eq "$n_rc" 1 "FIFO libnccl.so.2: exit 1 $r"
  check_contains "$n_out" "/usr/lib/x86_64-linux-gnu/libnccl.so.2.30.7: is a FIFO, not a regular file" "FIFO libnccl.so.2: named $r"

  fresh
  rm "h/img/$site/six.py" && mkfifo "h/img/$site/six.py"
  v d --deep --check packages
  check_contains "$d_out" "six-1.17.0.dist-info: six.py (is a FIFO, not a regular file)" "FIFO RECORD file: named $r"

  # ---- character devices (root only can make one; a link to the host's /dev/zero is the image's)
  fresh
  if [ "$(id -u)" = 0 ]; then
    rm "h/img/$site/six.py" && mknod "h/img/$site/six.py" c 1 5
    v d --deep --check packages
    check_contains "$d_out" "six-1.17.0.dist-info: six.py (is a character device, not a regular file)" "device RECORD file: named $r"
    mkdir -p h/img/dev && mknod h/img/dev/zero c 1 5
    add_record "/dev/zero,sha256=$shadow_hash,1"
    v d --deep --check packages
    check_contains "$d_out" "six-1.17.0.dist-info: /dev/zero (is a character device, not a regular file)" "RECORD /dev/zero: the image's device, named $r"
  else
    echo "note: not root, no device node can be made; the device cases are covered by links only"
  fi
  fresh
  rm h/img/usr/lib/x86_64-linux-gnu/libnccl.so.2 && ln -s /dev/zero h/img/usr/lib/x86_64-linux-gnu/libnccl.so.2
  v n --check nccl
  check_eq "$n_rc" 1 "libnccl.so.2 -> /dev/zero: exit 1 $r"
  check_contains "$n_out" "no NCCL found (libnccl.so.2)" "libnccl.so.2 -> /dev/zero: the image has no /dev/zero, so no NCCL $r"
done

# ---- what one RECORD may claim
fresh
python3 - "h/img/$site/six-1.17.0.dist-info/RECORD" <<'PY'
import sys
with open(sys.argv[1], "a") as f:
    for i in range(200001):
        f.write(f"f{i},,\n")
PY
run_cmd d timeout 60 "$V" --root h/img --deep --check packages
check_eq "$d_rc" 1 "RECORD of 200001 lines: exit 1"
check_contains "$d_out" "1 RECORD files not checked: /$site/six-1.17.0.dist-info/RECORD: more than 200000 lines" "RECORD of 200001 lines: named with the limit"
fresh
truncate -s 17M "h/img/$site/six-1.17.0.dist-info/RECORD"
run_cmd d timeout 60 "$V" --root h/img --deep --check packages
check_contains "$d_out" "1 RECORD files not checked: /$site/six-1.17.0.dist-info/RECORD: larger than 16777216 bytes" "RECORD of 17 MiB: named with the limit"
fresh
python3 - "h/img/$site/six-1.17.0.dist-info/RECORD" <<'PY'
import sys
with open(sys.argv[1], "a") as f:
    for i in range(1500):
        f.write(f"gone{i:04},sha256=AAAA,1\n")
PY
run_cmd d timeout 60 "$V" --root h/img --deep --check packages --format json -o d.json
check_contains "$d_out" "1500 files differ from RECORD:" "1500 missing files: counted"
check_eq "$(python3 -c 'import json; c=[c for c in json.load(open("d.json"))["checks"] if c["id"]=="packages.record"][0]["details"]; print(len(c["mismatches"]), c["mismatches_not_listed"])')" \
  "1000 500" "1500 missing files: 1000 listed in the report, 500 counted"

# ---- bytes that are not UTF-8: escaped, the report written
fresh
printf 'Name: six\xff\nVersion: 1.17.0\n' >"h/img/$site/six-1.17.0.dist-info/METADATA"
mkdir -p "h/img/$site/bad"$'\xfe'"-1.0.dist-info"
run_cmd u timeout 60 "$V" --root h/img --check packages --format json -o u.json
check_eq "$u_rc" 1 "non-UTF-8 names: exit 1, not an internal error"
check_not_contains "$u_err" "internal error" "non-UTF-8 names: no internal error"
check_eq "$(python3 -c 'import json; c=[c for c in json.load(open("u.json"))["checks"] if c["id"]=="packages.unexpected"][0]; print(c["reason"])')" \
  '2 not in the lock (bad\xfe 1.0, six\xff 1.17.0)' "non-UTF-8 names: escaped in the report"
# ---- an image without Python: the note says where the verifier looked, not "python: none"
mkdir -p nopy/etc
run_cmd np timeout 60 "$V" --root nopy --lock "$DATA/lock.json" --check cuda
check_contains "$np_out$np_err" "python: no interpreter and no site-packages found (looked on PATH, in VIRTUAL_ENV, /opt/venv and the system folders)" \
  "an image without Python: the note says where it looked"
check_not_contains "$np_out$np_err" "python: none" "an image without Python: no 'python: none'"
finish
