#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The real-time class's per-CPU pools, once a WQ_RT workqueue exists:
# every present CPU's pool has its workers (kworker/CPU:NR), and a CPU
# that is only possible (a VM with room for hot-added CPUs: QEMU -smp
# N,maxcpus=M) has none until it is added.  6.12 counts QEMU's empty CPU
# slots as possible only where it recognises the hypervisor (KVM, not
# TCG): elsewhere that check skips.  Skipped where the kernel has no WQ_RT.

. "$(dirname "$0")/wq_lib.sh"

need_twq
ktap_print_header
if ! echo create 2>/dev/null > "$TWQ_DEBUGFS/rt"; then
	ktap_skip_all "no WQ_RT in this kernel"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 2

# cpus LIST: the CPUs of a sysfs CPU list such as "0-3,6", one a line.
cpus() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r lo hi; do
		[ -n "$lo" ] && seq "$lo" "${hi:-$lo}"
	done
}

# rt_workers CPU: how many real-time workers CPU's pool has.
rt_workers() {
	pids_named "kworker/$1:" | while read -r pid; do
		case $(cat "/proc/$pid/comm" 2>/dev/null) in *R) echo "$pid" ;; esac
	done | wc -l
}

# every_present_cpu_served: each present CPU has one at least.
every_present_cpu_served() {
	local cpu bad=0

	for cpu in $(cpus "$(cat /sys/devices/system/cpu/present)"); do
		[ "$(rt_workers "$cpu")" -gt 0 ] && continue
		ktap_print_msg "no real-time worker for present CPU $cpu"
		bad=1
	done
	return $bad
}

# none_for_absent_cpus CPU...: none of these CPUs has any.
none_for_absent_cpus() {
	local cpu n bad=0

	for cpu in "$@"; do
		n=$(rt_workers "$cpu")
		[ "$n" = 0 ] && continue
		ktap_print_msg "$n real-time workers for CPU $cpu, which is not present"
		bad=1
	done
	return $bad
}

check "every present CPU's real-time pool has workers" every_present_cpu_served
absent=$(cpus "$(cat /sys/devices/system/cpu/possible)" |
	 grep -vxF "$(cpus "$(cat /sys/devices/system/cpu/present)")")
if [ -n "$absent" ]; then
	# shellcheck disable=SC2086
	check "no CPU that is only possible has real-time workers" \
		none_for_absent_cpus $absent
else
	ktap_test_skip "no CPU that is only possible has real-time workers: none in this boot"
fi
ktap_finished
