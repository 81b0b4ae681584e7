# The layering check of tests/e2e/test_layering.sh: python3 layering.py REPO. Prints each
# include that crosses a line docs/ARCHITECTURE.md draws, and exits 1 when there is one.
import os, re, sys
repo = sys.argv[1]
doc = open(os.path.join(repo, "docs/ARCHITECTURE.md")).read()
rows = {}
libs = {}
for line in doc.splitlines():
    m = re.match(r"\|\s*`src/([a-z_]+)/?`\s*\|\s*(base|core|importer|tool)\s*\|.*\|\s*([^|]*)\|\s*$", line)
    if m:
        name, lib, allowed = m.group(1), m.group(2), m.group(3)
        rows[name] = set(re.findall(r"`?([a-z_]+)`?", allowed)) - {"nothing"}
        libs[name] = lib
problems = []
top = sorted(d for d in os.listdir(os.path.join(repo, "src")) if os.path.isdir(os.path.join(repo, "src", d)))
for d in top:
    if d not in rows:
        problems.append(f"src/{d}: no row in docs/ARCHITECTURE.md's folder table")
for name, allowed in rows.items():
    for a in allowed:
        if a not in rows:
            problems.append(f"src/{name}: may include '{a}', which has no row")
        elif libs[name] == "base" and libs[a] != "base":
            problems.append(f"src/{name} is in the base library but may include src/{a} ({libs[a]})")
# The allowed graph is acyclic.
state = {}
def visit(n, path):
    if state.get(n) == 1:
        problems.append("include cycle: " + " -> ".join(path + [n]))
        return
    if state.get(n) == 2:
        return
    state[n] = 1
    for m in sorted(rows.get(n, ())):
        visit(m, path + [n])
    state[n] = 2
for n in sorted(rows):
    visit(n, [])
count = 0
for d in top:
    for root, dirs, files in os.walk(os.path.join(repo, "src", d)):
        stems = {f.rsplit(".", 1)[0] for f in files}
        if len(stems) > 24:
            problems.append(f"{os.path.relpath(root, repo)}: {len(stems)} concepts without subfolders (at most 24)")
        for f in files:
            path = os.path.join(root, f)
            for no, text in enumerate(open(path, encoding="utf-8"), 1):
                m = re.match(r'\s*#\s*include\s+"([a-z_]+)/', text)
                if not m:
                    continue
                count += 1
                target = m.group(1)
                if target != d and target not in rows.get(d, set()):
                    problems.append(f"{os.path.relpath(path, repo)}:{no}: includes {target}/, which src/{d} may not include")
for p in problems:
    print(p)
print(f"{count} includes in {len(top)} folders checked")
sys.exit(1 if problems else 0)
