#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The default view on every file system (tmpfs, ext4, xfs, btrfs, ntfs-3g
# and an overlay), every file type and hostile names, each field checked
# with a tool this project did not write: GNU stat for its lines, findmnt
# for the mount, xfs_io's statx for what the kernel returned (a field it
# did not return reads "not available"), btrfs for the subvolume, lsattr
# and xfs_io's lsattr -v after chattr for the kernel flags, getfattr for
# the fattrs flags, and jq for --json.
# bats file_tags=xstat,mount

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (every FS_TYPES image)
load '../helpers/mounts'

mounts_setup_more() {
	require_cmd findmnt xfs_io lsattr chattr getfattr setfattr
	export GNU_STAT=${GNU_STAT:-/usr/bin/stat}
}

# The script run on each file system, in $D.  Prints what it checked;
# exits 1 on the first disagreement, with both sides.
# shellcheck disable=SC2016
MATRIX='
set -u
fail() { printf "MISMATCH %q: %s\n" "$f" "$*"; exit 1; }
cd "$D" || exit 2
# every file type, and hostile names (those the file system takes)
echo data >regular
mkdir dir
ln -s regular symlink
mkfifo fifo 2>/dev/null
python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" socket 2>/dev/null
mknod chardev c 1 3 2>/dev/null
mknod blockdev b 7 200 2>/dev/null
printf -v nl "new\nline"
printf -v bad "bad\xffutf8"
for n in "$nl" "$bad" -dash "with space"; do
	{ echo x >"./$n"; } 2>/dev/null
