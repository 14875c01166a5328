#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The workqueue sysfs ABI under /sys/devices/virtual/workqueue/: read,
# written, and invalid writes rejected with EINVAL keeping the old value.

. "$(dirname "$0")/wq_lib.sh"
need_twq

U=$WQ_SYSFS/twq_unbound
P=$WQ_SYSFS/twq_percpu
ALL=$(cat $WQ_SYSFS/cpumask)

ktap_print_header
ktap_set_plan 37

# global unbound cpumask
check "cpumask_requested and cpumask_isolated are readable" \
	readable $WQ_SYSFS/cpumask_requested $WQ_SYSFS/cpumask_isolated
check "global cpumask takes a subset" accepts $WQ_SYSFS/cpumask 1 1
check "global cpumask rejects an empty mask" rejects $WQ_SYSFS/cpumask 0
check "global cpumask rejects garbage" rejects $WQ_SYSFS/cpumask zz
check "global cpumask restores" accepts $WQ_SYSFS/cpumask "$ALL" "$ALL"

# per_cpu
check "per_cpu reads 0 for an unbound workqueue" [ "$(cat $U/per_cpu)" = 0 ]
check "per_cpu reads 1 for a per-cpu workqueue" [ "$(cat $P/per_cpu)" = 1 ]
check "per_cpu is read-only" [ "$(stat -c %a $U/per_cpu)" = 444 ]

# max_active
check "max_active is written and read (unbound)" accepts $U/max_active 16 16
check "max_active is written and read (per-cpu)" accepts $P/max_active 3 3
check "max_active rejects 0" rejects $U/max_active 0
check "max_active rejects garbage" rejects $P/max_active abc
# as 6.12 reads them: decimal, leading blanks and trailing text allowed
check "max_active reads 010 as decimal" accepts $U/max_active 010 10
check "max_active takes leading blanks" accepts $P/max_active " 5" 5
check "max_active ignores trailing text" accepts $P/max_active 4x 4
check "nice reads 010 as decimal" accepts $U/nice 010 10

# unbound attributes
check "nice is written and read" accepts $U/nice -5 -5
check "nice rejects 20" rejects $U/nice 20
check "nice rejects garbage" rejects $U/nice x
check "cpumask is written and read" accepts $U/cpumask 1 1
check "cpumask rejects garbage" rejects $U/cpumask zz
ok=true
scopes="cpu smt cache numa system"
# 7.1's cache_shard, where the kernel has it
[ -e /sys/module/workqueue/parameters/cache_shard_size ] && scopes="$scopes cache_shard"
for s in $scopes; do
	accepts $U/affinity_scope $s $s || ok=false
done
check "affinity_scope takes every scope" $ok
dfl=$(grep -o '^[a-z_]*' /sys/module/workqueue/parameters/default_affinity_scope)
if [ -e /sys/module/workqueue/parameters/cache_shard_size ]; then
	check "the default scope is 7.1's cache_shard" \
		reads /sys/module/workqueue/parameters/default_affinity_scope cache_shard
else
	ktap_test_skip "the default scope is 7.1's cache_shard (no cache_shard)"
fi
check "affinity_scope shows the default's value" \
	accepts $U/affinity_scope default "default ($dfl)"
check "affinity_scope rejects an unknown scope" rejects $U/affinity_scope bogus
check "affinity_scope matches case-insensitively" accepts $U/affinity_scope NUMA numa
check "affinity_scope matches a name's beginning" accepts $U/affinity_scope cpux cpu
check "affinity_strict is written and read" accepts $U/affinity_strict 1 1
check "affinity_strict rejects garbage" rejects $U/affinity_strict x
# the parse error itself, not EINVAL (where the watchdog is built in)
thresh_range_error() {
	local f=/sys/module/workqueue/parameters/watchdog_thresh

	[ ! -e $f ] ||
		[ "$(wq_write $f 99999999999999999999)" = "Numerical result out of range" ]
}
check "watchdog_thresh passes a parse error through" thresh_range_error
# 6.12 refuses, with ERANGE, a threshold whose jiffies pass MAX_JIFFY_OFFSET:
# 5e16 s does for any HZ from 100 up, 1e19 s even overflows thresh * HZ
thresh_overflow_refused() {
	local f=/sys/module/workqueue/parameters/watchdog_thresh
	local before v err ok=0

	[ -e $f ] || return 0
	before=$(cat $f)
	for v in 50000000000000000 10000000000000000000; do
		err=$(wq_write $f $v)
		[ "$err" = "Numerical result out of range" ] &&
			[ "$(cat $f)" = "$before" ] && continue
		ktap_print_msg "$f <- $v: error '$err', '$before' became '$(cat $f)'"
		wq_write $f "$before" > /dev/null
		ok=1
	done
	return $ok
}
check "watchdog_thresh refuses a threshold whose jiffies overflow" \
	thresh_overflow_refused

