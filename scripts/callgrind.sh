#!/usr/bin/env bash
# Instruction counts (callgrind Ir) per iteration for the criterion benches
# `sim_tick` (quarry-sim) and `tick_loop` (quarry-server): a figure that does
# not swing with the machine's load, for showing that a change is within
# noise of before where wall time moves by 30 %.
#
#   scripts/callgrind.sh [CHECKOUT_DIR]     # default: the repo holding this script
#   CARGO_TARGET_DIR=/elsewhere/target scripts/callgrind.sh /some/worktree
#
# Prints one TSV line per bench function to stdout: `name<TAB>Ir_per_iteration`.
# Details (the window measured, per-block figures) go to stderr.
#
# Method. It builds the two bench executables with `cargo bench --no-run`
# (their paths come from `--message-format=json`), lists each one's bench
# functions (`EXE --bench --list`) and runs each function alone under
#   valgrind --tool=callgrind --separate-threads=yes \
#            --dump-after=criterion::bencher::Bencher<M>::iter (and iter_custom,
#            iter_batched, iter_batched_ref) \
#            EXE --bench --profile-time 1 --exact NAME
# In criterion 0.8's profile mode (src/routine.rs, Routine::profile) the
# routine first runs a warm-up that calls the bench closure with b.iters =
# 1, 2, 4, 8, ... until 1 s of (wall) time has passed, then one more batch
# of an iteration count derived from timing if the profile time is not used
# up yet. With --profile-time 1 that last batch never happens (the warm-up
# always passes 1 s), so every call of the Bencher method is a block of a
# known size: block i runs 2^(i-1) iterations. Each call ends in a callgrind
# dump, so each block's Ir is known exactly; the main thread's dump only
# (`-01`) counts, so the bench's helper threads (game-log writer, recording
# encoder) and the other functions' set-up are left out. Block 1 (which
# also holds the set-up and the first-call costs) is dropped.
#
# The figure is the Ir of blocks 2..K over their 2^K - 2 iterations. These
# benches are stateful (a match goes on playing), so the cost of an iteration
# depends on which iterations are measured: the window must be the same in
# the runs being compared. How many blocks the warm-up reaches depends on the
# wall clock, so K is not taken from it but chosen by instructions: the
# largest K whose blocks 2..K total at most CG_BUDGET Ir (default 50e6), and
# the run must have gone past that (it says so when it did not: lower
# CG_BUDGET then). The same code thus always gets the same window; a change
# of Ir near the budget's edge could move it by a block, so the window is
# printed to stderr, and can be pinned for a comparison:
#   CG_ITERS=126                              # every bench: 126 iterations
#   CG_ITERS='sim_tick/64_players=62,510'     # one bench, and a default
# (a window is 2^K - 2 iterations: 2, 6, 14, 30, 62, 126, 254, 510, ...).
#
# Other settings: CG_FILTER, an extended regex of bench names to run (default
# all); CG_KEEP, a directory to keep the callgrind files and logs in (they
# are deleted otherwise). Only the Bencher methods named above are seen: a
# bench whose method callgrind cannot see (inlined, or another one) is
# reported as an error. A bench using iter_custom is counted whole, including
# what its closure does untimed (tick_loop's record_per_tick_16_bots also
# runs Server::tick in each iteration).
#
# Needs valgrind (callgrind) and python3. Takes about a minute once built on
# an idle 2-core machine, two under load (each function runs alone, and its
# executable's set-up for every function runs each time).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checkout=$(cd "${1:-$script_dir/..}" && pwd)
budget=${CG_BUDGET:-50000000}
pins=${CG_ITERS:-}
filter=${CG_FILTER:-}

for tool in cargo valgrind python3; do
    command -v "$tool" >/dev/null || { echo "callgrind.sh: $tool not found" >&2; exit 1; }
done

