#!/usr/bin/env bash
# A bounded soak of the server under load (see scripts/soak.py for what it
# measures): it reads its flags, then builds the release server and load
# generator (unless --no-build) and runs.
#
#   scripts/soak.sh                      # 10 minutes, 64 clients, 8 bots, 20 % loss
#   scripts/soak.sh --minutes 2          # a shorter run
#   scripts/soak.sh --tsv target/soak.tsv   # also bench-table rows
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/soak.py "$@"
