# The command line as git's (docs/manual/README.md, "The command line"): the list of commands for
# `envlock` and `envlock help`, "did you mean" for unknown commands and options (pointing to the
# help of the command they were given to), one --version wording in the three executables, help
# without CLI11's type noise and with one example and the manual page, --color and NO_COLOR, and
# --format / -o with the old spellings still working behind a note.
. "$REPO/tests/e2e/lib.sh"
need_tools python3
IMPORTER=${ENVLOCK_IMPORTER:-$(dirname "$ENVLOCK")/envlock-importer}
V=$ENVLOCK_VERIFY

# ---- envlock alone and envlock help: the commands, one line each
run_cmd a "$ENVLOCK"
check_eq "$a_rc" 2 "envlock alone: exit 2"
check_eq "$(head -1 <<<"$a_out")" "Usage: envlock COMMAND [OPTIONS]" "envlock alone: the usage line"
check_contains "$a_out" "
  lint         Report what in Dockerfiles breaks reproducibility, with file:line
" "envlock alone: lint, one line"
run_cmd h "$ENVLOCK" help
check_eq "$h_rc:$h_out" "0:$a_out" "envlock help: the same list, exit 0"
commands=$(sed -n '/^Commands:$/,/^$/p' <<<"$h_out" | awk 'NF > 1 {print $1}')
check_eq "$(tr '\n' ' ' <<<"$commands")" \
  "attest build chain context diff fleet handover importer keygen lint lock node provenance render resolve rollback sample-data sbom squashfs verify help version " \
  "envlock help: every command"
run_cmd hl "$ENVLOCK" help lock
run_cmd ll "$ENVLOCK" lock --help
check_eq "$hl_rc:$ll_rc" "0:0" "help lock and lock --help: exit 0"
check_eq "$hl_out" "$ll_out" "envlock help lock is envlock lock --help"
run_cmd hf "$ENVLOCK" help fleet verify
check_eq "$(head -1 <<<"$hf_out")" "Usage: envlock fleet verify [OPTIONS]" "envlock help fleet verify"
run_cmd g "$ENVLOCK" fleet
check_eq "$g_rc" 2 "envlock fleet alone: exit 2"
check_contains "$g_out" "Examples:
  envlock fleet verify --lock envlock.lock.json --image image.sqsh --partition gpu" \
  "envlock fleet alone: its commands' examples"
check_contains "$g_out" "Manual: docs/manual/fleet.md" "envlock fleet alone: its manual page"

# ---- unknown commands and options
run_cmd u "$ENVLOCK" lnit
check_eq "$u_rc:$u_out" "2:" "envlock lnit: exit 2, nothing on standard output"
check_eq "$u_err" "envlock: unknown command 'lnit'; did you mean 'lint'?" "envlock lnit: did you mean"
run_cmd u "$ENVLOCK" help lnit
check_eq "$u_rc:$u_err" "2:envlock: unknown command 'lnit'; did you mean 'lint'?" "envlock help lnit"
run_cmd u "$ENVLOCK" fleet verfy
check_eq "$u_err" "envlock fleet: unknown command 'verfy'; did you mean 'verify'?" "envlock fleet verfy"
run_cmd u "$ENVLOCK" --verison
check_eq "$u_rc:$u_err" "2:envlock: unknown option '--verison'; did you mean '--version'? See 'envlock --help'." \
  "envlock --verison"
run_cmd u "$ENVLOCK" lock --chek
check_eq "$u_rc:$u_err" "2:envlock lock: unknown option '--chek'; did you mean '--check'? See 'envlock lock --help'." \
  "an unknown option points to the command's help"
run_cmd u "$ENVLOCK" render extra
check_eq "$u_err" "envlock render: unexpected argument 'extra'. See 'envlock render --help'." "an extra argument"
run_cmd u "$ENVLOCK" sample-data
check_eq "$u_err" "envlock sample-data: --output is required. See 'envlock sample-data --help'." \
  "a missing option"
run_cmd u "$V" --formt x
check_eq "$u_rc:$u_err" "2:envlock-verify: unknown option '--formt'; did you mean '--format'? See 'envlock-verify --help'." \
  "envlock-verify: did you mean"

