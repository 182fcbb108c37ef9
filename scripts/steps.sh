# shellcheck shell=bash
# The steps of a test run, each timed on the wall clock, and a table of them at the end.
# Sourced by test.sh and firmware/run-tests.sh.
#
#   step "what runs now"   ends the step before (if any) and starts this one;
#   steps_begin             at the top of a script: the outermost script owns the table and
#                           prints it when it exits (passed or not); a script it calls
#                           (the firmware's) adds its steps to the same table.
#   if heavy_step "what"; then ...; fi
#                           a step of the full tier only: in the quick tier
#                           (TEST_TIER=quick, exported by `test.sh --quick`) it is not run
#                           and the table lists it as left out, so nothing is skipped
#                           silently.
#   steps_background LOG CMD...
#                           starts CMD in the background (output to LOG), for work that
#                           waits on the network or the disk rather than the cores; its
#                           process ID in REPLY, for `wait`. The exit trap stops it if
#                           the script ends first (failed), so nothing runs on unseen.
#
# The table goes to standard output and to $STEPS_TABLE when that is set.

steps_begin() {
    if [ -z "${STEPS_LOG:-}" ]; then
        STEPS_LOG=$(mktemp "${TMPDIR:-/tmp}/test-steps.XXXXXX")
        STEPS_OWNER=1
        STEPS_T0=$EPOCHREALTIME
        export STEPS_LOG STEPS_T0
    fi
    STEPS_CURRENT=""
    trap 'steps_end $?' EXIT
}

# Records the running step as ended now with status $1 (ok or failed).
steps_close() {
    [ -n "${STEPS_CURRENT:-}" ] || return 0
    printf '%s\t%s\t%s\n' "$STEPS_START" "$EPOCHREALTIME" "$1 $STEPS_CURRENT" >>"$STEPS_LOG"
    STEPS_CURRENT=""
}

step() {
    steps_close ok
    STEPS_CURRENT=$*
    STEPS_START=$EPOCHREALTIME
    printf '\n==> %s\n' "$*"
}

heavy_step() {
    if [ "${TEST_TIER:-full}" = quick ]; then
        steps_close ok
        printf '%s\t%s\t%s\n' "$EPOCHREALTIME" "$EPOCHREALTIME" "left-out $*" >>"$STEPS_LOG"
        printf '\n==> left out (full tier only): %s\n' "$*"
        return 1
    fi
    step "$@"
}

steps_background() {
    local log=$1
    shift
    # Its own process group (setsid), so that the trap stops its children too.
    setsid "$@" >"$log" 2>&1 &
    REPLY=$!
    STEPS_BACKGROUND="${STEPS_BACKGROUND:-} $REPLY"
}

# The exit trap: closes the last step (failed if the script failed) and, in the
# outermost script, prints the table.
steps_end() {
    local status=$1 pid
    for pid in ${STEPS_BACKGROUND:-}; do
        kill -- "-$pid" 2>/dev/null || true
    done
    if [ "$status" -eq 0 ]; then steps_close ok; else steps_close failed; fi
    [ -n "${STEPS_OWNER:-}" ] || return 0
    local table
    table=$(awk -F'\t' -v t0="$STEPS_T0" -v now="$EPOCHREALTIME" '
        function clock(s) { return sprintf("%d:%02d", int(s / 60), int(s) % 60) }
        {
            split($3, w, " "); state = w[1]; name = substr($3, length(state) + 2)
            if (length(name) > 72) name = substr(name, 1, 69) "..."
            if (state == "left-out") { printf "| %7s | %-8s | %s |\n", "", "left out", name; next }
            printf "| %5.1f s | %-8s | %s |\n", $2 - $1, state, name
        }
        END { printf "| %5.1f s | %-8s | %s |\n", now - t0, "", "in all (" clock(now - t0) ")" }
    ' "$STEPS_LOG")
    printf '\nwall time of each step:\n| time | result | step |\n|---:|---|---|\n%s\n' "$table"
    if [ -n "${STEPS_TABLE:-}" ]; then
        printf '| time | result | step |\n|---:|---|---|\n%s\n' "$table" >"$STEPS_TABLE"
    fi
    rm -f "$STEPS_LOG"
}
