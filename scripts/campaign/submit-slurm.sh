#!/usr/bin/env bash
# Run a mac-sim sweep as a Slurm job array of N shards, then merge it.
#
#   scripts/campaign/submit-slurm.sh [--mac-sim PATH] [--wait] N SHARD_DIR OUT_DIR SWEEP_OPTIONS...
#   scripts/campaign/submit-slurm.sh [--mac-sim PATH] [--wait] N SHARD_DIR OUT_FILE radio RADIO_OPTIONS...
#   scripts/campaign/submit-slurm.sh [--mac-sim PATH] [--wait] N SHARD_DIR OUT_DIR storm STORM_OPTIONS...
#
# As sweep-parallel.sh: `radio` first in the options runs a radio sweep, whose report
# goes to OUT_FILE; `storm`, a storm sweep, whose --out files go to OUT_DIR.
#
# Submits the array (sweep-shard.sbatch, tasks 1..N) and the merge
# (merge-results.sbatch) with --dependency=afterok on the array and
# --kill-on-invalid-dep=yes, and prints "array ID merge ID". The merge runs when every
# task succeeded; when a task fails, Slurm cancels it (state CANCELLED, reason
# DependencyNeverSatisfied) instead of leaving it pending forever. Fix the cause and
# run the same command again: every shard's database keeps its finished runs.
#
# The binary: --mac-sim PATH, else MAC_SIM, else the one built in this tree
# (target/release/mac-sim, then target/debug/mac-sim), else mac-sim on PATH. It is
# checked (it runs and says it is mac-sim) before anything is submitted, and its
# absolute path is given to the jobs in MAC_SIM: it must be on a file system every
# node sees, as SHARD_DIR must.
#
# --wait: wait for the jobs to end; exit 0 when the merge completed, 1 when it did not,
# naming each failed task, its state and the last line of its log.
#
# Exit status: 0 when both jobs were submitted (and, with --wait, the merge
# completed); 1 when the binary or Slurm is missing, when submission fails (a shard
# array already submitted is then cancelled: nothing is left in the queue) or when a
# waited-for job failed; 2 for bad arguments. Extra sbatch options (a partition, a time
# limit) go in SBATCH_OPTIONS, e.g. SBATCH_OPTIONS="-p short -t 30".
set -euo pipefail
usage() {
    echo "usage: $0 [--mac-sim PATH] [--wait] N SHARD_DIR OUT_DIR SWEEP_OPTIONS..." >&2
    exit 2
}
given=""
wait=false
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
    --wait)
        wait=true
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
for tool in sbatch scancel scontrol; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found: submit-slurm.sh runs where Slurm's commands are (Debian package slurm-client)" >&2; exit 1; }
done
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=find-mac-sim.sh
. "$here/find-mac-sim.sh"
mac_sim=$(find_mac_sim "$given") || exit 1
case $mac_sim in
*,*) echo "error: the binary's path '$mac_sim' has a comma, which sbatch --export cannot pass: move or link it elsewhere" >&2; exit 1 ;;
esac
# The jobs run in SHARD_DIR (--chdir): make both folders absolute first.
mkdir -p "$shard_dir"
shard_dir=$(cd "$shard_dir" && pwd)
case $out in /*) ;; *) out=$PWD/$out ;; esac

# submit WHAT SBATCH_ARGS...: the job id on stdout, or sbatch's message and ours on
# stderr and status 1.
submit() {
    local what=$1 id
    shift
    # shellcheck disable=SC2086
    if ! id=$(sbatch --parsable ${SBATCH_OPTIONS:-} --export "ALL,MAC_SIM=$mac_sim" --chdir "$shard_dir" "$@"); then
        echo "error: sbatch could not submit the $what" >&2
        return 1
    fi
    id=${id%%;*}
    if ! [[ $id =~ ^[0-9]+$ ]]; then
        echo "error: sbatch printed '$id' for the $what, not a job id" >&2
        return 1
    fi
    echo "$id"
}

array=$(submit "shards' job array" --array "1-$n" "$here/sweep-shard.sbatch" "$shard_dir" "$n" "$@") || exit 1
if ! merge=$(submit "merge job" --dependency "afterok:$array" --kill-on-invalid-dep=yes \
    "$here/merge-results.sbatch" "$shard_dir" "$out" "$@"); then
    if scancel "$array"; then
        echo "error: nothing submitted: the shards' job array $array was cancelled" >&2
    else
        echo "error: the shards' job array $array is still queued: cancel it with scancel $array" >&2
    fi
    exit 1
fi
echo "array $array merge $merge"
$wait || exit 0

# One line per job (per task for the array): JobId, ArrayTaskId, JobState, Reason,
# ExitCode and StdOut, from scontrol while Slurm keeps the records.
jobs_of() {
    scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' \
        | awk -F= '$1 == "JobId" { if (line != "") print line; line = $2 }
                   $1 ~ /^(ArrayTaskId|JobState|Reason|ExitCode|StdOut)$/ { line = line " " $1 "=" $2 }
                   END { if (line != "") print line }'
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
last_line() { [ -r "$1" ] || return 0; grep -v '^[[:space:]]*$' "$1" | tail -n 1 || true; }
running='JobState=(PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED|REQUEUE_HOLD|REQUEUE_FED|RESIZING|SIGNALING|STAGE_OUT|STOPPED)( |$)'
while :; do
    all=$(jobs_of "$array"; jobs_of "$merge")
    [ -n "$all" ] || { echo "error: Slurm has no record of jobs $array and $merge any more: look them up with sacct" >&2; exit 1; }
    m=$(grep "^$merge " <<<"$all" || true)
    # A Slurm that ignores --kill-on-invalid-dep: cancel the merge ourselves.
    if grep -q 'JobState=PENDING.* Reason=DependencyNeverSatisfied' <<<"$m"; then
        scancel "$merge" || true
    fi
    grep -qE "$running" <<<"$all" || break
    sleep 1
done
state=$(field JobState "$m")
if [ "$state" = COMPLETED ]; then
    echo "merge job $merge completed: results in $out" >&2
    exit 0
fi
while read -r line; do
    [ -n "$line" ] || continue
    task=$(field ArrayTaskId "$line")
    s=$(field JobState "$line")
    [ "$s" = COMPLETED ] && continue
    log=$(field StdOut "$line")
    last=$(last_line "$log")
    echo "error: task $task of job array $array ended $s (exit $(field ExitCode "$line")): ${last:-no output} (log $log)" >&2
done < <(grep -v "^$merge " <<<"$all")
if [ "$state" != CANCELLED ] || [ "$(field Reason "$m")" = None ]; then
    log=$(field StdOut "$m")
    last=$(last_line "$log")
    echo "error: merge job $merge ended $state (exit $(field ExitCode "$m")): ${last:-no output} (log $log)" >&2
else
    echo "error: merge job $merge was cancelled ($(field Reason "$m")): no results; fix the cause and run the same command again (finished runs are kept)" >&2
fi
exit 1
