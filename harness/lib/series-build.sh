#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# series-build.sh [--boot] [CONFIG]: check that every patch of the
# `make patches` series builds on its own: the tree "series" is brought
# to each patch in turn (the patches before it plus that one, the rework
# cut to that step by strip_features) and built incrementally with
# CONFIG (default debug).  Any compiler warning or error fails.
#
# With --boot, each patch of the rework that changes the kernel (not only
# tools/, Documentation/ or files that no Makefile builds yet) is also booted and tested as make test tests a
# kernel: the KUnit suites (a capability's suite skips before its patch),
# the selftests and the load module, results in out/series/N-NAME/.  The
# test layer's patches alone are stock 6.12 with its tests, which
# make test WQ=stock runs.
set -euo pipefail
. "$(dirname "$0")/common.sh"

boot=
if [ "${1:-}" = --boot ]; then
	boot=1
	shift
fi
cfg=${1:-debug}
log=$OUT/series-build.log
mkdir -p "$OUT"
: >"$log"

# unbuilt FILE: whether FILE, a file of the series tree, is compiled into
# nothing yet: a .c file whose object its directory's Makefile does not
# name, or a private header that only such files include.  The core's
# first patches add files that its last one hooks up.
unbuilt() {
	local tree dir base user
	tree=$(treedir series)
	dir=$(dirname "$1") base=$(basename "$1")
	case $base in
	*.c) ! grep -qw "${base%.c}\.o" "$tree/$dir/Makefile" ;;
	*.h) [ ! -e "$SRC/$1" ] || return 1
		for user in $(grep -l "#include \"$base\"" "$tree/$dir"/*.c); do
			unbuilt "$dir/$(basename "$user")" || return 1
		done ;;
	*) return 1 ;;
	esac
}

# changes_kernel ITEM...: whether a patch with these items changes the
# kernel rather than only tools/, Documentation/, MAINTAINERS or files not
# built yet.
changes_kernel() {
	local item path
	for item in "$@"; do
		case $item in
		+*) return 0 ;;
		*.diff|*.patch) for path in $(diff_paths "$TOP/$item"); do
				case $path in
				Documentation/*|tools/*|MAINTAINERS) ;;
				*) return 0 ;;
				esac
			done ;;
		Documentation/*|tools/*) ;;
		*) unbuilt "$item" || return 0 ;;
		esac
	done
	return 1
}

rework=" $(series_lines rework | cut -d' ' -f1 | tr '\n' ' ') "
n=0 fail=0
while read -r name items; do
	n=$((n + 1))
	say "patch $n, $name: building series-$cfg"
	SERIES_UPTO=$name "$TOP/harness/lib/tree.sh" series
	if ! "$TOP/harness/lib/build.sh" series "$cfg" >>"$log" 2>&1; then
		die "patch $n ($name) does not build: see ${log#"$TOP"/}"
	fi
	if grep -E "$CC_DIAGNOSTICS" "$log"; then
		die "patch $n ($name) builds with warnings: see ${log#"$TOP"/}"
	fi
	[ -n "$boot" ] || continue
	case $rework in *" $name "*) ;; *) continue ;; esac
	# shellcheck disable=SC2086
	changes_kernel $items || continue
	say "patch $n, $name: booting and testing series-$cfg"
	"$TOP/harness/lib/initramfs.sh" series "$cfg"
	out=$OUT/series/$n-$name
	OUT=$out "$PYTHON" "$TOP/harness/lib/testrun.py" run series "$cfg"
	OUT=$out "$PYTHON" "$TOP/harness/lib/testrun.py" summary series "$cfg" || fail=1
done < <(series_lines test rework)
[ "$fail" = 0 ] || die "a patch of the series fails its tests: see ${OUT#"$TOP"/}/series/"
say "each of the $n patches builds on its own ($cfg)${boot:+, and passes its tests}"
