#!/usr/bin/env bash
# Run a mac-sim sweep as N shards with GNU parallel, on local cores or on other hosts
# by ssh, then merge it and write the results.
#
#   scripts/campaign/sweep-parallel.sh [--mac-sim PATH] N SHARD_DIR OUT_DIR SWEEP_OPTIONS...
#   scripts/campaign/sweep-parallel.sh [--mac-sim PATH] N SHARD_DIR OUT_FILE radio RADIO_OPTIONS...
#   scripts/campaign/sweep-parallel.sh [--mac-sim PATH] N SHARD_DIR OUT_DIR storm STORM_OPTIONS...
#
# SWEEP_OPTIONS are those of `mac-sim sweep` (OUT_DIR gets its results and charts);
# `radio` and the options of `mac-sim radio --sweep ...` run a radio sweep instead
# (OUT_FILE gets its report: text, or --csv or --json as the options say), `storm` and
# those of `mac-sim storm --sweep ...` a storm sweep (OUT_DIR gets its --out files).
#
# The binary: --mac-sim PATH, else MAC_SIM, else the one built in this tree
# (target/release/mac-sim, then target/debug/mac-sim), else mac-sim on PATH; it is
# checked (it runs and says it is mac-sim) before any shard starts, and an error names
# what was looked for (find-mac-sim.sh).
#
# Locally the shards run JOBS at a time (default: one per core). To spread them over
# hosts, set PARALLEL_OPTIONS to GNU parallel's own options, for example
#   PARALLEL_OPTIONS="--sshloginfile hosts.txt --workdir ." ...
# with the binary at the same path on every host and SHARD_DIR on a file system they
# share (or add --return/--cleanup to bring each shard's file back). The first shard
# that fails stops the others (exit status: the shard's, non-zero); run the same command
# again to resume: each shard's database keeps its finished runs.
set -euo pipefail
usage() {
    echo "usage: $0 [--mac-sim PATH] N SHARD_DIR OUT_DIR SWEEP_OPTIONS..." >&2
    exit 2
}
given=""
while [ $# -gt 0 ]; do
    case $1 in
    --mac-sim)
        [ $# -ge 2 ] || usage
        given=$2
        shift 2
        ;;
    --mac-sim=*)
        given=${1#*=}
        shift
        ;;
    -h | --help)
        sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
        exit 0
        ;;
    --)
        shift
        break
        ;;
    -*)
        echo "error: unknown option '$1'" >&2
        usage
        ;;
    *) break ;;
    esac
done
[ $# -ge 3 ] || usage
n=$1
shard_dir=$2
out=$3
shift 3
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "error: N is the number of shards, a positive whole number, not '$n'" >&2; exit 2; }
command -v parallel >/dev/null 2>&1 || { echo "error: GNU parallel not found (Debian package parallel)" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=find-mac-sim.sh
. "$here/find-mac-sim.sh"
mac_sim=$(find_mac_sim "$given") || exit 1
# The command: sweep (the default), radio or storm, as the first of the options; the
# results go to -o, a storm's files to --out.
cmd=sweep
case ${1:-} in sweep | radio | storm) cmd=$1; shift ;; esac
to=-o
[ "$cmd" != storm ] || to=--out
mkdir -p "$shard_dir"
# Each shard is one command: mac-sim sweep OPTIONS --db SHARD_DIR/shard-K.db --shard K/N.
# shellcheck disable=SC2086
seq 1 "$n" | parallel --will-cite --halt now,fail=1 -j "${JOBS:-100%}" ${PARALLEL_OPTIONS:-} \
    "$mac_sim" "$cmd" "$@" --db "$shard_dir/shard-{}.db" --shard "{}/$n" --quiet
rm -f "$shard_dir/merged.db"
"$mac_sim" merge --quiet -o "$shard_dir/merged.db" "$shard_dir"/shard-*.db
# The merge reads each shard read-only, and SQLite leaves an empty -wal and a -shm
# beside a shard in WAL mode that it could not tidy: remove them, only when the -wal
# is empty (one with data holds writes the shard needs, and stays).
for db in "$shard_dir"/shard-*.db; do
    [ -s "$db-wal" ] || rm -f "$db-wal" "$db-shm"
done
"$mac_sim" "$cmd" "$@" --db "$shard_dir/merged.db" "$to" "$out" --quiet
