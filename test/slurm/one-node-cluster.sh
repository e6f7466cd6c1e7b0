#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Usage: one-node-cluster.sh start DIR | stop DIR
#
# Starts (or stops) a throw-away one-node Slurm cluster on localhost so that tests can run
# real 'sbatch' job arrays without a site cluster. Everything (munge key and socket, slurm.conf,
# state, spool, logs, pid files) lives in DIR, a fresh folder made by the caller; nothing is
# written to /etc or /var, and the TCP ports are picked at random so a real cluster on the
# machine (6817/6818) is not disturbed. After 'start', 'source DIR/env' points the Slurm
# clients (sbatch, squeue, scontrol, scancel, sinfo) at it. There is no accounting storage, so
# 'sacct' does not work: ask 'squeue -h -j ID' (empty once the job has left the queue) or
# 'scontrol show job ID' (JobState=..., ExitCode=...; finished jobs are kept for a day) instead.
# 'start' exits 77 (the caller's "skip") with one line on stderr when the cluster cannot run.
set -euo pipefail

PARTITION=local
DAEMONS="munged slurmctld slurmd"

# True if pid $2 is a live (not zombie) process named $1. The pid check guards against a
# stale pid reused by another process; the zombie check matters where PID 1 reaps late.
running() {
    [ -n "$2" ] && [ "$(cat "/proc/$2/comm" 2>/dev/null)" = "$1" ] &&
        [ "$(awk '{ print $3 }' "/proc/$2/stat" 2>/dev/null)" != Z ]
}
alive() { running "$1" "$(cat "$dir/$1.pid" 2>/dev/null)"; }

# Stops the daemons started for $dir, found by their pid files: TERM to all, up to 10 s to
# exit, then KILL.
stop_cluster() {
    local name i pids=() left deadline=$((SECONDS + 10))
    if [ -f "$dir/slurm.conf" ] && alive slurmctld; then
        # Running jobs would otherwise leave slurmstepd processes behind.
        SLURM_CONF=$dir/slurm.conf timeout 10 scancel --partition="$PARTITION" >/dev/null 2>&1 || true
    fi
    for name in $DAEMONS; do
        alive "$name" && pids+=("$name:$(cat "$dir/$name.pid")") # NAME:PID
    done
    for i in "${pids[@]}"; do kill -TERM "${i#*:}" 2>/dev/null || true; done
    while :; do
        left=()
        for i in "${pids[@]}"; do running "${i%:*}" "${i#*:}" && left+=("$i"); done
        [ ${#left[@]} -gt 0 ] || return 0
        [ $SECONDS -lt $deadline ] || break
        sleep 0.1
    done
    for i in "${left[@]}"; do kill -KILL "${i#*:}" 2>/dev/null || true; done
}

cannot_start() {
    echo "one-node-cluster: cannot start: $*" >&2
    stop_cluster
    exit 77
}

# A random TCP port on which nothing listens on localhost (the connect is refused).
free_port() {
    local p i
    for i in $(seq 50); do
        p=$((20000 + RANDOM % 40000))
        [ "$p" != "${1:-}" ] || continue
        (: <"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    done
    return 1
}

case $#:${1:-} in
    2:stop) [ -d "$2" ] || exit 0; dir=$(cd "$2" && pwd); stop_cluster; exit 0 ;;
    2:start) [ -d "$2" ] || { echo "$0: $2: not a folder" >&2; exit 2; }; dir=$(cd "$2" && pwd) ;;
    *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac

export PATH=$PATH:/usr/sbin:/sbin # the daemons live in sbin, often not on a user's PATH
for b in munged mungekey slurmctld slurmd sbatch sinfo scancel; do
    command -v "$b" >/dev/null || cannot_start "$b not found (install slurm-wlm and munge)"
done
# slurmd must be root to start job steps (it switches to the job's user); not worth faking.
[ "$(id -u)" -eq 0 ] || cannot_start "slurmd must run as root (running as $(id -un))"
node=$(hostname -s 2>/dev/null || true)
[ -n "$node" ] || cannot_start "'hostname -s' gives no name"
# Unix socket paths are limited to 107 bytes; the longest one is slurmd's step socket
# DIR/spool/NODE_JOBID.STEPID (two 10-digit numbers).
[ $((${#dir} + ${#node} + 28)) -le 107 ] ||
    cannot_start "DIR path too long for unix sockets ($dir)"
ctl_port=$(free_port) || cannot_start "no free TCP port"
slurmd_port=$(free_port "$ctl_port") || cannot_start "no free TCP port"
# Half the RAM: slurmd drains a node whose configured RealMemory exceeds what it finds.
mem_mb=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 2048))
cpus=$(nproc)

mkdir -p "$dir/state" "$dir/spool"
mungekey --create --keyfile="$dir/munge.key" >/dev/null 2>&1 || cannot_start "mungekey failed"
# --force: munged refuses a socket folder without o+x (mktemp -d gives 0700); jobs and
# clients all run as root here, so only root needs the socket.
munged --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" \
    </dev/null >"$dir/munged.out" 2>&1 || cannot_start "munged failed (see $dir/munged.log)"

# NodeAddr/SlurmctldHost pin 127.0.0.1 so a hostname that does not resolve is no problem.
# proctrack/linuxproc, task/none and jobacct_gather/none need neither systemd nor cgroups.
# cons_tres with CR_CPU gives each array task one CPU, so NCPU tasks run at once; memory is
# not a consumable (no DefMemPerCPU needed), but RealMemory lets '--mem=...' be accepted.
# MinJobAge=86400 keeps finished jobs for a day: 'sbatch --wait' on an array takes the worst
# exit code over the task records it still finds, so a failed task purged early (22.05 turns
# MinJobAge=0 into 2 s) would be missed. The cost: 'sbatch --wait' then polls after 2, 8, then
# every 32 s; polling 'squeue -h -j ID' until empty, then 'scontrol show job ID', is faster.
# batch_sched_delay=0 starts the next array tasks about 1 s after others end instead of 3 s.
cat >"$dir/slurm.conf" <<EOF
ClusterName=onenode
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MaxArraySize=100001
MaxJobCount=200000
MinJobAge=86400
SchedulerParameters=batch_sched_delay=0
MailProg=/bin/true
ReturnToService=2
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=$PARTITION Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
: >"$dir/plugstack.conf" # do not pick up /etc/slurm/plugstack.conf
printf 'export SLURM_CONF=%q\nexport ONE_NODE_CLUSTER_PARTITION=%s\n' "$dir/slurm.conf" \
    "$PARTITION" >"$dir/env"
export SLURM_CONF=$dir/slurm.conf

# -c: a cold start, there is no saved state to recover.
slurmctld -c </dev/null >"$dir/slurmctld.out" 2>&1 || cannot_start "slurmctld failed (see $dir/slurmctld.log)"
slurmd -N "$node" </dev/null >"$dir/slurmd.out" 2>&1 || cannot_start "slurmd failed (see $dir/slurmd.log)"

# Bounded wait (30 s) until the node is idle; a daemon that dies ends the wait early (checked
# from the 10th poll on: the pid files appear shortly after the daemons fork).
deadline=$((SECONDS + 30)) polls=0
while [ $SECONDS -lt $deadline ]; do
    state=$(timeout 10 sinfo -h -n "$node" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && exit 0
    polls=$((polls + 1))
    for d in $DAEMONS; do
        [ $polls -lt 10 ] || alive "$d" || cannot_start "$d died (see $dir/$d.log)"
    done
    sleep 0.1
done
cannot_start "node not idle after 30 s (state '${state:-?}', see $dir/slurmd.log)"
