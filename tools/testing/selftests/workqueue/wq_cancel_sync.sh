#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cancel_work_sync() must wait for a work item still running on an ordered
# workqueue, also when a write to the unbound cpumask has just given the
# workqueue a new pwq (test_wq_cancel_sync.ko, CONFIG_TEST_WQ_CANCEL_SYNC).
# Each round: the module starts the item, this script writes the global
# cpumask (all online CPUs but the last, or all again), the module queues
# the item again and cancels it with cancel_work_sync(), which must return
# only after the run.  6.12 returns at once, while the item runs: a caller
# freeing the item then has a use-after-free.  WQ_CANCEL_SYNC_ROUNDS sets
# the number of rounds (default 6).

. "$(dirname "$0")/wq_lib.sh"

DIR=/sys/kernel/debug/test_wq_cancel_sync
ROUNDS=${WQ_CANCEL_SYNC_ROUNDS:-6}
MASK=$WQ_SYSFS/cpumask

[ -d "$DIR" ] || insmod /lib/modules/test_wq_cancel_sync.ko 2>/dev/null
ktap_print_header
if [ ! -d "$DIR" ]; then
	ktap_skip_all "no test_wq_cancel_sync (CONFIG_TEST_WQ_CANCEL_SYNC)"
	exit "$KSFT_SKIP"
fi
cpus=$(online_cpus)
last=$(echo "$cpus" | tail -n 1)
if [ "$(echo "$cpus" | wc -l)" -lt 2 ]; then
	ktap_skip_all "needs two online CPUs to take one out of the cpumask"
	rmmod test_wq_cancel_sync
	exit "$KSFT_SKIP"
fi
ktap_set_plan 4

ALL=$(cat $MASK)
# the mask of every online CPU but the last, in the file's hex format
fewer=0
for c in $cpus; do
	[ "$c" = "$last" ] || fewer=$((fewer | (1 << c)))
done
FEWER=$(printf '%x' $fewer)

# round N: start the item, write the cpumask, cancel; returns 2 if a step
# failed, 1 if cancel_work_sync() returned during the run (EBUSY)
round() {
	local mask=$FEWER err

	[ $(($1 % 2)) = 0 ] && mask=$ALL
	err=$(wq_write $DIR/ctl start)
	[ -z "$err" ] || { ktap_print_msg "round $1: start: $err"; return 2; }
	err=$(wq_write $MASK "$mask")
	[ -z "$err" ] || { ktap_print_msg "round $1: cpumask <- $mask: $err"; return 2; }
	err=$(wq_write $DIR/ctl cancel)
	[ -z "$err" ] && return 0
	ktap_print_msg "round $1 (cpumask $mask): cancel: $err"
	[ "$err" = "Device or resource busy" ] && return 1
	return 2
}

steps=true
r=1
while [ $r -le "$ROUNDS" ]; do
	round $r
	[ $? = 2 ] && steps=false
	r=$((r + 1))
done
result=$(cat $DIR/result)
ktap_print_msg "$result (cpumask $ALL and $FEWER in turn)"
rounds=$(echo "$result" | sed -n 's/^rounds \([0-9]*\).*/\1/p')
early=$(echo "$result" | sed -n 's/.* early \([0-9]*\).*/\1/p')
missed=$(echo "$result" | sed -n 's/.* missed \([0-9]*\).*/\1/p')
check "every round ran: start, cpumask write, cancel" $steps
waited() {
	[ "$rounds" = "$ROUNDS" ] && [ "$early" = 0 ]
}
check "cancel_work_sync() waited for the run in every round" waited
check "the item was queued again while it ran in every round" [ "$missed" = 0 ]
check "the global cpumask is restored" accepts $MASK "$ALL" "$ALL"
rmmod test_wq_cancel_sync
ktap_finished
