#!/usr/bin/env bash
# Compare two builds of mac-sim by the instructions they execute (valgrind's
# callgrind): a count that is the same on every run of the same binary and inputs,
# whatever else the machine is doing, so that a few per cent can be told apart on a
# busy or virtual machine where wall-clock timings scatter by tens of per cent.
#
# Usage: scripts/compare-builds.sh OLD_BINARY NEW_BINARY
#        scripts/compare-builds.sh --rules BINARY
# Prints, per workload, both counts and new/old. With --rules, one binary: each
# exact-model workload under the default IEEE 802.3 deference against the same
# workload with `--ifg-rule restart` (the earlier rule), so the deference's own
# cost, 802.3/restart. Needs valgrind (Debian package).
set -euo pipefail
usage() { echo "usage: $0 OLD_BINARY NEW_BINARY | $0 --rules BINARY" >&2; exit 2; }
[ $# -eq 2 ] || usage
command -v valgrind >/dev/null 2>&1 || { echo "error: valgrind not found (Debian package valgrind)" >&2; exit 1; }
# A sweep writes its files into a folder of its own, removed at exit.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
workloads=(
    "run -n 2 -d 60s"
    "run -n 32 -d 60s"
    "run -n 1000 -d 2s"
    "run -n 1000 -l 0.5 -d 5s"
    "sweep -n 2,8,32 -r 2 -d 5s -j 1 -q --no-plots -o $scratch/sweep"
    "storm --scenario pause -n 10000 -d 60s"
    "storm --scenario contention"
    "radio -n 20 -d 60s"
    "radio --sweep stations=5,10,20 -d 20s"
)
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
if [ "$1" = --rules ]; then
    bin=$2
    printf '%-42s %15s %15s %8s\n' workload restart 802.3 802.3/restart
    for w in "${workloads[@]}"; do
        case $w in run\ *) ;; *) continue ;; esac
        # shellcheck disable=SC2086
        a=$(instructions "$bin" $w --ifg-rule restart)
        # shellcheck disable=SC2086
        b=$(instructions "$bin" $w)
        printf '%-42s %15s %15s %8s\n' "$w" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')"
    done
    exit 0
fi
old=$1
new=$2
printf '%-42s %15s %15s %8s\n' workload old new new/old
for w in "${workloads[@]}"; do
    # shellcheck disable=SC2086
    a=$(instructions "$old" $w)
    # shellcheck disable=SC2086
    b=$(instructions "$new" $w)
    printf '%-42s %15s %15s %8s\n' "$w" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')"
done
