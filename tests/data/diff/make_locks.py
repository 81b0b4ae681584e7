#!/usr/bin/env python3
"""Writes old.lock.json and new.lock.json (the diff golden tests' inputs) from the Megatron-LM
uv.lock fixtures of core_v0.18.2 and core_v0.19.0, in envlock's canonical JSON.

The package table is read with tomllib; the other lock fields are fixed test values. Run from the
repository root: python3 tests/data/diff/make_locks.py [tests/data/megatron-lm]
"""
import hashlib
import json
import pathlib
import sys
import tomllib


def packages(uv_lock):
    out = []
    for p in uv_lock.get("package", []):
        source = p.get("source", {})
        kind, location = next(iter(source.items())) if source else ("", "")
        out.append({"name": p["name"], "version": p.get("version", ""),
                    "source": {"kind": kind, "location": str(location)}})
    out.sort(key=lambda p: (p["name"], p["version"]))
    return out


def lock(fixtures, tag, commit, image_tag, digest, expect, build_args, recipe, squash):
    path = fixtures / tag / "uv.lock"
    raw = path.read_bytes()
    uv = tomllib.loads(raw.decode())
    return {
        "schema": "envlock.lock/v1",
        "manifest": {"path": "envlock.yaml", "sha256": hashlib.sha256(tag.encode()).hexdigest()},
        "image": {"name": "megatron-train", "tag": tag, "repository": "registry.example.invalid/ml"},
        "base_image": {"reference": "nvcr.io/nvidia/pytorch:" + image_tag,
                       "name": "nvcr.io/nvidia/pytorch", "tag": image_tag, "digest": digest,
                       "media_type": "application/vnd.oci.image.index.v1+json",
                       "platform": "linux/amd64",
                       "platform_digest": "sha256:" + hashlib.sha256(digest.encode()).hexdigest()},
        "sources": {"megatron": {"git": "https://github.com/NVIDIA/Megatron-LM.git", "ref": tag,
                                 "commit": commit}},
        "python": {"project": "megatron", "uv": {"version": "0.7.2", "sha256": "0" * 64},
                   "sync_args": ["--frozen", "--no-install-project"],
                   "uv_lock": {"path": "megatron/uv.lock",
                               "sha256": hashlib.sha256(raw).hexdigest(),
                               "version": uv.get("version", 0), "revision": uv.get("revision", 0),
                               "requires_python": uv.get("requires-python", ""),
                               "packages": packages(uv)},
                   "pyproject_sha256": hashlib.sha256((fixtures / tag / "pyproject.toml")
                                                      .read_bytes()).hexdigest()},
        "build_args": build_args,
        "expect": {**expect, "gpus": {"count": 8, "model": "NVIDIA B200"},
                   "nccl_busbw_gbps": {"NVIDIA B200": 300.0}, "host": {}, "resume": {}},
        "enroot": {"squash_options": squash, "source_date_epoch": 1767225600},
        "recipe": recipe,
    }


def image(line, written, name, fill):
    """One FROM image of an upstream recipe, as `envlock lock` records it."""
    digest = "sha256:" + fill * 32
    return {"line": line, "from": written, "image": "registry.example.invalid/" + name,
            "digest": digest, "platform_digest": digest}


def recipe(fill, images):
    """The lock's upstream recipe (docs/formats/lock.md, "recipe")."""
    return {"upstream": "megatron", "path": "docker/Dockerfile.ci.dev", "target": "main",
            "sha256": fill * 32, "images": images}


def main():
    fixtures = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/megatron-lm")
    out = pathlib.Path(__file__).parent
    tags = dict(line.split() for line in (fixtures / "TAGS").read_text().splitlines() if line)
    old = lock(fixtures, "core_v0.18.2", tags["core_v0.18.2"], "26.04-py3", "sha256:" + "4a" * 32,
               {"cuda": "13.2", "nccl": "2.29.7", "pytorch": "2.12.0a0+5f1e7c2d3b", "python": "3.12"},
               {"MAX_JOBS": "8", "TORCH_CUDA_ARCH_LIST": "10.0"},
               recipe("a1", [image(4, "${FROM_IMAGE_NAME}", "nvidia/pytorch:26.04-py3", "4a")]),
               "-comp lzo -noD -exit-on-error")
    new = lock(fixtures, "core_v0.19.0", tags["core_v0.19.0"], "26.06-py3", "sha256:" + "6c" * 32,
               {"cuda": "13.3", "nccl": "2.30.7", "pytorch": "2.13.0a0+8145d630e8", "python": "3.12"},
               {"MAX_JOBS": "16", "NVTE_FRAMEWORK": "pytorch"},
               recipe("b2", [image(2, "$TOOLS_IMAGE", "tools/yq:4", "7d"),
                             image(4, "${FROM_IMAGE_NAME}", "nvidia/pytorch:26.06-py3", "6c")]),
               "-comp zstd -Xcompression-level 3 -exit-on-error")
    for name, value in (("old.lock.json", old), ("new.lock.json", new)):
        text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        (out / name).write_text(text)


if __name__ == "__main__":
    main()
