#!/usr/bin/env python3
"""Writes pep440_pairs.tsv: version pairs and the order the `packaging` library (PEP 440's
reference implementation) gives them, -1, 0 or 1. The unit test report.version checks that
envlock orders every pair the same way. Run from the repository root:
    python3 tests/data/report/make_pep440_pairs.py
It uses `packaging`, or the copy pip vendors. The pairs come from a fixed seed, so the file only
changes when this script does.
"""
import pathlib
import random

try:
    from packaging.version import Version
except ImportError:  # pip's vendored copy
    from pip._vendor.packaging.version import InvalidVersion, Version
else:
    from packaging.version import InvalidVersion

NUMBERS = ["0", "00", "1", "01", "2", "9", "10", "11", "100", "4294967296",
           "18446744073709551615", "18446744073709551616", "99999999999999999999",
           "12345678901234567890", "0000000000000000000000001"]
PRE = ["a", "b", "rc", "c", "alpha", "beta", "pre", "preview", ".a", "-b", "_rc"]
POST = [".post", "post", "-post", ".rev", "r", "-"]
DEV = [".dev", "dev", "-dev", "_dev"]
LOCAL = ["abc", "1", "01", "1234567890123456789012", "ubuntu-1", "ubuntu.1", "ubuntu_01", "abc.2",
         "2.abc", "cpu", "cu124", "g4329ff8"]
FIXED = [("1.12345678901234567890", "1.2"), ("1.0+1234567890123456789012", "1.0+1"),
         ("2.11.0", "2.9.1"), ("1.0.dev0", "1.0a0"), ("1.0", "1.0.0"), ("1.0+abc", "1.0+1"),
         ("1!0.1", "2.0"), ("1.0-1", "1.0.post1"), ("v1.0", "1.0"), ("1.0RC1", "1.0rc1")]


def version(rng):
    out = ""
    if rng.random() < 0.15:
        out += rng.choice(NUMBERS) + "!"
    out += ".".join(rng.choice(NUMBERS) for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.4:
        out += rng.choice(PRE) + (rng.choice(NUMBERS) if rng.random() < 0.8 else "")
    if rng.random() < 0.3:
        sep = rng.choice(POST)
        out += sep + (rng.choice(NUMBERS) if sep == "-" or rng.random() < 0.8 else "")
    if rng.random() < 0.3:
        out += rng.choice(DEV) + (rng.choice(NUMBERS) if rng.random() < 0.8 else "")
    if rng.random() < 0.3:
        out += "+" + rng.choice(LOCAL)
    return out


def main():
    rng = random.Random(440)
    pairs = list(FIXED)
    while len(pairs) < 2400:
        a = version(rng)
        # Often a close neighbour, so that equal and nearly equal versions meet.
        b = version(rng) if rng.random() < 0.5 else a.replace("0", "00", 1) if rng.random() < 0.5 \
            else a + rng.choice([".0", "+1", "a1", ".post0", ".dev0", "+abc"])
        try:
            Version(a), Version(b)
        except InvalidVersion:
            continue  # an appended part can make a version that is not PEP 440
        pairs.append((a, b))
    lines = ["# A\tB\tpackaging's order of A and B (make_pep440_pairs.py)"]
    for a, b in pairs:
        va, vb = Version(a), Version(b)
        lines.append(f"{a}\t{b}\t{(va > vb) - (va < vb)}")
    path = pathlib.Path(__file__).parent / "pep440_pairs.tsv"
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
