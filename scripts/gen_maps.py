#!/usr/bin/env python3
"""Generate Quarry's own maps and TrenchBroom support files into maps/.

    python3 scripts/gen_maps.py            # regenerate maps/ in place
    python3 scripts/gen_maps.py --check    # regenerate into a temp dir, diff
                                           # against maps/, exit 1 on any change
    python3 scripts/gen_maps.py --render DIR   # also draw top-down PNG plans

Standard library only (Python 3.11+).  Output is deterministic: the same
script writes the same bytes on every run.

Every run proves, and fails loudly otherwise:
  * each brush, read back from the written text, is exactly the intended
    convex solid, with every plane's normal pointing out of it in the Quake
    convention normal = cross(p2 - p0, p1 - p0) (that convention itself is
    confirmed on a real TrenchBroom map from ../shared when one is there);
  * each map is sealed (play space never touches the outside);
  * every spawn and item fits the 30x30x56 player box 1..8 units above a
    floor, and spawns overlap nothing (solids, triggers, liquids, doors);
  * every jump pad (simulated with Quake 3's launch rule and gravity 800)
    lands on the ledge it serves from every entry point of its trigger;
  * every teleporter destination faces open floor;
  * every floor in the play space has 64+ units of headroom;
  * target/targetname links resolve; CTF maps are exact mirror images.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

from mapgen import build as buildmod  # noqa: E402
from mapgen import map_ctf, map_dm, map_duel  # noqa: E402
from mapgen import render, trenchbroom  # noqa: E402

REPO = HERE.parent
MAPS = [map_duel, map_dm, map_ctf]


def find_reference(arg):
    cands = []
    if arg:
        cands.append(Path(arg))
    env = os.environ.get("QUARRY_SHARED_MAPS")
    if env:
        cands.append(Path(env) / "valve220" / "lqdm12.map")
    cands.append(REPO.parent / "shared" / "maps" / "valve220" / "lqdm12.map")
    for c in cands:
        if c.is_file():
            return c
    return None


def generate(out: Path, log, render_dir=None, reference=None):
    """Write every generated file under `out` (a maps/ directory)."""
    buildmod.selftest()
    log("selftest: a flipped plane, a missing plane and a leak are all caught")
    ref = find_reference(reference)
    if ref:
        n, ok, flipped = buildmod.reference_check(ref)
        if ok != n or flipped != 0:
            raise SystemExit(
                f"plane convention check FAILED on {ref}: {ok}/{n} brushes enclosed with "
                f"normal = cross(p2-p0, p1-p0), {flipped} with the opposite"
            )
        log(f"convention: {ref.name}: all {n} brushes are enclosed by their planes with normal = cross(p2-p0, p1-p0) pointing out (0 with the opposite sign)")
    else:
        log("convention: no reference map found (set QUARRY_SHARED_MAPS); skipped")

    built = []
    for mod in MAPS:
        b = buildmod.build(mod.build())
        b.builder_doc = mod.__doc__
        built.append(b)
        path = out / f"{b.builder.name}.map"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(b.text, encoding="utf-8", newline="\n")
        st = b.stats()
        log(f"{path.name}: {st['world_brushes']} world brushes, {st['entity_brushes']} entity brushes, {st['entities']} entities")
        for line in b.report:
            log(f"  ok: {line}")
        if render_dir:
            p = Path(render_dir) / f"{b.builder.name}.png"
            render.render(b, p)
            log(f"  plan: {p}")
    missing = (buildmod.POINT_CLASSES | buildmod.BRUSH_CLASSES) - trenchbroom.FGD_CLASSES
    if missing:
        raise SystemExit(f"quarry.fgd lacks {sorted(missing)}")
    for rel, data in trenchbroom.files(built):
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            p.write_text(data, encoding="utf-8", newline="\n")
        else:
            p.write_bytes(data)
    trenchbroom.validate_game_config((out / trenchbroom.CFG_PATH).read_text(encoding="utf-8"))
    log(f"GameConfig.cfg parses as JSON once // comments are stripped; quarry.fgd defines all {len(trenchbroom.FGD_CLASSES)} entity classes")
    return built


def check(maps_dir: Path, reference=None) -> int:
    with tempfile.TemporaryDirectory(prefix="quarry-maps-") as tmp:
        tmp = Path(tmp)
        generate(tmp, lambda s: print(s), reference=reference)
        bad = 0
        for p in sorted(tmp.rglob("*")):
            if not p.is_file():
                continue
            rel = p.relative_to(tmp)
            cur = maps_dir / rel
            new = p.read_bytes()
            if not cur.is_file():
                print(f"MISSING maps/{rel} (run scripts/gen_maps.py)")
                bad += 1
                continue
            old = cur.read_bytes()
            if old != new:
                bad += 1
                print(f"DIFFERS maps/{rel}")
                if rel.suffix in (".map", ".md", ".cfg", ".fgd"):
                    diff = difflib.unified_diff(
                        old.decode("utf-8", "replace").splitlines(),
                        new.decode("utf-8", "replace").splitlines(),
                        f"maps/{rel}",
                        f"generated/{rel}",
                        lineterm="",
                        n=1,
                    )
                    for i, line in enumerate(diff):
                        if i >= 40:
                            print("  ...")
                            break
                        print("  " + line)
        committed = maps_dir / trenchbroom.CFG_PATH
        if committed.is_file():
            trenchbroom.validate_game_config(committed.read_text(encoding="utf-8"))
            print(f"maps/{trenchbroom.CFG_PATH} parses (JSON with // comments stripped)")
        if bad:
            print(f"{bad} generated file(s) differ from maps/: run python3 scripts/gen_maps.py and commit")
            return 1
        print("maps/ matches the generator")
        return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="regenerate into a temp dir and diff against maps/")
    ap.add_argument("--out", default=str(REPO / "maps"), help="output maps directory (default: maps/)")
    ap.add_argument("--render", metavar="DIR", help="also write top-down PNG plans of each map to DIR")
    ap.add_argument("--reference", metavar="MAP", help="a Valve 220 map to confirm the plane convention on")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.check:
        return check(Path(args.out), args.reference)
    log = (lambda s: None) if args.quiet else print
    if args.render:
        Path(args.render).mkdir(parents=True, exist_ok=True)
    generate(Path(args.out), log, args.render, args.reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
