# envlock-verify without a GPU: the binary needs nothing but glibc; offline mode (--root) against
# an image fixture (golden JSON and JUnit reports, --deep catching one changed byte, a missing and
# an unexpected package, another NCCL in the lock); the no-driver path (GPU checks fail with the
# reason, or are skipped with --no-gpu); usage errors and `envlock verify`.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 ldd sha256sum
V=$ENVLOCK_VERIFY
[ -x "$V" ] || skip "no envlock-verify binary at $V"
DATA=$REPO/tests/data/verify
# The JSON report without its volatile "run" object, canonical.
no_run() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("run", None)
print(json.dumps(d, indent=2, sort_keys=True, ensure_ascii=False))' "$1"; }

# ---- the binary links nothing beyond glibc
libs=$(ldd "$V" | awk '{print $1}' | sed 's|.*/||' | sort | tr '\n' ' ')
extra=$(printf '%s\n' $libs | grep -v -E '^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|libdl\.so\.2|libpthread\.so\.0)$' | tr '\n' ' ')
check_eq "$extra" "" "ldd envlock-verify lists only glibc libraries ($libs)"
check_not_contains "$libs" "libstdc++" "no libstdc++"
check_not_contains "$libs" "libgcc_s" "no libgcc_s"
check_not_contains "$libs" "libcrypto" "no libcrypto"

# ---- offline: the fixture image passes, reports match the golden files
bash "$DATA/make_rootfs.sh" root
run_cmd r "$V" --root root --format json -o r.json --junit r.xml --deep
check_eq "$r_rc" 0 "offline verify passes (exit 0)"
check_contains "$r_out" "11 passed, 0 failed, 6 skipped" "summary line"
check_contains "$r_out" "PASS  nccl.version         2.30.7" "NCCL from the library's version string"
check_contains "$r_out" "SKIP  gpu.count" "GPU checks skipped offline"
check_eq "$(no_run r.json)" "$(no_run "$DATA/golden_offline.json")" "JSON report matches the golden file (run removed)"
check_eq "$(cat r.xml)" "$(cat "$DATA/golden_offline.junit.xml")" "JUnit report matches the golden file"
check_eq "$(python3 -c 'import json; r=json.load(open("r.json"))["run"]; print(r["root"] != "" and r["hostname"] != "")')" \
  "True" "volatile facts are in run"
run_cmd r2 "$V" --root root --format json -o r2.json --deep
check_eq "$(no_run r2.json)" "$(no_run r.json)" "a second run gives the same report (run removed)"
check_eq "$(python3 -c 'import json; print(json.load(open("r.json"))["lock_sha256"])')" \
  "$(sha256sum "$DATA/lock.json" | cut -d' ' -f1)" "lock_sha256 is the canonical lock's sha256"

# ---- --deep names a file whose byte changed
cp -a root deep
f=deep/opt/venv/lib/python3.12/site-packages/numpy/core/multiarray.py
python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[4]^=1; open(p,"wb").write(b)' "$f"
run_cmd d "$V" --root deep --deep --check packages
check_eq "$d_rc" 1 "a changed byte fails (exit 1)"
check_contains "$d_out" "FAIL  packages.record" "packages.record fails"
check_contains "$d_out" "1 files differ from RECORD: numpy-2.1.0.dist-info: numpy/core/multiarray.py (hash differs)" "the changed file is named"
run_cmd d "$V" --root deep --check packages
check_eq "$d_rc" 0 "without --deep the changed byte is not looked for"

# ---- a missing package and an unexpected one
cp -a root pk
rm -r pk/opt/venv/lib/python3.12/site-packages/six-1.17.0.dist-info
mkdir -p pk/opt/venv/lib/python3.12/site-packages/Extra.Pkg-0.1.dist-info
printf 'Name: Extra.Pkg\nVersion: 0.1\n' > pk/opt/venv/lib/python3.12/site-packages/Extra.Pkg-0.1.dist-info/METADATA
run_cmd p "$V" --root pk --check packages --junit p.xml
check_eq "$p_rc" 1 "missing/unexpected packages fail (exit 1)"
check_contains "$p_out" "1 missing (six)" "the missing package is listed"
check_contains "$p_out" "1 not in the lock (extra-pkg 0.1)" "the unexpected package is listed (PEP 503 name)"
check_contains "$(cat p.xml)" '<failure message="1 missing (six)">' "JUnit failure element"

