#!/usr/bin/env bash
# Compare mac-sim with ns-3's CSMA model by the speed goal: frames simulated per
# second of wall-clock time, saturated stations on one 10 Mb/s bus.
#
# Usage: scripts/compare-ns3.sh [--quick] [--mac-sim PATH]
#   --quick          only the 10 s points
#   --mac-sim PATH   the mac-sim binary (also env MAC_SIM; default
#                    target/release/mac-sim of this checkout). Time a release
#                    build: a debug one is tens of times slower.
# Env REPEAT=K (default 5): a run that takes under a second is repeated K times in
# all and its shortest wall time kept, so that a short run's figure is not one
# scheduling accident (the frame count is the same every time: seed 1).
# Env NS3_TIMEOUT=SECONDS caps each ns-3 run (default: none). A run that hits it
# shows "> SECONDS" as its wall time and no frame count; the slowest point,
# 512 stations x 64 bytes x 100 s, takes minutes.
#
# For each point of stations 2 8 32 128 512 x frame bytes 64 1518 x simulated
# 10 s and 100 s, runs scripts/ns3/csma-saturated.cc (built once into
# target/ns3/) and `mac-sim run`, both with seed 1, one after the other so both
# meet the same machine load, and times each whole process from the shell:
# start-up is part of what a user waits for, so it is part of the figure. The
# two count different models (ns-3's CSMA has no collisions and its own
# backoff; see the .cc file), so their frame counts differ; what is compared is
# each one's frames per wall second. Prints a markdown table, with the date and
# /proc/loadavg at start and end: on a machine that is busy with other work
# the wall times spread.
#
# Needs ns-3 (Debian package libns3-dev, ns-3.37), g++ and pkg-config; run as
# root it installs what is missing, otherwise it says what is missing.
set -euo pipefail

usage() { echo "usage: $0 [--quick] [--mac-sim PATH]" >&2; exit 2; }

quick=0
mac_sim=${MAC_SIM:-}
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    --mac-sim) [ $# -ge 2 ] || usage; mac_sim=$2; shift ;;
    --mac-sim=*) mac_sim=${1#--mac-sim=} ;;
    *) usage ;;
    esac
    shift
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mac_sim=${mac_sim:-$root/target/release/mac-sim}
if ! [ -f "$mac_sim" ] || ! [ -x "$mac_sim" ]; then
    echo "error: mac-sim binary not found: '$mac_sim' (build it: cargo build --release -p mac-sim; or give --mac-sim PATH / MAC_SIM)" >&2
    exit 1
fi
timeout_s=${NS3_TIMEOUT:-0}
case $timeout_s in
'' | *[!0-9]*) echo "error: NS3_TIMEOUT must be whole seconds, got '$timeout_s'" >&2; exit 2 ;;
esac
repeat=${REPEAT:-5}
case $repeat in
'' | *[!0-9]* | 0) echo "error: REPEAT must be a whole number of runs, at least 1, got '$repeat'" >&2; exit 2 ;;
esac

# The ns-3 libraries and a compiler. Debian's libns3-dev names its libraries in
# pkg-config files (ns3-csma, ns3-network, ns3-core, ...), which is how they are
# found here.
ns3_pkgs=(ns3-csma ns3-network ns3-core)
missing() {
    local m=()
    command -v g++ >/dev/null 2>&1 || m+=(g++)
    if command -v pkg-config >/dev/null 2>&1; then
        pkg-config --exists "${ns3_pkgs[@]}" || m+=(libns3-dev)
    else
        m+=(pkg-config libns3-dev)
    fi
    echo "${m[*]}"
}
need=$(missing)
if [ -n "$need" ]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "error: missing: $need (Debian: apt-get install --no-install-recommends libns3-dev g++ pkg-config)" >&2
        exit 1
    fi
    echo "installing Debian packages: libns3-dev g++ pkg-config" >&2
    # An install from a package list that is stale or absent (a fresh machine)
    # fails; update the list then and try once more.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libns3-dev g++ pkg-config >/dev/null 2>&1 \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libns3-dev g++ pkg-config >/dev/null; } \
        || { echo "error: apt-get install libns3-dev g++ pkg-config failed" >&2; exit 1; }
    need=$(missing)
    [ -z "$need" ] || { echo "error: still missing after install: $need" >&2; exit 1; }
fi
ns3_version=$(pkg-config --modversion ns3-core)

# Build once into target/ns3/, again only when the source is newer. Include
# flags come from pkg-config; the libraries are linked by name, not with
# `pkg-config --libs`: Debian's 3.37 files list the development links of GSL
# and SQLite (libgsl.so, libsqlite3.so), which libns3-dev does not install, and
# the ns-3 libraries already name those as their own dependencies.
src=$root/scripts/ns3/csma-saturated.cc
cache=$root/target/ns3
ns3_bin=$cache/csma-saturated
if ! [ -x "$ns3_bin" ] || [ "$src" -nt "$ns3_bin" ]; then
    mkdir -p "$cache"
    libdir=$(pkg-config --variable=libdir ns3-core)
    # shellcheck disable=SC2046
    g++ -O2 -std=c++17 $(pkg-config --cflags "${ns3_pkgs[@]}") -o "$ns3_bin.tmp" "$src" \
        -L"$libdir" -Wl,-rpath,"$libdir" -lns3-csma -lns3-network -lns3-core
    mv "$ns3_bin.tmp" "$ns3_bin"
