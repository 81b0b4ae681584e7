#!/usr/bin/env bash
# The build context of a Megatron-LM-sized tree (about 3,000 files, 60 MB, made here in a git
# repository): `envlock context` (tree export with libgit2, tar with libarchive, sha256) against
# the reference `git archive COMMIT | sha256sum`. Prints both wall times (best of 3) and their
# ratio (target <= 1.0); asserts nothing.
# Usage: ENVLOCK=build/envlock bash bench/context.sh [FILES] [MB]   (CI does not run benches)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
FILES=${1:-3000}
MB=${2:-60}
for t in git python3 sha256sum; do
  command -v "$t" >/dev/null || { echo "bench/context.sh: $t is missing" >&2; exit 3; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-context.XXXXXX")
trap 'rm -rf "$W"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=Bench \
  GIT_AUTHOR_EMAIL=bench@example.invalid GIT_COMMITTER_NAME=Bench \
  GIT_COMMITTER_EMAIL=bench@example.invalid GIT_AUTHOR_DATE=2026-01-01T00:00:00Z \
  GIT_COMMITTER_DATE=2026-01-01T00:00:00Z

# The tree: FILES files in nested folders, sizes skewed like source code (most small, a few large),
# MB in total; text-like bytes so that git's compression does real work.
python3 - "$W/proj/megatron-lm" "$FILES" "$MB" <<'PY'
import os, random, sys
root, files, mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(7)
words = [("".join(rng.choice("abcdefghijklmnopqrstuvwxyz_") for _ in range(rng.randint(2, 12))))
         for _ in range(5000)]
weights = [rng.paretovariate(1.2) for _ in range(files)]
scale = mb * 1_000_000 / sum(weights)
for i, w in enumerate(weights):
    d = os.path.join(root, f"pkg{i % 40}", f"mod{i % 7}", f"sub{i % 3}")
    os.makedirs(d, exist_ok=True)
    n = max(64, int(w * scale))
    out, size = [], 0
    while size < n:
        line = " ".join(rng.choice(words) for _ in range(10)) + "\n"
        out.append(line)
        size += len(line)
    with open(os.path.join(d, f"file{i}.py"), "w") as f:
        f.write("".join(out)[:n])
PY
git -C "$W/proj/megatron-lm" init -q -b main
git -C "$W/proj/megatron-lm" add -A
git -C "$W/proj/megatron-lm" commit -q -m tree
COMMIT=$(git -C "$W/proj/megatron-lm" rev-parse HEAD)
printf '[project]\nname = "bench"\n' > "$W/proj/pyproject.toml"
printf 'version = 1\n' > "$W/proj/uv.lock"
sha() { sha256sum "$1" | cut -c1-64; }
# The render tests' lock, pointed at this tree and these python files.
python3 - "$REPO/tests/data/render/good_lock.json" "$W/proj" "$COMMIT" <<'PY'
import hashlib, json, sys
lock = json.load(open(sys.argv[1]))
proj, commit = sys.argv[2], sys.argv[3]
sha = lambda name: hashlib.sha256(open(f"{proj}/{name}", "rb").read()).hexdigest()
lock["manifest"]["path"] = "envlock.yaml"
lock["sources"] = {"megatron": {"git": "megatron-lm", "ref": "main", "commit": commit}}
lock["python"]["project"] = "."
lock["python"]["uv_lock"]["path"] = "uv.lock"
lock["python"]["uv_lock"]["sha256"] = sha("uv.lock")
lock["python"]["pyproject_sha256"] = sha("pyproject.toml")
json.dump(lock, open(f"{proj}/envlock.lock.json", "w"), indent=2, sort_keys=True)
PY
printf 'FROM {{base_image.pinned}}\nCOPY megatron-lm/ /opt/megatron-lm/\n' > "$W/tiny.mustache"

best() { # best wall time of 3 runs of "$@", in seconds
  local b=999 t s e
  for _ in 1 2 3; do
    s=$(date +%s.%N); "$@" >/dev/null || { echo "bench/context.sh: $* failed" >&2; exit 1; }
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l); (( $(echo "$t < $b" | bc -l) )) && b=$t
  done
  printf '%.3f' "$b"
}
ours() { (cd "$W/proj" && "$ENVLOCK" context --template "$W/tiny.mustache" -o "$W/ctx.tar"); }
reference() { git -C "$W/proj/megatron-lm" archive "$COMMIT" | sha256sum; }
n=$(git -C "$W/proj/megatron-lm" ls-files | wc -l)
size=$(du -sb --exclude=.git "$W/proj/megatron-lm" | cut -f1)
t_ours=$(best ours)
t_ref=$(best reference)
echo "tree: $n files, $((size / 1000000)) MB"
echo "envlock context:               ${t_ours} s  ($(stat -c %s "$W/ctx.tar") bytes)"
echo "git archive | sha256sum:       ${t_ref} s"
printf "ratio envlock/git archive:     %.2f  (target <= 1.0)\n" "$(echo "$t_ours / $t_ref" | bc -l)"