done
chattr +d +A regular 2>/dev/null
setfattr -n user.fattr.offline -v 1 regular 2>/dev/null
json=0
xstat --json /dev/null >/dev/null 2>&1 && json=1
shopt -s nullglob dotglob
n=0
for f in *; do
	n=$((n + 1))
	# 1. GNU stat: its default output is the first lines, byte for byte (a first
	# run reads a symlink once: relatime moves its atime then, and not again)
	"$GNU_STAT" -- "$f" >/dev/null
	view=$(xstat -a -- "$f") || fail "xstat failed"
	gnu=$("$GNU_STAT" -- "$f")
	[[ ${view:0:${#gnu}} == "$gnu" ]] || fail "not GNU stat: $gnu /// $view"
	body=${view:${#gnu}}
	# 2. findmnt: the mount of this id, and the one findmnt finds for the file
	id=$(sed -nE "s/^ +Mount: .*, id ([0-9]+)\$/\1/p" <<<"$body")
	[[ -n $id ]] || fail "no mount id: $body"
	want=$(findmnt -rn -o ID,TARGET,FSTYPE,SOURCE | awk -v id="$id" "\$1 == id { print \$2, \$3, \$4 }")
	got=$(sed -nE "s/^ +Mount: (.*) \((.*) from (.*)\), id [0-9]+\$/\1 \2 \3/p" <<<"$body")
	[[ $got == "$want" ]] || fail "mount: view \"$got\", findmnt \"$want\""
	[[ $(findmnt -n -o ID -T "$PWD/$f") == "$id" ]] || fail "findmnt -T finds another mount than id $id"
	opts=$(findmnt -rn -o ID,VFS-OPTIONS | awk -v id="$id" "\$1 == id { print \$2 }")
	grep -qxE " +Mount options: $opts" <<<"$body" || fail "mount options: findmnt says $opts"
	# 3. xfs_io (xfsprogs): what statx returned; regular files and directories only (it opens them)
	if [[ -f $f || -d $f ]] && [[ ! -L $f ]]; then
		mask=$(xfs_io -r -c "statx -r -m 0x3bfff" -- "$f" | sed -n "s/^stat\.mask = //p")
		amask=$(xfs_io -r -c "statx -r -m 0x3bfff" -- "$f" | sed -n "s/^stat\.attributes_mask = //p")
		na() { grep -qxE " +$1: not available" <<<"$body"; }
		if (((mask & 0x2000) == 0)); then na "Direct I/O" || fail "DIOALIGN not returned, view: $(grep "Direct I/O" <<<"$body")"
		else ! na "Direct I/O" || fail "DIOALIGN returned (mask $mask), view says not available"; fi
		if (((mask & 0x8000) == 0)); then na Subvolume || fail "SUBVOL not returned, view: $(grep Subvolume <<<"$body")"
		else ! na Subvolume || fail "SUBVOL returned (mask $mask), view says not available"; fi
		if (((mask & 0x10000) == 0)); then na "Atomic write" || fail "WRITE_ATOMIC not returned"
		else ! na "Atomic write" || fail "WRITE_ATOMIC returned, view says not available"; fi
		grep -qE " +Attribute word: .* of mask $amask\$" <<<"$body" || fail "attributes_mask: xfs_io says $amask"
		# mount_root: set exactly on the root of a mount
		root=clear
		(($(xfs_io -r -c "statx -r -m 0x3bfff" -- "$f" | sed -n "s/^stat\.attributes = //p") & 0x2000)) && root=set
		grep -qE "^ +(Attributes: )?$root: .*mount_root" <<<"$body" || fail "mount_root is not $root"
	fi
	# btrfs: the subvolume id as btrfs-progs reads it
	if [[ $FS_TYPE == btrfs && ( -f $f || -d $f ) && ! -L $f ]] && command -v btrfs >/dev/null; then
		sv=$(btrfs inspect-internal rootid -- "$f")
		grep -qxE " +Subvolume: $sv" <<<"$body" || fail "subvolume: btrfs says $sv"
	fi
	# 4. lsattr (e2fsprogs): every letter it shows set is set in the view, and the reverse
	set=$(sed -nE "/^ +Kernel flags: /,/^ +Project id: /p" <<<"$body" | sed -E "s/^ +(Kernel flags: )?//" |
		awk "/^[a-z]+:/ { state = \$1; sub(/:\$/, \"\", state); \$1 = \"\" } state == \"set\" { print }" | tr " " "\n" | sed "/^\$/d" | sort)
	if [[ -f $f || -d $f ]] && [[ ! -L $f ]] && letters=$(lsattr -d -- "$f" 2>/dev/null); then
		letters=${letters%% *}
		want=$(for ((i = 0; i < ${#letters}; i++)); do
			case ${letters:i:1} in
			s) echo secrm ;; u) echo undelete ;; S) echo sync ;; D) echo dirsync ;; i) echo immutable ;;
			a) echo append ;; d) echo nodump ;; A) echo noatime ;; c) echo compress ;; E) echo encrypted ;;
			j) echo journal ;; I) echo index ;; t) echo notail ;; T) echo topdir ;; e) echo extents ;;
			C) echo nocow ;; x) echo dax ;; F) echo casefold ;; N) echo inline-data ;; P) echo projinherit ;;
			V) echo verity ;; m) echo nocompress ;;
			esac
		done | sort)
		have=$(comm -12 <(echo "$set") <(printf "%s\n" secrm undelete sync dirsync immutable append nodump noatime compress encrypted journal index notail topdir extents nocow dax casefold inline-data projinherit verity nocompress | sort))
		[[ $have == "$want" ]] || fail "flags set: lsattr $letters ($want), view ($have)"
	fi
	# xfs_io lsattr -v (xfsprogs): the xflags it shows set
	if [[ $FS_TYPE == xfs && -f $f && ! -L $f ]]; then
		xf=$(xfs_io -r -c "lsattr -v" -- "$f")
		for w in noatime nodump; do
			[[ $xf == *"$w"* ]] && { grep -qx "$w" <<<"$set" || fail "xfs_io lsattr -v has $w, the view not"; }
		done
	fi
	# 5. getfattr (attr): user.fattr.offline set where getfattr reads it, nowhere else
	if getfattr -h --only-values -n user.fattr.offline -- "$f" 2>/dev/null | grep -qx 1; then
		grep -qE "^ +(fattrs: )?set: offline \(user\.fattr\.offline\)" <<<"$body" || fail "offline: getfattr has it, the view not"
	else
		! grep -qE "^ +(fattrs: )?set: offline" <<<"$body" || fail "offline set in the view, getfattr has no user.fattr.offline"
	fi
	# 6. jq: --json is one valid object, keyed by the same names, the same inode
	if ((json)); then
		xstat --json -- "$f" >obj.json.tmp 2>/dev/null || fail "--json failed"
		[[ $(jq -r ".ino_str // (.ino | tostring)" obj.json.tmp) == $("$GNU_STAT" -c %i -- "$f") ]] ||
			fail "--json: ino differs from GNU stat"
		[[ $(jq -r .mnt_id obj.json.tmp) == "$id" ]] || fail "--json: mnt_id differs from the view"
		rm -f obj.json.tmp
	fi
done
echo "checked $n files on $FS_TYPE"
(( n >= 8 )) || { echo "only $n files"; exit 1; }
'

run_matrix() {
	fs_require "$1"
	# a file from the lower layer too (copied up by chattr and setfattr)
	export FS_LOWER='echo low >from-lower'
	run fs_run "$1" "$MATRIX"
	((status == 0)) || fail "$output"
	assert_output --regexp '^checked [0-9]+ files on '
}

@test "tmpfs: every field of the view, every file type, against GNU stat, findmnt, xfs_io, lsattr, getfattr" {
	run_matrix tmpfs
}

@test "ext4: every field of the view, every file type, against GNU stat, findmnt, xfs_io, lsattr, getfattr" {
	run_matrix ext4
}

@test "xfs: every field of the view, every file type, against GNU stat, findmnt, xfs_io, lsattr, getfattr" {
	run_matrix xfs
}

@test "btrfs: every field of the view, every file type, against GNU stat, findmnt, btrfs, lsattr, getfattr" {
	run_matrix btrfs
}

@test "ntfs-3g: every field of the view, every file type, against GNU stat, findmnt, xfs_io, getfattr" {
	run_matrix ntfs-3g
}

@test "overlay (layers on ext4): every field of the view, every file type, against the same tools" {
	run_matrix overlay-ext4
}
