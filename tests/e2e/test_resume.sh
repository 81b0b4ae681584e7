# The resume check without a GPU: `envlock sample-data` (deterministic bytes, Megatron's index
# header, argument errors word for word), the trainer found beside the executable or embedded,
# and the resume check's input errors (exit 2, before any check runs) and a trainer that cannot run
# (no PyTorch): a failed check with the trainer's words beside every other check, from both
# binaries.
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
# The check that cannot run never hides the others: the report holds the CUDA and NCCL checks run
# before it, resume.compute failed with the trainer's words, and the rest of the resume check
# skipped, naming why.
checks_of() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
for c in r["checks"]: print(c["id"], c["outcome"], c["reason"])' "$1"; }
run_cmd r "$V" --lock "$LOCK" --check cuda,nccl,resume --python ./py --work-dir w1 -o w1.json
check_eq "$r_rc" 1 "no PyTorch: the resume check fails (exit 1), the run goes on"
check_eq "$r_err" "" "no PyTorch: no error, the report is written"
check_contains "$(checks_of w1.json)" "cuda.driver " "the checks run before the resume check are in the report"
check_contains "$(checks_of w1.json)" "nccl." "... the NCCL checks too"
check_contains "$(checks_of w1.json | grep '^resume.compute')" \
  "resume.compute fail resume check: PyTorch and NumPy must be importable by " "resume.compute fails with the trainer's words"
check_contains "$(checks_of w1.json | grep '^resume.compute')" ": hidden by the test" "... naming the import error"
check_eq "$(checks_of w1.json | grep '^resume\.' | grep -v '^resume.compute')" \
  "resume.runs skip not run: resume.compute failed
resume.loss skip not run: resume.compute failed
resume.lr skip not run: resume.compute failed
resume.params skip not run: resume.compute failed" "every other resume check is in the report, skipped with the reason"
check_contains "$r_out" "resume.compute" "the table names the failed check"
check_file w1/sample_text_document.idx "the sample token file was written to the work folder"
run_cmd r "$E" verify --lock "$LOCK" --check resume --python ./py --format json -o w1b.json
check_eq "$r_rc" 1 "envlock verify --check resume: no PyTorch is a failed check too (exit 1)"
check_contains "$(checks_of w1b.json)" "resume.compute fail resume check: PyTorch and NumPy must be importable by " \
  "envlock verify: the same failed check"

# A lone envlock-verify (no trainer beside it) writes its embedded trainer, byte for byte.
mkdir lone && cp "$V" lone/envlock-verify
run_cmd r lone/envlock-verify --lock "$LOCK" --check resume --python ./py --work-dir w2
check_eq "$r_rc" 1 "a lone envlock-verify reaches the trainer too"
check_eq "$(sha256sum <w2/envlock_resume.py)" "$(sha256sum <"$REPO/share/resume/envlock_resume.py")" "the embedded trainer is share/resume/envlock_resume.py"
# ---- the checkpoint-load check without a GPU: what the files tell before Python starts
ckpt_json() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([(c["id"], c["outcome"], c["reason"]) for c in r["checks"]])' "$1"; }
make_zip() { # FILE [ENTRY...]: a stored zip archive as torch.save writes one
  python3 - "$@" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
    for name in sys.argv[2:]:
        z.writestr(name, b"\x80\x02}q\x00." if name.endswith("data.pkl") else b"x" * 4096)
PY
}
mkdir -p ckpt-good ckpt-short ckpt-old ckpt-nopkl ckpt-empty ckpt-megatron/iter_0000050/mp_rank_00
make_zip ckpt-good/rank0.pt archive/data.pkl archive/data/0 archive/version
head -c 3000 ckpt-good/rank0.pt >ckpt-short/rank0.pt
printf '\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19.' >ckpt-old/rank0.pt
make_zip ckpt-nopkl/rank0.pt weights/0
echo 50 >ckpt-megatron/latest_checkpointed_iteration.txt
make_zip ckpt-megatron/iter_0000050/mp_rank_00/model_optim_rng.pt archive/data.pkl
cl=("$V" --lock "$LOCK" --check checkpoint-load --python ./py)
run_cmd c "${cl[@]}"
check_eq "$c_rc:$c_err" "2:envlock-verify: error: --check checkpoint-load needs --checkpoint DIR (a checkpoint written by the current environment)" "no --checkpoint: exit 2"
run_cmd c "${cl[@]}" --checkpoint nowhere
check_eq "$c_rc:$c_err" "2:envlock-verify: error: --checkpoint nowhere: no such folder" "a missing checkpoint folder: exit 2"
run_cmd c "${cl[@]}" --checkpoint ckpt-good --extra-steps 0
check_eq "$c_rc:$c_err" "2:envlock-verify: error: --extra-steps: must be at least 1" "--extra-steps 0: exit 2"
run_cmd c "${cl[@]}" --checkpoint ckpt-short -o short.json
check_eq "$c_rc" 1 "a truncated checkpoint fails: exit 1"
check_eq "$(ckpt_json short.json)" "[('checkpoint.files', 'fail', 'ckpt-short/rank0.pt: truncated: no zip end-of-central-directory record (torch.save writes a zip archive; the copy is incomplete)'), ('checkpoint.load', 'skip', \"the checkpoint's files failed their check\")]" \
  "a truncated rank0.pt is named, and nothing is loaded"
