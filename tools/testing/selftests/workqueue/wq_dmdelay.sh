#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Device mapper's delay target over a memory-backed null_blk device: I/O
# held back by it comes out whole, in parallel, across a suspend, while
# CPUs go offline and online, and while targets come and go.  The rework
# serves every delay with precise (hrtimer) delayed work, without a thread
# of its own; 6.12 polls from a kthread under 50 ms and uses a timer and a
# workqueue above.

. "$(dirname "$0")/wq_lib.sh"
. "$(dirname "$0")/wq_blk.sh"

T=/tmp/wq_dmdelay
NB=wq_dmdelay

ktap_print_header
if ! blk_ready; then
	ktap_skip_all "needs null_blk (configfs), device mapper's delay target and dmsetup"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 9
rm -rf "$T" && mkdir -p "$T"

# blocks DEV OFFSET COUNT FILE: read COUNT 4 KiB blocks of DEV at block
# OFFSET into FILE, bypassing the page cache.
blocks() {
	dd if="$1" of="$4" bs=4k skip="$2" count="$3" iflag=direct 2> /dev/null
}

# put DEV OFFSET FILE: write FILE to DEV at block OFFSET, direct.
put() {
	dd if="$3" of="$1" bs=4k seek="$2" oflag=direct conv=notrunc 2> /dev/null
}

# same_blocks DEV OFFSET FILE: DEV holds FILE at block OFFSET.
same_blocks() {
	blocks "$1" "$2" $(($(wc -c < "$3") / 4096)) "$T/back" && cmp -s "$3" "$T/back"
}

nb=$(nullb_create $NB 16 1) || {
	ktap_print_msg "null_blk device not created"
	ktap_exit_fail_msg "no backing device"
}
dev=$(dm_delay_create wq_dmd "$nb" 1 3)
dd if=/dev/urandom of="$T/a" bs=4k count=64 2> /dev/null
dd if=/dev/urandom of="$T/b" bs=4k count=64 2> /dev/null
written_back() {
	put "$dev" 0 "$T/a" && same_blocks "$dev" 0 "$T/a"
}
check "data written through the delay target reads back whole" written_back

# 6.12's target (v1.4) polls from a kthread for delays under 50 ms; the
# one on precise work (v1.5 on) has no thread of its own, and times each
# bio to the nanosecond where 6.12 counts jiffies.
precise=false
dmsetup targets | grep -q '^delay *v1\.\([5-9]\|[1-9][0-9]\)\.' && precise=true
if $precise; then
	check "a 1 ms target runs no polling kthread" [ -z "$(pids_named dm-delay-flush)" ]
else
	ktap_test_skip "a 1 ms target runs no polling kthread (6.12's target)"
fi

# Reads due 1 ms after they are issued go ahead of writes due in 3 ms.
put "$dev" 64 "$T/b" & w1=$!
blocks "$dev" 0 64 "$T/r1" & r1=$!
put "$dev" 128 "$T/a" & w2=$!
blocks "$dev" 0 64 "$T/r2" & r2=$!
ok=true
for p in $w1 $r1 $w2 $r2; do wait "$p" || ok=false; done
$ok && cmp -s "$T/a" "$T/r1" && cmp -s "$T/a" "$T/r2" &&
	same_blocks "$dev" 64 "$T/b" && same_blocks "$dev" 128 "$T/a" || ok=false
check "reads and writes held back in parallel complete whole" $ok
dmsetup remove wq_dmd

# 50 ms: 6.12's timer and workqueue path; the rework's one path.
dev=$(dm_delay_create wq_dmd "$nb" 50)
blocks "$dev" 0 64 "$T/s" & rd=$!
sleep 0.3
dmsetup suspend wq_dmd
held=$(dm_delay_ops wq_dmd)
dmsetup resume wq_dmd
ok=true
wait $rd || ok=false
[ "$held" = "0 0 0" ] || { ktap_print_msg "suspended with '$held' held back"; ok=false; }
$ok && cmp -s "$T/s" "$T/a" || ok=false
check "suspend lets everything held back through, resume takes I/O again" $ok
dmsetup remove wq_dmd

dev=$(dm_delay_create wq_dmd "$nb" 2)
blocks "$dev" 0 64 "$T/h" & rd=$!
ok=true
# shellcheck disable=SC2046
cycle_cpus 2 $(online_cpus | grep -v '^0$') || ok=false
wait $rd || ok=false
$ok && cmp -s "$T/h" "$T/a" || ok=false
check "held-back reads complete while CPUs go offline and online" $ok

