#!/usr/bin/env python3
"""Writes the hostile_*.tar layers of test_rootfs_builder.cpp: malformed whiteouts of '.' and
'..', and a PAX sparse member (format 1.0) that claims 8 TiB with one stored byte. Run from the
repository root:
    python3 tests/data/squashfs/make_hostile_tars.py
"""
import io
import pathlib
import tarfile

EIGHT_TIB = 8 << 40


def whiteout_layer(paths):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in ["data/"] + paths:
            info = tarfile.TarInfo(path)
            info.mtime = 1600000000
            if path.endswith("/"):
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(b""))
    return raw.getvalue()


def sparse_layer(offset):
    """One regular file of 8 TiB whose only stored byte lies at `offset`."""
    sparse_map = f"1\n{offset}\n1\n".encode()
    data = sparse_map + b"\0" * (512 - len(sparse_map)) + b"x"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo("data/GNUSparseFile.0/huge")
        info.mtime, info.mode, info.size = 1600000000, 0o644, len(data)
        info.pax_headers = {
            "GNU.sparse.major": "1",
            "GNU.sparse.minor": "0",
            "GNU.sparse.name": "data/huge",
            "GNU.sparse.realsize": str(EIGHT_TIB),
        }
        tar.addfile(info, io.BytesIO(data))
    return raw.getvalue()


LAYERS = {
    "whiteout_dot": whiteout_layer(["data/.wh.."]),
    "whiteout_dotdot": whiteout_layer(["data/.wh..."]),
    "sparse_head": sparse_layer(0),
    "sparse_tail": sparse_layer(EIGHT_TIB - 1),
}


def main():
    out = pathlib.Path(__file__).parent
    for name, data in LAYERS.items():
        (out / f"hostile_{name}.tar").write_bytes(data)


if __name__ == "__main__":
    main()
