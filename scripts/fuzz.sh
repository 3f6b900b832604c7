#!/usr/bin/env bash
# Fuzz campaigns longer than the CI-sized fuzz tests (issue 13: no input
# kills or starves the server).
#
#   scripts/fuzz.sh [maps|packets|recordings|cards|all] [N]
#
# maps: N map mutants (default 100000) in process through
#   crates/nav/examples/fuzz_maps.rs (load every mutant, build a navmesh for
#   every FUZZ_NAV_EVERY-th, default 50; catch_unwind per case, a watchdog
#   for hangs), then a slice of FUZZ_BINARY_CASES mutants (default N/500,
#   at least 50) through the real binary, `quarry-server map-info` and
#   `nav-info` under `timeout` and a memory ulimit, to catch aborts and
#   OOM kills that an in-process run cannot survive.
# packets: N malformed-packet cases in process through
#   crates/net/examples/fuzz_packets.rs: each a fresh server connection fed a
#   valid hello, then mutated control-stream frames and datagrams of every
#   message kind (catch_unwind per case, a per-case time budget); then as
#   many mutated out-of-band requests (getinfo, getstatus, A2S) through the
#   out-of-band handler.
# recordings: N hostile recordings made from a real one (a short headless
#   match recorded by the binary) by crates/record/examples/
#   craft_recordings.rs: half byte mutants, half crafted (console text in a
#   journal value, config files and cvars naming paths and addresses, tick
#   bombs, ticks out of order, lists over their limits, impossible rates),
#   each replayed by the real binary under `timeout` and a memory ulimit
#   from an empty working directory; a replay that leaves any file in that
#   directory or in the sandbox the crafted paths point to counts as
#   "wrote" (a failure, in the abort column).
# cards: N hostile match cards made from config/cards/ladder.toml by
#   scripts/craft_cards.py (half text mutants, half crafted: maps and
#   characters that are paths, huge rosters, extreme limits, thousands of
#   tiers, deep nesting, control characters), each played by the real
#   binary (`card FILE --match 0.0 --as Wren`, the time limits cut
#   to 3 s) under `timeout` and a memory ulimit from an empty directory,
#   with the same check that nothing is written there or in the sandbox.
#
# Environment: FUZZ_SEED (13), FUZZ_THREADS (2), FUZZ_BUDGET_MS (per case,
# 2000), FUZZ_TIMEOUT_S (per binary run, 20), FUZZ_MEM_KB (ulimit -v for
# binary runs, 4194304), FUZZ_OUT (where failing inputs go,
# target/fuzz-out), QUARRY_SHARED_MAPS (extra corpus, default
# ../shared/maps when present), FUZZ_NO_BUILD=1 (use the binaries already
# built), FUZZ_SERVER (the server binary, target/release/quarry-server),
# FUZZ_TSV (also write the counts there as bench table rows: name, value,
# unit, command; scripts/bench.sh reads them).
#
# Prints a table of counts by outcome: ok, rejected (an error: the designed
# answer to a bad input), panic, timeout/hang, abort/killed, slow (finished
# over the per-case budget). Exits 1 if any panic, hang or abort was seen.
set -uo pipefail

cd "$(dirname "$0")/.."

SECTION=${1:-all}
N=${2:-100000}
SEED=${FUZZ_SEED:-13}
THREADS=${FUZZ_THREADS:-2}
BUDGET_MS=${FUZZ_BUDGET_MS:-2000}
TIMEOUT_S=${FUZZ_TIMEOUT_S:-20}
MEM_KB=${FUZZ_MEM_KB:-4194304}
NAV_EVERY=${FUZZ_NAV_EVERY:-50}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${FUZZ_OUT:-$TARGET/fuzz-out}
SHARED=${QUARRY_SHARED_MAPS:-../shared/maps}
SERVER=${FUZZ_SERVER:-$TARGET/release/quarry-server}
RUNNER=$TARGET/release/examples/fuzz_maps

case "$SECTION" in
maps | packets | recordings | cards | all) ;;
*)
	echo "usage: scripts/fuzz.sh [maps|packets|recordings|cards|all] [N]" >&2
	exit 2
	;;
esac

# Table rows: "section runner cases ok rejected panic timeout abort slow".
ROWS=()
record_row() {
	ROWS+=("$*")
}

# Classifies an exit status of a binary run under `timeout`.
classify_status() {
	case "$1" in
	0) echo ok ;;
	1 | 2) echo rejected ;;
	101) echo panic ;;
	124) echo timeout ;;
	*) echo abort ;;
	esac
}