# ---- --version, worded alike
version=$(sed -n 's/^project(envlock VERSION \([0-9.]*\).*/\1/p' "$REPO/CMakeLists.txt")
run_cmd v1 "$ENVLOCK" --version
run_cmd v2 "$V" --version
check_eq "$v1_rc:$v1_out" "0:envlock $version" "envlock --version"
run_cmd v4 "$ENVLOCK" version
check_eq "$v4_rc:$v4_out" "0:envlock $version" "envlock version: the same line, as git and uv have it"
check_eq "$v2_rc:$v2_out" "0:envlock-verify $version" "envlock-verify --version"
if [ -x "$IMPORTER" ]; then
  run_cmd v3 "$IMPORTER" --version
  check_eq "$v3_rc:$v3_out" "0:envlock-importer $version" "envlock-importer --version"
  run_cmd v3 "$IMPORTER" gte
  check_eq "$v3_rc:$v3_err" "2:envlock-importer: unknown command 'gte'; did you mean 'get'?" \
    "envlock-importer: did you mean"
fi

# ---- help: a metavariable a person reads, one example, the manual page that exists
help_of() { "$ENVLOCK" "$@" --help; }
for c in $commands; do
  [ "$c" = help ] && continue
  case $c in
    fleet) subs="fleet verify|fleet distribute|fleet drain-list|fleet rollout" ;;
    provenance) subs="provenance|provenance sign|provenance verify" ;;
    squashfs) subs="squashfs|squashfs digest|squashfs verify" ;;
    chain) subs="chain verify" ;;
    importer) subs="importer get|importer release" ;;
    attest) subs="attest push|attest list|attest fetch|attest verdict" ;;
    *) subs=$c ;;
  esac
  IFS='|' read -ra list <<<"$subs"
  for s in "${list[@]}"; do
    # shellcheck disable=SC2086
    text=$(help_of $s)
    bad=$(grep -nE '[A-Z]+:(FILE|DIR|PATH\(|\{)|TEXT|FLOAT|\bINT\b|UINT|\[[0-9.]+ - [0-9.]+\]|REQUIRED|Positionals' <<<"$text")
    check_eq "$bad" "" "envlock $s --help: no type noise"
    check_eq "$(grep -c '^Example:$' <<<"$text")" 1 "envlock $s --help: one example"
    manual=$(sed -n 's/^Manual: //p' <<<"$text")
    [ -n "$manual" ] && [ -f "$REPO/$manual" ] && ok "envlock $s --help: manual page $manual exists" ||
      fail "envlock $s --help: manual page" "'$manual' is not a file of the repository"
  done
done
check_contains "$(help_of lock)" "  --ca-file FILE              Trust the CA certificates" "--ca-file FILE"
check_contains "$(help_of lock)" "  --registry-timeout SECONDS  Give up" "--registry-timeout SECONDS"
for program in "$V" "$IMPORTER"; do
  [ -x "$program" ] || continue
  text=$("$program" --help)
  name=$(basename "$program")
  bad=$(grep -nE '[A-Z]+:(FILE|DIR|PATH\(|\{)|TEXT|FLOAT|\bINT\b|UINT|\[[0-9.]+ - [0-9.]+\]|REQUIRED|Positionals' <<<"$text")
  check_eq "$bad" "" "$name --help: no type noise"
  check_eq "$(grep -c '^Example:$' <<<"$text")" 1 "$name --help: one example"
  check_eq "$(grep -c '^$' <<<"$text")" "$(grep -cE '^$' <<<"$(cat -s <<<"$text")")" "$name --help: no double blank line"
done
check_contains "$("$V" --help)" "
  --sdc-steps N               Run the SDC chain for N steps (rounded up to a digest) instead of a time budget

Resume check (--check resume):
  --data PREFIX " "envlock-verify --help: one blank line before the resume options"
check_contains "$("$V" --help)" "Manual: docs/manual/verify.md" "envlock-verify --help: its manual page"

# ---- --color and NO_COLOR (the verification table is what envlock colours)
bash "$REPO/tests/data/verify/make_rootfs.sh" root
esc=$'\033['
run_cmd c "$V" --root root --check packages
check_not_contains "$c_out" "$esc" "not a terminal: no colour"
run_cmd c "$V" --root root --check packages --color=always
check_contains "$c_out" "$esc" "--color=always: colour"
run_cmd c env NO_COLOR=1 "$V" --root root --check packages --color=always
check_contains "$c_out" "$esc" "--color=always wins over NO_COLOR"
run_cmd c "$V" --root root --check packages --color=never
check_not_contains "$c_out" "$esc" "--color=never: no colour"
if command -v script >/dev/null 2>&1; then
  # On a terminal (script(1) gives one): colour, unless NO_COLOR is set.
  run_cmd t script -qec "'$V' --root root --check packages" /dev/null
  check_contains "$t_out" "$esc" "a terminal: colour"
  run_cmd t env NO_COLOR=1 script -qec "'$V' --root root --check packages" /dev/null
  check_not_contains "$t_out" "$esc" "a terminal with NO_COLOR=1: no colour"
  run_cmd t env NO_COLOR= script -qec "'$V' --root root --check packages" /dev/null
  check_contains "$t_out" "$esc" "a terminal with NO_COLOR empty: colour"
