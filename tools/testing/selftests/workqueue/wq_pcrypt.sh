#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# padata (pcrypt's "pencrypt" instance) applies workqueue attributes with
# the CPU hotplug lock already held: at boot and on every write of its
# parallel cpumask.  Rewrite that mask while CPUs go offline and online:
# every write and every cycle must complete.  A second hotplug read lock
# taken inside would deadlock against a waiting hotplug writer; under
# lockdep it is a recursive-locking report, which fails the run.

. "$(dirname "$0")/wq_lib.sh"

PCRYPT=/sys/kernel/pcrypt/pencrypt
ROUNDS=${WQ_PCRYPT_ROUNDS:-4}
STATE=/tmp/wq_pcrypt

ktap_print_header
if [ ! -f "$PCRYPT/parallel_cpumask" ]; then
	ktap_skip_all "no pcrypt instance (CONFIG_CRYPTO_PCRYPT=y)"
	exit "$KSFT_SKIP"
fi
cpus=$(online_cpus | grep -v '^0$')
if [ -z "$cpus" ]; then
	ktap_skip_all "needs a second CPU"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 3

all=$(cat "$PCRYPT/parallel_cpumask")
check "pcrypt's parallel cpumask reads" [ -n "$all" ]

rm -rf "$STATE" && mkdir -p "$STATE"
(
	n=0
	while [ ! -e "$STATE/stop" ]; do
		for m in 1 "$all"; do
			err=$(wq_write "$PCRYPT/parallel_cpumask" "$m")
			[ -z "$err" ] || echo "$m: $err" >> "$STATE/errors"
		done
		n=$((n + 1))
	done
	echo "$n" > "$STATE/writes"
) &
writer=$!

ok=true
# shellcheck disable=SC2086
cycle_cpus "$ROUNDS" $cpus || ok=false
touch "$STATE/stop"
wait $writer
ktap_print_msg "mask rewritten $(cat "$STATE/writes" 2>/dev/null) times over $ROUNDS rounds"
check "CPUs cycle while pcrypt's cpumask is rewritten" $ok
if [ -s "$STATE/errors" ]; then
	ktap_print_msg "$(head -3 "$STATE/errors")"
fi
check "every cpumask write succeeded" [ ! -s "$STATE/errors" ]
wq_write "$PCRYPT/parallel_cpumask" "$all" > /dev/null

ktap_finished
