# An NGC-style image tree for the SBOM suites and bench: python3 sbom_rootfs.py ROOT NPY NDEB.
# Ubuntu 24.04 (os-release, debian_version), the system Python 3.12 with NPY distributions in
# /usr/local/lib/python3.12/dist-packages (names with '_', '.' and capitals, local versions like
# "+cu130", torch with its version.py) and two apt ones in /usr/lib/python3/dist-packages; a dpkg
# status of NDEB installed packages (epochs, one package for two architectures) and three that are
# not installed; CUDA's version.json, NCCL and cuDNN libraries and Megatron-LM's commit file.
# Deterministic: the same arguments give the same tree.
import os, sys

root, npy, ndeb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def write(path, text, mode=0o644):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
    os.chmod(full, mode)

def dist(site, name, version, tags=("py3-none-any",)):
    folder = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    write(f"{folder}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\nText.\n")
    write(f"{folder}/WHEEL", "Wheel-Version: 1.0\n" + "".join(f"Tag: {t}\n" for t in tags))
    write(f"{folder}/INSTALLER", "pip\n")
    write(f"{folder}/RECORD", "")

write("/etc/os-release", 'PRETTY_NAME="Ubuntu 24.04.2 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\n'
      'VERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n')
write("/etc/debian_version", "trixie/sid\n")
write("/usr/bin/python3.12", "#!/bin/false\n", 0o755)
os.symlink("python3.12", os.path.join(root, "usr/bin/python3"))
site = "/usr/local/lib/python3.12/dist-packages"
for i in range(npy):
    kind = i % 4
    name = [f"pkg-{i:03d}", f"Pkg_Mixed.{i:03d}", f"lib.dotted-{i:03d}", f"plain{i:03d}"][kind]
    version = [f"1.{i}.0", f"2.{i}", f"0.{i}.1+cu130", f"{i}.0.0rc1"][kind]
    dist(site, name, version, ("cp312-cp312-manylinux_2_28_x86_64",) if kind == 1 else ("py3-none-any",))
dist(site, "torch", "2.9.0a0+50eac811a6.nv25.09", ("cp312-cp312-linux_x86_64",))
write(f"{site}/torch/version.py", "__version__ = '2.9.0a0+50eac811a6.nv25.09'\ncuda = '13.0'\n"
      "git_version = '50eac811a6'\n")
dist("/usr/lib/python3/dist-packages", "python-apt", "2.7.7+ubuntu4")
dist("/usr/lib/python3/dist-packages", "six", "1.16.0")

stanzas = []
for i in range(ndeb):
    version = f"1:{i}.2-3ubuntu{i % 5}" if i % 7 == 0 else f"{i}.{i % 10}-{i % 3}build1"
    arch = ["amd64", "all"][i % 2]
    source = f"Source: src{i // 3:03d} ({version})\n" if i % 3 == 0 else ""
    stanzas.append(f"Package: deb-{i:03d}\nStatus: install ok installed\nPriority: optional\n"
                   "Maintainer: Test <test@example.invalid>\n"
                   f"Architecture: {arch}\n{source}Version: {version}\n"
                   f"Description: package {i}\n a continuation line\n .\n more text\n")
stanzas.append("Package: libmulti\nStatus: install ok installed\nArchitecture: i386\nMulti-Arch: same\n"
               "Maintainer: Test <test@example.invalid>\n"
               "Version: 1.0-1\n")
for i in range(3):
    stanzas.append(f"Package: gone-{i}\nStatus: deinstall ok config-files\nVersion: 0.{i}\n")
stanzas[0] = stanzas[0].replace("Package: deb-000", "Package: libmulti", 1).replace(
    "Architecture: amd64", "Architecture: amd64\nMulti-Arch: same", 1)
write("/var/lib/dpkg/status", "\n".join(stanzas))

write("/usr/local/cuda/version.json", '{"cuda": {"name": "CUDA SDK", "version": "13.0.1"}, '
      '"cuda_cudart": {"version": "13.0.96"}, "libcublas": {"version": "13.1.0.3"}}\n')
write("/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.9", "\0ELF...NCCL version 2.28.9+cuda13.0\0...")
os.symlink("libnccl.so.2.28.9", os.path.join(root, "usr/lib/x86_64-linux-gnu/libnccl.so.2"))
write("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0", "\0ELF")
os.symlink("libcudnn.so.9.14.0", os.path.join(root, "usr/lib/x86_64-linux-gnu/libcudnn.so.9"))
write("/opt/megatron-lm/.envlock-commit", "5be9626709af2722333bf54797c954c09edeada3\n")
