# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real filesystems for tests:  load '../helpers/fs'  (after common)
#
# Every mount happens inside a private mount namespace (unshare -m), so
# nothing ever shows up in the host's mount table, and dies with it.
#
#   fs_setup_file        in setup_file: tests of this file run one at a time,
#                        and every type in FS_TYPES is prepared (fs_prepare)
#   fs_prepare TYPE...   make the image once per .bats file (setup_file) and
#                        try one mount; never skips, only records why not
#   fs_require TYPE      in a test: skip with a reason unless TYPE can be
#                        mounted here (prepares it first if needed)
#   fs_run TYPE SCRIPT   run SCRIPT (bash) in a new mount namespace with TYPE
#                        mounted at $MNT; $D is a fresh empty directory on it.
#                        Its stdout, stderr and exit status are SCRIPT's, so
#                        use it under run:  run -0 --separate-stderr fs_run ...
#                        Afterwards $BATS_TEST_TMPDIR/fs-ls holds `ls -A $D`
#                        as SCRIPT left it; then $D is removed, $MNT unmounted.
#
# TYPE: tmpfs ramfs ext4 xfs btrfs ntfs-3g (all of them: "${FS_TYPES[@]}").  The loop images live in
# $BATS_FILE_TMPDIR/fs (sparse), the mount point is $BATS_TEST_TMPDIR/mnt.
# Loop devices: "mount -o loop" attaches one with autoclear, umount (or the
# namespace dying) frees it; a test holds at most one at a time.
# ntfs-3g needs no loop device: it opens the image file itself (FUSE).

# Every type fs_run knows: fs_setup_file (or fs_prepare "${FS_TYPES[@]}")
# prepares them all.
FS_TYPES=(tmpfs ramfs ext4 xfs btrfs ntfs-3g)
export GNU_MKTEMP

FS_DIR=$BATS_FILE_TMPDIR/fs

# Make the image for TYPE; print why not on failure.
_fs_mkfs() {
	local type=$1 img=$FS_DIR/$1.img
	rm -f "$img"
	case $type in
	tmpfs | ramfs)
		return 0 ;;
	ext4)
		command -v mkfs.ext4 >/dev/null || { echo "needs mkfs.ext4"; return 1; }
		truncate -s 16M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 ;;
	xfs)
		command -v mkfs.xfs >/dev/null || { echo "needs mkfs.xfs"; return 1; }
		truncate -s 300M "$img" && mkfs.xfs -q -f "$img" >/dev/null 2>&1 ;;
	btrfs)
		command -v mkfs.btrfs >/dev/null || { echo "needs mkfs.btrfs"; return 1; }
		truncate -s 114M "$img" && mkfs.btrfs -q -f "$img" >/dev/null 2>&1 ;;
	ntfs-3g)
		command -v ntfs-3g >/dev/null || { echo "needs ntfs-3g"; return 1; }
		[[ -c /dev/fuse ]] || { echo "needs FUSE (/dev/fuse is missing)"; return 1; }
		truncate -s 8M "$img" || return 1
		if command -v mkntfs >/dev/null; then
			mkntfs -q -F -Q "$img" >/dev/null 2>&1
		elif command -v mkfs.ntfs >/dev/null; then
			mkfs.ntfs -q -F -Q "$img" >/dev/null 2>&1
		else
			echo "needs mkntfs"; return 1
		fi ;;
	*)
		echo "unknown filesystem type $type"; return 1 ;;
	esac || { echo "cannot make a $type image"; return 1; }
}

