# Writes INPUT (share/resume/envlock_resume.py) into OUTPUT as a C++ raw string literal
# (envlock::verify::generated::k_resume_script), so a lone envlock-verify can still run the
# resume check (docs/manual/resume.md says where the script is looked for first).
file(READ ${INPUT} content)
file(WRITE ${OUTPUT}.tmp "// Generated from share/resume/envlock_resume.py; do not edit.\nnamespace envlock::verify::generated {\nextern const char* const k_resume_script;\nconst char* const k_resume_script = R\"envlock_py(${content})envlock_py\";\n}\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
