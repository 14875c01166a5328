#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh [PKG...]: install the Debian 12 packages the harness needs, and
# the extra ones named, only those missing.
set -euo pipefail

PKGS="make gcc flex bison bc libelf-dev libssl-dev cpio kmod xz-utils rsync
      ccache qemu-system-x86 busybox-static python3 python3-matplotlib
      perl git patch fio dmsetup spin $*"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "==> installing:$missing" >&2
[ "$(id -u)" = 0 ] || { echo "error: run as root to install:$missing" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
