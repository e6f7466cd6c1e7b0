#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Usage: sweep-on-slurm.sh SWEEP DATA
#
# photonic-rails-sweep (SWEEP) on a real Slurm: starts a one-node cluster on localhost
# (one-node-cluster.sh: slurmctld, slurmd and munged with a generated config and key in a
# temporary folder), submits a 2x2 sweep as a job array and waits for it, submits it again
# without waiting and collects it with --merge, and checks that both merged CSVs equal the
# same sweep run here with --workers=1, byte for byte but for the wall-time columns (wall_s,
# events_per_s, peak_rss_mb). Then a point made to fail is listed with its log and, mended,
# re-submitted alone. Exits 77 (CTest's skip) with the reason when Slurm cannot start here.
set -euo pipefail
sweep=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)

# A short path: Slurm's unix sockets in it must fit in 107 bytes.
tmp=$(mktemp -d /tmp/prs.XXXXXX)
cluster=$tmp/c
mkdir "$cluster"
cleanup() {
    "$here/one-node-cluster.sh" stop "$cluster" || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

if ! "$here/one-node-cluster.sh" start "$cluster"; then
    status=$?
    [ "$status" -eq 77 ] && echo "SKIP: Slurm cannot start here (reason above)"
    exit "$status"
fi
# shellcheck disable=SC1091
source "$cluster/env"

# two-phases.json on one-GPU servers: 2 fabrics x 2 NIC rates, each run well under a second.
plan=(--vary=fabric=eps,ocs --vary=nicRate=100,200)
job=(-- "--dag=$data/two-phases.json" --gpusPerServer=1 --iterations=2)
slurm=(--slurm --poll=0.5 "--partition=$ONE_NODE_CLUSTER_PARTITION" --time=5 --mem=200M)

# The CSV without the columns that hold wall times (by their header names).
steady() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) drop[i] = ($i ~ /^(wall_s|events_per_s|peak_rss_mb)$/) }
             { line = ""; for (i = 1; i <= NF; ++i) if (!drop[i]) line = line (line == "" ? "" : ",") $i; print line }' "$1"
}

"$sweep" "${plan[@]}" --workers=1 --plot=0 --out="$tmp/here" "${job[@]}" >/dev/null 2>"$tmp/here.err" ||
    fail "the sweep here failed: $(cat "$tmp/here.err")"
"$sweep" "${plan[@]}" "${slurm[@]}" --plot=0 --out="$tmp/slurm" "${job[@]}" >/dev/null 2>"$tmp/slurm.err" ||
    fail "the sweep on Slurm failed: $(cat "$tmp/slurm.err")"
grep -q "submitted Slurm job [0-9]*: 4 tasks" "$tmp/slurm.err" || fail "no job array of 4 tasks:
$(cat "$tmp/slurm.err")"
grep -q "^#SBATCH --array=0-3$" "$tmp/slurm/sweep.sbatch" || fail "sweep.sbatch lacks --array=0-3"
[ "$(wc -l <"$tmp/here/sweep.csv")" -eq 5 ] || fail "expected 4 rows in $tmp/here/sweep.csv"
[ "$(steady "$tmp/here/sweep.csv")" = "$(steady "$tmp/slurm/sweep.csv")" ] ||
    fail "the merged CSVs differ:
$(diff <(steady "$tmp/here/sweep.csv") <(steady "$tmp/slurm/sweep.csv"))"

# Submitted without waiting, collected by --merge once the job has left the queue.
"$sweep" "${plan[@]}" "${slurm[@]}" --wait=0 --plot=0 --out="$tmp/later" "${job[@]}" \
    >/dev/null 2>"$tmp/later.err" || fail "--wait=0 failed: $(cat "$tmp/later.err")"
id=$(sed -n 's/.*submitted Slurm job \([0-9]*\).*/\1/p' "$tmp/later.err")
for _ in $(seq 300); do
    [ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && break
    sleep 0.2
done
"$sweep" --merge --plot=0 --out="$tmp/later" >/dev/null 2>"$tmp/merge.err" ||
    fail "--merge failed: $(cat "$tmp/merge.err")"
[ "$(steady "$tmp/here/sweep.csv")" = "$(steady "$tmp/later/sweep.csv")" ] ||
    fail "--merge's CSV differs from the sweep's here"

# A failed point (point 0001's exit status made 2, as a task that failed would leave it) is
# listed with its log by --merge, and the same command re-submits it alone: an array of
# that task only, whose run mends the CSV.
broken=("${plan[@]}" "${slurm[@]}" --plot=0 --out="$tmp/broken")
"$sweep" "${broken[@]}" "${job[@]}" >/dev/null 2>&1
mv "$tmp/broken/runs/0001/exit-status" "$tmp/exit-status.kept"
echo 2 >"$tmp/broken/runs/0001/exit-status"
if "$sweep" --merge --out="$tmp/broken" >/dev/null 2>"$tmp/broken.err"; then
    fail "--merge with a failed point exited 0"
fi
grep -q "failed: point 0001 (fabric=eps nicRate=200): exit status 2.*its messages: $tmp/broken/runs/0001/run.log" \
    "$tmp/broken.err" || fail "the failed point is not listed with its log: $(cat "$tmp/broken.err")"
"$sweep" "${broken[@]}" "${job[@]}" >/dev/null 2>"$tmp/again.err" ||
    fail "the re-submission failed: $(cat "$tmp/again.err")"
grep -q "submitted Slurm job [0-9]*: 1 task" "$tmp/again.err" || fail "not re-submitted alone:
$(cat "$tmp/again.err")"
grep -q "^#SBATCH --array=1$" "$tmp/broken/sweep.sbatch" || fail "the array is not task 1 alone"
[ "$(steady "$tmp/here/sweep.csv")" = "$(steady "$tmp/broken/sweep.csv")" ] ||
    fail "the re-submitted sweep's CSV differs from the sweep's here"
echo "PASS: 2x2 sweep on Slurm (waited for, and merged later) = --workers=1 but wall times; a failed point re-submitted alone"
