"""Helpers the Python scripts share: where cargo's output is, a clear
message when a binary a script runs has not been built, and the figures
table every *_figures.py prints (and writes for scripts/bench.sh)."""

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def target_dir():
    """Cargo's target directory: $CARGO_TARGET_DIR, else target/ in the checkout."""
    env = os.environ.get("CARGO_TARGET_DIR")
    return pathlib.Path(env) if env else ROOT / "target"


def require_binary(path, build):
    """Exits with a clear message when a binary the script runs is missing."""
    if not pathlib.Path(path).is_file():
        sys.exit(f"{pathlib.Path(sys.argv[0]).name}: {path} not found; build it with `{build}` or give its path")


def copy_config(into):
    """Copies the shipped config/ files a server reads into the folder
    `into`, so a run never reads or leaves an archive.cfg in the checkout."""
    into = pathlib.Path(into)
    for name in ["server.cfg", "items.toml", "weapons.toml", "sounds.toml"]:
        (into / name).write_text((ROOT / "config" / name).read_text())
    return into


def emit_rows(rows, tsv=None):
    """Writes `rows` (name, value, unit, command) to `tsv` for bench.sh when
    given, and prints them as an aligned table."""
    if tsv:
        pathlib.Path(tsv).write_text("".join("\t".join(r) + "\n" for r in rows))
    header = ("name", "value", "unit", "command")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(3)]
    for row in [header] + rows:
        print("  ".join([row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].ljust(widths[2]), row[3]]))
