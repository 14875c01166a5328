#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# workqueue.histograms=0 at boot turns the histograms off: the parameter
# reads N and cannot be written, and neither the debugfs file nor any
# workqueue's histograms/ directory exists, and workqueue_hist_read()
# returns -ENODATA with its buckets zeroed (test_workqueue's hist hook).  Needs a kernel with
# histograms booted with "workqueue.histograms=0" (the harness's special
# boot); skips otherwise.

. "$(dirname "$0")/wq_lib.sh"

P=/sys/module/workqueue/parameters/histograms
DBG=/sys/kernel/debug/workqueue/histograms

ktap_print_header
if [ ! -f "$P" ] || ! grep -q 'workqueue.histograms=0' /proc/cmdline; then
	ktap_skip_all "needs histograms, booted with workqueue.histograms=0"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 5
[ -d /sys/kernel/debug/workqueue ] || mount -t debugfs none /sys/kernel/debug 2> /dev/null

# no_hist_dirs: no workqueue of sysfs has a histograms/ directory.
no_hist_dirs() {
	local d

	for d in "$WQ_SYSFS"/*/; do
		[ -e "$d/histograms" ] || continue
		ktap_print_msg "$d has histograms/"
		return 1
	done
	return 0
}

# hook_reads HOOK EXPECT: test_workqueue's HOOK reads EXPECT.
hook_reads() {
	load_twq || { ktap_print_msg "no test_workqueue"; return 1; }
	reads "$TWQ_DEBUGFS/$1" "$2"
}

check "the parameter reads N" [ "$(cat "$P")" = N ]
check "the parameter is read-only (0444)" [ "$(stat -c %a "$P")" = 444 ]
check "no debugfs histograms file" [ ! -e "$DBG" ]
check "no workqueue has a histograms/ directory" no_hist_dirs
# -61: ENODATA
check "workqueue_hist_read() returns -ENODATA, the buckets zeroed" \
	hook_reads hist "twq_percpu read=-61 zeroed=1"
ktap_finished