# devnum DEV: DEV's "MAJOR,MINOR" as block tracepoints print it.
devnum() {
	# shellcheck disable=SC2046
	printf '%d,%d' $(stat -L -c '0x%t 0x%T' "$1")
}

# bio_times DEV OP SECTOR: the trace times (s) at which a bio of OP (R
# or W) at SECTOR was queued to DEV, one a line.
bio_times() {
	awk -v dev="$1" -v op="$2" -v sector="$3" '{
		for (i = 1; i < NF; i++)
			if ($i == "block_bio_queue:")
				break
		if (i < NF && $(i + 1) == dev && substr($(i + 2), 1, 1) == op &&
		    $(i + 3) == sector) {
			t = $(i - 1)
			sub(":", "", t)
			print t
		}
	}' "$TR/trace"
}

# held_ms DM NB OP SECTOR: how long (ms) the delay target DM held the bio
# of OP at SECTOR before it queued it to NB; empty if it was not seen.
held_ms() {
	local in out

	in=$(bio_times "$1" "$3" "$4" | head -n 1)
	out=$(bio_times "$2" "$3" "$4" | head -n 1)
	[ -n "$in" ] && [ -n "$out" ] && awk -v a="$in" -v b="$out" \
		'BEGIN { printf "%d\n", (b - a) * 1000 }'
}

# at_least MS MIN: MS is a number of MIN or more.
at_least() {
	[ -n "$1" ] && [ "$1" -ge "$2" ]
}

# Each bio is held back no less than its delay, and one due earlier goes
# first: a write due in 1500 ms, then a read due 200 ms after it is
# issued, 100 ms later.  block_bio_queue traces each bio twice: queued to
# the target, then by the target to null_blk.  The rework moves its one
# precise item earlier for the read; 6.12 uses a timer for both.
TR=/sys/kernel/tracing
[ -d "$TR/events/block" ] || mount -t tracefs none "$TR" 2> /dev/null
if [ -d "$TR/events/block/block_bio_queue" ]; then
	dmsetup remove wq_dmd
	dev=$(dm_delay_create wq_dmd "$nb" 200 1500)
	dd if=/dev/urandom of="$T/one" bs=4k count=1 2> /dev/null
	echo > "$TR/trace"
	echo 1 > "$TR/events/block/block_bio_queue/enable"
	put "$dev" 300 "$T/one" & w=$!
	sleep 0.1
	blocks "$dev" 0 1 "$T/r" & r=$!
	wait $w
	wait $r
	echo 0 > "$TR/events/block/block_bio_queue/enable"
	dm=$(devnum "$dev")
	nbn=$(devnum "$nb")
	rd=$(held_ms "$dm" "$nbn" R 0)
	wr=$(held_ms "$dm" "$nbn" W 2400)
	ktap_print_msg "held back: read ${rd:-?} ms (200 due), write ${wr:-?} ms (1500 due)"
	if $precise; then
		ok=true
		at_least "$rd" 200 && at_least "$wr" 1500 || ok=false
		check "held-back bios go no earlier than their delay" $ok
	else
		ktap_test_skip "held-back bios go no earlier than their delay: 6.12 counts jiffies"
	fi
	read_out=$(bio_times "$nbn" R 0 | head -n 1)
	write_due=$(bio_times "$dm" W 2400 | head -n 1)
	check "a read due first goes before an earlier write is due" \
		awk -v r="${read_out:-9e9}" -v w="${write_due:-0}" \
		'BEGIN { exit !(r < w + 1.5) }'
else
	ktap_test_skip "held-back bios go no earlier than their delay: no block events"
	ktap_test_skip "a read due first goes before an earlier write is due: no block events"
fi

ok=true
i=0
while [ $i -lt 10 ]; do
	dmsetup remove wq_dmd && dev=$(dm_delay_create wq_dmd "$nb" 1 5) &&
		put "$dev" 200 "$T/b" && same_blocks "$dev" 200 "$T/b" || {
		ok=false
		break
	}
	i=$((i + 1))
done
check "targets created and removed right after their I/O, 10 times" $ok

held=$(dm_delay_ops wq_dmd)
check "nothing is left held back" [ "$held" = "0 0 0" ]
dmsetup remove wq_dmd
nullb_remove $NB
ktap_finished
