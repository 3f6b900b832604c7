#!/usr/bin/env bash
# A bounded soak of the server under load (see scripts/soak.py for what it
# measures): builds the release server and load generator, then runs it.
#
#   scripts/soak.sh                      # 10 minutes, 64 clients, 8 bots, 20 % loss
#   scripts/soak.sh --minutes 2          # a shorter run
#   scripts/soak.sh --tsv target/soak.tsv   # also bench-table rows
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin quarry-server --bin quarry-loadgen >&2
exec python3 scripts/soak.py "$@"