fi
run_cmd c "$V" --root root --check packages --color=sometimes
check_eq "$c_rc:$c_err" "2:envlock-verify: --color: 'sometimes' is not one of auto, always, never. See 'envlock-verify --help'." \
  "--color=sometimes is refused"

# ---- --format and -o; the old spellings keep working, with a note
run_cmd f "$V" --root root --check packages --format json
check_contains "$f_out" '"schema": "envlock.report/v1"' "verify --format json: the report on standard output"
check_contains "$f_err" "packages" "verify --format json: the table on standard error"
run_cmd f "$V" --root root --check packages -o report.json
check_contains "$(cat report.json)" '"schema": "envlock.report/v1"' "verify -o report.json: JSON by its extension"
check_contains "$f_out" "packages" "verify -o FILE: the table on standard output"
run_cmd f "$V" --root root --check packages --format junit -o -
check_contains "$f_out" "<testsuites" "verify --format junit -o -: JUnit on standard output"
run_cmd f "$V" --root root --check packages --json old.json
check_eq "$f_err" "envlock-verify: note: '--json FILE' is now '--format json -o FILE'; the old spelling goes in the next release" \
  "verify --json FILE: the note"
check_contains "$(cat old.json)" '"schema": "envlock.report/v1"' "verify --json FILE: still written"
run_cmd f "$ENVLOCK" verify --root root --check packages --json old2.json
check_eq "$f_err" "envlock: note: 'verify --json FILE' is now 'verify --format json -o FILE'; the old spelling goes in the next release" \
  "envlock verify --json FILE: the note"
# --junit FILE is a CI's second report, beside -o's, and no old spelling.
run_cmd f "$V" --root root --check packages -o both.json --junit both.xml
check_eq "$f_rc:$f_err" "0:" "-o FILE --junit FILE: exit 0, no note"
check_contains "$(cat both.xml)" "<testsuites" "--junit FILE: JUnit XML"
check_contains "$(cat both.json)" '"schema": "envlock.report/v1"' "-o FILE beside --junit: JSON"
run_cmd n "$ENVLOCK" node --format json
check_eq "$n_rc" 0 "node --format json: exit 0"
check_eq "$(python3 -c 'import json,sys; print(sorted(json.load(sys.stdin))[0])' <<<"$n_out")" "facts" \
  "node --format json: JSON"
run_cmd o "$ENVLOCK" node --json
check_eq "$o_err" "envlock: note: 'node --json' is now 'node --format json'; the old spelling goes in the next release" \
  "node --json: the note"
check_eq "$(python3 -c 'import json,sys; print(sorted(json.load(sys.stdin))[0])' <<<"$o_out")" "facts" \
  "node --json: still JSON"
run_cmd o "$ENVLOCK" node --format json -o facts.json
check_eq "$o_rc:$o_out" "0:" "node -o FILE: nothing on standard output"
check_eq "$(python3 -c 'import json,sys; print(sorted(json.load(open(sys.argv[1])))[0])' facts.json)" "facts" \
  "node -o facts.json: the facts in the file"
run_cmd o "$ENVLOCK" resolve --json registry.invalid/x:1 --registry-attempts 1
check_contains "$o_err" "envlock: note: 'resolve --json' is now 'resolve --format json'; the old spelling goes in the next release" \
  "resolve --json: the note"
GOOD=$REPO/tests/data/render/good_lock.json
run_cmd ho "$ENVLOCK" handover --lock "$GOOD" -o -
check_eq "$ho_rc" 0 "handover -o -: exit 0 ($ho_err)"
check_contains "$ho_out" "# " "handover -o -: Markdown on standard output"
run_cmd ho "$ENVLOCK" handover --lock "$GOOD" --format json -o -
check_eq "$(python3 -c 'import json,sys; json.load(sys.stdin); print("json")' <<<"$ho_out")" "json" \
  "handover --format json -o -: JSON"
finish
