#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh WQ CONFIG: the guest initramfs of one kernel build: static
# busybox, our /init and guest scripts, the workqueue selftests, the test
# modules, and the host programs the configuration names on a
# "# guest-tools:" line (fio, dmsetup) with the libraries they load.
set -euo pipefail
. "$(dirname "$0")/common.sh"

wq=${1:?usage: initramfs.sh WQ CONFIG}
cfg=${2:?usage: initramfs.sh WQ CONFIG}
obj=$(objdir "$wq" "$cfg")
tree=$(treedir "$wq")
st=$obj/initramfs.d

# add_tool PROG: PROG into /bin, and every shared library it loads (the
# loader included) at its host path.
add_tool() {
	local bin lib

	bin=$(command -v "$1") || die "$1 is not installed (harness/deps.sh installs it)"
	cp -L "$bin" "$st/bin/$1"
	for lib in $(ldd "$bin" | awk '$(NF-1) ~ /^\// { print $(NF-1) }'); do
		mkdir -p "$st$(dirname "$lib")"
		cp -L "$lib" "$st$lib"
	done
}

rm -rf "$st"
mkdir -p "$st/bin" "$st/lib/modules" "$st/selftests/kselftest"
cp /bin/busybox "$st/bin/busybox"
install -m 0755 "$TOP/harness/lib/guest-init" "$st/init"
install -m 0755 "$TOP/harness/lib/guest-dmdelay" "$st/bin/guest-dmdelay"
install -m 0755 "$TOP/harness/lib/guest-lockstat" "$st/bin/guest-lockstat"
cp -r "$tree/tools/testing/selftests/workqueue" "$st/selftests/"
cp "$tree/tools/testing/selftests/kselftest/ktap_helpers.sh" "$st/selftests/kselftest/"
if [ -f "$TOP/configs/$cfg.config" ]; then
	for t in $("$PYTHON" "$TOP/harness/lib/kconfig.py" tools "$cfg"); do
		add_tool "$t"
	done
fi
find "$obj/lib" "$obj/kernel" -name '*.ko' -exec cp {} "$st/lib/modules/" \; 2>/dev/null || true
(cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	write_if_changed "$obj/initramfs.cpio"