# The script run inside the namespace: mount, run the test's script in a
# subshell, record the listing, clean up whatever happened.
# Arguments: TYPE IMAGE MNT LS-FILE SCRIPT
# shellcheck disable=SC2016
_FS_INNER='
FS_TYPE=$1 FS_IMAGE=$2 MNT=$3 FS_LS=$4 FS_SCRIPT=$5
FS_PID= FS_MOUNTED= FS_ERR=${MNT%/*}/mount.err
_fs_cleanup() {
	cd / || :
	if [[ -n $FS_MOUNTED ]]; then
		umount "$MNT" 2>/dev/null || umount -l "$MNT"
	fi
	if [[ -n $FS_PID ]]; then
		# ntfs-3g writes the volume out after umount: wait for it, so the
		# next mount of the image finds it clean.
		local i
		for ((i = 0; i < 100; i++)); do
			kill -0 "$FS_PID" 2>/dev/null || break
			sleep 0.05
		done
		kill "$FS_PID" 2>/dev/null
		wait "$FS_PID" 2>/dev/null
	fi
}
trap _fs_cleanup EXIT
[[ -d $MNT ]] || mkdir -p "$MNT" || exit 125
case $FS_TYPE in
tmpfs) mount -t tmpfs -o size=16m fattrs-tmpfs "$MNT" 2>"$FS_ERR" ;;
ramfs) mount -t ramfs fattrs-ramfs "$MNT" 2>"$FS_ERR" ;;
ntfs-3g)
	ntfs-3g -o no_detach "$FS_IMAGE" "$MNT" 2>"$FS_ERR" &
	FS_PID=$!
	for ((i = 0; i < 200; i++)); do
		mountpoint -q "$MNT" && break
		kill -0 "$FS_PID" 2>/dev/null || break
		sleep 0.025
	done
	mountpoint -q "$MNT" ;;
*)
	# "-o loop": a loop device with autoclear, freed by umount.  One may
	# be briefly busy elsewhere: try a few times.
	for ((i = 0; i < 5; i++)); do
		mount -t "$FS_TYPE" -o loop "$FS_IMAGE" "$MNT" 2>"$FS_ERR" && break
		sleep 0.2
	done
	[[ $i -lt 5 ]] ;;
esac || {
	echo "fs_run: cannot mount $FS_TYPE on $MNT: $(<"$FS_ERR")" >&2
	exit 125
}
FS_MOUNTED=1
D=$MNT/test-${BATS_TEST_NUMBER:-0}
mkdir "$D" 2>/dev/null || { rm -rf "$D" && mkdir "$D"; } || exit 125
export MNT D FS_TYPE
(eval "$FS_SCRIPT")
rc=$?
ls -A "$D" >"$FS_LS" 2>&1
case $FS_TYPE in
tmpfs | ramfs) ;;
*) cd / && rm -rf "$D" ;;
esac
exit $rc
'

# fs_run TYPE SCRIPT: see the top of this file.
fs_run() {
	local type=$1 script=$2
	# shellcheck disable=SC2097,SC2098  # passed on into the namespace
	BATS_TEST_TMPDIR=$BATS_TEST_TMPDIR BATS_TEST_NUMBER=${BATS_TEST_NUMBER:-0} \
	unshare -m --propagation private -- bash -c "$_FS_INNER" fs_run \
		"$type" "$FS_DIR/$type.img" "$BATS_TEST_TMPDIR/mnt" \
		"$BATS_TEST_TMPDIR/fs-ls" "$script"
}

# fs_prepare TYPE...: make each image once (per .bats file) and try a mount.
# Writes TYPE.ok, or TYPE.skip with the reason; never fails, never skips
# (skip in setup_file does not work in bats 1.8.2).
fs_prepare() {
	local type dir=$FS_DIR why
	[[ -d $dir ]] || mkdir -p "$dir"
	for type in "$@"; do
		[[ -e $dir/$type.ok || -e $dir/$type.skip ]] && continue
		if [[ $EUID -ne 0 ]]; then
			echo "needs root to mount $type" >"$dir/$type.skip"
			continue
		fi
		command -v unshare >/dev/null || { echo "needs unshare" >"$dir/$type.skip"; continue; }
		if ! why=$(_fs_mkfs "$type"); then
			echo "${why:-cannot make a $type image}" >"$dir/$type.skip"
			continue
		fi
		# A trial mount, in a scratch place of its own.
		if why=$(BATS_TEST_TMPDIR=$dir/trial-$type BATS_TEST_NUMBER=0 \
			 fs_run "$type" ':' 2>&1); then
			: >"$dir/$type.ok"
		else
			printf 'cannot mount %s here: %s\n' "$type" \
				"$(printf '%s' "$why" | tr '\n' ' ')" >"$dir/$type.skip"
		fi
		rm -rf "$dir/trial-$type"
	done
}

# fs_setup_file: the part of setup_file that every .bats file mounting all of
# FS_TYPES shares.  Its tests share the images, so never two mounts of one at
# once: no parallel tests within the file.  Then prepare every type.
fs_setup_file() {
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	fs_prepare "${FS_TYPES[@]}"
}

# fs_require TYPE: skip this test with a reason unless TYPE can be mounted.
# Sets MNT and D to what fs_run will use (as names: they exist only inside).
fs_require() {
	local type=$1
	[[ -e $FS_DIR/$type.ok ]] || fs_prepare "$type"
	if [[ -e $FS_DIR/$type.skip ]]; then
		skip "$(<"$FS_DIR/$type.skip")"
	fi
	# shellcheck disable=SC2034  # for the tests
	MNT=$BATS_TEST_TMPDIR/mnt
	# shellcheck disable=SC2034
	D=$MNT/test-${BATS_TEST_NUMBER:-0}
}

# fs_ls: the listing of $D that the last fs_run left (one name a line).
fs_ls() {
	printf '%s\n' "$(<"$BATS_TEST_TMPDIR/fs-ls")"
}
