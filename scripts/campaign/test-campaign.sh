#!/usr/bin/env bash
# The campaign test run by test.sh: one sweep run three ways must write the same bytes,
# and the drivers fail loudly, before submitting anything, when they cannot work.
#
#   scripts/campaign/test-campaign.sh MAC_SIM_BINARY
#
# 1. in one go: mac-sim sweep ... -o one-go
# 2. as 4 shards under GNU parallel (sweep-parallel.sh), merged (with independent and
#    with common random numbers)
# 3. as a 4-task Slurm job array with the merge as a dependent job (submit-slurm.sh),
#    on a single-node Slurm cluster this script starts itself (munge and Slurm state in
#    one temporary folder, free ports, daemons stopped at the end whatever happens)
#
# Also: a sweep killed with SIGKILL in the middle of storing results and resumed
# writes the same bytes, and the database passes SQLite's integrity check; no shard
# keeps a -wal or -shm file beside it; the drivers, run from a copy of the tree with
# neither MAC_SIM nor mac-sim on PATH, run the tree's build, and without one (or with a
# missing binary named by --mac-sim or MAC_SIM) exit 1 with one error line and leave
# nothing in the Slurm queue; a failing task gets the merge job cancelled (never
# pending forever) and submit-slurm.sh --wait exits 1 naming the task; a failed
# submission exits 1 and leaves nothing queued.
#
# Needs GNU parallel, Slurm (slurmctld, slurmd, slurm-client), munge and sqlite3:
# test.sh installs them as Debian packages when run as root.
# shellcheck disable=SC2015 # "A && B || die": die when either fails
set -euo pipefail
MAC_SIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export MAC_SIM
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
chmod 711 "$work"
slurm_pids=()
cleanup() {
    for f in "$work"/slurm/*.pid "$work"/munge/munged.pid; do
        if [ -f "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; fi
    done
    for p in "${slurm_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    sleep 0.2
    rm -rf "$work"
}
trap cleanup EXIT

die() {
    echo "error: $*" >&2
    exit 1
}

# A sweep small enough for CI, with enough runs to spread over 4 shards.
# shellcheck disable=SC2054 # commas separate a flag's values
SWEEP=(-n 1,2,4,8,16 -l 0.5,saturated -r 3 -d 100ms -s 11)

same_files() {
    local a=$1 b=$2
    diff -r "$a" "$b" >/dev/null || { diff -rq "$a" "$b" >&2; die "$3: results differ from the sweep in one go"; }
    echo "ok: $3 = one go ($(find "$a" -type f | wc -l) files, byte for byte)"
}

# Every shard is a single file: no -wal or -shm beside it once the campaign is done.
no_journal_files() {
    local left
    left=$(find "$1" -name '*-wal' -o -name '*-shm')
    [ -z "$left" ] || die "$2 left SQLite's journal files beside the shards: $(echo "$left" | tr '\n' ' ')"
    echo "ok: $2 left no -wal or -shm file"
}

# run_and_capture NAME COMMAND...: runs it, keeps its status in $status and its output
# in $work/NAME.out and $work/NAME.err.
run_and_capture() {
    local name=$1
    shift
    status=0
    "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
}

# expect_one_error_line NAME WHAT PATTERN: the command captured as NAME exited 1 with
# one line on stderr, an error matching PATTERN.
expect_one_error_line() {
    local name=$1 what=$2 pattern=$3
    [ "$status" -eq 1 ] || { cat "$work/$name.err" >&2; die "$what: exit $status, not 1"; }
    [ "$(wc -l <"$work/$name.err")" -eq 1 ] && grep -qE "^error: .*$pattern" "$work/$name.err" \
        || { cat "$work/$name.err" >&2; die "$what: not one error line matching '$pattern'"; }
    echo "ok: $what: $(cat "$work/$name.err")"
}

# A copy of the scripts in a tree of their own whose target/debug/mac-sim is the binary
# under test, and one with no build; PATH without mac-sim, environment without MAC_SIM.
mkdir -p "$work/tree/scripts" "$work/tree/target/debug" "$work/bare-tree/scripts"
cp -r "$here" "$work/tree/scripts/campaign"
cp -r "$here" "$work/bare-tree/scripts/campaign"
ln -s "$MAC_SIM" "$work/tree/target/debug/mac-sim"
bare_path=""
IFS=: read -r -a path_dirs <<<"$PATH"
for d in "${path_dirs[@]}"; do
    if [ -n "$d" ] && [ ! -e "$d/mac-sim" ]; then bare_path=${bare_path:+$bare_path:}$d; fi
done
bare() { env -u MAC_SIM -u CARGO_TARGET_DIR PATH="$bare_path" "$@"; }

echo "sweep in one go"
"$MAC_SIM" sweep "${SWEEP[@]}" -o "$work/one-go" --quiet >/dev/null

# kill_while_storing DB RUNS AT WHAT -- COMMAND...: start COMMAND (a sweep storing into
# DB), kill it with SIGKILL once AT of its RUNS runs are stored, and check that the
# file is whole and lacks runs. Sets `kept`, the runs stored.
kill_while_storing() {
    local db=$1 runs=$2 at=$3 what=$4 pid n
    shift 5
    "$@" >/dev/null &
    pid=$!
    for _ in $(seq 1 1000); do
        # Read-only, and only once the sweep has made the file: a plain sqlite3 would
        # create it first, and the sweep would then find a file it did not make.
        n=0
        if [ -s "$db" ]; then
            n=$(sqlite3 -readonly "$db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)
        fi
        [ "${n:-0}" -ge "$at" ] && break
        sleep 0.01
    done
    kill -9 "$pid" 2>/dev/null || die "the $what finished before it could be killed"
    wait "$pid" 2>/dev/null || true
    [ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ] || die "integrity check failed after SIGKILL ($what)"
    kept=$(sqlite3 "$db" "SELECT count(*) FROM runs")
    [ "$kept" -lt "$runs" ] || die "all $runs runs of the $what were stored before the kill: the test did not interrupt anything"
}

echo "killed while storing, then resumed"
# Longer runs, one thread: the kill lands while runs are still being stored. Each run
# takes about 40 ms in the debug build (the 30 about 1.2 s) and one poll about 15 ms, so
# the poll sees the third run stored long before the last; with 3 s runs (2 ms each) the
# whole sweep could finish between two polls.
# shellcheck disable=SC2054
KILLED=(-n 1,2,4,8,16 -l 0.5,saturated -r 3 -d 100s -s 5)
"$MAC_SIM" sweep "${KILLED[@]}" -o "$work/killed-one-go" --quiet >/dev/null
kill_while_storing "$work/killed.db" 30 3 sweep -- \
    "$MAC_SIM" sweep "${KILLED[@]}" -j 1 --db "$work/killed.db" -o "$work/killed" --quiet
[ ! -e "$work/killed" ] || die "a killed sweep left its output folder"
"$MAC_SIM" sweep "${KILLED[@]}" --db "$work/killed.db" -o "$work/killed" --quiet >/dev/null
same_files "$work/killed-one-go" "$work/killed" "killed by SIGKILL after $kept of 30 runs, resumed"

echo "a radio sweep killed while storing, then resumed"
# 12 runs of about 90 ms each in the debug build, on one thread.
# shellcheck disable=SC2054
RADIO=(radio --sweep stations=4,8,12,16,20,24 --sweep rule=beb,dcf --duration 60s --warmup 0s --csv)
"$MAC_SIM" "${RADIO[@]}" -q -o "$work/radio-one-go.csv"
kill_while_storing "$work/radio-killed.db" 12 2 "radio sweep" -- \
    "$MAC_SIM" "${RADIO[@]}" -j 1 -q --db "$work/radio-killed.db" -o "$work/radio-killed.csv"
[ ! -e "$work/radio-killed.csv" ] || die "a killed radio sweep left its output"
"$MAC_SIM" "${RADIO[@]}" -q --db "$work/radio-killed.db" -o "$work/radio-killed.csv"
cmp -s "$work/radio-one-go.csv" "$work/radio-killed.csv" \
    || die "a radio sweep killed by SIGKILL after $kept of 12 runs and resumed differs from one in one go"
echo "ok: radio sweep killed by SIGKILL after $kept of 12 runs, resumed: the same CSV"

echo "a storm sweep killed while storing, then resumed"
# 16 runs of about 0.35 s each in the debug build, two at a time.
# shellcheck disable=SC2054
STORM=(storm --scenario metastable --sweep utilisation=0.4,0.6,0.8,0.93 --seeds 2 -n 400)
"$MAC_SIM" "${STORM[@]}" -q --out "$work/storm-one-go" >/dev/null
kill_while_storing "$work/storm-killed.db" 16 2 "storm sweep" -- \
    "$MAC_SIM" "${STORM[@]}" -q --db "$work/storm-killed.db" --out "$work/storm-killed"
[ ! -e "$work/storm-killed" ] || die "a killed storm sweep left its output folder"
"$MAC_SIM" "${STORM[@]}" -q --db "$work/storm-killed.db" --out "$work/storm-killed" >/dev/null
same_files "$work/storm-one-go" "$work/storm-killed" "a storm sweep killed by SIGKILL after $kept of 16 runs, resumed"

echo "4 shards under GNU parallel"
command -v parallel >/dev/null 2>&1 || die "GNU parallel not found (Debian package parallel)"
JOBS=2 "$here/sweep-parallel.sh" 4 "$work/parallel-shards" "$work/parallel" "${SWEEP[@]}" >/dev/null
same_files "$work/one-go" "$work/parallel" "4 shards under GNU parallel, merged"
no_journal_files "$work/parallel-shards" "sweep-parallel.sh"
# The same with common random numbers (every point shares replication r's seed).
"$MAC_SIM" sweep "${SWEEP[@]}" --common-random-numbers -o "$work/crn-one-go" --quiet >/dev/null
JOBS=2 "$here/sweep-parallel.sh" 4 "$work/crn-shards" "$work/crn-parallel" "${SWEEP[@]}" --common-random-numbers >/dev/null
same_files "$work/crn-one-go" "$work/crn-parallel" "4 shards under GNU parallel with common random numbers, merged"
no_journal_files "$work/crn-shards" "sweep-parallel.sh with common random numbers"

# A radio sweep the same way: 3 shards, merged, its report the one-go CSV.
JOBS=2 "$here/sweep-parallel.sh" 3 "$work/radio-shards" "$work/radio-parallel.csv" "${RADIO[@]}" >/dev/null
cmp -s "$work/radio-one-go.csv" "$work/radio-parallel.csv" || die "a radio sweep in 3 shards under GNU parallel differs from one in one go"
no_journal_files "$work/radio-shards" "sweep-parallel.sh radio"
echo "ok: a radio sweep in 3 shards under GNU parallel, merged: the same CSV"

# A storm sweep: 3 shards, merged, its --out files those of the sweep in one go.
JOBS=2 "$here/sweep-parallel.sh" 3 "$work/storm-shards" "$work/storm-parallel" "${STORM[@]}" >/dev/null
same_files "$work/storm-one-go" "$work/storm-parallel" "a storm sweep in 3 shards under GNU parallel, merged"
no_journal_files "$work/storm-shards" "sweep-parallel.sh storm"

echo "which mac-sim sweep-parallel.sh runs"
run_and_capture tree-parallel bare env JOBS=2 "$work/tree/scripts/campaign/sweep-parallel.sh" 4 \
    "$work/tree-shards" "$work/tree-parallel" "${SWEEP[@]}"
[ "$status" -eq 0 ] || { cat "$work/tree-parallel.err" >&2; die "sweep-parallel.sh without MAC_SIM or mac-sim on PATH: exit $status"; }
grep -q "running $work/tree/target/debug/mac-sim" "$work/tree-parallel.err" \
    || { cat "$work/tree-parallel.err" >&2; die "sweep-parallel.sh did not say it runs the tree's build"; }
same_files "$work/one-go" "$work/tree-parallel" "sweep-parallel.sh with neither MAC_SIM nor mac-sim on PATH, the tree's build"
run_and_capture bare-parallel bare "$work/bare-tree/scripts/campaign/sweep-parallel.sh" 4 \
    "$work/bare-shards" "$work/bare-parallel" "${SWEEP[@]}"
expect_one_error_line bare-parallel "sweep-parallel.sh with no mac-sim anywhere" "mac-sim binary not found"
[ ! -e "$work/bare-shards" ] || die "sweep-parallel.sh with no mac-sim created its shard folder"
run_and_capture missing-parallel env MAC_SIM="$work/nowhere/mac-sim" "$here/sweep-parallel.sh" 4 \
    "$work/missing-shards" "$work/missing-parallel" "${SWEEP[@]}"
expect_one_error_line missing-parallel "sweep-parallel.sh with MAC_SIM missing" "$work/nowhere/mac-sim"
run_and_capture missing-parallel-opt "$here/sweep-parallel.sh" --mac-sim "$work/nowhere/mac-sim" 4 \
    "$work/missing-shards" "$work/missing-parallel" "${SWEEP[@]}"
expect_one_error_line missing-parallel-opt "sweep-parallel.sh --mac-sim missing" "$work/nowhere/mac-sim"
[ ! -e "$work/missing-shards" ] || die "sweep-parallel.sh with a missing binary created its shard folder"

echo "4 shards as a Slurm job array, on a single-node cluster started here"
for tool in slurmctld slurmd sbatch scancel squeue scontrol munged mungekey; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found (Debian packages slurmctld slurmd slurm-client munge)"
done
mkdir -p "$work/munge" "$work/slurm/spool" "$work/slurm/state"
chmod 711 "$work/munge"
mungekey --create --keyfile="$work/munge/munge.key" >/dev/null 2>&1 || die "mungekey failed"
chmod 600 "$work/munge/munge.key"
munged --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/munged.seed" 2>/dev/null || die "munged did not start (see its log)"
host=$(hostname -s)
node=$(slurmd -C | head -n 1)
# Two free ports: another test cluster on this machine does not clash with this one.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("", 0))
print(*(x.getsockname()[1] for x in s))' 2>/dev/null || echo "6817 6818")
: >"$work/slurm/plugstack.conf"
cat >"$work/slurm/slurm.conf" <<CONF
ClusterName=campaign-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
PlugStackConfig=$work/slurm/plugstack.conf
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
CONF
export SLURM_CONF=$work/slurm/slurm.conf
slurmctld -c >/dev/null 2>&1 &
slurm_pids+=($!)
slurmd -N "$host" >/dev/null 2>&1 &
slurm_pids+=($!)
for _ in $(seq 1 100); do
    sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
    sleep 0.1
done
sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' \
    || { tail -5 "$work/slurm/slurmctld.log" "$work/slurm/slurmd.log" >&2; die "the Slurm node did not come up"; }
# Nothing of ours left queued: waits up to $2 s (default 15) for the queue to empty.
queue_empty() {
    local q
    for _ in $(seq 1 $((${2:-15} * 10))); do
        q=$(squeue -h -o %i) || die "squeue failed"
        [ -n "$q" ] || return 0
        sleep 0.1
    done
    squeue >&2
    die "$1: jobs left in the Slurm queue"
}
# job_state JOB: JobState=... of a job, while Slurm keeps its record.
job_state() {
    scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || echo "JobState=unknown"
}
# job_ids NAME: reads "array ID merge ID" from the captured output NAME.
job_ids() {
    local word word2
    read -r word array word2 merge <"$work/$1.out" && [ "$word $word2" = "array merge" ] \
        || die "submit-slurm.sh printed '$(cat "$work/$1.out")', not 'array ID merge ID'"
}

echo "submit-slurm.sh fails before submitting when it has no mac-sim"
run_and_capture bare-slurm bare "$work/bare-tree/scripts/campaign/submit-slurm.sh" 4 \
    "$work/bare-slurm-shards" "$work/bare-slurm-out" "${SWEEP[@]}"
queue_empty "submit-slurm.sh with no mac-sim anywhere" 2
expect_one_error_line bare-slurm "submit-slurm.sh with no mac-sim anywhere" "mac-sim binary not found"
run_and_capture missing-slurm env MAC_SIM="$work/nowhere/mac-sim" "$here/submit-slurm.sh" 4 \
    "$work/missing-slurm-shards" "$work/missing-slurm-out" "${SWEEP[@]}"
queue_empty "submit-slurm.sh with MAC_SIM missing" 2
expect_one_error_line missing-slurm "submit-slurm.sh with MAC_SIM missing" "$work/nowhere/mac-sim"
run_and_capture missing-slurm-opt "$here/submit-slurm.sh" --mac-sim "$work/nowhere/mac-sim" 4 \
    "$work/missing-slurm-shards" "$work/missing-slurm-out" "${SWEEP[@]}"
queue_empty "submit-slurm.sh --mac-sim missing" 2
expect_one_error_line missing-slurm-opt "submit-slurm.sh --mac-sim missing" "$work/nowhere/mac-sim"

echo "4 shards as a Slurm job array (the tree's build, neither MAC_SIM nor mac-sim on PATH, relative folders)"
cd "$work"
run_and_capture slurm timeout 300 env -u MAC_SIM -u CARGO_TARGET_DIR PATH="$bare_path" \
    "$work/tree/scripts/campaign/submit-slurm.sh" --wait 4 slurm-shards slurm-out "${SWEEP[@]}"
cd - >/dev/null
[ "$status" -eq 0 ] || { cat "$work/slurm.err" "$work"/slurm-shards/*.log >&2 || true; die "submit-slurm.sh --wait: exit $status"; }
job_ids slurm
state=$(job_state "$merge")
[ "$state" = JobState=COMPLETED ] || { cat "$work"/slurm-shards/*.log >&2 || true; die "merge job ended $state"; }
same_files "$work/one-go" "$work/slurm-out" "4-task Slurm job array, merged by a dependent job"
no_journal_files "$work/slurm-shards" "submit-slurm.sh"
queue_empty "a campaign that succeeded"

echo "a radio sweep as a 3-task Slurm job array"
run_and_capture radio-slurm timeout 300 "$here/submit-slurm.sh" --wait 3 \
    "$work/radio-slurm-shards" "$work/radio-slurm.csv" "${RADIO[@]}"
[ "$status" -eq 0 ] || { cat "$work/radio-slurm.err" "$work"/radio-slurm-shards/*.log >&2 || true; die "submit-slurm.sh --wait radio: exit $status"; }
cmp -s "$work/radio-one-go.csv" "$work/radio-slurm.csv" || die "a radio sweep as a Slurm job array differs from one in one go"
queue_empty "a radio campaign that succeeded"
echo "ok: a radio sweep as a 3-task Slurm job array, merged: the same CSV"

echo "a failing task: Slurm cancels the merge, submit-slurm.sh --wait says which task"
# mac-sim, except that shard 2 of 4 fails.
mkdir -p "$work/flaky"
cat >"$work/flaky/mac-sim" <<SH
#!/bin/sh
case " \$* " in *" --shard 2/4 "*) echo "error: shard 2 fails on purpose" >&2; exit 1 ;; esac
exec "$MAC_SIM" "\$@"
SH
chmod +x "$work/flaky/mac-sim"
run_and_capture failing env MAC_SIM="$work/flaky/mac-sim" "$here/submit-slurm.sh" 4 \
    "$work/failing-shards" "$work/failing-out" "${SWEEP[@]}"
[ "$status" -eq 0 ] || { cat "$work/failing.err" >&2; die "submit-slurm.sh: exit $status"; }
job_ids failing
deadline=$((SECONDS + 60))
while [ "$(job_state "$merge")" = JobState=PENDING ]; do
    [ $SECONDS -lt $deadline ] \
        || die "task 2 failed and the merge job is still PENDING after 60 s ($(scontrol -o show job "$merge" | grep -o 'Reason=[A-Za-z]*'))"
    sleep 0.2
done
state=$(job_state "$merge")
case $state in
JobState=CANCELLED | JobState=FAILED) echo "ok: task 2 failed, the merge job ended ${state#JobState=}" ;;
*) die "task 2 failed and the merge job ended $state" ;;
esac
queue_empty "a campaign with a failing task" 60
[ ! -e "$work/failing-out" ] || die "a campaign with a failing task wrote results"
run_and_capture failing-wait timeout 120 env MAC_SIM="$work/flaky/mac-sim" "$here/submit-slurm.sh" --wait 4 \
    "$work/failing-shards" "$work/failing-out" "${SWEEP[@]}"
[ "$status" -eq 1 ] || { cat "$work/failing-wait.err" >&2; die "submit-slurm.sh --wait with a failing task: exit $status, not 1"; }
job_ids failing-wait
grep -q "task 2 of job array $array ended FAILED.*shard 2 fails on purpose" "$work/failing-wait.err" \
    || { cat "$work/failing-wait.err" >&2; die "submit-slurm.sh --wait did not name the failed task and its error"; }
grep -q "merge job $merge was cancelled" "$work/failing-wait.err" \
    || { cat "$work/failing-wait.err" >&2; die "submit-slurm.sh --wait did not say the merge job was cancelled"; }
echo "ok: submit-slurm.sh --wait: exit 1, naming task 2 and its error:"
sed 's/^/    /' "$work/failing-wait.err"
queue_empty "submit-slurm.sh --wait with a failing task"

echo "a failed submission exits 1 and leaves nothing queued"
run_and_capture refused env SBATCH_OPTIONS="--partition no-such-partition" "$here/submit-slurm.sh" 4 \
    "$work/refused-shards" "$work/refused-out" "${SWEEP[@]}"
[ "$status" -eq 1 ] && grep -q "could not submit the shards' job array" "$work/refused.err" \
    || { cat "$work/refused.err" >&2; die "submit-slurm.sh with sbatch refusing the array: exit $status"; }
queue_empty "submit-slurm.sh with sbatch refusing the array" 2
echo "ok: sbatch refused the array: exit 1"
# An sbatch that accepts the array but refuses the merge job (a queue limit, a policy).
mkdir -p "$work/fakebin"
cat >"$work/fakebin/sbatch" <<SH
#!/bin/sh
case " \$* " in *" --dependency "*) echo "sbatch: error: Batch job submission failed: refused by the test" >&2; exit 1 ;; esac
exec "$(command -v sbatch)" "\$@"
SH
chmod +x "$work/fakebin/sbatch"
run_and_capture refused-merge env PATH="$work/fakebin:$PATH" "$here/submit-slurm.sh" 4 \
    "$work/refused-shards" "$work/refused-out" "${SWEEP[@]}"
[ "$status" -eq 1 ] && grep -q "could not submit the merge job" "$work/refused-merge.err" \
    || { cat "$work/refused-merge.err" >&2; die "submit-slurm.sh with sbatch refusing the merge job: exit $status"; }
queue_empty "submit-slurm.sh with sbatch refusing the merge job"
echo "ok: sbatch refused the merge job: exit 1, $(grep -o 'the shards.*' "$work/refused-merge.err")"
echo "campaign tests passed in $SECONDS s"
