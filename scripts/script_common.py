"""Helpers the Python scripts share: where cargo's output is, and a clear
message when a binary a script runs has not been built."""

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
