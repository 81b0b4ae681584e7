# The folders of src/ and what each may include, as docs/ARCHITECTURE.md's "Folders" table says
# ("may include" column): every `#include "FOLDER/..."` of a source file must name its own folder
# or one its row allows; the allowed-include graph has no cycle; the base library's folders
# include only base folders (envlock-verify links nothing else); and no folder holds more than
# 24 concepts (file stems) without subfolders; and that only src/formats and src/lock spell a
# record's schema id.
. "$REPO/tests/e2e/lib.sh"
need_tools python3

run_cmd l python3 "$REPO/tests/e2e/lib/layering.py" "$REPO"
check_eq "$l_rc" 0 "every include follows docs/ARCHITECTURE.md ($l_out)"

# The records' schema ids are spelt in src/formats (and the lock's in src/lock) only: every other
# folder reads and writes records through their typed readers and writers.
schemas=$(cd "$REPO" && grep -rnE '"envlock\.[a-z-]+/v[0-9]+"' src --include='*.cpp' --include='*.hpp' |
  grep -vE '^src/(formats|lock)/')
check_eq "$schemas" "" "no schema id outside src/formats and src/lock"
planted=$(printf 'const char* k = "envlock.report/v1";\n' | grep -cE '"envlock\.[a-z-]+/v[0-9]+"')
check_eq "$planted" "1" "the schema check finds a planted id"

# The check itself fails on a forbidden include: a copy of the tree with one planted.
mkdir -p copy
cp -r "$REPO/src" "$REPO/docs" copy/
echo '#include "cli/command.hpp"' >>copy/src/util/strings.cpp
run_cmd p python3 "$REPO/tests/e2e/lib/layering.py" copy
check_eq "$p_rc" 1 "a planted forbidden include fails the check"
check_contains "$p_out" "src/util/strings.cpp:" "the planted include is named with its line"
check_contains "$p_out" "includes cli/, which src/util may not include" "the message says which line was crossed"
finish