# ---- the lock expects another NCCL
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["expect"]["nccl"]="2.28.9"
json.dump(d, open("nccl.lock.json","w"), indent=2, sort_keys=True)' "$DATA/lock.json"
run_cmd n "$V" --root root --lock nccl.lock.json --format json -o n.json
check_eq "$n_rc" 1 "another NCCL in the lock fails (exit 1)"
check_contains "$n_out" "NCCL 2.30.7 (from /usr/lib/x86_64-linux-gnu/libnccl.so.2.30.7) differs from the lock's 2.28.9" "the failure names NCCL"
check_eq "$(python3 -c 'import json; print(json.load(open("n.json"))["outcome"])')" "fail" "report outcome fail"

# ---- live mode with --site-packages: packages and torch from given folders
run_cmd s "$V" --lock "$DATA/lock.json" --check packages,torch \
  --site-packages root/opt/venv/lib/python3.12/site-packages \
  --site-packages root/usr/local/lib/python3.12/dist-packages
check_contains "$s_out" "PASS  packages.installed" "--site-packages: locked packages found"
check_contains "$s_out" "PASS  torch.version        2.13.0a0+8145d630e8" "--site-packages: torch/version.py read"
check_contains "$s_out" "1 not in the lock (torch 2.13.0a0+8145d630e8)" "--site-packages folders are the environment's own"

# ---- no driver: GPU checks fail with the reason, or are skipped with --no-gpu
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  echo "note: this machine has libcuda.so.1; the no-driver checks are not run"
else
  run_cmd g "$V" --lock "$DATA/lock.json" --check gpu,cuda
  check_eq "$g_rc" 1 "no driver: exit 1"
  check_contains "$g_out" "FAIL  gpu.count" "no driver: gpu.count fails"
  check_contains "$g_out" "FAIL  cuda.driver" "no driver: cuda.driver fails"
  check_contains "$g_out" "no NVIDIA driver: libcuda.so.1 not found" "no driver: the reason"
  run_cmd g "$V" --lock "$DATA/lock.json" --check gpu,smoke,gemm,links,allreduce --no-gpu
  check_eq "$g_rc" 0 "--no-gpu: exit 0"
  check_contains "$g_out" "SKIP  gpu.count" "--no-gpu: gpu.count skipped"
  check_contains "$g_out" "GPU checks skipped (--no-gpu)" "--no-gpu: the reason"
  check_contains "$g_out" "SKIP  links.peer" "--no-gpu: links.peer skipped"
  check_not_contains "$g_out" "PASS" "--no-gpu: nothing passes silently"
  run_cmd g "$V" --lock "$DATA/lock.json" --check cuda --no-gpu
  check_contains "$g_out" "SKIP  cuda.driver" "--no-gpu: cuda.driver skipped"
fi

# ---- usage and input errors: exit 2, exact messages
run_cmd u "$V" --lock "$DATA/lock.json" --check nccll
check_eq "$u_rc" 2 "unknown check group: exit 2"
check_eq "$u_err" "envlock-verify: error: --check: unknown check group 'nccll'; did you mean 'nccl'? (accepted: gpu, cuda, nccl, torch, packages, megatron, image, smoke, gemm, links, allreduce, sdc, resume, checkpoint-load)" "unknown check group message"
run_cmd u "$V" --lock "$WORK/none.json"
check_eq "$u_rc" 2 "missing lock: exit 2"
check_eq "$u_err" "envlock-verify: error: $WORK/none.json: No such file or directory" "missing lock message"
run_cmd u "$V" --root "$WORK/nowhere"
check_eq "$u_err" "envlock-verify: error: --root $WORK/nowhere: not a folder" "bad --root message"
run_cmd u "$V" --lock "$DATA/lock.json" --devices 0,x
check_eq "$u_err" "envlock-verify: error: --devices: 'x' is not a GPU index" "bad --devices message"
run_cmd u "$V" --bogus
check_eq "$u_rc" 2 "unknown option: exit 2"
run_cmd u "$V" --root root --format json -o "$WORK/no/such/dir/r.json"
check_eq "$u_rc" 3 "unwritable report: exit 3"

# ---- envlock verify runs the same checks
if [ -x "$ENVLOCK" ]; then
  run_cmd e "$ENVLOCK" verify --root root --format json -o e.json --deep
  check_eq "$e_rc" 0 "envlock verify: exit 0"
  check_eq "$(no_run e.json)" "$(no_run r.json)" "envlock verify writes the same report"
  run_cmd e "$ENVLOCK" verify --lock "$WORK/none.json"
  check_eq "$e_err" "envlock: error: $WORK/none.json: No such file or directory" "envlock verify error prefix"
fi
finish
