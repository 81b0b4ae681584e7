# envlock-verify finds the Python environment as Python itself would, with no variable a real
# node would lack (VIRTUAL_ENV and UV_PROJECT_ENVIRONMENT unset), and every Python check uses it:
# - live: a virtual environment first on PATH, beside this machine's distro Python;
# - offline: an NGC-style image (PyTorch in /usr/local/lib/python3.12/dist-packages, no venv);
#   a venv with include-system-site-packages = true; a lock whose UV_PROJECT_ENVIRONMENT is not
#   PATH's Python; a lock naming an environment the image lacks.
# In each, the NCCL checked is the one the found PyTorch loads: stand-in libraries compiled here
# (libnccl.so.2 with a real ncclGetVersion; libtorch_cuda.so needing it, with pip's RUNPATH).
. "$REPO/tests/e2e/lib.sh"
need_tools gcc python3
V=$ENVLOCK_VERIFY
unset VIRTUAL_ENV UV_PROJECT_ENVIRONMENT

# nccl_lib DIR CODE VERSION: a libnccl.so.2 whose ncclGetVersion answers CODE and whose bytes hold
# NCCL's version string.
nccl_lib() {
  mkdir -p "$1"
  cat >"$1/nccl.c" <<C
const char envlock_nccl_banner[] = "NCCL version $3+cuda13.0";
int ncclGetVersion(int* version) { *version = $2; return 0; }
C
  gcc -shared -fPIC -Wl,-soname,libnccl.so.2 -o "$1/libnccl.so.2" "$1/nccl.c" && rm "$1/nccl.c"
}

# torch SITE VERSION [RUNPATH]: torch/version.py, a dist-info, and a libtorch_cuda.so that needs
# libnccl.so.2 (found through RUNPATH when given, as pip's wheels do, else the system's).
torch_in() {
  local site=$1 version=$2 runpath=${3:-}
  mkdir -p "$site/torch/lib" "$site/torch-$version.dist-info"
  printf "__version__ = '%s'\ncuda: Optional[str] = '13.0'\ngit_version = 'abc'\n" "$version" \
    >"$site/torch/version.py"
  printf 'Metadata-Version: 2.1\nName: torch\nVersion: %s\n\n' "$version" \
    >"$site/torch-$version.dist-info/METADATA"
  nccl_lib "$WORK/link" 22809 2.28.9 >/dev/null
  printf 'int envlock_torch_cuda(void) { return 0; }\n' >"$WORK/torch.c"
  local rpath=()
  [ -n "$runpath" ] && rpath=(-Wl,--enable-new-dtags "-Wl,-rpath,$runpath")
  gcc -shared -fPIC -o "$site/torch/lib/libtorch_cuda.so" "$WORK/torch.c" -Wl,--no-as-needed \
    -L"$WORK/link" -l:libnccl.so.2 "${rpath[@]}"
}

# dist SITE NAME VERSION: a dist-info with METADATA only.
dist() {
  mkdir -p "$1/$2-$3.dist-info"
  printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n\n' "$2" "$3" >"$1/$2-$3.dist-info/METADATA"
}

# make_lock FILE TORCH NCCL [UV_PROJECT_ENVIRONMENT]: a lock expecting torch TORCH, numpy 2.1.0
# and NCCL; build_args names the environment when given.
make_lock() {
  python3 - "$REPO/tests/data/verify/lock.json" "$@" <<'PY'
import json, sys
template, out, torch, nccl = sys.argv[1:5]
env = sys.argv[5] if len(sys.argv) > 5 else None
lock = json.load(open(template))
lock["expect"]["pytorch"] = torch
lock["expect"]["nccl"] = nccl
lock["expect"]["cuda"] = "13.0"
lock["expect"]["python"] = ""
lock["build_args"] = {"UV_PROJECT_ENVIRONMENT": env} if env else {}
lock["python"]["uv_lock"]["packages"] = [
    {"name": "numpy", "version": "2.1.0", "source": {"kind": "registry", "location": "https://pypi.example.invalid/simple"}},
    {"name": "torch", "version": torch, "source": {"kind": "registry", "location": "https://pypi.example.invalid/simple"}}]
json.dump(lock, open(out, "w"), indent=2, sort_keys=True)
PY
}

field() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
# check_of REPORT ID: "OUTCOME FOUND" of one check.
check_of() { field "$1" '[c["outcome"] + " " + c["found"] for c in r["checks"] if c["id"] == "'"$2"'"][0]'; }
# nccl_path REPORT: the NCCL file nccl.version checked, normalised.
nccl_path() {
  field "$1" '__import__("os").path.normpath([c for c in r["checks"] if c["id"] == "nccl.version"][0]["details"]["path"])'
}

