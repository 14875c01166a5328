# SPDX-License-Identifier: GPL-2.0
# Reading patches/series; source it after common.sh.
#
# A series line is "layer name item..." where each item is one of our
# files or folders (copied into the tree at the same path) or a .diff
# against the pristine tree (applied with -p1).

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
	*.diff)
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
