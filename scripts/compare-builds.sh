#!/usr/bin/env bash
# Compare two builds of mac-sim by the instructions they execute (valgrind's
# callgrind): a count that is the same on every run of the same binary and inputs,
# whatever else the machine is doing, so that a few per cent can be told apart on a
# busy or virtual machine where wall-clock timings scatter by tens of per cent.
#
# Usage: scripts/compare-builds.sh OLD_BINARY NEW_BINARY
# Prints, per workload, both counts and new/old. Needs valgrind (Debian package).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 || { echo "error: valgrind not found (Debian package valgrind)" >&2; exit 1; }
old=$1
new=$2
workloads=(
    "run -n 2 -d 60s"
    "run -n 32 -d 60s"
    "run -n 1000 -d 2s"
    "run -n 1000 -l 0.5 -d 5s"
    "storm --scenario pause -n 10000 -d 60s"
    "storm --scenario contention"
)
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
printf '%-42s %15s %15s %8s\n' workload old new new/old
for w in "${workloads[@]}"; do
    # shellcheck disable=SC2086
    a=$(instructions "$old" $w)
    # shellcheck disable=SC2086
    b=$(instructions "$new" $w)
    printf '%-42s %15s %15s %8s\n' "$w" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')"
done
