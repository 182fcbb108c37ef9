# shellcheck shell=bash
# Which mac-sim binary a campaign runs; sourced by sweep-parallel.sh and submit-slurm.sh.
#
#   find_mac_sim GIVEN    prints the binary's absolute path on stdout, and says on stderr
#                         which one it is; or prints one error line and returns 1
#
# In order, the first that is set or exists:
#   1. GIVEN (the drivers' --mac-sim PATH option), then the environment's MAC_SIM: a path,
#      or a bare name looked up on PATH; it must exist, or that is an error (no fallback);
#   2. the binary built in this tree: target/release/mac-sim, then target/debug/mac-sim,
#      in $CARGO_TARGET_DIR when it is set, then in the checkout's target/;
#   3. mac-sim on PATH (e.g. installed with cargo install --path mac-sim).
# The binary found must run and print "mac-sim VERSION" for --version.

find_mac_sim() {
    local given=${1:-} from="" bin="" repo candidate version
    if [ -n "$given" ]; then
        bin=$given from="--mac-sim"
    elif [ -n "${MAC_SIM:-}" ]; then
        bin=$MAC_SIM from="MAC_SIM"
    fi
    if [ -n "$bin" ]; then
        case $bin in
        */*)
            if ! [ -f "$bin" ] || ! [ -x "$bin" ]; then
                echo "error: mac-sim binary not found: '$bin' (from $from) is not an executable file; build it (cargo build --release -p mac-sim) or fix the path" >&2
                return 1
            fi
            ;;
        *)
            if ! bin=$(type -P -- "$bin" 2>/dev/null) || [ -z "$bin" ]; then
                echo "error: mac-sim binary not found: '${given:-$MAC_SIM}' (from $from) is not on PATH; give its path" >&2
                return 1
            fi
            ;;
        esac
    else
        repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
        for candidate in ${CARGO_TARGET_DIR:+"$CARGO_TARGET_DIR/release/mac-sim" "$CARGO_TARGET_DIR/debug/mac-sim"} \
            "$repo/target/release/mac-sim" "$repo/target/debug/mac-sim"; do
            if [ -f "$candidate" ] && [ -x "$candidate" ]; then
                bin=$candidate from="this tree's build"
                break
            fi
        done
        if [ -z "$bin" ] && bin=$(type -P mac-sim 2>/dev/null); then
            from="PATH"
        fi
        if [ -z "$bin" ]; then
            echo "error: mac-sim binary not found: none built in this tree ($repo/target/release or debug) nor on PATH; build it (cargo build --release -p mac-sim) or name it with --mac-sim PATH or MAC_SIM=PATH" >&2
            return 1
        fi
    fi
    bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
    version=$("$bin" --version 2>/dev/null | head -n 1) || version=""
    case $version in
    "mac-sim "*) ;;
    *)
        echo "error: '$bin' (from $from) is not a mac-sim binary: '--version' printed '${version:-nothing}'" >&2
        return 1
        ;;
    esac
    echo "campaign: running $bin ($version, from $from)" >&2
    echo "$bin"
}
