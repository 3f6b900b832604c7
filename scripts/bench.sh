#!/usr/bin/env bash
# Runs every criterion benchmark in the workspace and prints one table of
# figures: name, value, unit, and the command that measured it.
#
#   scripts/bench.sh            # all benchmarks, then the headless match figures
#   scripts/bench.sh -p quarry-map   # one crate (any cargo bench arguments)
#   QUARRY_BENCH_MATCHES=0 scripts/bench.sh   # criterion only
#
# A full workspace run also runs the issue-13 reliability figures: a soak of
# QUARRY_BENCH_SOAK_MINUTES (default 10; scripts/soak.sh) and fuzz campaigns
# of QUARRY_BENCH_FUZZ_CASES each (default 100000; scripts/fuzz.sh). Set
# either to 0 to skip it.
#
# Instruction counts (callgrind) of the sim_tick and tick_loop benches, a
# figure that does not swing with the machine's load, come from
# scripts/callgrind.sh (run it at two commits to compare them).
#
# Figures come from criterion's own estimates (target/criterion/**/new/*.json):
# the mean time per iteration, and for benchmarks that declare a throughput,
# the elements per second that mean implies.
set -euo pipefail
cd "$(dirname "$0")/.."
# Where cargo puts its output (criterion's estimates, the binaries).
target=${CARGO_TARGET_DIR:-target}
# Seeded headless bot matches (chat, styles, team modes; stuck shares and
# idle times on every map) run with a full workspace run unless
# QUARRY_BENCH_MATCHES=0; scripts/match_figures.py, scripts/stuck_figures.py.
matches=0
soak_minutes=0
fuzz_cases=0
if [ "$#" -eq 0 ]; then
    set -- --workspace
    matches=${QUARRY_BENCH_MATCHES:-1}
    soak_minutes=${QUARRY_BENCH_SOAK_MINUTES:-10}
    fuzz_cases=${QUARRY_BENCH_FUZZ_CASES:-100000}
