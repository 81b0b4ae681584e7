# envlock diff: lock files and git revisions (HEAD~1 HEAD, the working lock against HEAD,
# REV:PATH), the three output forms against the goldens, the Megatron-LM commit log, exit codes.
. "$REPO/tests/e2e/lib.sh"
need_tools git python3
DATA=$REPO/tests/data/diff

git_commit() { git -C "$1" add -A && git -C "$1" -c user.name=t -c user.email=t@example.invalid commit -qm "$2"; }

# Goldens: the two Megatron-LM locks, named as the goldens name them.
cp "$DATA/old.lock.json" "$DATA/new.lock.json" .
for fmt in text:txt md:md json:json; do
  run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json --format "${fmt%%:*}"
  check_eq "$d_rc" 1 "diff of two files exits 1 ($fmt)"
  check_eq "$d_out" "$(cat "$DATA/megatron.${fmt##*:}")" "golden ${fmt%%:*}"
done
# markdown is another word for md; -o FILE writes there, its extension choosing the format.
run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json --format markdown
check_eq "$d_out" "$(cat "$DATA/megatron.md")" "--format markdown is md"
run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json -o d.json
check_eq "$d_rc:$d_out" "1:" "-o FILE: nothing on standard output, exit 1"
check_eq "$(cat d.json)" "$(cat "$DATA/megatron.json")" "-o d.json: JSON, by its extension"
run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json --format text -o -
check_eq "$d_out" "$(cat "$DATA/megatron.txt")" "-o -: standard output"
run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json --format yaml
check_eq "$d_rc" 2 "--format yaml: exit 2"
check_eq "$d_err" "envlock diff: --format: 'yaml' is not one of text, md, json. See 'envlock diff --help'." \
  "--format yaml: the formats named"
# The old spelling works, with a note.
run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json --json
check_eq "$d_out" "$(cat "$DATA/megatron.json")" "--json still prints JSON"
check_eq "$d_err" "envlock: note: 'diff --json' is now 'diff --format json'; the old spelling goes in the next release" \
  "--json: the deprecation note"
# Outside a git repository, a missing file is named as typed, and why it is not a revision.
run_cmd d "$ENVLOCK" diff nosuch.json
check_eq "$d_rc" 2 "nosuch.json outside a repository: exit 2"
check_eq "$d_err" "envlock: error: nosuch.json: no such file, and not a git revision: the current folder is not in a git repository" \
  "nosuch.json outside a repository: the message names only what was typed"
run_cmd d "$ENVLOCK" diff old.lock.json old.lock.json --format text
check_eq "$d_rc" 0 "no change exits 0"
check_contains "$d_out" "No changes." "no change says so"
# The training sample and its launch: a section of their own.
python3 - <<'PY'
import json
for side, sha, cmd in (("ta", "aa" * 32, "sbatch a.sbatch"), ("tb", "bb" * 32, "sbatch b.sbatch")):
    lock = json.load(open("old.lock.json"))
    lock["training"] = {"data": {"prefix": "data/s",
                                 "bin": {"path": "data/s.bin", "sha256": sha, "size": 10},
                                 "idx": {"path": "data/s.idx", "sha256": "cc" * 32, "size": 2}}}
    lock["launch"] = {"command": cmd}
    json.dump(lock, open(side + ".lock.json", "w"), indent=2, sort_keys=True)
PY
run_cmd d "$ENVLOCK" diff ta.lock.json tb.lock.json --format text
check_eq "$d_rc" 1 "a changed data file is a change: exit 1"
check_eq "$(printf '%s\n' "$d_out" | sed -n '/^Training sample and launch$/,/^$/p' | sed '/^$/d')" "Training sample and launch
  launch.command: sbatch a.sbatch -> sbatch b.sbatch
  training.data[data/s.bin]: $(printf 'aa%.0s' $(seq 32)), 10 bytes -> $(printf 'bb%.0s' $(seq 32)), 10 bytes" \
  "the training section names the changed file and command"
# Not a terminal: Markdown by default.
run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json
check_eq "$(printf '%s' "$d_out" | head -1)" '### envlock diff: `old.lock.json` → `new.lock.json`' "markdown when piped"

# Packages locked more than once (resolution-markers), without a version, with long numbers: two
# small uv.lock files (tests/data/diff/multi_*.uv.lock; envlock's reader gives the same table, see
# tests/unit/uv/test_uv_lock.cpp), read with tomllib into copies of the Megatron-LM lock.
python3 - "$DATA" <<'PY'
import json, sys, tomllib
data = sys.argv[1]
for side in ("old", "new"):
    lock = json.load(open(f"{data}/old.lock.json"))
    packages = []
    for p in tomllib.load(open(f"{data}/multi_{side}.uv.lock", "rb"))["package"]:
        kind, location = next(iter(p["source"].items()))
        packages.append({"name": p["name"], "version": p.get("version", ""),
                         "source": {"kind": kind, "location": str(location)}})
    lock["python"]["uv_lock"]["packages"] = sorted(packages, key=lambda p: (p["name"], p["version"]))
    open(f"multi_{side}.lock.json", "w").write(json.dumps(lock, indent=2, sort_keys=True) + "\n")
PY
run_cmd d "$ENVLOCK" diff multi_old.lock.json multi_new.lock.json --format text
check_eq "$d_rc" 1 "packages locked more than once: exit 1"
check_eq "${d_out#*$'\n'uv packages: }" "1 added, 1 removed, 1 upgraded, 1 downgraded, 2 changed (0 major)
  v big 1.12345678901234567890 -> 1.2
  ~ megatron-core (no version) -> (no version) [source: editable . -> directory .]
  ^ pillow 12.0.0 -> 12.1.0 [sources: registry https://a-index.invalid/simple, registry https://b-index.invalid/simple]
  + plugin (no version)
  - tools (no version)
  ~ torch 2.9.1, 2.11.0 -> 2.10.0 (core: PyTorch)" \
  "packages locked more than once: PEP 440 order, sources once, no version, long numbers"
run_cmd d "$ENVLOCK" diff multi_old.lock.json multi_new.lock.json --format json
check_eq "$(printf '%s' "$d_out" | python3 -c 'import json,sys; p={x["name"]: x for x in json.load(sys.stdin)["packages"]}; print(p["torch"]["old"], "|", p["pillow"]["sources"], "|", p["megatron-core"]["new"], "|", "old_source" in p["torch"])')" \
  "2.9.1, 2.11.0 | registry https://a-index.invalid/simple, registry https://b-index.invalid/simple | (no version) | False" \
  "packages locked more than once: json"
# The real Megatron-LM pair: no source note shows one and the same set on both sides.
run_cmd d "$ENVLOCK" diff old.lock.json new.lock.json --format text
check_eq "$(grep -c '\[source: ' <<<"$d_out")" 2 "Megatron-LM pair: two source changes (mamba-ssm, transformer-engine)"
check_eq "$(grep -E '\[source: (.*) -> \1\]' <<<"$d_out" | wc -l)" 0 "Megatron-LM pair: no 'X -> X' source note"

# A repository made here: lock v1, then lock v2, in project/.
mkdir -p repo/project && git -C repo init -q -b main
cp old.lock.json repo/project/envlock.lock.json && git_commit repo "lock v1"
cp new.lock.json repo/project/envlock.lock.json && git_commit repo "lock v2"
cd repo/project
run_cmd d "$ENVLOCK" diff HEAD~1 HEAD --format text
check_eq "$d_rc" 1 "HEAD~1 HEAD exits 1"
check_eq "$(printf '%s' "$d_out" | head -1)" \
  "envlock diff: HEAD~1:project/envlock.lock.json -> HEAD:project/envlock.lock.json" "bare revisions read the lock's path"
check_contains "$d_out" "  ^ transformer-engine 2.16.0+b9d690e0 -> 2.17.1+4329ff84" "package upgrade in text"
check_contains "$d_out" "  tag: 26.04-py3 -> 26.06-py3" "base image tag"
check_contains "$d_out" "  megatron log: unavailable (no local clone; give --megatron-repo PATH)" "no clone, no log"
run_cmd d "$ENVLOCK" diff main~1:project/envlock.lock.json main:project/envlock.lock.json --format json
check_eq "$d_rc" 1 "REV:PATH form exits 1"
check_eq "$(printf '%s' "$d_out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["old"], d["package_counts"]["added"])')" \
  "main~1:project/envlock.lock.json 3" "REV:PATH form in json"
run_cmd d "$ENVLOCK" diff --format text
check_eq "$d_rc" 0 "the working lock equals HEAD's"
python3 - <<'PY'
import json
p = "envlock.lock.json"; d = json.load(open(p))
d["build_args"]["MAX_JOBS"] = "32"
d["python"]["uv_lock"]["packages"].append({"name": "torchaudio", "version": "2.13.0", "source": {"kind": "registry", "location": "https://python-index.invalid/simple"}})
d["python"]["uv_lock"]["packages"].sort(key=lambda p: (p["name"], p["version"]))
open(p, "w").write(json.dumps(d, indent=2, sort_keys=True) + "\n")
PY
run_cmd d "$ENVLOCK" diff --format text
check_eq "$d_rc" 1 "a modified working lock differs from HEAD"
check_eq "$(printf '%s' "$d_out" | head -1)" "envlock diff: HEAD:project/envlock.lock.json -> envlock.lock.json" "labels of the working diff"
check_contains "$d_out" "  MAX_JOBS: 16 -> 32" "build arg change"
check_contains "$d_out" "  ! torchaudio 2.13.0 (added) replaces the base image's torchaudio: check it against the image's tested combination" "core dependency flagged"
REPO_AT=$(cd "$WORK/repo" && pwd -P)
run_cmd d "$ENVLOCK" diff nosuch --format text
check_eq "$d_rc" 2 "an unknown revision is an input error"
check_eq "$d_err" "envlock: error: nosuch: no such file, and not a revision of the git repository at $REPO_AT" \
  "unknown revision message: what was typed, and where it was looked for"
run_cmd d "$ENVLOCK" diff nosuch.json
check_eq "$d_err" "envlock: error: nosuch.json: no such file, and not a revision of the git repository at $REPO_AT" \
  "nosuch.json: no path the user never typed"
run_cmd d "$ENVLOCK" diff HEAD~3
check_eq "$d_rc" 2 "HEAD~3 of two commits: exit 2"
check_eq "$d_err" "envlock: error: HEAD~3: no such commit: HEAD has only 2 commits in its first-parent line (the git repository at $REPO_AT)" \
  "HEAD~3: how far back the history goes, not libgit2's words"
run_cmd d "$ENVLOCK" diff mian~1
check_eq "$d_err" "envlock: error: mian~1: no such file, and not a revision of the git repository at $REPO_AT; did you mean 'main~1'?" \
  "a misspelt branch: did you mean"
run_cmd d "$ENVLOCK" diff HEAD:nosuch.json HEAD
check_eq "$d_err" "envlock: error: HEAD:nosuch.json: no file nosuch.json in commit $(git rev-parse HEAD | cut -c1-12) (HEAD) of the git repository at $REPO_AT; commit the lock (git add nosuch.json && git commit) to compare revisions, or name the files: envlock diff OLD.lock.json NEW.lock.json" \
  "REV:PATH of a missing file: the commit and the repository"
run_cmd d "$ENVLOCK" diff a b c
check_eq "$d_rc" 2 "three arguments are refused"
check_eq "$d_err" "envlock: error: diff takes at most two locks or revisions (OLD NEW)" "three arguments message"
cd "$WORK"

# The Megatron-LM log between the two pins, from a local clone.
mkdir mega && git -C mega init -q -b main
for s in "first" "Add MoE router fix" "Bump TE to 2.17"; do echo "$s" >> mega/log.txt; git_commit mega "$s"; done
c1=$(git -C mega rev-parse HEAD~2) c3=$(git -C mega rev-parse HEAD)
python3 - "$c1" "$c3" <<'PY'
import json, sys
for name, commit in (("old", sys.argv[1]), ("new", sys.argv[2])):
    d = json.load(open(name + ".lock.json"))
    d["sources"]["megatron"]["commit"] = commit
    open("m" + name + ".lock.json", "w").write(json.dumps(d, indent=2, sort_keys=True) + "\n")
PY
run_cmd d "$ENVLOCK" diff mold.lock.json mnew.lock.json --format text --megatron-repo mega
check_contains "$d_out" "  megatron log: 2 commits since the old one
    ${c3:0:12} Bump TE to 2.17
    $(git -C mega rev-parse HEAD~1 | cut -c1-12) Add MoE router fix" "megatron commit log"
run_cmd d "$ENVLOCK" diff mnew.lock.json mold.lock.json --format text --megatron-repo mega
check_contains "$d_out" "  megatron log: 2 commits behind the old one (NEW is older)" "megatron going back"
finish
