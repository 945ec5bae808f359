#!/bin/bash
# scripts/slurm-single-node.sh [start|stop|status]
#
# A throw-away Slurm cluster of one node (this machine) for `make test-slurm`: munge for
# authentication, slurmctld as the controller and slurmd as the only compute node, in the
# "debug" partition with every CPU of the machine. Needs root and Debian/Ubuntu packages
# slurm-wlm and munge (installed with apt-get when missing). Works without systemd: the
# daemons are started directly and stopped by the PIDs they wrote.
#
# It writes /etc/slurm/slurm.conf (and a munge key when none exists): do not run it on a
# machine that belongs to a real cluster.
set -euo pipefail

pidfiles=(/run/slurm/slurmd.pid /run/slurm/slurmctld.pid /run/munge/munged.pid)

case "${1:-start}" in
stop)
	for f in "${pidfiles[@]}"; do
		if [ -s "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; sleep 1; fi
	done
	exit 0 ;;
status)
	sinfo
	exit 0 ;;
start) ;;
*)
	echo "usage: $0 [start|stop|status]" >&2; exit 2 ;;
esac

if [ "$(id -u)" != 0 ]; then
	echo "$0: must run as root (it configures and starts system daemons)" >&2
	exit 1
fi
if ! command -v slurmctld >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi

host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo) # leave 20 % to the OS

# munge: one shared secret key, readable by the munge user only.
if [ ! -s /etc/munge/munge.key ]; then
	mkdir -p /etc/munge
	dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
	chown munge:munge /etc/munge/munge.key
	chmod 400 /etc/munge/munge.key
fi
install -d -o munge -g munge /run/munge /var/log/munge /var/lib/munge
install -d -o slurm -g slurm /var/spool/slurmctld /var/log/slurm /run/slurm
install -d /var/spool/slurmd /etc/slurm

# One node, one partition; no accounting database, no cgroups (containers often lack them).
cat > /etc/slurm/slurm.conf <<EOF
ClusterName=sdcbench-test
SlurmctldHost=${host}
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem_mb} State=UNKNOWN
PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP
EOF

running() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
running /run/munge/munged.pid || runuser -u munge -- /usr/sbin/munged
munge -n | unmunge >/dev/null # fails here when munge does not work
running /run/slurm/slurmctld.pid || /usr/sbin/slurmctld
running /run/slurm/slurmd.pid || /usr/sbin/slurmd

for _ in $(seq 60); do
	if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
		sinfo
		exit 0
	fi
	sleep 1
done
echo "$0: the node did not become idle in 60 s; see /var/log/slurm/" >&2
sinfo >&2 || true
exit 1
