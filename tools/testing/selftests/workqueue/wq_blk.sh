# SPDX-License-Identifier: GPL-2.0
# Block devices for wq_dmdelay.sh and the bench's I/O client (POSIX sh,
# busybox-friendly): a null_blk device made through configfs, and device
# mapper's delay target over it.

NULLB_CONFIGFS=/sys/kernel/config/nullb
# No udev in the guest: libdevmapper makes the /dev/mapper nodes itself.
export DM_DISABLE_UDEV=1

# blk_ready: null_blk's configfs, device mapper and dmsetup are all there
# (configfs is mounted if it is not yet).
blk_ready() {
	if [ -d /sys/kernel/config ] && [ ! -d "$NULLB_CONFIGFS" ]; then
		mount -t configfs none /sys/kernel/config 2>/dev/null
	fi
	[ -d "$NULLB_CONFIGFS" ] && [ -c /dev/mapper/control ] &&
		command -v dmsetup > /dev/null
}

# nullb_create NAME MIB MEMORY_BACKED: a null_blk device of MIB MiB with
# 4 KiB blocks that completes I/O in the submitter's context (irqmode 0),
# keeping what is written if MEMORY_BACKED is 1; prints its path.
nullb_create() {
	local d=$NULLB_CONFIGFS/$1

	mkdir "$d" || return 1
	echo "$2" > "$d/size" && echo 4096 > "$d/blocksize" &&
		echo 0 > "$d/irqmode" && echo "$3" > "$d/memory_backed" &&
		echo 1 > "$d/power" || return 1
	# 6.12 names the disk after the configfs directory; older kernels
	# nullb<index>.
	if [ -d "/sys/block/$1" ]; then
		echo "/dev/$1"
	else
		echo "/dev/nullb$(cat "$d/index")"
	fi
}

# nullb_remove NAME: power the device off and remove it.
nullb_remove() {
	echo 0 > "$NULLB_CONFIGFS/$1/power" && rmdir "$NULLB_CONFIGFS/$1"
}

# dm_delay_create NAME DEV READ_MS [WRITE_MS]: a delay target over the whole
# of DEV, reads delayed READ_MS, writes WRITE_MS (default: READ_MS); prints
# its path.
dm_delay_create() {
	local sz table

	sz=$(blockdev --getsz "$2") || return 1
	table="0 $sz delay $2 0 $3"
	[ -z "${4:-}" ] || table="$table $2 0 $4"
	dmsetup create "$1" --noudevsync --table "$table" > /dev/null || return 1
	echo "/dev/mapper/$1"
}

# dm_delay_ops NAME: the reads, writes and flushes NAME holds back now.
dm_delay_ops() {
	dmsetup status "$1" | sed 's/^[0-9]* [0-9]* delay //'
}
