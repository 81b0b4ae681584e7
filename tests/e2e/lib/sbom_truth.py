# What an image tree really has installed, read by other tools than envlock, against an SBOM:
# python3 sbom_truth.py SBOM ROOT SITE... prints "python: N installed, M missing, K extra" and
# "deb: ..." lines, then every missing or extra entry. Python distributions come from
# importlib.metadata over the site folders; Debian packages from dpkg-query --admindir.
import json, os, re, subprocess, sys
from importlib import metadata
from urllib.parse import unquote

sbom_path, root, sites = sys.argv[1], sys.argv[2], sys.argv[3:]
doc = json.load(open(sbom_path))

def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()

truth_py = set()
for site in sites:
    for d in metadata.distributions(path=[os.path.join(root, site.lstrip("/"))]):
        truth_py.add((norm(d.metadata["Name"]), d.version))
truth_deb = set()
admin = os.path.join(root, "var/lib/dpkg")
if os.path.exists(os.path.join(admin, "status")):
    out = subprocess.run(["dpkg-query", "--admindir=" + admin, "-W",
                          "-f=${db:Status-Status} ${Package} ${Version} ${Architecture}\n"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        status, name, version, arch = line.split(" ")
        if status == "installed":
            truth_deb.add((name, version, arch))

sbom_py, sbom_deb = set(), set()
for c in doc.get("components", []):
    purl = c.get("purl", "")
    if purl.startswith("pkg:pypi/"):
        name, version = purl[len("pkg:pypi/"):].split("@")
        sbom_py.add((unquote(name), unquote(version)))
    elif purl.startswith("pkg:deb/"):
        path, _, query = purl.partition("?")
        name, version = path.split("/")[-1].split("@")
        arch = dict(q.split("=") for q in query.split("&")).get("arch", "")
        sbom_deb.add((unquote(name), unquote(version), arch))

for kind, truth, got in (("python", truth_py, sbom_py), ("deb", truth_deb, sbom_deb)):
    print(f"{kind}: {len(truth)} installed, {len(truth - got)} missing, {len(got - truth)} extra")
    for entry in sorted(truth - got):
        print(f"  missing {kind} {entry}")
    for entry in sorted(got - truth):
        print(f"  extra {kind} {entry}")
