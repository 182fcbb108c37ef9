#!/usr/bin/env bash
# Run a mac-sim sweep as N shards with GNU parallel, on local cores or on other hosts
# by ssh, then merge it and write the results.
#
#   scripts/campaign/sweep-parallel.sh N SHARD_DIR OUT_DIR SWEEP_OPTIONS...
#
# Locally the shards run JOBS at a time (default: one per core). To spread them over
# hosts, set PARALLEL_OPTIONS to GNU parallel's own options, for example
#   PARALLEL_OPTIONS="--sshloginfile hosts.txt --workdir ." ...
# with mac-sim on every host's PATH and SHARD_DIR on a file system they share (or add
# --return/--cleanup to bring each shard's file back). MAC_SIM names the binary.
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 N SHARD_DIR OUT_DIR SWEEP_OPTIONS..." >&2
    exit 2
fi
command -v parallel >/dev/null 2>&1 || { echo "error: GNU parallel not found (Debian package parallel)" >&2; exit 1; }
n=$1
shard_dir=$2
out=$3
shift 3
mac_sim=${MAC_SIM:-mac-sim}
mkdir -p "$shard_dir"
# Each shard is one command: mac-sim sweep OPTIONS --db SHARD_DIR/shard-K.db --shard K/N.
# shellcheck disable=SC2086
seq 1 "$n" | parallel --will-cite --halt now,fail=1 -j "${JOBS:-100%}" ${PARALLEL_OPTIONS:-} \
    "$mac_sim" sweep "$@" --db "$shard_dir/shard-{}.db" --shard "{}/$n" --quiet
rm -f "$shard_dir/merged.db"
"$mac_sim" merge --quiet -o "$shard_dir/merged.db" "$shard_dir"/shard-*.db
"$mac_sim" sweep "$@" --db "$shard_dir/merged.db" -o "$out" --quiet
