#!/usr/bin/env python3
"""Issue 48's coverage run: the play client on every shipped and shared map,
and in every game type, against the real server with bots, under Xvfb.

    python3 scripts/play_maps.py [--server target/release/quarry-server] [--client target/release/quarry-client] [--seconds 8] [--tsv FILE]

For each case the server starts on the map with bots (team modes on
q_dm1, flag modes on the CTF maps), the client joins by the join address
(fetching the map by hash: the shared maps' folders are given with
--maps, so only a map nowhere on disk is downloaded), keeps its view on
the nearest bot and fires for SECONDS, takes a screenshot and leaves. A
case passes when the client exits cleanly having drawn frames and moved
no less than it was moved (its prediction's largest miss is printed).
Prints one line per case and a summary row for scripts/bench.sh.
"""

import argparse
import pathlib
import re
import sys
import tempfile
import time

from play_figures import check_play_tools, play_arguments, run_client, scratch_config, start_server

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "maps"
COMMAND = "python3 scripts/play_maps.py"


def cases():
    maps = [(p.stem, "maps" if p.parent == ROOT / "maps" else str(p), p.parent) for p in sorted((ROOT / "maps").glob("*.map"))]
    for sub in ("valve220", "q3", "q3-brushdef", "q1-standard"):
        for p in sorted((SHARED / sub).glob("*.map")):
            maps.append((p.stem, str(p), p.parent))
    for name, path, folder in maps:
        arg = name if path == "maps" else path
        yield (f"{name}/ffa", ["+set", "g_gametype", "ffa", "+map", arg], folder)
    for gametype in ("duel", "tdm", "freeze", "ca"):
        yield (f"q_dm1/{gametype}", ["+set", "g_gametype", gametype, "+map", "q_dm1"], ROOT / "maps")
    for gametype in ("ctf", "oneflag"):
        yield (f"q_ctf1/{gametype}", ["+set", "g_gametype", gametype, "+map", "q_ctf1"], ROOT / "maps")
        if (SHARED / "q3" / "oacmpctf1.map").exists():
            yield (f"oacmpctf1/{gametype}", ["+set", "g_gametype", gametype, "+map", str(SHARED / "q3" / "oacmpctf1.map")], SHARED / "q3")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    play_arguments(p)
    p.add_argument("--seconds", type=float, default=8.0)
    args = p.parse_args()
    check_play_tools(args)
    passed, failed = 0, []
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        config = scratch_config(tmp)
        for name, server_args, folder in cases():
            server, port, fp = start_server(args.server, config, ["+set", "bot_minPlayers", "4"] + server_args)
            try:
                time.sleep(6)
                script = tmp / "case.txt"
                shot = re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".png"
                script.write_text(f"0.5 aim\n1.0 +attack\n{args.seconds - 1:.1f} -attack\n{args.seconds - 0.8:.1f} screenshot {shot}\n{args.seconds:.1f} quit\n")
                try:
                    out = run_client(args.client, f"quarry://127.0.0.1:{port}/#{fp}", [str(folder)], str(script), ["--screenshots", str(tmp)], args.seconds + 60)
                except SystemExit as e:
                    failed.append(name)
                    print(f"{name}: FAILED {e}")
                    continue
            finally:
                server.stop()
            frames = re.search(r"frames: (\d+) drawn", out)
            miss = re.search(r"max ([\d.]+) units", out)
            ok = frames and int(frames.group(1)) > 10 and (tmp / shot).exists()
            print(f"{name}: {'ok' if ok else 'FAILED'}, {frames.group(1) if frames else 0} frames, largest prediction miss {miss.group(1) if miss else '?'} units")
            if ok:
                passed += 1
            else:
                failed.append(name)
    print(f"{passed} of {passed + len(failed)} cases played" + (f"; failed: {', '.join(failed)}" if failed else ""))
    if args.tsv:
        pathlib.Path(args.tsv).write_text(f"play/maps_and_modes_played\t{passed}\tof {passed + len(failed)} cases\t{COMMAND}\n")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