if [ -n "${CG_KEEP:-}" ]; then
    mkdir -p "$CG_KEEP"
    work=$(cd "$CG_KEEP" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi

# 1. Build, and find the executables in cargo's own report.
echo "# building the benches in $checkout" >&2
(cd "$checkout" && cargo bench --no-run --message-format=json \
    -p quarry-sim --bench sim_tick -p quarry-server --bench tick_loop) >"$work/build.json"
python3 - "$work/build.json" >"$work/exes.tsv" <<'EOF'
import json, os, sys
found = {}
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        found[m["target"]["name"]] = (m["executable"], os.path.dirname(m["manifest_path"]))
for bench in ("sim_tick", "tick_loop"):
    if bench not in found:
        sys.exit(f"callgrind.sh: cargo reported no executable for bench {bench}")
    print(bench, *found[bench], sep="\t")
EOF

# The Bencher methods that run a block of iterations (not the wrappers that
# call iter_batched). Given exactly: callgrind's patterns with a '*' did not
# trigger dumps in valgrind 3.19.
dump_opts=()
for method in iter iter_custom iter_batched iter_batched_ref; do
    dump_opts+=("--dump-after=criterion::bencher::Bencher<M>::$method")
done

failed=0
n=0
while IFS=$'\t' read -r -u 3 bench exe dir; do
    # 2. The bench functions, with their exact names.
    mapfile -t names < <(cd "$dir" && "$exe" --bench --list </dev/null 2>/dev/null | sed -n 's/: benchmark$//p')
    if [ "${#names[@]}" -eq 0 ]; then
        echo "callgrind.sh: $exe --bench --list named no benchmark" >&2
        exit 1
    fi
    for name in "${names[@]}"; do
        if [ -n "$filter" ] && ! grep -Eq -- "$filter" <<<"$name"; then
            continue
        fi
        n=$((n + 1))
        out="$work/$n"
        rm -rf "$out"
        mkdir -p "$out"
        printf '%s\n' "$name" >"$out/name"
        started=$SECONDS
        # 3. One function alone under callgrind, in the crate's directory as
        # cargo bench would run it.
        if ! (cd "$dir" && valgrind --tool=callgrind --separate-threads=yes \
                --callgrind-out-file="$out/callgrind.out" "${dump_opts[@]}" \
                "$exe" --bench --profile-time 1 --exact "$name") </dev/null >"$out/log" 2>&1; then
            echo "callgrind.sh: $name failed under valgrind; see the log (CG_KEEP keeps it):" >&2
            tail -n 20 "$out/log" >&2
            failed=1
            continue
        fi
        # 4. Per-block Ir from the main thread's dumps, and the figure.
        if ! python3 - "$out" "$name" "$budget" "$pins" "$((SECONDS - started))" <<'EOF'
import glob, os, re, sys

out, name, budget, pins, secs = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5]

def fail(msg):
    print(f"callgrind.sh: {name}: {msg}", file=sys.stderr)
    sys.exit(1)

# Dumps are callgrind.out.<n>-<thread>; thread 01 is the main thread, which
# runs criterion and the bench closure.
blocks = []
for path in glob.glob(os.path.join(out, "callgrind.out.*-01")):
    part = int(re.search(r"\.(\d+)-01$", path).group(1))
    ir, trigger = None, ""
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger:"):
                trigger = line
            elif line.startswith(("summary:", "totals:")):
                ir = int(line.split()[1])
                break
    if "--dump-after=" in trigger and ir is not None:
        blocks.append((part, ir))
blocks = [ir for _, ir in sorted(blocks)]
if len(blocks) < 3:
    fail(f"{len(blocks)} callgrind dumps at the end of a Bencher method; its method is "
         "not one of iter, iter_custom, iter_batched, iter_batched_ref as a function of its own")
# Block i (1-based) ran 2^(i-1) iterations; check that the blocks double.
ratio = sum(blocks[2:]) / sum(blocks[1:-1])
if not 1.6 < ratio < 2.5:
    fail(f"block costs do not double (ratio {ratio:.2f}): not criterion 0.8's warm-up?")

pin = None
for item in filter(None, pins.split(",")):
    key, _, value = item.rpartition("=")
    if key in ("", name):
        pin = int(value)
        if key == name:
            break

k_max = len(blocks)  # blocks 1..k_max ran
cum = [0]
for ir in blocks[1:]:
    cum.append(cum[-1] + ir)  # cum[j]: blocks 2..j+1
if pin is not None:
    k = (pin + 2).bit_length() - 1
    if pin < 2 or 2 ** k - 2 != pin:
        fail(f"CG_ITERS {pin} is not 2^K - 2 (2, 6, 14, 30, 62, 126, ...)")
    if k > k_max:
        fail(f"CG_ITERS {pin} needs {k} blocks, the warm-up ran {k_max}")
    how = "pinned by CG_ITERS"
else:
    k = 1
    while k < k_max and cum[k] <= budget:
        k += 1
    # cum[k] is blocks 2..k+1; the window is blocks 2..k, total cum[k-1].
    if k == k_max and cum[k - 1] <= budget:
        print(f"# WARNING {name}: the warm-up ended ({k_max} blocks, {cum[-1] / 1e6:.1f} M Ir) "
              f"before the budget of {budget / 1e6:.1f} M Ir: the window depends on timing; "
              "lower CG_BUDGET", file=sys.stderr)
    if k < 2:
        fail(f"block 2 alone is over the budget of {budget / 1e6:.1f} M Ir: raise CG_BUDGET")
    how = f"budget {budget / 1e6:.0f} M Ir"
iters = 2 ** k - 2
total = cum[k - 1]
per_block = " ".join(f"{blocks[i - 1] / 2 ** (i - 1):.0f}" for i in range(2, k_max + 1))
print(f"# {name}: {iters} iterations (blocks 2..{k} of {k_max}, {total / 1e6:.1f} M Ir, {how}); "
      f"{secs} s; Ir/iteration by block 2..{k_max}: {per_block}", file=sys.stderr)
print(f"{name}\t{total / iters:.1f}")
EOF
        then
            failed=1
        fi
    done
done 3<"$work/exes.tsv"

if [ "$n" -eq 0 ]; then
    echo "callgrind.sh: no bench function matched CG_FILTER=$filter" >&2
    exit 1
fi
exit "$failed"
