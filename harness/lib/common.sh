# SPDX-License-Identifier: GPL-2.0
# Shared paths and helpers for the harness scripts; source it, don't run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
# Results; exported so that the Python scripts (guest.OUT) write there too.
export OUT=${OUT:-$TOP/out}
SRC=$BUILD/src/linux                 # pristine, unpacked once
# Each kernel WQ (stock, stock-fixed, rework) has its tree in $BUILD/WQ/src and one build
# directory per configuration beside it, $BUILD/WQ/obj-CONFIG: the compiler
# then sees the same relative paths for every tree and ccache shares objects
# between stock and rework wherever their sources agree.
JOBS=${JOBS:-$(nproc)}
# Debian's Python, which has the packages deps.sh installs (matplotlib),
# even where another python3 comes first in PATH; PYTHON=... overrides it.
# The one choice for every harness script (make goes through python.sh).
if [ -z "${PYTHON:-}" ]; then
	PYTHON=python3
	[ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
fi
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# treedir WQ: the source tree of one kernel.
treedir() { echo "$BUILD/$1/src"; }

# objdir WQ CONFIG: the build directory of one kernel.
objdir() { echo "$BUILD/$1/obj-$2"; }

# check_wq WQ: fail unless WQ names a tree.
check_wq() {
	case $1 in
	stock|stock-fixed|rework|series|stable-series) ;;
	*) die "WQ must be stock, stock-fixed, rework, series or stable-series, not '$1'" ;;
	esac
}

# wq_layers WQ: the layers of patches/series tree WQ is made of.
wq_layers() {
	case $1 in
	stock) echo "test" ;;
	stock-fixed) echo "test stable" ;;	# stock plus the stable series
	rework) echo "test rework" ;;
	series) echo "test rework" ;;	# series-build.sh: a prefix of it
	stable-series) echo "test stable" ;;	# stable-build.sh: a prefix of it
	esac
}

# kmake WQ CONFIG ARGS...: make in tree WQ with build dir for CONFIG.
# Builds of every tree take one lock, $BUILD_LOCK: two at once on a
# 2-core machine only slow each other down.  A second checkout with a
# build folder of its own can share the first one's lock.
BUILD_LOCK=${BUILD_LOCK:-$BUILD/.build.lock}
kmake() {
	local wq=$1 cfg=$2 mode=CCACHE_DIRECT=1
	shift 2
	mkdir -p "$(dirname "$BUILD_LOCK")"
	# ccache's direct mode would not see a shadow header (install_shadows)
	# in front of one an earlier compile used: hash the preprocessed code.
	[ -s "$(objdir "$wq" "$cfg")/shadows" ] && mode=CCACHE_NODIRECT=1
	env "$mode" flock "$BUILD_LOCK" make -C "$(treedir "$wq")" O="$(objdir "$wq" "$cfg")" ARCH=x86_64 \
		CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" -s "$@"
}

# install_shadows OBJ FRAGMENT: put the "# shadow:" headers of
# configs/FRAGMENT.config (configs/shadow/linux/x.h) in build directory
# OBJ's arch/x86/include/generated/, which the compiler searches before
# the source tree's include/, so that a configuration can change a
# kernel header in both trees alike without touching either.  OBJ/shadows
# lists them (kmake and check_shadows read it).
install_shadows() {
	local obj=$1 frag=$2 h
	for h in $("$PYTHON" "$TOP/harness/lib/kconfig.py" shadow "$frag"); do
		[ -f "$TOP/configs/shadow/$h" ] || die "configs/$frag.config: no configs/shadow/$h"
		write_if_changed "$obj/arch/x86/include/generated/$h" < "$TOP/configs/shadow/$h"
		echo "$h"
	done | write_if_changed "$obj/shadows"
}

# check_shadows OBJ: fail if an object of build directory OBJ was built
# from the kernel's own copy of one of its shadow headers without the
# shadow: its Kbuild dependencies (.o.cmd) name include/H but not
# generated/H, which the shadow's #include_next always brings in
# together.  An object restored from a cache of a build without the
# shadow looks like that.
check_shadows() {
	local obj=$1 h stale
	[ -s "$obj/shadows" ] || return 0
	while read -r h; do
		stale=$(comm -23 \
			<(grep -rlsF --include='.*.o.cmd' "include/$h" "$obj" | sort) \
			<(grep -rlsF --include='.*.o.cmd' "generated/$h" "$obj" | sort) | wc -l)
		[ "$stale" = 0 ] ||
			die "${obj#"$BUILD"/}: $stale objects built without the shadow $h"
	done < "$obj/shadows"
}

