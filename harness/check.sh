#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh: fail on any warning from
#   - harness/lib/maps.py: each file's map against its section headings, a
#     lock letter for every field of the legend's structures, an assert
#     in every _locked function,
#   - scripts/checkpatch.pl --strict over the series of `make patches`,
#   - scripts/kernel-doc -Wall over our C files,
#   - a W=1 build of our C files in the rework tree (debug configuration,
#     in a build directory of its own so normal builds stay incremental),
#   - harness/lib/floors.py on those objects: no file of the implementation
#     uses a symbol of a file on its own floor or above,
#   - the build of each patch of the series on its own, and the boot and
#     tests of each that changes the kernel (series-build.sh --boot),
#   - the Promela models of tools/workqueue/model/ (make model),
#   - scripts/checkpatch.pl --strict over the stable series (patches/stable/,
#     as make patches writes it) and the build of each of its patches on
#     its own on stock 6.12 (stable-build.sh),
#   - the Sphinx build of Documentation/core-api (docs.sh).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

"$TOP/harness/patches.sh"
"$TOP/harness/lib/tree.sh" rework
tree=$(treedir rework)
fail=0

say "maps, the locking legend and the _locked asserts (harness/lib/maps.py)"
"$PYTHON" "$TOP/harness/lib/maps.py" || fail=1

say "Promela models (make model)"
"$TOP/harness/deps.sh"
"$PYTHON" "$TOP/tools/workqueue/model/check.py" || fail=1

say "checkpatch --strict"
for p in "$OUT"/patches/0*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	# UNDOCUMENTED_SETUP only looks for documentation added by the same
	# patch; our parameters are documented upstream: checked below.
	if ! (cd "$tree" && ./scripts/checkpatch.pl --strict --quiet --no-signoff \
		--ignore FILE_PATH_CHANGES,UNDOCUMENTED_SETUP "$p"); then
		warn "checkpatch: $(basename "$p")"
		fail=1
	fi
done
params=$tree/Documentation/admin-guide/kernel-parameters.txt
for name in $(cat "$OUT"/patches/0*.patch |
	      sed -n 's/^+.*__setup("\([^"]*\)".*/\1/p'); do
	grep -qF "$name" "$params" ||
		{ warn "__setup(\"$name\") is not in kernel-parameters.txt"; fail=1; }
done

# Our C files, from the series (folders are searched for *.c).
our_c=$(series_lines test rework | tr ' ' '\n' | grep -v '\.diff$' | sed 1d |
	while read -r item; do
		[ -d "$TOP/$item" ] && (cd "$TOP" && find "$item" -name '*.c') ||
			echo "$item"
	done | grep '\.c$' | grep -v '^tools/' || true)

# ... and our headers, for kernel-doc
our_h=$(series_lines test rework | tr ' ' '\n' | grep '\.h$' || true)

say "kernel-doc -Wall"
for f in $our_c $our_h; do
	if (cd "$tree" && ./scripts/kernel-doc -none -Wall "$f" 2>&1) | grep .; then
		warn "kernel-doc: $f"
		fail=1
	fi
done

say "W=1 build of our files"
obj=$(objdir rework check)
configure rework check debug
kmake rework check prepare
objs=$(for f in $our_c; do echo "${f%.c}.o"; done)
# shellcheck disable=SC2086
if ! compile_w1 rework check "$obj/w1.log" $objs; then
	warn "W=1 build: see ${obj#"$TOP"/}/w1.log"
	fail=1
fi

say "calls go down the floors of workqueue_impl.h (harness/lib/floors.py)"
"$PYTHON" "$TOP/harness/lib/floors.py" "$obj" || fail=1

say "checkpatch --strict on the stable series"
for p in "$OUT"/patches-stable/0*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	# UNKNOWN_COMMIT_ID: the tree is not a git repository, so checkpatch
	# cannot look up the Fixes: ids (patches/stable/README says where
	# each was confirmed).
	if ! (cd "$tree" && ./scripts/checkpatch.pl --strict --quiet \
		--ignore UNKNOWN_COMMIT_ID "$p"); then
		warn "checkpatch: stable $(basename "$p")"
		fail=1
	fi
done

"$TOP/harness/lib/series-build.sh" --boot debug || fail=1
"$TOP/harness/lib/stable-build.sh" debug || fail=1
"$TOP/harness/lib/docs.sh" || fail=1

[ "$fail" = 0 ] || die "make check found warnings"
say "make check: clean"