# The default CPU-intensive threshold, from the boot CPU's BogoMIPS as 6.12
# computes it (whole BogoMIPS = lpj / 500000 * HZ): 10 ms, scaled up to 1 s
# under 4000 BogoMIPS.  HZ is the one that gives the BogoMIPS figure the
# boot log prints next to lpj.
intensive_thresh_default() {
	local f=/sys/module/workqueue/parameters/cpu_intensive_thresh_us
	local line lpj mips hz bogo want got

	grep -q 'cpu_intensive_thresh_us=' /proc/cmdline && return 0
	line=$(dmesg | grep -m1 ' BogoMIPS (lpj=')
	lpj=$(echo "$line" | sed -n 's/.*(lpj=\([0-9]*\)).*/\1/p')
	mips=$(echo "$line" | sed -n 's/.* \([0-9]*\)\.[0-9]* BogoMIPS (lpj=.*/\1/p')
	if [ -z "$lpj" ] || [ -z "$mips" ]; then
		ktap_print_msg "no BogoMIPS line in the boot log: '$line'"
		return 1
	fi
	for hz in 100 250 300 1000 ''; do
		[ -n "$hz" ] && [ $((lpj / (500000 / hz))) = "$mips" ] && break
	done
	if [ -z "$hz" ]; then
		ktap_print_msg "no HZ gives $mips BogoMIPS from lpj=$lpj"
		return 1
	fi
	bogo=$((lpj / 500000 * hz))
	[ $bogo -ge 1 ] || bogo=1
	want=10000
	if [ $bogo -lt 4000 ]; then
		want=$((want * 4000 / bogo))
		[ $want -le 1000000 ] || want=1000000
	fi
	got=$(cat $f)
	[ "$got" = "$want" ] && return 0
	ktap_print_msg "$f is $got, 6.12 gives $want (lpj=$lpj HZ=$hz)"
	return 1
}
check "cpu_intensive_thresh_us defaults to 6.12's figure for this CPU" \
	intensive_thresh_default

# rt, where the kernel has the WQ_RT class (twq_rt is made on demand)
if echo create 2>/dev/null > $TWQ_DEBUGFS/rt; then
	R=$WQ_SYSFS/twq_rt
	check "rt reads 1 for a WQ_RT workqueue" [ "$(cat $R/rt)" = 1 ]
	check "rt reads 0 for the others" [ "$(cat $U/rt)$(cat $P/rt)" = 00 ]
	check "rt is read-only" [ "$(stat -c %a $R/rt)" = 444 ]
	# the class's priority, fixed after boot
	RTP=/sys/module/workqueue/parameters/rt_prio
	if grep -q 'workqueue\.rt_prio=' /proc/cmdline; then
		ktap_test_skip "rt_prio reads its default, 1 (set on the command line)"
	else
		check "rt_prio reads its default, 1" [ "$(cat $RTP)" = 1 ]
	fi
	check "rt_prio is read-only" [ "$(stat -c %a $RTP)" = 444 ]
else
	for what in "rt reads 1 for a WQ_RT workqueue" "rt reads 0 for the others" \
		    "rt is read-only" "rt_prio reads its default, 1" \
		    "rt_prio is read-only"; do
		ktap_test_skip "$what (no WQ_RT in this kernel)"
	done
fi

ktap_finished
