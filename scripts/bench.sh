#!/usr/bin/env bash
# Runs every criterion benchmark in the workspace and prints one table of
# figures: name, value, unit, and the command that measured it.
#
#   scripts/bench.sh            # all benchmarks, then the headless match figures
#   scripts/bench.sh -p quarry-map   # one crate (any cargo bench arguments)
#   QUARRY_BENCH_MATCHES=0 scripts/bench.sh   # criterion only
#
# Figures come from criterion's own estimates (target/criterion/**/new/*.json):
# the mean time per iteration, and for benchmarks that declare a throughput,
# the elements per second that mean implies.
set -euo pipefail
cd "$(dirname "$0")/.."
# Seeded headless bot matches (chat, styles, team modes) run with a full
# workspace run unless QUARRY_BENCH_MATCHES=0; scripts/match_figures.py.
matches=0
if [ "$#" -eq 0 ]; then
    set -- --workspace
    matches=${QUARRY_BENCH_MATCHES:-1}
fi
cargo bench "$@" --bench '*' -- --noplot >&2
extra=()
if [ "$matches" != 0 ]; then
    cargo build --release --bin quarry-server >&2
    python3 scripts/match_figures.py --tsv target/match_figures.tsv >&2
    extra=(--extra target/match_figures.tsv)
fi
python3 scripts/bench_table.py target/criterion "${extra[@]}"
