#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The real-time class's per-CPU pools: no worker before the first per-CPU
# WQ_RT workqueue exists (run first, before other scripts make one; RCU's
# are unbound), then two for every present CPU (kworker/CPU:NR), and a CPU
# that is only possible (a VM with room for hot-added CPUs: QEMU -smp
# N,maxcpus=M) has none until it is added.  6.12 counts QEMU's empty CPU
# slots as possible only where it recognises the hypervisor (KVM, not
# TCG): elsewhere that check skips.  Skipped where the kernel has no WQ_RT.

. "$(dirname "$0")/wq_lib.sh"

need_twq
ktap_print_header
if [ ! -f /sys/module/workqueue/parameters/rt_prio ]; then
	ktap_skip_all "no WQ_RT in this kernel"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 3

# cpus LIST: the CPUs of a sysfs CPU list such as "0-3,6", one a line.
cpus() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r lo hi; do
		[ -n "$lo" ] && seq "$lo" "${hi:-$lo}"
	done
}

# rt_workers PREFIX: how many real-time workers have names starting with
# PREFIX (kworker/CPU: for CPU's pool).
rt_workers() {
	rt_worker_pids "$1" | wc -l
}

# every_present_cpu_served: each present CPU has two at least.
every_present_cpu_served() {
	local cpu n bad=0

	for cpu in $(cpus "$(cat /sys/devices/system/cpu/present)"); do
		n=$(rt_workers "kworker/$cpu:")
		[ "$n" -ge 2 ] && continue
		ktap_print_msg "$n real-time workers for present CPU $cpu"
		bad=1
	done
	return $bad
}

# no_rt_workers CPU...: none of these CPUs' pools has any.
no_rt_workers() {
	local cpu n bad=0

	for cpu in "$@"; do
		n=$(rt_workers "kworker/$cpu:")
		[ "$n" = 0 ] && continue
		ktap_print_msg "$n real-time workers for CPU $cpu"
		bad=1
	done
	return $bad
}

# shellcheck disable=SC2046
check "no CPU has real-time workers before the first per-CPU WQ_RT workqueue" \
	no_rt_workers $(cpus "$(cat /sys/devices/system/cpu/possible)")
echo create > "$TWQ_DEBUGFS/rt"
check "every present CPU's real-time pool has two workers" every_present_cpu_served
absent=$(cpus "$(cat /sys/devices/system/cpu/possible)" |
	 grep -vxF "$(cpus "$(cat /sys/devices/system/cpu/present)")")
if [ -n "$absent" ]; then
	# shellcheck disable=SC2086
	check "no CPU that is only possible has real-time workers" \
		no_rt_workers $absent
else
	ktap_test_skip "no CPU that is only possible has real-time workers: none in this boot"
fi
ktap_finished