# ---- live: a venv first on PATH, VIRTUAL_ENV unset, the distro Python beside it
pyver=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
venv=$WORK/opt/torch/.venv
site=$venv/lib/python$pyver/site-packages
mkdir -p "$venv/bin" "$site"
ln -s "$(command -v python3)" "$venv/bin/python3"
printf 'home = %s\ninclude-system-site-packages = false\nversion_info = %s.1\n' \
  "$(dirname "$(command -v python3)")" "$pyver" >"$venv/pyvenv.cfg"
torch_in "$site" 2.11.0+cu130 '$ORIGIN/../../nvidia/nccl/lib'
nccl_lib "$site/nvidia/nccl/lib" 22809 2.28.9
dist "$site" numpy 2.1.0
make_lock live.lock.json 2.11.0+cu130 2.28.9
run_cmd l env PATH="$venv/bin:$PATH" "$V" --lock live.lock.json --check torch,nccl,packages --format json -o live.json
check_eq "$l_rc" 0 "live: the venv on PATH passes torch, nccl and packages ($l_out)"
check_eq "$(head -1 <<<"$l_out")" \
  "python: $venv/bin/python3 (found on PATH), site-packages: $site" "live: the first line says what was checked and how"
check_eq "$(check_of live.json torch.version)" "pass 2.11.0+cu130" "live: PyTorch of the venv"
check_eq "$(check_of live.json nccl.version)" "pass 2.28.9" "live: NCCL 2.28.9 (ncclGetVersion)"
check_eq "$(nccl_path live.json)" "$site/nvidia/nccl/lib/libnccl.so.2" \
  "live: the NCCL checked is the one PyTorch loads (the venv's)"
check_contains "$l_out" "2 of 2 installed" "live: the locked packages are found in the venv"
check_contains "$l_out" "0 unexpected" "live: the distro Python's packages are not the venv's"
check_eq "$(field live.json 'r["details"]["environment"]["found_by"], r["details"]["environment"]["virtual_env"]')" \
  "('PATH', True)" "live: details.environment says how it was found"

# ---- offline: an NGC-style image, PyTorch in /usr/local/lib/python3.12/dist-packages, no venv
ngc=$WORK/ngc
mkdir -p "$ngc/usr/bin" "$ngc/usr/lib/python3/dist-packages" "$ngc/etc" \
  "$ngc/usr/lib/x86_64-linux-gnu"
: >"$ngc/usr/bin/python3.12"
ln -s python3.12 "$ngc/usr/bin/python3"
printf 'PATH=/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin\n' >"$ngc/etc/environment"
ngc_site=$ngc/usr/local/lib/python3.12/dist-packages
torch_in "$ngc_site" 2.11.0a0+nv26.06
dist "$ngc_site" numpy 2.1.0
dist "$ngc/usr/lib/python3/dist-packages" distro-info 1.7
nccl_lib "$ngc/usr/lib/x86_64-linux-gnu" 22903 2.29.3
make_lock ngc.lock.json 2.11.0a0+nv26.06 2.29.3
run_cmd n "$V" --root "$ngc" --lock ngc.lock.json --check torch,nccl,packages --format json -o ngc.json
check_eq "$n_rc" 1 "ngc: one check fails (a distro package the lock lacks) ($n_out)"
check_eq "$(head -1 <<<"$n_out")" \
  "python: /usr/bin/python3 (found on PATH), site-packages: /usr/local/lib/python3.12/dist-packages, /usr/lib/python3/dist-packages" \
  "ngc: the distro Python's dist-packages, as Debian's site module lists them"
check_eq "$(check_of ngc.json torch.version)" "pass 2.11.0a0+nv26.06" \
  "ngc: PyTorch in /usr/local/lib/python3.12/dist-packages"
check_eq "$(check_of ngc.json nccl.version)" "pass 2.29.3" "ngc: NCCL 2.29.3"
check_eq "$(nccl_path ngc.json)" "/usr/lib/x86_64-linux-gnu/libnccl.so.2" \
  "ngc: the system NCCL that PyTorch needs"
check_contains "$n_out" "1 unexpected" "ngc: the distro's package is reported, not hidden"

# ---- offline: a venv that includes the system site-packages
inc=$WORK/inc
mkdir -p "$inc/opt/venv/bin" "$inc/usr/bin" "$inc/etc" "$inc/opt/venv/lib/python3.12/site-packages"
: >"$inc/usr/bin/python3.12"
ln -s /usr/bin/python3.12 "$inc/opt/venv/bin/python3"
printf 'home = /usr/bin\ninclude-system-site-packages = true\nversion = 3.12.3\n' >"$inc/opt/venv/pyvenv.cfg"
printf 'PATH=/opt/venv/bin:/usr/bin:/bin\n' >"$inc/etc/environment"
inc_sys=$inc/usr/local/lib/python3.12/dist-packages
mkdir -p "$inc/usr/lib/python3/dist-packages"
torch_in "$inc_sys" 2.11.0+cu130 '$ORIGIN/../../nvidia/nccl/lib'
nccl_lib "$inc_sys/nvidia/nccl/lib" 22809 2.28.9
dist "$inc/opt/venv/lib/python3.12/site-packages" numpy 2.1.0
dist "$inc/usr/lib/python3/dist-packages" distro-info 1.7
make_lock inc.lock.json 2.11.0+cu130 2.28.9
run_cmd i "$V" --root "$inc" --lock inc.lock.json --check torch,nccl,packages --format json -o inc.json
check_eq "$i_rc" 0 "include-system: passes ($i_out)"
check_eq "$(head -1 <<<"$i_out")" \
  "python: /opt/venv/bin/python3 (found on PATH), site-packages: /opt/venv/lib/python3.12/site-packages, inherited: /usr/local/lib/python3.12/dist-packages, /usr/lib/python3/dist-packages" \
  "include-system: the venv's folder, then the inherited system folders"
