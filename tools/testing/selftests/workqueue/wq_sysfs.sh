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
ktap_set_plan 29

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
for s in cpu smt cache numa system; do
	accepts $U/affinity_scope $s $s || ok=false
done
check "affinity_scope takes every scope" $ok
dfl=$(grep -o '[a-z]*' /sys/module/workqueue/parameters/default_affinity_scope)
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

ktap_finished
