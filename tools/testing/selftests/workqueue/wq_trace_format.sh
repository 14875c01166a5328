#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The tracepoint ABI: every workqueue:* event of 6.12 exists and its format
# file matches 6.12's field for field (names, types, offsets, sizes,
# signedness, print format), against wq_trace_format.ref.  Events 6.12
# does not have are listed, not failed.

. "$(dirname "$0")/wq_lib.sh"

REF=$(dirname "$0")/wq_trace_format.ref
EVENTS=/sys/kernel/tracing/events/workqueue
T=/tmp/wq_trace_format

ktap_print_header
if [ ! -d "$EVENTS" ]; then
	ktap_skip_all "no tracefs workqueue events (CONFIG_TRACING, tracefs)"
	exit "$KSFT_SKIP"
fi
events=$(sed -n 's/^== //p' "$REF" | tr '\n' ' ')
ktap_set_plan "$(grep -c '^== ' "$REF")"
rm -rf "$T" && mkdir -p "$T"

# same_format EVENT: EVENT's format file, less its ID line, is the
# reference's; says where it is not.
same_format() {
	sed -n "/^== $1\$/,/^== /{/^== /d;p}" "$REF" > "$T/want"
	grep -v '^ID:' "$EVENTS/$1/format" > "$T/got" 2> /dev/null || {
		ktap_print_msg "$1: no format file"
		return 1
	}
	cmp -s "$T/want" "$T/got" && return 0
	# "-": 6.12's line, "+": this kernel's
	diff -u "$T/want" "$T/got" | grep '^[-+]' | grep -v '^\(---\|+++\) ' |
		head -4 | while read -r l; do
			printf '# %s: %s\n' "$1" "$l"	# no globbing of "*"
		done
	return 1
}

for e in $events; do
	check "workqueue:$e has 6.12's format" same_format "$e"
done
for d in "$EVENTS"/*/; do
	e=$(basename "$d")
	case " $events " in
	*" $e "*) ;;
	*) ktap_print_msg "workqueue:$e: not in 6.12" ;;
	esac
done
ktap_finished
