#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Kworker threads exist and carry the names ps shows.

. "$(dirname "$0")/wq_lib.sh"

comms=$(cat /proc/[0-9]*/comm 2>/dev/null)

has() {
	printf '%s\n' "$comms" | grep -q "$1" && return 0
	ktap_print_msg "no thread matches $1"
	return 1
}

ktap_print_header
cpus=$(online_cpus)
ktap_set_plan $(( $(echo "$cpus" | wc -l) * 2 + 2 ))

# /proc/PID/comm of a worker adds "+desc" (running) or "-desc" (last ran).
desc='\([+-].*\)\{0,1\}$'
for c in $cpus; do
	check "per-cpu kworker on CPU $c" has "^kworker/$c:[0-9][0-9]*$desc"
	check "high-priority kworker on CPU $c" has "^kworker/$c:[0-9][0-9]*H$desc"
done
check "unbound kworker" has "^kworker/u[0-9][0-9]*:[0-9][0-9]*$desc"
check "rescuer of a WQ_MEM_RECLAIM workqueue" has '^kworker/R-'

ktap_finished
