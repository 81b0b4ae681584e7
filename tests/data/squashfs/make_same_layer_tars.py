#!/usr/bin/env python3
"""Writes the same_layer_*.tar layers of test_rootfs_builder.cpp: one layer holding a path both
as a file and as a folder (or a whiteout under the file). GNU tar with Enroot's options fails on
the first four, and extracts the last two. Run from the repository root:
    python3 tests/data/squashfs/make_same_layer_tars.py
"""
import io
import pathlib
import tarfile

LAYERS = {
    "file_whiteout": [("data/x", "f"), ("data/x/.wh.y", "f")],
    "whiteout_file": [("data/x/.wh.y", "f"), ("data/x", "f")],
    "file_child": [("data/x", "f"), ("data/x/y", "f")],
    "filled_dir_file": [("data/x/", "d"), ("data/x/y", "f"), ("data/x", "f")],
    "empty_dir_file": [("data/x/", "d"), ("data/x", "f")],
    "file_dir": [("data/x", "f"), ("data/x/", "d")],
}


def main():
    out = pathlib.Path(__file__).parent
    for name, entries in LAYERS.items():
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for path, kind in [("data/", "d")] + entries:
                info = tarfile.TarInfo(path)
                info.mtime = 1600000000
                if kind == "d":
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                else:
                    data = b"" if "/.wh." in path else f"{path} of {name}\n".encode()
                    info.size, info.mode = len(data), 0o644
                    tar.addfile(info, io.BytesIO(data))
        (out / f"same_layer_{name}.tar").write_bytes(raw.getvalue())


if __name__ == "__main__":
    main()