fi
rm -f "$target/navmesh_figures.tsv" "$target/script_figures.tsv" "$target/wire_figures.tsv"
cargo bench "$@" --bench '*' -- --noplot >&2
extra=()
# The navmesh bench's own table: build ms (until bots can move), the
# exposure's background ms, route p50/p99 with snapping and string
# pulling, route cost over the optimal cell route, per map.
[ -f "$target/navmesh_figures.tsv" ] && extra+=(--extra "$target/navmesh_figures.tsv")
# The bot bench's scripted-brain figures: 64 companion bots at 10 and 60 Hz,
# the mean script call and the p99 ticks.
[ -f "$target/script_figures.tsv" ] && extra+=(--extra "$target/script_figures.tsv")
# The wire bench's issue-48 figures: a client's downstream bytes as QUIC
# counts them (real quinn through a delaying relay) at 0, 50 and 100 ms of
# round trip, with IP headers, and datagrams per second.
[ -f "$target/wire_figures.tsv" ] && extra+=(--extra "$target/wire_figures.tsv")
if [ "$matches" != 0 ]; then
    cargo build --release --bin quarry-server >&2
    python3 scripts/match_figures.py --server "$target/release/quarry-server" --jobs 2 --tsv "$target/match_figures.tsv" >&2
    extra+=(--extra "$target/match_figures.tsv")
    # The tactical team (bot_tactical 5) against a level-0 team, 4v4 TDM,
    # seeds 101-116 from both sides: wins and frag difference per map, every
    # shipped and shared map (the tactics must carry over to maps unseen).
    python3 scripts/tactics_figures.py --server "$target/release/quarry-server" --tsv "$target/tactics_figures.tsv" >&2
    extra+=(--extra "$target/tactics_figures.tsv")
    # Issue 16's figures: how well bots get around every map, FFA and 4v4 CTF.
    python3 scripts/stuck_figures.py --server "$target/release/quarry-server" --tsv "$target/stuck_ffa.tsv" >&2
    python3 scripts/stuck_figures.py --server "$target/release/quarry-server" --gametype ctf \
        --maps maps/q_ctf1.map,../shared/maps/q3/oacmpctf1.map --tsv "$target/stuck_ctf.tsv" >&2
    extra+=(--extra "$target/stuck_ffa.tsv" --extra "$target/stuck_ctf.tsv")
    # Issue 21's recording sizes: KB a minute for 8, 16 and 64 players.
    python3 scripts/record_figures.py --server "$target/release/quarry-server" --tsv "$target/record_figures.tsv" >&2
    extra+=(--extra "$target/record_figures.tsv")
    # Tick p50 and p99 with 64 bots on every shipped and shared map (the
    # budget: p99 at most 2 ms), best of two runs each.
    python3 scripts/tick_figures.py --server "$target/release/quarry-server" --tsv "$target/tick_figures.tsv" >&2
    extra+=(--extra "$target/tick_figures.tsv")
    # Issue 22's flood figures: tick p99 under bad admin sign-ins and queries.
    cargo build --release --bin quarry-client >&2
    python3 scripts/service_flood.py --server "$target/release/quarry-server" --client "$target/release/quarry-client" --tsv "$target/service_flood.tsv" >&2
    extra+=(--extra "$target/service_flood.tsv")
    # Issue 50's amplification: bytes out over bytes in under a flood of
    # out-of-band requests from many loopback addresses, and the tick p99.
    python3 scripts/oob_flood.py --server "$target/release/quarry-server" --tsv "$target/oob_flood.tsv" >&2
    extra+=(--extra "$target/oob_flood.tsv")
    # Issue 23's viewer figure: tick p99 with five web viewers against none.
    python3 scripts/web_viewers.py --server "$target/release/quarry-server" --tsv "$target/web_viewers.tsv" >&2
    extra+=(--extra "$target/web_viewers.tsv")
    # Issue 46's web view limits: guesses looked at, a page under every
    # stream taken and a slowloris.
    python3 scripts/web_limits.py --server "$target/release/quarry-server" --tsv "$target/web_limits.tsv" >&2
    extra+=(--extra "$target/web_limits.tsv")
    # Issue 49's aim: accuracy per weapon, first hit and peak turn per skill
    # in mirror duels, and the ladder's wins between skills, on a Quake 3
    # duel map, a Quake 1 map and the largest Quake 3 map.
    cargo build --release -p quarry-bots --example skill_ladder >&2
    aim_maps=(q_duel1 ../shared/maps/q1-standard/dm6.map ../shared/maps/q3/oacmpdm8.map)
    for s in 1 2 3 4 5; do
        "$target/release/examples/skill_ladder" --tsv "$target/aim_mirror_$s.tsv" "$s" "$s" 24 5 "${aim_maps[@]}" >&2
        extra+=(--extra "$target/aim_mirror_$s.tsv")
    done
    # The same figures in 8-bot free-for-all (mixed ranges) on every shipped
    # and shared map.
    ffa_maps=(q_dm1 q_duel1 q_ctf1 ../shared/maps/q3/*.map ../shared/maps/q3-brushdef/*.map ../shared/maps/q1-standard/*.map ../shared/maps/valve220/*.map)
    for s in 1 2 3 4 5; do
        "$target/release/examples/skill_ladder" --ffa 8 --tsv "$target/aim_ffa_$s.tsv" "$s" "$s" 6 5 "${ffa_maps[@]}" >&2
        extra+=(--extra "$target/aim_ffa_$s.tsv")
    done
    for pair in "5 1" "2 1" "3 2" "4 3" "5 4"; do
        # shellcheck disable=SC2086 # the pair is two words on purpose
        "$target/release/examples/skill_ladder" --tsv "$target/aim_ladder_${pair// /_}.tsv" $pair 48 5 "${aim_maps[@]}" >&2
        extra+=(--extra "$target/aim_ladder_${pair// /_}.tsv")
    done
    # Issue 48's play client: frame times under llvmpipe and prediction
    # through a 100 ms / 2 % loss relay (needs xvfb-run).
    if command -v xvfb-run >/dev/null 2>&1; then
        python3 scripts/play_figures.py --server "$target/release/quarry-server" --client "$target/release/quarry-client" --tsv "$target/play_figures.tsv" >&2
        extra+=(--extra "$target/play_figures.tsv")
        # Every shipped and shared map and every game type, played in the window.
        python3 scripts/play_maps.py --server "$target/release/quarry-server" --client "$target/release/quarry-client" --tsv "$target/play_maps.tsv" >&2 || true
        [ -f "$target/play_maps.tsv" ] && extra+=(--extra "$target/play_maps.tsv")
    fi
fi
if [ "$soak_minutes" != 0 ]; then
    # A failed verdict still has figures worth showing.
    rm -f "$target/soak.tsv"
    scripts/soak.sh --minutes "$soak_minutes" --tsv "$target/soak.tsv" >&2 || true
    [ -f "$target/soak.tsv" ] && extra+=(--extra "$target/soak.tsv")
fi
if [ "$fuzz_cases" != 0 ]; then
    rm -f "$target/fuzz.tsv"
    FUZZ_TSV="$target/fuzz.tsv" scripts/fuzz.sh all "$fuzz_cases" >&2 || true
    [ -f "$target/fuzz.tsv" ] && extra+=(--extra "$target/fuzz.tsv")
fi
python3 scripts/bench_table.py "$target/criterion" ${extra[@]+"${extra[@]}"}
