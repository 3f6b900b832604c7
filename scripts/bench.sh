#!/usr/bin/env bash
# Runs every criterion benchmark in the workspace and prints one table of
# figures: name, value, unit, and the command that measured it.
#
#   scripts/bench.sh            # all benchmarks
#   scripts/bench.sh -p quarry-map   # one crate (any cargo bench arguments)
#
# Figures come from criterion's own estimates (target/criterion/**/new/*.json):
# the mean time per iteration, and for benchmarks that declare a throughput,
# the elements per second that mean implies.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then set -- --workspace; fi
cargo bench "$@" --bench '*' -- --noplot >&2
python3 scripts/bench_table.py target/criterion
