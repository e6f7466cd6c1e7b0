#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Usage: delay-sweep-signal-test.sh SWEEP DAG OUT SIGNAL
#
# Starts photonic-rails-delay-sweep on a small job whose runs last seconds (DAG with 20000
# iterations), sends SIGNAL (TERM, INT or HUP) to it once it runs its 2 child simulations
# (each a point's command.sh and the simulation it started), and checks that it ends with a
# one-line message and exit status 128 + the signal's number, and that none of its children
# or their simulations is left running.
set -u
sweep=$1
dag=$2
out=$3
signal=$4

fail() {
    echo "FAIL: $*" >&2
    [ -f "$out.stderr" ] && sed 's/^/  stderr: /' "$out.stderr" >&2
    exit 1
}

# The pids of the running children of process $parent (from /proc: procps may not be installed).
children_of() {
    for stat_file in /proc/[0-9]*/stat; do
        stat=$(cat "$stat_file" 2>/dev/null) || continue
        set -- ${stat##*) } # after the command name: state, parent pid, ...
        [ "${2:-}" = "$parent" ] && echo "${stat%% *}"
    done
}

case "$signal" in
HUP) number=1 ;;
INT) number=2 ;;
TERM) number=15 ;;
*) fail "SIGNAL must be HUP, INT or TERM, not '$signal'" ;;
esac
expected_status=$((128 + number))

rm -rf "$out" "$out.stderr"
# A shell without job control starts background commands with SIGINT ignored (which the
# sweep respects): env gives it the default action back.
env --default-signal="$signal" "$sweep" --dag="$dag" --gpusPerServer=1 --nicPorts=1 \
    --nicRate=100 --iterations=20000 --delays=0,1 --workers=2 --plot=0 --out="$out" \
    >/dev/null 2>"$out.stderr" &
sweep_pid=$!

# Wait (at most 20 s) until both children run.
tries=0
parent=$sweep_pid
while [ "$(children_of | wc -l)" -lt 2 ]; do
    kill -0 "$sweep_pid" 2>/dev/null || fail "the sweep ended before starting 2 children"
    tries=$((tries + 1))
    [ "$tries" -le 200 ] || fail "the sweep did not start 2 children in 20 s"
    sleep 0.1
done
children=$(children_of)
# Each child is a point's command.sh (sh), running the simulation in a process of its own:
# wait (at most 20 s) until both run, and stop them too.
for child in $children; do
    parent=$child
    tries=0
    while [ -z "$(children_of)" ]; do
        tries=$((tries + 1))
        [ "$tries" -le 200 ] || fail "child $child did not start its simulation in 20 s"
        sleep 0.1
    done
    children="$children $(children_of)"
done

kill -s "$signal" "$sweep_pid"
wait "$sweep_pid"
status=$?

# Children still there after the sweep ended were left behind: stop them (they are ours).
# A simulation, no child of the sweep's, may take a moment to die of the signal it was sent,
# and an ended process stays a zombie until init reaps it: neither is left running.
running() {
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    set -- ${stat##*) }
    [ "$1" != Z ] && [ "$1" != X ]
}
survivors=""
for child in $children; do
    tries=0
    while running "$child" && [ "$tries" -lt 20 ]; do
        tries=$((tries + 1))
        sleep 0.1
    done
    if running "$child"; then
        survivors="$survivors $child"
        kill -s KILL "$child" 2>/dev/null
    fi
done
[ -z "$survivors" ] || fail "children still running after the sweep ended:$survivors"


[ "$status" -eq "$expected_status" ] || fail "exit status $status, expected $expected_status"
last=$(tail -n 1 "$out.stderr")
case "$last" in
"photonic-rails-delay-sweep: stopped by SIG$signal: 2 running simulations stopped; the same command resumes the sweep") ;;
*) fail "last line of stderr is '$last'" ;;
esac
echo "PASS: SIG$signal stopped the sweep (status $status) and its children$(echo " $children" | tr '\n' ' ')"
