#!/usr/bin/env python3
"""Hostile match cards made from a real one, for `scripts/fuzz.sh cards`.

    scripts/craft_cards.py BASE.toml OUT_DIR --cases N [--seed S] [--sandbox DIR]

Half are text mutants of BASE (bytes flipped, lines dropped, repeated or
swapped, a value replaced by an extreme one), half crafted: well-formed
cards that ask for what the server must refuse or bound (maps and
characters that are paths, into `--sandbox DIR` among others; a roster of
thousands; huge and negative limits; thousands of tiers and matches; deep
or huge strings; control characters; another version). Every match's time
limit in BASE is cut to a few seconds first, so the cases that load play
quickly. Seeded: the same seed writes the same files.
"""

import argparse
import pathlib
import random
import re

EXTREMES = ["0", "-1", "1e309", "nan", "inf", "99999999999999999999", "-9223372036854775809", '""', '"' + "x" * 100000 + '"', "[]", "{}", "true"]


def mutant(rng, text):
    lines = text.splitlines()
    kind = rng.randrange(5)
    if kind == 0:
        data = bytearray(text.encode())
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        return bytes(data)
    if kind == 1 and lines:
        del lines[rng.randrange(len(lines))]
    elif kind == 2 and lines:
        i = rng.randrange(len(lines))
        lines[i:i] = [lines[i]] * rng.randint(1, 50)
    elif kind == 3 and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        values = [i for i, l in enumerate(lines) if re.match(r"\s*\w+\s*=", l)]
        if values:
            i = rng.choice(values)
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {rng.choice(EXTREMES)}"
    return ("\n".join(lines) + "\n").encode()


def crafted(rng, text, sandbox):
    kind = rng.randrange(8)
    if kind == 0:
        bad = rng.choice([f"{sandbox}/x", "../../../../etc/passwd", "/dev/zero", "/proc/self/mem", "maps/../../x", "con", "q_dm1\x00x", "~/.ssh/id_rsa"])
        return re.sub(r'map = "[^"]*"', f'map = "{bad}"', text, count=1)
    if kind == 1:
        bad = rng.choice([f"{sandbox}/c", "../../etc/passwd", "Wren\x07", "W" * 5000, ""])
        return re.sub(r'character = "[^"]*"', f'character = "{bad}"', text, count=1)
    if kind == 2:
        roster = ", ".join('{ character = "Pike" }' for _ in range(rng.choice([65, 500, 5000])))
        return re.sub(r"roster = \[", f"roster = [{roster}, ", text, count=1)
    if kind == 3:
        key = rng.choice(["fraglimit", "timelimit", "capturelimit", "roundlimit", "base_skill", "offset", "version"])
        return re.sub(rf"{key} = [^\n]*", f"{key} = {rng.choice(EXTREMES)}", text, count=1)
    if kind == 4:
        tier = text[text.index("[[tier]]"):text.index("[[tier]]", text.index("[[tier]]") + 1)] if text.count("[[tier]]") > 1 else ""
        return text + tier * rng.choice([100, 2000])
    if kind == 5:
        return text.replace('title = "', 'title = "' + "\u202e" * 1000 + "\x1b[2J", 1)
    if kind == 6:
        return "version = 1\n" + "a = [" * rng.choice([100, 10000]) + "\n"
    return text.replace("version = 1", f"version = {rng.choice([0, 2, 999999999])}", 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("out")
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--sandbox", default="/nonexistent-sandbox")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    base = pathlib.Path(args.base).read_text()
    base = re.sub(r"timelimit = [0-9.]+", "timelimit = 0.05", base)
    out = pathlib.Path(args.out)
    for i in range(args.cases):
        if i % 2 == 0:
            data = crafted(rng, base, args.sandbox).encode("utf-8", "surrogateescape")
            name = f"{i:05}-crafted.toml"
        else:
            data = mutant(rng, base)
            name = f"{i:05}-mutant.toml"
        (out / name).write_bytes(data)


if __name__ == "__main__":
    main()
