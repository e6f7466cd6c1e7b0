#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Usage: sweep-resume-test.sh SWEEP DAG OUT
#
# photonic-rails-sweep stopped by SIGINT once its first point finished (2 points, one at a
# time, each about 2 s: test/data/two-phases.json for 15000 iterations): it ends with exit
# status 130 and a one-line message, writes no sweep.csv, and leaves the point it stopped
# without an exit-status. The same command again skips the finished point, runs the other,
# and writes the CSV with both points finished. A second sweep started in the folder while
# the first runs is refused (the folder's lock names the first's process).
set -u
sweep=$1
dag=$2
out=$3

fail() {
    echo "FAIL: $*" >&2
    for f in "$out".stderr "$out".again; do [ -f "$f" ] && sed "s|^|  $f: |" "$f" >&2; done
    exit 1
}

rm -rf "$out" "$out".stderr "$out".again "$out".second
run() {
    "$sweep" --vary=fabric=eps,ocs --workers=1 --plot=0 --out="$out" -- --dag="$dag" \
        --gpusPerServer=1 --iterations=15000 "$@"
}
# A shell without job control starts background commands with SIGINT ignored (which the
# sweep respects): env gives it the default action back.
env --default-signal=INT "$sweep" --vary=fabric=eps,ocs --workers=1 --plot=0 --out="$out" -- \
    --dag="$dag" --gpusPerServer=1 --iterations=15000 >/dev/null 2>"$out".stderr &
pid=$!
tries=0
until [ -f "$out/runs/0000/exit-status" ]; do
    kill -0 "$pid" 2>/dev/null || fail "the sweep ended before its first point did"
    tries=$((tries + 1))
    [ "$tries" -le 600 ] || fail "the first point did not end in 60 s"
    sleep 0.1
done
sleep 0.3 # the second point starts
# One program at a time in a sweep's folder: a second one would run the same points.
if run >/dev/null 2>"$out".second; then
    fail "a second sweep ran in the folder of a running one"
fi
grep -q "^photonic-rails-sweep: error: $out is in use by another sweep (process $pid): wait for it to end, or give another --out$" \
    "$out".second || fail "the second sweep's error: $(cat "$out".second)"
kill -s INT "$pid"
wait "$pid"
status=$?
[ "$status" -eq 130 ] || fail "exit status $status after SIGINT, expected 130"
last=$(tail -n 1 "$out".stderr)
case "$last" in
"photonic-rails-sweep: stopped by SIGINT: 1 running simulation stopped; the same command resumes the sweep") ;;
*) fail "last line of stderr is '$last'" ;;
esac
[ ! -e "$out/sweep.csv" ] || fail "a stopped sweep wrote sweep.csv"
[ "$(cat "$out/runs/0000/exit-status")" = 0 ] || fail "point 0000 did not finish"
[ ! -e "$out/runs/0001/exit-status" ] || fail "the stopped point 0001 has an exit-status"

run >/dev/null 2>"$out".again || fail "the resumed sweep failed"
grep -q "^\[sweep\] 1 of 2 points already finished in $out: skipped$" "$out".again ||
    fail "the resumed sweep did not skip the finished point"
grep -q "^\[sweep\] running 1 of 2 points here" "$out".again || fail "it ran more than one point"
[ "$(grep -c ',finished,' "$out/sweep.csv")" -eq 2 ] || fail "sweep.csv lacks two finished rows"
echo "PASS: SIGINT stopped the sweep (status 130, no CSV); the same command resumed it"
