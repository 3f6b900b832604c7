#!/usr/bin/env python3
"""Prints one table from criterion's output directory, plus the rows of
any `--extra FILE` (tab-separated name, value, unit, command; repeatable).

Each benchmark directory holds new/benchmark.json (its id, throughput and the
bench target that ran it is not recorded, so the command column names the
crate's bench by its group prefix) and new/estimates.json (mean in ns).
"""
import json
import pathlib
import sys

# Which `cargo bench` target measures each benchmark group (first path part).
COMMANDS = {
    "server": "cargo bench -p quarry-server --bench tick_loop",
    "map_load": "cargo bench -p quarry-map --bench map_load",
    "trace": "cargo bench -p quarry-map --bench trace",
    "sim_tick": "cargo bench -p quarry-sim --bench sim_tick",
    "pmove": "cargo bench -p quarry-movement --bench pmove",
    "snapshot": "cargo bench -p quarry-net --bench snapshot",
    "navmesh": "cargo bench -p quarry-nav --bench navmesh",
    "nav_build": "cargo bench -p quarry-nav --bench navmesh",
    "nav_route": "cargo bench -p quarry-nav --bench navmesh",
    "bot_think": "cargo bench -p quarry-bots --bench bot_think",
}


def human_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return ns / scale, unit
    return ns, "ns"


def main(root, extras=()):
    rows = []
    for bench in sorted(pathlib.Path(root).glob("**/new/benchmark.json")):
        estimates = bench.with_name("estimates.json")
        if not estimates.exists():
            continue
        meta = json.loads(bench.read_text())
        mean_ns = json.loads(estimates.read_text())["mean"]["point_estimate"]
        name = meta.get("full_id") or meta.get("title") or str(bench.parent.parent)
        group = name.split("/")[0]
        command = COMMANDS.get(group, "cargo bench --workspace")
        value, unit = human_time(mean_ns)
        rows.append((name, f"{value:.3f}", f"{unit}/iter", command))
        throughput = meta.get("throughput") or {}
        for kind, count in throughput.items():
            per_second = count / (mean_ns / 1e9)
            rows.append((f"{name} throughput", f"{per_second:,.0f}", f"{kind.lower()}/s", command))
    for extra in extras:
        # Rows from scripts/match_figures.py, soak.py or fuzz.sh: name,
        # value, unit, command, tab-separated.
        for line in pathlib.Path(extra).read_text().splitlines():
            cells = line.split("\t")
            if len(cells) == 4:
                rows.append(tuple(cells))
    if not rows:
        print("no criterion results under", root, file=sys.stderr)
        return 1
    widths = [max(len(r[i]) for r in rows + [("name", "value", "unit", "command")]) for i in range(4)]
    header = ("name", "value", "unit", "command")
    for row in [header] + rows:
        print("  ".join(cell.ljust(widths[i]) if i != 1 else cell.rjust(widths[i]) for i, cell in enumerate(row)))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    extra_rows = []
    while "--extra" in args:
        i = args.index("--extra")
        if i + 1 < len(args):
            extra_rows.append(args[i + 1])
        del args[i : i + 2]
    sys.exit(main(args[0] if args else "target/criterion", extra_rows))
