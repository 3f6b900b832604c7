#!/bin/sh
# Generates the mechanism-puzzle corpus (quarry-mapgen) and checks the
# navmesh against every map's answer, printing a row per map.
#   scripts/mapgen_corpus.sh [SEED] [PER_KIND] [--write DIR]
# Default: seed 1, two maps per part kind and dialect (94 maps).
set -eu
cd "$(dirname "$0")/.."
exec cargo run --quiet --release -p quarry-nav --example mapgen_corpus -- "$@"
