#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The workqueue histograms, where the kernel has them: the debugfs file
# (every workqueue) and a WQ_SYSFS workqueue's histograms/ directory show
# a 20 ms item of test_workqueue's (its run time, its function among the
# longest runs and the slowest starts); a write of anything but "reset"
# (or "0" to a sysfs file: garbage, a huge write, an unknown workqueue)
# fails and changes nothing; "reset" or "0" clears what a sysfs file
# shows, "reset" in debugfs every workqueue; the sysfs files are root's
# only; once test_workqueue is removed (where it is a module), its
# function among the system workqueue's worst items reads "(unloaded)",
# never a raw address.
# Skipped where the kernel has no histograms.

. "$(dirname "$0")/wq_lib.sh"

DBG=/sys/kernel/debug/workqueue/histograms
H=$WQ_SYSFS/twq_percpu/histograms
SLOW=twq_hist_slow_fn
PERIOD=/sys/module/workqueue/parameters/hist_period

need_twq
ktap_print_header
if [ ! -f "$DBG" ]; then
	ktap_skip_all "no workqueue histograms (not this kernel, or workqueue.histograms=0)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 20

# section WQ: the debugfs file's lines about workqueue WQ.
section() {
	awk -v wq="workqueue $1:" '/^workqueue / { on = index($0, wq) == 1 } on' "$DBG"
}

# shows WQ FUNC: the debugfs file names FUNC under workqueue WQ.
shows() {
	section "$1" | grep -q "$2"
}

# counted_from FILE US: FILE ("LOW_US COUNT" lines) counts items from US on.
counted_from() {
	awk -v us="$2" '$1 >= us && $2 > 0 { n++ } END { exit !n }' "$1"
}

# ours FILE: what FILE says of twq_percpu (the debugfs file shows every
# workqueue, and others change meanwhile; its title line has the time).
ours() {
	if [ "$1" = "$DBG" ]; then
		section twq_percpu | tail -n +2
	else
		cat "$1"
	fi
}

# refused FILE DATA: writing DATA to FILE fails and FILE says the same of
# twq_percpu as before.
refused() {
	local before after

	before=$(ours "$1")
	# the echo builtin reports a failed write, busybox's printf does not
	if echo -n "$2" 2> /dev/null > "$1"; then
		ktap_print_msg "$1 took '$(echo "$2" | head -c 40)'"
		return 1
	fi
	after=$(ours "$1")
	[ "$before" = "$after" ] && return 0
	ktap_print_msg "$1 changed after a refused write"
	return 1
}

# running_cleared_alone: running is empty, worst still names the item.
running_cleared_alone() {
	[ -z "$(cat "$H/running")" ] && grep -q "$SLOW" "$H/worst"
}

# forgotten: worst no longer names the item.
forgotten() {
	! grep -q "$SLOW" "$H/worst"
}

# zero_clears_alone: "0" written to queued empties it, and only it.
zero_clears_alone() {
	[ -n "$(cat "$H/queued")" ] || { ktap_print_msg "queued was empty"; return 1; }
	echo 0 > "$H/queued"
	[ -z "$(cat "$H/queued")" ] && [ -n "$(cat "$H/running")" ]
}

# bare_reset_clears: the item counted again, a bare "reset" in debugfs
# clears it with every workqueue's histograms (twq_percpu is idle after
# the hook, where the system workqueues count again at once).
bare_reset_clears() {
	echo slow > "$TWQ_DEBUGFS/hist"
	grep -q "$SLOW" "$H/worst" || { ktap_print_msg "the item was not counted"; return 1; }
	echo reset > "$DBG"
	forgotten && [ -z "$(cat "$H/running")" ]
}

# root_only FILE...: every FILE is mode 0600.
root_only() {
	local f

	for f in "$@"; do
		[ "$(stat -c %a "$f")" = 600 ] && continue
		ktap_print_msg "$f is mode $(stat -c %a "$f")"
		return 1
	done
}

# named_after_unload: the system workqueue's worst items named the grow
# hook's function; with test_workqueue removed, they name it "(unloaded)"
# and show no raw address.
named_after_unload() {
	section events | grep -q twq_grow_fn || return 1
	rmmod test_workqueue || return 1
	section events | grep -q "(unloaded)" &&
		! section events | grep -Eq "0x[0-9a-f]{8,}|twq_grow_fn"
}

# huge N: N bytes of "reset reset ...".
huge() {
	yes reset | head -c "$1" | tr '\n' ' '
}

# every item sampled while this runs
period=$(cat "$PERIOD")
check "hist_period takes a period and reads it back" accepts "$PERIOD" 4 4
check "hist_period refuses a period above 1024" rejects "$PERIOD" 2000
echo 1 > "$PERIOD"
echo slow > "$TWQ_DEBUGFS/hist"
check "sysfs has every histogram file" \
	readable "$H/queued" "$H/waiting" "$H/running" "$H/cpu" "$H/flush" "$H/worst"
# 20 ms falls in the bucket from 16384 us
check "the 20 ms item counts in running" counted_from "$H/running" 16384
check "its function is among the longest runs" grep -q "^run [0-9]* $SLOW" "$H/worst"
check "and among the slowest starts" grep -q "^start [0-9]* $SLOW" "$H/worst"
check "debugfs shows the workqueue and the function" shows twq_percpu "$SLOW"
check "garbage written to a sysfs file is refused" refused "$H/running" garbage
check "a huge write to a sysfs file is refused" refused "$H/running" "$(huge 8000)"
check "garbage written to debugfs is refused" refused "$DBG" "reset-all"
check "a huge write to debugfs is refused" refused "$DBG" "$(huge 8000)"
check "resetting an unknown workqueue is refused" refused "$DBG" "reset no_such_wq"
check "garbage written to debugfs fails with EINVAL" \
	[ "$(wq_write "$DBG" reset-all)" = "Invalid argument" ]
check "an unknown workqueue fails with ENOENT" \
	[ "$(wq_write "$DBG" "reset no_such_wq")" = "No such file or directory" ]
check "the sysfs files are root's only" \
	root_only "$H/queued" "$H/waiting" "$H/running" "$H/cpu" "$H/flush" "$H/worst"

check "0 written to a sysfs file clears it, only it" zero_clears_alone
echo reset > "$H/running"
check "reset clears the sysfs file written, only it" running_cleared_alone
echo "reset twq_percpu" > "$DBG"
check "reset NAME in debugfs clears that workqueue" forgotten
check "a bare reset in debugfs clears every workqueue" bare_reset_clears
if grep -q "^test_workqueue " /proc/modules; then
	echo "reset events" > "$DBG"
	echo grow > "$TWQ_DEBUGFS/grow"
	check "a removed module's function reads (unloaded)" named_after_unload
	insmod /lib/modules/test_workqueue.ko
else
	ktap_test_skip "a removed module's function reads (unloaded): test_workqueue is built in"
fi
echo "$period" > "$PERIOD"
ktap_finished
