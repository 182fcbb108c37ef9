#!/usr/bin/env bash
# Run a mac-sim sweep as a Slurm job array of N shards, then merge it.
#
#   scripts/campaign/submit-slurm.sh N SHARD_DIR OUT_DIR SWEEP_OPTIONS...
#
# Submits the array (sweep-shard.sbatch, tasks 1..N) and the merge
# (merge-results.sbatch) with --dependency=afterok on the array, and prints the two job
# ids. SHARD_DIR must be on a file system every node sees. Extra sbatch options (a
# partition, a time limit) go in SBATCH_OPTIONS, e.g. SBATCH_OPTIONS="-p short -t 30".
# MAC_SIM names the binary for the jobs (default: mac-sim on the nodes' PATH).
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 N SHARD_DIR OUT_DIR SWEEP_OPTIONS..." >&2
    exit 2
fi
n=$1
shard_dir=$2
out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$shard_dir"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --chdir "$shard_dir" --array "1-$n" \
    "$here/sweep-shard.sbatch" "$shard_dir" "$n" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --chdir "$shard_dir" --dependency "afterok:$array" \
    "$here/merge-results.sbatch" "$shard_dir" "$out" "$@")
merge=${merge%%;*}
echo "array $array merge $merge"