fi

# Timestamps from bash itself (EPOCHREALTIME, bash 5): forking `date` around a run
# would add a few milliseconds to every figure, as much as a short run itself.
# stamp VAR: VAR = now, in seconds (printf -v assigns without a subshell).
stamp() { printf -v "$1" '%s' "${EPOCHREALTIME/,/.}"; }
scratch=$(mktemp)
trap 'rm -f "$scratch"' EXIT
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }
per_wall() { awk -v f="$1" -v w="$2" 'BEGIN { printf "%.0f", f / w }'; }

# run_ns3 N BYTES SECONDS: sets frames and wall (frames empty on a timeout).
run_ns3() {
    local t0 t1 out rc=0
    # The output goes to a file, not through a command substitution (a subshell
    # more in what is timed).
    stamp t0
    if [ "$timeout_s" -gt 0 ]; then
        timeout "$timeout_s" "$ns3_bin" --stations="$1" --frame="$2" --duration="$3" --seed=1 >"$scratch" || rc=$?
    else
        "$ns3_bin" --stations="$1" --frame="$2" --duration="$3" --seed=1 >"$scratch" || rc=$?
    fi
    stamp t1
    out=$(cat "$scratch")
    if [ "$rc" -eq 124 ]; then
        frames="" wall="> $timeout_s"
        return 0
    fi
    [ "$rc" -eq 0 ] || { echo "error: ns-3 run failed (exit $rc): -n $1 -f $2 -d $3" >&2; exit 1; }
    frames=$(printf '%s\n' "$out" | sed -n 's/^frames=\([0-9]*\) .*/\1/p')
    [ -n "$frames" ] || { echo "error: no frames= line from ns-3: $out" >&2; exit 1; }
    wall=$(elapsed "$t0" "$t1")
}

# run_mac_sim N BYTES SECONDS: sets frames and wall; the count is the CSV
# column delivered_frames, found by its header name.
run_mac_sim() {
    local t0 t1 out
    stamp t0
    "$mac_sim" run -n "$1" -f "$2" -d "${3}s" --seed 1 --csv -q >"$scratch"
    stamp t1
    out=$(cat "$scratch")
    frames=$(printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "delivered_frames") c = i }
        NR == 2 && c { print $c }')
    [ -n "$frames" ] || { echo "error: no delivered_frames in mac-sim's CSV" >&2; exit 1; }
    wall=$(elapsed "$t0" "$t1")
}

# best RUNNER N BYTES SECONDS: RUNNER once, and if it took under a second,
# REPEAT times in all, keeping the shortest wall time.
best() {
    local fastest i
    "$1" "$2" "$3" "$4"
    fastest=$wall
    case $wall in '>'*) return 0 ;; esac
    if awk -v w="$wall" 'BEGIN { exit !(w < 1) }'; then
        for ((i = 1; i < repeat; i++)); do
            "$1" "$2" "$3" "$4"
            fastest=$(awk -v a="$fastest" -v b="$wall" 'BEGIN { printf "%.4f", (b < a ? b : a) }')
        done
    fi
    wall=$fastest
}

durations=(10 100)
[ "$quick" -eq 1 ] && durations=(10)

start='' finish=''
stamp start
echo "# mac-sim and ns-3 CSMA: frames simulated per wall second"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "- machine: $(nproc) CPUs, $(uname -sm)"
echo "- ns-3: $ns3_version (pkg-config ns3-core), program scripts/ns3/csma-saturated.cc built with g++ -O2"
echo "- mac-sim: $mac_sim ($("$mac_sim" --version))"
echo "- load average at start: $(cat /proc/loadavg)"
echo "- saturated stations, 10 Mb/s, 2500 m (12.5 us end to end), seed 1; wall = whole process, start-up included; runs under 1 s: the shortest of $repeat"
[ "$timeout_s" -gt 0 ] && echo "- each ns-3 run capped at $timeout_s s (NS3_TIMEOUT)"
echo
echo "| stations | bytes | sim s | ns-3 frames | ns-3 wall s | ns-3 frames/wall s | mac-sim frames | mac-sim wall s | mac-sim frames/wall s | ratio |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for d in "${durations[@]}"; do
    for n in 2 8 32 128 512; do
        for b in 64 1518; do
            best run_ns3 "$n" "$b" "$d"
            ns_frames=$frames ns_wall=$wall ns_rate="-" ratio="-"
            [ -n "$ns_frames" ] && ns_rate=$(per_wall "$ns_frames" "$ns_wall")
            best run_mac_sim "$n" "$b" "$d"
            ms_rate=$(per_wall "$frames" "$wall")
            [ -n "$ns_frames" ] && ratio=$(awk -v mf="$frames" -v mw="$wall" -v nf="$ns_frames" -v nw="$ns_wall" \
                'BEGIN { if (nf > 0 && mw > 0) printf "%.1f", (mf / mw) / (nf / nw); else printf "-" }')
            echo "| $n | $b | $d | ${ns_frames:--} | $ns_wall | $ns_rate | $frames | $wall | $ms_rate | $ratio |"
        done
    done
done
echo
echo "- load average at end: $(cat /proc/loadavg)"
stamp finish
echo "- whole comparison: $(elapsed "$start" "$finish") s wall"
echo "- ratio: mac-sim's frames per wall second over ns-3's"
