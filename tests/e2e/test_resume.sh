# The resume check without a GPU: `envlock sample-data` (deterministic bytes, Megatron's index
# header, argument errors word for word), the trainer found beside the executable or embedded,
# and the resume check's input and environment errors (no PyTorch: exit 3) from both binaries.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 sha256sum od
E=$ENVLOCK
V=$ENVLOCK_VERIFY
[ -x "$E" ] || skip "no envlock binary at $E"
[ -x "$V" ] || skip "no envlock-verify binary at $V"
LOCK=$REPO/tests/data/verify/lock.json

# ---- sample-data: same options, same bytes; a Megatron index header
run_cmd s "$E" sample-data -o a --tokens 5000 --vocab 300 --seed 9
check_eq "$s_rc" 0 "sample-data exits 0"
check_eq "$s_out" "a/sample_text_document: 5000 tokens (uint16), 8 documents" "sample-data summary line"
"$E" sample-data -o b --tokens 5000 --vocab 300 --seed 9 >/dev/null
check_eq "$(cat a/*.bin a/*.idx | sha256sum)" "$(cat b/*.bin b/*.idx | sha256sum)" "same options write the same bytes"
"$E" sample-data -o c --tokens 5000 --vocab 300 --seed 10 >/dev/null
# Pinned: the generator is integer-only, so these bytes are the same on every machine.
check_eq "$(cat a/*.bin a/*.idx | sha256sum | cut -c1-64)" "01a648d82dd9e4f0f5f9ff8b7c1c753fa6fbca55ebd2c197353bc8b39c3ad323" "the sample's bytes are pinned"
check_ne "$(sha256sum <a/sample_text_document.bin)" "$(sha256sum <c/sample_text_document.bin)" "another seed writes other tokens"
check_eq "$(od -An -c -N9 a/sample_text_document.idx | tr -s ' ')" " M M I D I D X \0 \0" "index magic MMIDIDX\\0\\0"
check_eq "$(od -An -tu8 -j9 -N8 a/sample_text_document.idx | tr -d ' ')" "1" "index version 1"
check_eq "$(od -An -tu1 -j17 -N1 a/sample_text_document.idx | tr -d ' ')" "8" "token type code 8 (uint16)"
check_eq "$(stat -c %s a/sample_text_document.bin)" "10000" ".bin holds 5000 uint16 tokens"
# NumPy-free check of the index against the .bin: the last pointer + length * 2 is the .bin size.
python3 - a/sample_text_document <<'PY' >idx.txt
import struct, sys
p = sys.argv[1]
idx = open(p + ".idx", "rb").read()
seqs, docs = struct.unpack("<QQ", idx[18:34])
lengths = struct.unpack("<%di" % seqs, idx[34:34 + 4 * seqs])
pointers = struct.unpack("<%dq" % seqs, idx[34 + 4 * seqs:34 + 12 * seqs])
doc_idx = struct.unpack("<%dq" % docs, idx[34 + 12 * seqs:34 + 12 * seqs + 8 * docs])
print(seqs, docs, sum(lengths), pointers[-1] + 2 * lengths[-1], doc_idx[0], doc_idx[-1], len(idx) == 34 + 12 * seqs + 8 * docs)
PY
check_eq "$(cat idx.txt)" "8 9 5000 10000 0 8 True" "index counts, pointers and document boundaries agree"

run_cmd t "$E" sample-data -o d --tokens 0
check_eq "$t_rc" 2 "--tokens 0 is a usage error (exit 2)"
check_eq "$t_err" "envlock: error: --tokens must be at least 1" "--tokens 0 message"
run_cmd t "$E" sample-data -o d --vocab 1
check_eq "$t_err" "envlock: error: --vocab must be at least 2" "--vocab 1 message"
run_cmd t "$E" sample-data
check_eq "$t_rc" 2 "missing -o is a usage error (exit 2)"
check_contains "$t_err" "--output is required" "missing -o message"

# ---- the resume check's errors
run_cmd r "$V" --lock "$LOCK" --check resume --data nowhere/x
check_eq "$r_rc" 2 "a missing --data is an input error (exit 2)"
check_eq "$r_err" "envlock-verify: error: --data nowhere/x: nowhere/x.bin not found" "missing --data message"
run_cmd r "$V" --lock "$LOCK" --check resume --gpus 0
check_eq "$r_err" "envlock-verify: error: --gpus: must be at least 1" "--gpus 0 message"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["expect"]["resume"]={"checkpoint_step": 100}; json.dump(d, open("bad-lock.json","w"))' "$LOCK"
run_cmd r "$V" --lock bad-lock.json --check resume
check_eq "$r_err" "envlock-verify: error: bad-lock.json: expect.resume.checkpoint_step: must be between 1 and steps - 1 (99)" \
  "bad expect.resume message, naming the lock"

# No PyTorch: modules that fail to import hide any installed numpy and torch.
mkdir -p hidden/numpy hidden/torch
echo "raise ImportError('hidden by the test')" >hidden/numpy/__init__.py
echo "raise ImportError('hidden by the test')" >hidden/torch/__init__.py
printf '#!/bin/sh\nPYTHONPATH=%s exec %s "$@"\n' "$PWD/hidden" "$(command -v python3)" >py
chmod +x py
run_cmd r "$V" --lock "$LOCK" --check resume --python ./py --work-dir w1
check_eq "$r_rc" 3 "no PyTorch is an environment error (exit 3)"
check_contains "$r_err" "envlock-verify: error: resume check: PyTorch and NumPy must be importable by " "no PyTorch message"
check_contains "$r_err" ": hidden by the test" "no PyTorch message names the import error"
check_file w1/sample_text_document.idx "the sample token file was written to the work folder"
run_cmd r "$E" verify --lock "$LOCK" --check resume --python ./py
check_eq "$r_rc" 3 "envlock verify --check resume: no PyTorch is exit 3 too"
check_contains "$r_err" "envlock: error: resume check: PyTorch and NumPy must be importable by " "envlock verify message"

# A lone envlock-verify (no trainer beside it) writes its embedded trainer, byte for byte.
mkdir lone && cp "$V" lone/envlock-verify
run_cmd r lone/envlock-verify --lock "$LOCK" --check resume --python ./py --work-dir w2
check_eq "$r_rc" 3 "a lone envlock-verify reaches the trainer too"
check_eq "$(sha256sum <w2/envlock_resume.py)" "$(sha256sum <"$REPO/share/resume/envlock_resume.py")" "the embedded trainer is share/resume/envlock_resume.py"
finish