check_eq "$(nccl_path inc.json)" "/usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib/libnccl.so.2" \
  "include-system: the NCCL beside the inherited PyTorch"
check_contains "$i_out" "0 unexpected" "include-system: inherited packages are counted, not failed"

# ---- offline: the lock's UV_PROJECT_ENVIRONMENT is not PATH's Python: the lock's is checked
two=$WORK/two
for env in opt/venv opt/other/.venv; do
  mkdir -p "$two/$env/bin" "$two/$env/lib/python3.12/site-packages"
  ln -s /usr/bin/python3.12 "$two/$env/bin/python3"
  printf 'home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n' >"$two/$env/pyvenv.cfg"
done
mkdir -p "$two/usr/bin" "$two/etc"
: >"$two/usr/bin/python3.12"
printf 'PATH=/opt/other/.venv/bin:/usr/bin:/bin\n' >"$two/etc/environment"
torch_in "$two/opt/venv/lib/python3.12/site-packages" 2.11.0+cu130 '$ORIGIN/../../nvidia/nccl/lib'
nccl_lib "$two/opt/venv/lib/python3.12/site-packages/nvidia/nccl/lib" 22809 2.28.9
dist "$two/opt/venv/lib/python3.12/site-packages" numpy 2.1.0
torch_in "$two/opt/other/.venv/lib/python3.12/site-packages" 2.9.1+cu128
make_lock two.lock.json 2.11.0+cu130 2.28.9 /opt/venv
run_cmd t "$V" --root "$two" --lock two.lock.json --check torch,nccl,packages --format json -o two.json
check_eq "$t_rc" 0 "two environments: the lock's passes ($t_out)"
check_eq "$(check_of two.json torch.version)" "pass 2.11.0+cu130" "two environments: the lock's PyTorch"
check_eq "$(nccl_path two.json)" "/opt/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2" \
  "two environments: the NCCL of the lock's PyTorch"
check_eq "$(sed -n 1,2p <<<"$t_out")" \
  "python: /opt/venv/bin/python3 (found by the lock's build_args.UV_PROJECT_ENVIRONMENT), site-packages: /opt/venv/lib/python3.12/site-packages
warning: python3 on PATH is /opt/other/.venv/bin/python3, another environment than /opt/venv/bin/python3 (the lock's build_args.UV_PROJECT_ENVIRONMENT), which was checked" \
  "two environments: the lock's is checked, and the disagreement is said"

# ---- offline: the lock names an environment the image lacks: PATH's is checked, with a warning
make_lock gone.lock.json 2.9.1+cu128 2.28.9 /opt/gone
run_cmd g "$V" --root "$two" --lock gone.lock.json --check torch --format json -o gone.json
check_eq "$(sed -n 1,2p <<<"$g_out")" \
  "python: /opt/other/.venv/bin/python3 (found on PATH), site-packages: /opt/other/.venv/lib/python3.12/site-packages
warning: the lock's build_args.UV_PROJECT_ENVIRONMENT (/opt/gone) is not a Python environment here" \
  "a missing lock environment: PATH's is checked, and the warning says why"
check_eq "$(check_of gone.json torch.version)" "pass 2.9.1+cu128" "a missing lock environment: PATH's PyTorch"

# ---- offline: an image with no Python at all: what looked at nothing skips, with the reason
bare=$WORK/bare
mkdir -p "$bare/usr/bin" "$bare/etc"
printf 'PATH=/usr/bin:/bin\n' >"$bare/etc/environment"
run_cmd b "$V" --root "$bare" --lock ngc.lock.json --check packages -o bare.json
check_eq "$b_rc" 1 "no Python: the locked packages are missing, so it fails ($b_out)"
check_eq "$(check_of bare.json packages.unexpected)" "skip " \
  "no Python: packages.unexpected looked at nothing and skips, never '0 unexpected'"
check_eq "$(python3 -c 'import json,sys; print([c["reason"] for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "packages.unexpected"][0])' bare.json)" \
  "no python3.X site-packages found" "no Python: the skip says why"
finish