fuzz_maps() {
	local corpus=(maps)
	[ -d "$SHARED" ] && corpus+=("$SHARED")
	mkdir -p "$OUT/maps"
	if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
		echo "== maps: building the runner and the server (release)" >&2
		cargo build --release -q -p quarry-nav --example fuzz_maps || return 1
		cargo build --release -q --bin quarry-server || return 1
	fi

	# In process, resuming after each hang the watchdog reports.
	local first=0 ok=0 rejected=0 panic=0 slow=0 hang=0 abort=0 cases=0 seconds=0
	while [ "$first" -lt "$N" ]; do
		local log
		log=$("$RUNNER" --cases "$N" --first "$first" --seed "$SEED" \
			--threads "$THREADS" --nav-every "$NAV_EVERY" --budget-ms "$BUDGET_MS" \
			--save "$OUT/maps" "${corpus[@]}")
		local status=$?
		get() { sed -n "s/^$1=//p" <<<"$log" | tail -1; }
		ok=$((ok + $(get ok))) rejected=$((rejected + $(get rejected)))
		panic=$((panic + $(get panic))) slow=$((slow + $(get slow)))
		hang=$((hang + $(get hang))) cases=$((cases + $(get cases)))
		seconds=$(awk -v a="$seconds" -v b="$(get seconds)" 'BEGIN { print a + b }')
		if [ "$status" -eq 3 ]; then
			first=$(($(get hang_case) + 1))
		elif [ "$status" -ne 0 ] || [ -z "$(get cases)" ]; then
			# Aborted or killed: the case is unknown, so stop here.
			echo "maps: runner died with status $status after $cases cases" >&2
			abort=$((abort + 1))
			break
		else
			break
		fi
	done
	echo "maps: in process: $cases mutants in ${seconds}s: ok=$ok rejected=$rejected panic=$panic hang=$hang abort=$abort slow=$slow" >&2
	record_row maps in-process "$cases" "$ok" "$rejected" "$panic" "$hang" "$abort" "$slow"

	# Through the binary: aborts, OOM kills and hangs of the whole process.
	local m=${FUZZ_BINARY_CASES:-$((N / 500))}
	[ "$m" -lt 50 ] && m=50
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/quarry-fuzz-maps.XXXXXX")
	"$RUNNER" --write "$m" "$dir" --seed "$((SEED + 1))" "${corpus[@]}" || return 1
	local -A count=([ok]=0 [rejected]=0 [panic]=0 [timeout]=0 [abort]=0)
	local runs=0 i=0
	for f in "$dir"/*.map; do
		local modes=(map-info)
		# One in ten also builds the navmesh (slower).
		[ $((i % 10)) -eq 0 ] && modes+=(nav-info)
		i=$((i + 1))
		for mode in "${modes[@]}"; do
			(
				ulimit -v "$MEM_KB"
				timeout "$TIMEOUT_S" "$SERVER" "$mode" "$f" >/dev/null 2>"$dir/stderr"
			)
			local status=$?
			local outcome
			outcome=$(classify_status "$status")
			count[$outcome]=$((count[$outcome] + 1))
			runs=$((runs + 1))
			if [ "$outcome" != ok ] && [ "$outcome" != rejected ]; then
				cp "$f" "$OUT/maps/binary-$(basename "$f")"
				echo "maps: $mode $(basename "$f"): $outcome (status $status): $(tail -1 "$dir/stderr")" >&2
			fi
		done
	done
	rm -rf "$dir"
	record_row maps binary "$runs" "${count[ok]}" "${count[rejected]}" "${count[panic]}" "${count[timeout]}" "${count[abort]}" 0
}

fuzz_packets() {
	if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
		cargo build --release -p quarry-net --example fuzz_packets >&2 || return 1
	fi
	local rows row
	rows=$("$TARGET/release/examples/fuzz_packets" --cases "$N" --seed "$SEED" --budget-ms "$BUDGET_MS") || return 1
	# One row for the connections, one for the out-of-band datagrams.
	while IFS= read -r row; do
		# shellcheck disable=SC2086
		[ -n "$row" ] && record_row $row
	done <<< "$rows"
}

# Cases for a campaign that runs the binary once a case: N when the section
# is asked for by name; in `all`, FUZZ_BINARY_CASES (default N/100, at
# least 200), as the maps' binary slice is.
binary_cases() {
	local n=$N
	if [ "$SECTION" = all ]; then
		n=${FUZZ_BINARY_CASES:-$((N / 100))}
		[ "$n" -lt 200 ] && n=200
	fi
	echo "$n"
}

# hostile_cases SECTION DIR CASE... -- COMMAND...: runs COMMAND (its @CASE@
# replaced by each case file) from the empty folder DIR/cwd under `timeout`
# and the memory limit, classifies each exit, and counts a run that leaves
# a file in DIR/cwd or DIR/sandbox as "wrote" (a failure, in the abort
# column); failing cases are kept in $OUT/SECTION. Appends the row.
hostile_cases() {
	local section=$1 dir=$2
	shift 2
	local cases=()
	while [ "$1" != -- ]; do
		cases+=("$1")
		shift
	done
	shift
	local -A count=([ok]=0 [rejected]=0 [panic]=0 [timeout]=0 [abort]=0)
	local runs=0 slow=0
	mkdir -p "$dir/cwd" "$dir/sandbox" "$OUT/$section"
	for f in "${cases[@]}"; do
		local argv=("${@//@CASE@/$f}")
		local start=$SECONDS
		(
			cd "$dir/cwd" || exit 99
			ulimit -v "$MEM_KB"
			timeout "$TIMEOUT_S" "${argv[@]}" >/dev/null 2>"$dir/stderr"
		)
		local status=$?
		local outcome
		outcome=$(classify_status "$status")
		[ $((SECONDS - start)) -gt $((BUDGET_MS / 1000)) ] && slow=$((slow + 1))
		local wrote
		wrote=$(find "$dir/cwd" "$dir/sandbox" -mindepth 1 | tr '\n' ' ')
		if [ -n "$wrote" ]; then
			echo "$section: $(basename "$f") wrote: $wrote" >&2
			outcome=abort
			rm -rf "${dir:?}/cwd/"* "${dir:?}/sandbox/"*
		fi
		count[$outcome]=$((count[$outcome] + 1))
		runs=$((runs + 1))
		if [ "$outcome" != ok ] && [ "$outcome" != rejected ]; then
			cp "$f" "$OUT/$section/"
			echo "$section: $(basename "$f"): $outcome (status $status): $(tail -1 "$dir/stderr")" >&2
		fi
	done
	record_row "$section" binary "$runs" "${count[ok]}" "${count[rejected]}" "${count[panic]}" "${count[timeout]}" "${count[abort]}" "$slow"
}

fuzz_recordings() {
	if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
		cargo build --release -q -p quarry-record --example craft_recordings || return 1
		cargo build --release -q --bin quarry-server || return 1
	fi
	local server
	server=$(realpath "$SERVER")
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/quarry-fuzz-rec.XXXXXX")
	mkdir -p "$dir/cases" "$dir/sandbox" "$dir/cwd" "$OUT/recordings"
	"$server" --config config --maps maps --fast --seed "$SEED" --record "$dir/base.qdemo" \
		+set g_gametype tdm +set bot_minPlayers 4 +set timelimit 0.2 +set fraglimit 0 +map q_dm1 >/dev/null 2>&1 || {
		echo "recordings: could not record the base match" >&2
		return 1
	}
	"$TARGET/release/examples/craft_recordings" "$dir/base.qdemo" "$dir/cases" --cases "$(binary_cases)" --seed "$SEED" --sandbox "$dir/sandbox" || return 1
	hostile_cases recordings "$dir" "$dir"/cases/*.qdemo -- \
		"$server" --config "$dir/cwd/config" --maps "$dir/cwd/maps" replay @CASE@
	rm -rf "$dir"
}

fuzz_cards() {
	if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
		cargo build --release -q --bin quarry-server || return 1
	fi
	local server
	server=$(realpath "$SERVER")
	local root
	root=$(pwd)
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/quarry-fuzz-cards.XXXXXX")
	mkdir -p "$dir/cases" "$dir/sandbox" "$dir/cwd" "$dir/config" "$OUT/cards"
	cp config/server.cfg config/*.toml "$dir/config/"
	python3 scripts/craft_cards.py config/cards/ladder.toml "$dir/cases" --cases "$(binary_cases)" --seed "$SEED" --sandbox "$dir/sandbox" || return 1
	hostile_cases cards "$dir" "$dir"/cases/*.toml -- \
		"$server" --config "$dir/config" --maps "$root/maps" --botfiles "$root/botfiles" \
		--seed "$SEED" card @CASE@ --match 0.0 --as Wren
	rm -rf "$dir"
}

run_section() {
	if declare -F "fuzz_$1" >/dev/null; then
		"fuzz_$1"
	else
		echo "$1: no campaign yet (add a fuzz_$1 function to scripts/fuzz.sh)" >&2
	fi
}

# Everything runs from main, called on the last line: bash has then read the
# whole file, so editing the script during a long campaign cannot break it.
main() {
	case "$SECTION" in
	all)
		run_section maps
		run_section packets
		run_section recordings
		run_section cards
		;;
	*) run_section "$SECTION" ;;
	esac

	bad=0
	printf '\n%-8s %-11s %8s %8s %9s %6s %13s %13s %6s\n' section runner cases ok rejected panic timeout/hang abort/killed slow
	for row in "${ROWS[@]}"; do
		# shellcheck disable=SC2086
		set -- $row
		printf '%-8s %-11s %8s %8s %9s %6s %13s %13s %6s\n' "$@"
		bad=$((bad + $6 + $7 + $8))
	done
	if [ -n "${FUZZ_TSV:-}" ]; then
		: >"$FUZZ_TSV"
		for row in "${ROWS[@]}"; do
			# shellcheck disable=SC2086
			set -- $row
			local command="scripts/fuzz.sh $1 $N"
			printf 'fuzz/%s_%s_cases\t%s\tcases\t%s\n' "$1" "$2" "$3" "$command" >>"$FUZZ_TSV"
			printf 'fuzz/%s_%s_rejected\t%s\tcases\t%s\n' "$1" "$2" "$5" "$command" >>"$FUZZ_TSV"
			printf 'fuzz/%s_%s_panic_hang_abort\t%s\tcases\t%s\n' "$1" "$2" "$(($6 + $7 + $8))" "$command" >>"$FUZZ_TSV"
		done
	fi
	if [ "$bad" -gt 0 ]; then
		echo "failing inputs are in $OUT" >&2
		exit 1
	fi
}

main "$@"
exit $?