# configure WQ CONFIG [FRAGMENT]: bring the .config of build directory
# CONFIG of tree WQ up to date with configs/FRAGMENT.config (default: the
# one named CONFIG; make check's W=1 directory "check" takes "debug").
# The .config is allnoconfig (or the fragment's "# base:" targets, such as
# defconfig) plus the merged fragment (with its includes); it is
# regenerated only when the fragment changes, and every assignment in the
# fragment is checked to have survived Kconfig.
configure() {
	local wq=$1 cfg=$2 frag=${3:-$2}
	local obj base
	obj=$(objdir "$wq" "$cfg")
	mkdir -p "$obj"
	"$PYTHON" "$TOP/harness/lib/kconfig.py" merge "$frag" | write_if_changed "$obj/fragment.config"
	install_shadows "$obj" "$frag"
	# The series tree changes its Kconfig files from patch to patch: configure
	# it every time, and options that only a later patch adds may be missing.
	if [ "$wq" != series ] && [ -f "$obj/.config" ] &&
	   [ ! "$obj/fragment.config" -nt "$obj/.config" ]; then
		return 0
	fi
	say "configuring $wq-$cfg"
	base=$("$PYTHON" "$TOP/harness/lib/kconfig.py" base "$frag")
	if [ -z "$base" ]; then
		kmake "$wq" "$cfg" KCONFIG_ALLCONFIG="$obj/fragment.config" allnoconfig
	else
		# shellcheck disable=SC2086
		kmake "$wq" "$cfg" $base
		(cd "$obj" && "$(treedir "$wq")/scripts/kconfig/merge_config.sh" \
			-m -O . .config fragment.config >/dev/null)
		kmake "$wq" "$cfg" olddefconfig
	fi
	if ! "$PYTHON" "$TOP/harness/lib/kconfig.py" check "$frag" "$obj/.config"; then
		[ "$wq" = series ] || { rm -f "$obj/.config"; die "configs/$frag.config does not hold"; }
		warn "series-$cfg: configs/$frag.config options not in the tree yet"
	fi
}

# The compiler's warnings and errors ("FILE:LINE:COL: warning: ..."); the
# colon keeps out lines that only contain the words, such as file names.
CC_DIAGNOSTICS='warning:|error:'

# compile_w1 WQ CONFIG LOG OBJECT...: compile OBJECTs afresh with W=1 in
# build directory CONFIG of tree WQ, the output in LOG; print the
# compiler's warnings and errors, and fail on any or on make failing.  The
# objects are removed first: Kbuild would not rebuild an up-to-date one,
# and its warnings would go unseen.
compile_w1() {
	local wq=$1 cfg=$2 log=$3 status=0
	shift 3
	(cd "$(objdir "$wq" "$cfg")" && rm -f "$@")
	kmake "$wq" "$cfg" W=1 "$@" >"$log" 2>&1 || status=1
	grep -E "$CC_DIAGNOSTICS" "$log" && status=1
	return "$status"
}

# write_if_changed FILE: replace FILE with stdin only when the text differs,
# so that mtimes (and with them Kbuild's dependencies) stay meaningful.
write_if_changed() {
	local tmp
	tmp=$(mktemp)
	cat >"$tmp"
	if cmp -s "$tmp" "$1"; then
		rm -f "$tmp"
	else
		mkdir -p "$(dirname "$1")"
		mv "$tmp" "$1"
	fi
}

# Reading patches/series.  A series line is "layer name item..." where each
# item is one of our files or folders (copied into the tree at the same
# path) or a .diff or git format-patch .patch against the pristine tree
# (applied with -p1), or a feature flag "+WQ_HAS_X": from this patch on,
# the rework's code for capability X is in (see strip_features).

# series_lines LAYER...: "name item..." of each entry in those layers.
series_lines() {
	local layers=" $* "

	grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/patches/series" |
	while read -r layer name items; do
		case $layers in *" $layer "*) echo "$name $items" ;; esac
	done
}

# diff_paths DIFF: the paths a diff creates or changes.
diff_paths() {
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1"
}

# apply_item DIR ITEM: put one series item into the tree at DIR.
apply_item() {
	local dir=$1 item=$2

	case $item in
	+*) ;;	# a feature flag: strip_features reads it
	*.diff|*.patch)
		patch -p1 -s -d "$dir" --no-backup-if-mismatch <"$TOP/$item" ||
			die "$item does not apply"
		;;
	*)
		[ -e "$TOP/$item" ] || die "patches/series names $item, which does not exist"
		mkdir -p "$dir/$(dirname "$item")"
		cp -r "$TOP/$item" "$dir/$(dirname "$item")/"
		;;
	esac
}

# feature_flags [UPTO]: the feature flags of the rework layer, those of its
# patches up to and including UPTO when it is given.
feature_flags() {
	series_lines rework | sed "/^${1:-}\( \|$\)/q" | tr ' ' '\n' |
		sed -n 's/^+//p'
}

# rework_c_files: the C files and headers the rework layer writes.
rework_c_files() {
	local item
	for item in $(series_lines rework | cut -d' ' -f2-); do
		case $item in
		+*) ;;
		*.diff) diff_paths "$TOP/$item" ;;
		*) echo "$item" ;;
		esac
	done | grep -E '\.(c|h)$' | sort -u
}

# strip_features DIR [UPTO]: cut the rework's C files in the tree at DIR
# to the step of the series after patch UPTO (harness/lib/series_strip.py):
# the code of features not yet in goes, the marks of those in go too.
# Without UPTO every feature is in: the series' last step.
strip_features() {
	local dir=$1 f files=()
	for f in $(rework_c_files); do
		[ -f "$dir/$f" ] && files+=("$dir/$f")
	done
	# shellcheck disable=SC2046
	"$PYTHON" "$TOP/harness/lib/series_strip.py" \
		--features $(feature_flags) --enabled $(feature_flags "${2:-}") \
		-- "${files[@]}"
}
