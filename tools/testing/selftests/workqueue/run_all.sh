#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the workqueue selftests named (every one that needs no special boot
# if none is); each prints KTAP between markers the harness collects.

cd "$(dirname "$0")" || exit 1
rc=0
# (wq_rt_pools.sh first: it checks the state before any WQ_RT workqueue.)
[ $# -gt 0 ] || set -- wq_rt_pools.sh wq_kworkers.sh wq_sysfs.sh wq_cancel_sync.sh \
	wq_hotplug.sh wq_pcrypt.sh wq_freezer.sh wq_dmdelay.sh wq_trace_format.sh \
	wq_hist.sh
for t in "$@"; do
	echo "# selftest: $t"
	sh "./$t"
	r=$?
	echo "# selftest-exit: $t $r"
	[ $r = 0 ] || [ $r = 4 ] || rc=1
done
exit $rc
