# Output paths (docs/manual/README.md, "Output files"): every file envlock writes follows one rule.
# "-" is standard output; a device, a FIFO or a link to one is written straight through and never
# replaced; a link to a regular file keeps its link while the file it points to is replaced; a
# folder is an input error. /dev/stdout is checked in a mount namespace of its own, with a /dev
# laid out as on a host (stdout a link to /proc/self/fd/1), so that a regression cannot replace
# the host's.
. "$REPO/tests/e2e/lib.sh"
need_tools unshare mount mknod mkfifo python3
GOOD=$REPO/tests/data/render/good_lock.json
V=$ENVLOCK_VERIFY
bash "$REPO/tests/data/verify/make_rootfs.sh" root
expected=$("$ENVLOCK" render --lock "$GOOD")

# ---- "-" is standard output, and no file named "-" appears
run_cmd r "$ENVLOCK" render --lock "$GOOD" -o -
check_eq "$r_rc" 0 "render -o -: exit 0 ($r_err)"
check_eq "$r_out" "$expected" "render -o -: the Dockerfile on standard output"
[ ! -e ./- ] && ok "render -o -: no file named '-'" || fail "render -o -: no file named '-'" "found ./-"
run_cmd v "$V" --root root --format json -o - --check packages
check_contains "$v_out" '"schema": "envlock.report/v1"' "verify --format json -o -: the report on standard output"
[ ! -e ./- ] && ok "verify --format json -o -: no file named '-'" || fail "verify --format json -o -: no file named '-'" "found ./-"

# ---- "-" as an input: lint reads standard input
printf 'FROM busybox:latest\n' >latest.Dockerfile
run_cmd li "$ENVLOCK" lint latest.Dockerfile
run_cmd ls bash -c '"$ENVLOCK" lint - <latest.Dockerfile'
check_eq "$ls_rc" "$li_rc" "lint -: the same exit code as lint FILE"
check_eq "$ls_out" "${li_out//latest.Dockerfile/-}" "lint -: the same findings, named '-'"

# ---- /dev/null stays a device
run_cmd n "$V" --root root --format json -o /dev/null --junit /dev/null --check packages
check_eq "$n_rc" 0 "verify --format json -o /dev/null: exit 0 ($n_err)"
check_eq "$(stat -c %F /dev/null)" "character special file" "/dev/null is still a character device"

# ---- a link to a regular file keeps its link; the file it points to is replaced
echo old >real.json
ln -s real.json link.json
run_cmd l "$V" --root root --format json -o link.json --check packages
check_eq "$l_rc" 0 "verify --format json -o LINK: exit 0 ($l_err)"
[ -L link.json ] && ok "the link is still a link" || fail "the link is still a link" "$(stat -c %F link.json)"
check_eq "$(readlink link.json)" "real.json" "the link still points to real.json"
check_contains "$(cat real.json)" '"schema": "envlock.report/v1"' "the file it points to holds the report"
ln -s "$WORK/new/Dockerfile" dangling
mkdir new
run_cmd d "$ENVLOCK" render --lock "$GOOD" -o dangling
check_eq "$(cat new/Dockerfile)" "$expected" "a dangling link: the file it names is created"
[ -L dangling ] && ok "the dangling link is kept" || fail "the dangling link is kept" "not a link"

# ---- a FIFO is written through
mkfifo pipe
cat pipe >from-pipe &
reader=$!
run_cmd f "$ENVLOCK" render --lock "$GOOD" -o pipe
wait "$reader"
check_eq "$f_rc" 0 "render -o FIFO: exit 0 ($f_err)"
check_eq "$(cat from-pipe)" "$expected" "render -o FIFO: the reader got the Dockerfile"
check_eq "$(stat -c %F pipe)" "fifo" "the FIFO is still a FIFO"

# ---- a folder is an input error, and it is left as it was
mkdir folder
run_cmd e "$ENVLOCK" render --lock "$GOOD" -o folder
check_eq "$e_rc" 2 "render -o FOLDER: exit 2"
check_eq "$e_err" "envlock: error: folder: is a directory" "render -o FOLDER: the message"
run_cmd e "$V" --root root --format json -o folder --check packages
check_eq "$e_rc" 2 "verify --format json -o FOLDER: exit 2"
check_eq "$(ls -A folder)" "" "the folder is left empty"

# ---- /dev/stdout of a host: a link to /proc/self/fd/1, in a mount namespace of our own
cat >ns.sh <<'NS'
set -e
mount -t tmpfs none /dev
mknod -m 666 /dev/null c 1 3
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
"$ENVLOCK_VERIFY" --root root --format json -o /dev/stdout --check packages >ns-report.json
"$ENVLOCK" render --lock "$GOOD" -o /dev/stdout >ns-dockerfile
stat -c %F /dev/stdout
readlink /dev/stdout
NS
run_cmd s env GOOD="$GOOD" unshare --mount --propagation private bash ns.sh
check_eq "$s_rc" 0 "/dev/stdout in a namespace: exit 0 ($s_err)"
check_eq "$s_out" "symbolic link
/proc/self/fd/1" "/dev/stdout is still the link to /proc/self/fd/1"
check_contains "$(cat ns-report.json)" '"schema": "envlock.report/v1"' "verify --format json -o /dev/stdout: the report went to standard output"
check_eq "$(cat ns-dockerfile)" "$expected" "render -o /dev/stdout: the Dockerfile went to standard output"

finish
