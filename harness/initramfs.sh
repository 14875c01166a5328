#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh WQ CONFIG: the guest initramfs of one kernel build: static
# busybox, our /init, the workqueue selftests and the test modules.
set -euo pipefail
. "$(dirname "$0")/common.sh"

wq=${1:?usage: initramfs.sh WQ CONFIG}
cfg=${2:?usage: initramfs.sh WQ CONFIG}
obj=$(objdir "$wq" "$cfg")
tree=$(treedir "$wq")
st=$obj/initramfs.d

rm -rf "$st"
mkdir -p "$st/bin" "$st/lib/modules" "$st/selftests/kselftest"
cp /bin/busybox "$st/bin/busybox"
install -m 0755 "$TOP/harness/guest-init" "$st/init"
cp -r "$tree/tools/testing/selftests/workqueue" "$st/selftests/"
cp "$tree/tools/testing/selftests/kselftest/ktap_helpers.sh" "$st/selftests/kselftest/"
find "$obj/lib" "$obj/kernel" -name '*.ko' -exec cp {} "$st/lib/modules/" \; 2>/dev/null || true
(cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	write_if_changed "$obj/initramfs.cpio"
