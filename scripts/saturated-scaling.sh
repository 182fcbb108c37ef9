#!/usr/bin/env bash
# How the cost of a saturated start grows with the number of stations: every station
# transmits at t = 0 under the default (IEEE 802.3) deference, and the run covers a
# fixed short simulated time, so the work is the start-up burst of collisions. Prints
# the wall time per N and the exponent b of a least-squares fit time ~ N^b over the
# series (b = 1 is linear, about 1.1 is N log N over this range, 2 is quadratic).
#
# Usage: scripts/saturated-scaling.sh [MAC_SIM_BINARY] [N ...]
#   defaults: target/release/mac-sim, N = 1000 2000 4000 ... 128000
#   env DURATION (simulated time per run, default 200us), ARGS (extra run arguments)
set -euo pipefail
bin=${1:-target/release/mac-sim}
shift || true
[ -x "$bin" ] || { echo "error: $bin is not an executable mac-sim (cargo build --release -p mac-sim)" >&2; exit 1; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 2000 4000 8000 16000 32000 64000 128000)
duration=${DURATION:-200us}
printf '# %s, load average %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%8s %10s %12s\n' N wall_s events
points=()
for n in "${sizes[@]}"; do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    events=$("$bin" run -n "$n" -d "$duration" --json ${ARGS:-} | sed -n 's/.*"events": *\([0-9]*\).*/\1/p' | head -1)
    end=$(date +%s.%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    printf '%8s %10s %12s\n' "$n" "$wall" "$events"
    points+=("$n $wall")
done
printf '%s\n' "${points[@]}" | awk '
    { x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y; n++ }
    END { b = (n * sxy - sx * sy) / (n * sxx - sx * sx); printf "fitted exponent b = %.2f (time ~ N^b over %d points)\n", b, n }'