run_cmd c "${cl[@]}" --checkpoint ckpt-old -o old.json
check_contains "$(ckpt_json old.json)" "ckpt-old/rank0.pt: not a torch.save archive (it does not start with a zip header: an older torch.save format, or another tool's file)" \
  "a file that is no zip archive is named"
run_cmd c "${cl[@]}" --checkpoint ckpt-nopkl -o nopkl.json
check_contains "$(ckpt_json nopkl.json)" "'ckpt-nopkl/rank0.pt: a zip archive without data.pkl: not written by torch.save'" "a zip without data.pkl is named"
run_cmd c "${cl[@]}" --checkpoint ckpt-megatron -o megatron.json
check_eq "$c_rc" 1 "a foreign checkpoint fails: exit 1"
check_contains "$(ckpt_json megatron.json)" "\"ckpt-megatron: no rank0.pt: a Megatron-LM checkpoint (latest_checkpointed_iteration.txt), not the bundled trainer's; load another trainer's checkpoint with --train-cmd\"" \
  "a Megatron-LM checkpoint is named as another trainer's"
run_cmd c "${cl[@]}" --checkpoint ckpt-empty -o empty.json
check_contains "$(ckpt_json empty.json)" "'ckpt-empty: an empty folder: no checkpoint'" "an empty folder is named"
run_cmd c "${cl[@]}" --checkpoint ckpt-good --work-dir w3 -o good.json
check_eq "$c_rc" 1 "a complete checkpoint reaches the trainer: no PyTorch fails the load (exit 1)"
check_contains "$(ckpt_json good.json)" \
  "[('checkpoint.files', 'pass', ''), ('checkpoint.load', 'fail', 'checkpoint-load check: PyTorch and NumPy must be importable by " \
  "the files' check stays beside the load's, which fails with the trainer's words"
# --train-cmd: the user's trainer loads any checkpoint ({ckpt}); its losses are read from its output
tc='test -f {ckpt}/latest_checkpointed_iteration.txt && for s in 51 52 53; do echo "step $s loss $LOSS"; done'
run_cmd c env LOSS=2.5 "${cl[@]}" --checkpoint ckpt-megatron --extra-steps 3 --work-dir w4 -o tc.json \
  --train-cmd "$tc" --loss-pattern 'step {step} loss {loss}'
check_eq "$c_rc" 0 "--train-cmd loads a Megatron-LM checkpoint and trains: exit 0 ($c_err)"
check_eq "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["checks"][1]; print(c["outcome"], "|", c["found"], "|", c["details"]["loaded_step"])' tc.json)" \
  "pass | loaded step 50, trained steps 51-53, losses 2.5 .. 2.5 | 50" "the steps after loading and their losses"
check_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["checks"][0]["details"]; print(d["sha256"], d["bytes"], len(d["files"]))' tc.json)" \
  "$( (cd ckpt-megatron && sha256sum iter_0000050/mp_rank_00/model_optim_rng.pt latest_checkpointed_iteration.txt) | sha256sum | cut -c1-64) $(cat ckpt-megatron/iter_0000050/mp_rank_00/model_optim_rng.pt ckpt-megatron/latest_checkpointed_iteration.txt | wc -c) 2" \
  "the checkpoint is named by the sha256 of its files' sha256sum lines"
check_file w4/checkpoint-load.log "the command's output is kept in the work folder"
run_cmd c env LOSS=nan "${cl[@]}" --checkpoint ckpt-megatron --extra-steps 3 --work-dir w5 -o nan.json \
  --train-cmd "$tc" --loss-pattern 'step {step} loss {loss}'
check_eq "$c_rc" 1 "a loss that is not finite fails: exit 1"
check_contains "$(ckpt_json nan.json)" "('checkpoint.load', 'fail', 'loss not finite at step 51: nan')" "the first step with a non-finite loss is named"
run_cmd c "${cl[@]}" --checkpoint ckpt-good --work-dir w6 -o exit.json --train-cmd 'echo "cannot read {ckpt}" >&2; exit 4'
check_contains "$(ckpt_json exit.json)" "('checkpoint.load', 'fail', 'the --train-cmd command exited with status 4: cannot read ckpt-good')" "a command that fails is named with its last line"
finish
