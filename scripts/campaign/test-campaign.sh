#!/usr/bin/env bash
# The campaign test run by test.sh: one sweep run three ways must write the same bytes.
#
#   scripts/campaign/test-campaign.sh MAC_SIM_BINARY
#
# 1. in one go: mac-sim sweep ... -o one-go
# 2. as 4 shards under GNU parallel (sweep-parallel.sh), merged (with independent and
#    with common random numbers)
# 3. as a 4-task Slurm job array with the merge as a dependent job (submit-slurm.sh),
#    on a single-node Slurm cluster this script starts itself (munge and Slurm state in
#    one temporary folder, daemons stopped at the end whatever happens)
#
# Also: a sweep killed with SIGKILL in the middle of storing results and resumed
# writes the same bytes, and the database passes SQLite's integrity check.
#
# Needs GNU parallel, Slurm (slurmctld, slurmd, slurm-client), munge and sqlite3:
# test.sh installs them as Debian packages when run as root.
set -euo pipefail
MAC_SIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export MAC_SIM
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
chmod 711 "$work"
slurm_pids=()
cleanup() {
    for f in "$work"/slurm/*.pid "$work"/munge/munged.pid; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
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
SWEEP=(-n 1,2,4,8,16 -l 0.5,saturated -r 3 -d 100ms -s 11)

same_files() {
    local a=$1 b=$2
    diff -r "$a" "$b" >/dev/null || { diff -rq "$a" "$b" >&2; die "$3: results differ from the sweep in one go"; }
    echo "ok: $3 = one go ($(ls "$a" | wc -l) files, byte for byte)"
}

echo "sweep in one go"
"$MAC_SIM" sweep "${SWEEP[@]}" -o "$work/one-go" --quiet >/dev/null

echo "killed while storing, then resumed"
# Longer runs, one thread: the kill lands while runs are still being stored.
KILLED=(-n 1,2,4,8,16 -l 0.5,saturated -r 3 -d 3s -s 5)
"$MAC_SIM" sweep "${KILLED[@]}" -o "$work/killed-one-go" --quiet >/dev/null
"$MAC_SIM" sweep "${KILLED[@]}" -j 1 --db "$work/killed.db" -o "$work/killed" --quiet >/dev/null &
pid=$!
for _ in $(seq 1 1000); do
    n=$(sqlite3 "$work/killed.db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 3 ] && break
    sleep 0.01
done
kill -9 "$pid" 2>/dev/null || die "the sweep finished before it could be killed"
wait "$pid" 2>/dev/null || true
[ ! -e "$work/killed" ] || die "a killed sweep left its output folder"
[ "$(sqlite3 "$work/killed.db" 'PRAGMA integrity_check')" = ok ] || die "integrity check failed after SIGKILL"
kept=$(sqlite3 "$work/killed.db" "SELECT count(*) FROM runs")
[ "$kept" -lt 30 ] || die "all 30 runs were stored before the kill: the test did not interrupt anything"
"$MAC_SIM" sweep "${KILLED[@]}" --db "$work/killed.db" -o "$work/killed" --quiet >/dev/null
same_files "$work/killed-one-go" "$work/killed" "killed by SIGKILL after $kept of 30 runs, resumed"

echo "4 shards under GNU parallel"
command -v parallel >/dev/null 2>&1 || die "GNU parallel not found (Debian package parallel)"
JOBS=2 "$here/sweep-parallel.sh" 4 "$work/parallel-shards" "$work/parallel" "${SWEEP[@]}" >/dev/null
same_files "$work/one-go" "$work/parallel" "4 shards under GNU parallel, merged"
# The same with common random numbers (every point shares replication r's seed).
"$MAC_SIM" sweep "${SWEEP[@]}" --common-random-numbers -o "$work/crn-one-go" --quiet >/dev/null
JOBS=2 "$here/sweep-parallel.sh" 4 "$work/crn-shards" "$work/crn-parallel" "${SWEEP[@]}" --common-random-numbers >/dev/null
same_files "$work/crn-one-go" "$work/crn-parallel" "4 shards under GNU parallel with common random numbers, merged"

echo "4 shards as a Slurm job array, on a single-node cluster started here"
for tool in slurmctld slurmd sbatch squeue scontrol munged mungekey; do
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
: >"$work/slurm/plugstack.conf"
cat >"$work/slurm/slurm.conf" <<CONF
ClusterName=campaign-test
SlurmctldHost=$host(127.0.0.1)
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
ids=$("$here/submit-slurm.sh" 4 "$work/slurm-shards" "$work/slurm-out" "${SWEEP[@]}")
merge=${ids##* }
deadline=$((SECONDS + 300))
while squeue -h -j "$merge" 2>/dev/null | grep -q .; do
    [ $SECONDS -lt $deadline ] || die "the Slurm jobs did not finish within 300 s"
    sleep 0.5
done
state=$(scontrol -o show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z]*' || echo "JobState=unknown")
[ "$state" = JobState=COMPLETED ] || { cat "$work"/slurm-shards/*.log >&2 || true; die "merge job ended $state"; }
same_files "$work/one-go" "$work/slurm-out" "4-task Slurm job array, merged by a dependent job"
echo "campaign tests passed"
