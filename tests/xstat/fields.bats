#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat's named directives (%{name}) cross-checked against tools
# this project did not write: GNU stat for what it shows, findmnt for the
# mount fields (under a bind mount too, where GNU's %m guesses), lsattr and
# xfs_io after chattr for the kernel flags, getfattr after setfattr for the
# fattrs(7) flags, xfs_io's statx and O_DIRECT itself for the direct I/O
# fields, btrfs for the subvolume; and what each costs (strace).
# bats file_tags=xstat,mount

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (images made as tests need them)
MOUNT_TYPES=()
load '../helpers/mounts'

mounts_setup_more() {
	load '../helpers/stat-compat'
	export -f make_fixtures
	cd "$BATS_TEST_TMPDIR" || return
}

# The GNU letters and the named fields that must print the same.
GNU_FMT='%n|%F|%A|%h|%u|%U|%g|%G|%i|%s|%b|%o|%d|%Hd|%Ld|%r|%Hr|%Lr|%.9X|%.9Y|%.9Z|%.9W|%X'
OUR_FMT='%{name}|%{type}|%{mode_string}|%{nlink}|%{uid}|%{user}|%{gid}|%{group}|%{ino}|%{size}|%{blocks}|%{blksize}|%{dev}|%{dev_major}|%{dev_minor}|%{rdev}|%{rdev_major}|%{rdev_minor}|%.9{atime}|%.9{mtime}|%.9{ctime}|%.9{btime}|%{atime}'

@test "every fixture: the named file fields print what GNU stat's letters print, with and without -L" {
	make_fixtures fix
	cd fix
	local -a all=(* .)
	run -0 --separate-stderr /usr/bin/stat -c "$GNU_FMT" -- "${all[@]}"
	local want=$output
	run -0 --separate-stderr xstat -c "$OUR_FMT" -- "${all[@]}"
	assert_equal "$output" "$want"
	run -1 --separate-stderr /usr/bin/stat -L -c "$GNU_FMT" -- "${all[@]}"
	want=$output
	run -1 --separate-stderr xstat -L -c "$OUR_FMT" -- "${all[@]}"
	assert_equal "$output" "$want"
	assert_equal "$stderr" "xstat: cannot statx 'dangling': No such file or directory"
}

@test "%{mode} is st_mode in octal, the same as GNU's %f in hex; flags and widths apply as to %s" {
	make_fixtures fix
	cd fix
	local f
	for f in regular dir link fifo sock chardev setuid sticky; do
		assert_equal "$(xstat -c '%{mode}' -- "$f")" "$(printf '%o' "0x$(/usr/bin/stat -c %f -- "$f")")"
	done
	assert_equal "$(xstat -c '[%10{size}|%-10{size}|%010{size}|%#{mode}]' regular)" \
		"[$(/usr/bin/stat -c '%10s|%-10s|%010s|%#a' regular | sed 's/|0*\([0-7]*\)\]*$/|0100\1/')]"
	assert_equal "$(xstat -c '%.3{mtime}|%.{mtime}|%14.2{mtime}' regular)" "$(/usr/bin/stat -c '%.3Y|%.Y|%14.2Y' regular)"
	assert_equal "$(xstat -c '%-12{fstype}|%5.2{user}|' regular)" "$(printf '%-12s|%5.2s|' "$(xstat -c %{fstype} regular)" "$(id -un)")"
}

@test "ramfs: fields the kernel does not return print '-', never 0, padded as a string" {
	fs_require ramfs
	run -0 --separate-stderr fs_run ramfs '
		touch "$D/f"
		/usr/bin/stat -c "%W|%w" "$D/f"
		xstat -c "%{btime}|%.3{btime}|%5{btime}|%-5{btime}|%05{btime}|%{dio_mem_align}|%{subvol}|%{atomic_write_unit_max}|%{size}" "$D/f"
		xfs_io -c "statx -r -m 0x7fffffff" "$D/f" | sed -n "s/^stat.mask = //p"
	'
	assert_line --index 0 '0|-'
	assert_line --index 1 '-|-|    -|-    |    -|-|-|-|0'
	# the kernel's own mask: no BTIME (0x800), DIOALIGN, SUBVOL or WRITE_ATOMIC bit
	(( (${lines[2]} & 0x1a800) == 0 ))
}

@test "which fields are '-' follows the kernel's stx_mask, as xfs_io shows it (ext4, xfs)" {
	local fs bit name
	for fs in ext4 xfs; do
		fs_require $fs
		run -0 --separate-stderr fs_run $fs '
			touch "$D/f"
			# (asking for STATX_MNT_ID_UNIQUE too would return only that one)
			xfs_io -c "statx -r -m 0x7fffbfff" "$D/f" | sed -n "s/^stat.mask = //p"
			xstat -c "%{btime} %{mnt_id} %{dio_mem_align} %{subvol} %{atomic_write_unit_min} %{dio_read_offset_align}" "$D/f"
		'
		local mask=${lines[0]} i=0
		read -ra got <<<"${lines[1]}"
		for bit in 0x800 0x1000 0x2000 0x8000 0x10000 0x20000; do
			if (( mask & bit )); then
				[[ ${got[i]} =~ ^[0-9]+$ ]] || fail "$fs: bit $bit in stx_mask, but field $i is '${got[i]}'"
			else
				assert_equal "${got[i]}" -
			fi
			i=$((i + 1))
		done
	done
}

# mount_fields FILE: xstat's mount fields, then findmnt's for the same mount id.
mount_fields() {
	local id
	id=$(xstat -c %{mnt_id} "$1") || return
	xstat -c '%{mnt_id} %{mount_point} %{fstype} %{source} %{mount_options}' "$1"
	findmnt -rnv -o ID,TARGET,FSTYPE,SOURCE,VFS-OPTIONS | awk -v id="$id" '$1 == id'
	xstat -c '%{mnt_id} %{fsroot}' "$1"
	findmnt -rn -o ID,FSROOT | awk -v id="$id" '$1 == id'
}

@test "the mount fields are findmnt's for the file's mount id: the root, /proc, a tmpfs" {
	export -f mount_fields
	run -0 mount_fields /
	assert_equal "${lines[0]}" "${lines[1]}"
	assert_equal "${lines[2]}" "${lines[3]}"
	run -0 mount_fields /proc/self/status
	assert_equal "${lines[0]}" "${lines[1]}"
	assert_equal "${lines[2]}" "${lines[3]}"
	fs_require tmpfs
	run -0 fs_run tmpfs 'touch "$D/f"; mount_fields "$D/f"'
	assert_equal "${lines[0]}" "${lines[1]}"
	assert_equal "${lines[2]}" "${lines[3]}"
	[[ ${lines[0]} == *" $BATS_TEST_TMPDIR/mnt tmpfs "* ]]
}

@test "without /proc, %m is still GNU's: the start's canonical name, less a component for each step up" {
	require_no_sanitizer "$(command -v xstat)" "AddressSanitizer itself needs /proc"
	fs_require ext4
	# GNU's stderr differs: it warns that it cannot read the mount table,
	# which it reads for its bind mount guess (see the next test).
	run -0 --separate-stderr fs_run ext4 '
		mkdir -p "$D/a/b/c" "$D/sub" && touch "$D/a/b/c/f" && ln -s a/b "$D/to-b" || exit 1
		mount --bind "$D/sub" "$D/a/b" && mkdir -p "$D/a/b/d/t" && mount -t tmpfs t "$D/a/b/d/t" || exit 1
		mkdir "$D/a/b/d/t/u" && touch "$D/a/b/d/f" "$D/a/b/d/t/u/f"
		cd "$D/a" || exit 1
		mount -t tmpfs fattrs-noproc /proc || exit 125
		[[ ! -e /proc/self ]] && echo "no /proc"
		for L in -P -L; do
			set -- b/d/f b/d b . .. ../to-b ../to-b/d "$D/a/b/d/f" / b/d/t/u/f b/d/t/u b/d/t/u/.. ../to-b/d/t/u
			x=$(xstat ${L#-P} -c "%n %m" "$@") g=$(/usr/bin/stat ${L#-P} -c "%n %m" "$@" 2>/dev/null)
			[[ $x == "$g" ]] && echo "%m $L: GNU'"'"'s" || printf "%s\n---\n%s\n" "$x" "$g"
		done
		xstat -c %m b/d/t/u/f ../to-b/d/t/u
		umount /proc; cd /; umount "$D/a/b/d/t" "$D/a/b"
	'
	assert_output "$(printf '%s\n' "no /proc" "%m -P: GNU's" "%m -L: GNU's" \
		"$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER/a/b/d/t" "$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER/a/b/d/t")"
}

@test "a subdirectory bind-mounted onto another directory of the same fs: %{mount_point} is exact, GNU's %m is not" {
	export -f mount_fields
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 '
		mkdir -p "$D/src/sub" "$D/dst"
		touch "$D/src/sub/f"
		mount --bind "$D/src/sub" "$D/dst" || exit 1
		xstat -c %{mount_point} "$D/dst/f" "$D/dst" "$D/src/sub/f"
		/usr/bin/stat -c %m "$D/dst/f"
		mount_fields "$D/dst/f"
		ln -s dst/f "$D/to-f"
		for L in -P -L; do
			set -- "$D/dst/f" "$D/dst" "$D/dst/" "$D/src/sub" "$D/to-f" "$D" "$D/dst/.."
			[[ $(xstat ${L#-P} -c "%n %m" "$@") == "$(/usr/bin/stat ${L#-P} -c "%n %m" "$@")" ]] &&
				echo "%m $L: GNU'"'"'s"
		done
		umount "$D/dst"
	'
	assert_line --index 8 "%m -P: GNU's"
	assert_line --index 9 "%m -L: GNU's"
	assert_line --index 0 "$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER/dst"
	assert_line --index 1 "$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER/dst"
	assert_line --index 2 "$BATS_TEST_TMPDIR/mnt"
	# GNU walks up while the device stays the same: it leaves the bind mount
	assert_line --index 3 "$BATS_TEST_TMPDIR/mnt"
	assert_equal "${lines[4]}" "${lines[5]}"
	# the bind mount's root in its file system, as findmnt's FSROOT
	assert_equal "${lines[6]}" "${lines[7]}"
	[[ ${lines[6]} == *" /test-$BATS_TEST_NUMBER/src/sub" ]]
}

@test "the mount table is read once per run, and once more for a mount id it does not have" {
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		T=$BATS_TEST_TMPDIR
		mkfifo "$T/list"
		touch "$D/a" "$D/b"
		strace -f -e trace=openat -o "$T/trace" xstat -c %{mount_point} --files0-from="$T/list" >"$T/out" &
		exec 3>"$T/list"
		printf "%s\0" "$D/a" "$D/b" >&3
		for ((i = 0; i < 200; i++)); do
			grep -q mountinfo "$T/trace" 2>/dev/null && break
			sleep 0.05
		done
		mkdir "$D/new" && mount -t tmpfs none "$D/new" && touch "$D/new/c"
		printf "%s\0" "$D/new/c" "$D/a" >&3
		exec 3>&-
		wait $!
		cat "$T/out"
		grep -c "mountinfo" "$T/trace"
	'
	local m=$BATS_TEST_TMPDIR/mnt
	assert_equal "$output" "$m"$'\n'"$m"$'\n'"$m/test-$BATS_TEST_NUMBER/new"$'\n'"$m"$'\n2'
}

@test "kernel flags after chattr: set or clear as lsattr shows them (ext4), and the -a ones through FS_IOC_GETFLAGS" {
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 '
		cd "$D" || exit 1
		touch f g && mkdir d
		chattr +d +A +S f && chattr +i g && chattr +D +T d || exit 1
		for x in f g d; do
			printf "%s %s\n" "$x" "$(lsattr -d "$x" | cut -d" " -f1)"
			for pair in immutable:i append:a nodump:d noatime:A sync:S dirsync:D topdir:T extents:e \
				    compress:c nocompress:m nocow:C secrm:s undelete:u journal:j notail:t \
				    projinherit:P dax:x index:I encrypted:E verity:V casefold:F inline-data:N; do
				printf "%s:%s " "${pair#*:}" "$(xstat -c "%{${pair%%:*}}" "$x")"
			done
			echo
		done
		chattr -i g
	'
	local i name letters pair dropped
	for ((i = 0; i < ${#lines[@]}; i += 2)); do
		read -r name letters <<<"${lines[i]}"
		# what ext4 does not keep for a regular file, or a directory (chattr
		# fails; tests/xstat/kept.bats): unsupported, not clear
		dropped=' D T P I F m C '
		[[ $name == d ]] && dropped=' m C '
		for pair in ${lines[i + 1]}; do
			if [[ $letters == *"${pair%%:*}"* ]]; then
				[[ ${pair#*:} == set ]] || fail "$name: lsattr '$letters', xstat ${pair#*:} for ${pair%%:*}"
			elif [[ $dropped == *" ${pair%%:*} "* ]]; then
				[[ ${pair#*:} == unsupported ]] || fail "$name: ext4 cannot keep ${pair%%:*}, xstat ${pair#*:}"
			else
				[[ ${pair#*:} == clear ]] || fail "$name: lsattr '$letters', xstat ${pair#*:} for ${pair%%:*}"
			fi
		done
	done
	# what was set is there, so the check above saw both states
	[[ ${lines[1]} == *"d:set"*"A:set"*"S:set"* && ${lines[3]} == *"i:set"* && ${lines[5]} == *"D:set"* ]]
}

@test "xfs: the flags only xfs keeps, as xfs_io -c 'lsattr -v' names them; a fifo's flags are read there" {
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		cd "$D" || exit 1
		touch f && mkfifo p
		chattr +d +S f && xfs_io -c "extsize 1m" f || exit 1
		xfs_io -c "lsattr -v" f
		xstat -c "%{nodump} %{sync} %{noatime} %{extsize} %{realtime} %{hasattr} %{immutable}" f
		xstat -c "%{nodump} %{noatime} %{projid}" p
	'
	assert_line --index 0 --regexp '^\[sync, no-dump, extsize(, has-xattr)?\] '
	local hx=clear
	[[ ${lines[0]} == *has-xattr* ]] && hx=set
	assert_line --index 1 "set set clear set clear $hx clear"
	# xfs keeps flags for special files (6.18), other file systems do not
	assert_line --index 2 "clear clear 0"
}

@test "ext4: the flags only xfs keeps read unsupported (file_setattr drops them, as xfs_io finds); -a lists them so" {
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 '
		cd "$D" || exit 1
		touch f
		# realtime, nosymlinks, nodefrag, extsize, filestream, cowextsize: each accepted and
		# dropped (doc/kernel.md §2.5), xfs_io reads none of them back; sync (s) is kept
		xfs_io -c "chattr +r" -c "chattr +n" -c "chattr +f" -c "chattr +e" -c "chattr +S" -c "chattr +C" \
			-c "chattr +s" -c "lsattr -v" f
		xstat -c "%{realtime} %{nosymlinks} %{nodefrag} %{extsize} %{filestream} %{cowextsize} %{prealloc} %{hasattr} %{sync} %{nodump}" f
		xstat -a f
	'
	assert_line --index 0 --regexp "^\[sync\] "
	assert_line --index 1 "unsupported unsupported unsupported unsupported unsupported unsupported unsupported unsupported set clear"
	# the unsupported list wraps: join the flag lines
	local kf
	kf=$(printf '%s\n' "${lines[@]}" | sed -n '/Kernel flags:/,/Project id:/p' | tr -s ' \n' '  ')
	[[ $kf == *" unsupported: "*" realtime "* ]] || fail "realtime is not unsupported: $kf"
	refute_line --regexp "^ +(Kernel flags: )?clear: .*(realtime|extsize|nodefrag|hasattr)"
}

@test "unsupported: ramfs keeps no flags, tmpfs cannot compress, a symlink has no user xattrs; projid is '-' there" {
	fs_require ramfs
	run -0 --separate-stderr fs_run ramfs '
		touch "$D/f"
		xstat -c "%{immutable} %{noatime} %{nocow} %{projid} %{offline} %{attributes_mask}" "$D/f"
	'
	assert_output 'unsupported unsupported unsupported - unsupported 203000'
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		touch "$D/f" && ln -s f "$D/l"
		xstat -c "%{immutable} %{compress} %{noatime} %{projid} %{offline}" "$D/f" "$D/l"
	'
	assert_line --index 0 'clear unsupported clear 0 clear'
	assert_line --index 1 'clear unsupported unsupported - unsupported'
}

@test "fattrs flags as getfattr shows the xattrs: set, clear, invalid (with a warning); the unsupported ones on a fifo" {
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 '
		cd "$D" || exit 1
		touch f g && mkdir d && mkfifo p
		setfattr -n user.fattr.offline -v 1 f && setfattr -n user.fattr.noscrub -v 1 f
		setfattr -n user.fattr.pinned -v yes g && setfattr -n user.fattr.integrity -v 0 g
		setfattr -n user.fattr.integrity -v 1 d
		setfattr -n user.fattr.zeta -v 1 d && setfattr -n user.fattr.alpha -v x d
		getfattr -d --absolute-names f g d 2>/dev/null | grep "^user.fattr" | sort
		xstat -c "%n %{offline} %{pinned} %{integrity} %{noscrub} [%{fattrs_other}]" f g d p
		xstat -c %{fattrs_other} d | tr , "\n" | sort | paste -sd " "
	'
	assert_equal "${lines[*]:0:7}" 'user.fattr.alpha="x" user.fattr.integrity="0" user.fattr.integrity="1" user.fattr.noscrub="1" user.fattr.offline="1" user.fattr.pinned="yes" user.fattr.zeta="1"'
	assert_line --index 7 'f set clear clear set []'
	assert_line --index 8 'g clear invalid clear clear []'
	assert_line --index 9 --regexp '^d clear clear set clear \[user\.fattr\.(zeta|alpha),user\.fattr\.(alpha|zeta)\]$'
	assert_line --index 10 'p unsupported unsupported unsupported unsupported []'
	# the other names under the prefix, as getfattr lists them
	assert_line --index 11 'user.fattr.alpha user.fattr.zeta'
	# fattrs(7): an invalid value is never guessed, and warned about once per file
	assert_equal "$stderr" "xstat: warning: 'g': user.fattr.pinned holds 'yes', neither 1 nor 0: the flag reads as invalid"
}

@test "fattrs flags: an invalid value longer than the first read (300 bytes) is read whole to be quoted, and a valid one after it still reads" {
	long=$(printf 'x%.0s' {1..300})
	touch f
	setfattr -n user.fattr.offline -v "$long" f || skip "no user xattrs in the test directory"
	setfattr -n user.fattr.integrity -v 1 f
	run -0 --separate-stderr xstat -c "%{offline} %{integrity}" f
	assert_output "invalid set"
	assert_equal "$stderr" "xstat: warning: 'f': user.fattr.offline holds '$long', neither 1 nor 0: the flag reads as invalid"
}

@test "fattrs flags: the filesystem is probed once per mount, then one listxattrat per file, a getxattrat only for a user.fattr. name; the path calls the same" {
	fault_require
	nosys_require
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" || exit 1
		touch a b c e && setfattr -n user.fattr.offline -v 1 e && setfattr -n user.other -v 1 e
		mkdir m && mount -t tmpfs none m && touch m/x
		trace_run "$BATS_TEST_TMPDIR/at.trace" xstat -c "%{offline} %{pinned}" a b c e m/x
		trace_run "$BATS_TEST_TMPDIR/trace" "$NOSYS" xattrat xstat -c "%{offline} %{pinned}" a b c e m/x
		umount m
	'
	assert_output $'clear clear\nclear clear\nclear clear\nset clear\nclear clear\nclear clear\nclear clear\nclear clear\nset clear\nclear clear'
	# listxattrat, getxattrat (strace 6.1 prints them as syscall_0x1d1, syscall_0x1d0)
	assert_equal "$(grep -c 'syscall_0x1d1(' "$BATS_TEST_TMPDIR/at.trace")" 5
	assert_equal "$(grep -c 'syscall_0x1d0(' "$BATS_TEST_TMPDIR/at.trace")" 5
	refute_trace "$BATS_TEST_TMPDIR/at.trace" 'xattr\('
	# without them, the path calls, which strace names (the first getxattrat answered ENOSYS)
	local t=$BATS_TEST_TMPDIR/trace
	assert_equal "$(grep -c 'syscall_0x1d0(.* = -1 ENOSYS' "$t")" 1
	assert_equal "$(grep -c 'statfs(' "$t")" 2
	assert_equal "$(grep -c 'llistxattr(' "$t")" 5
	# the probe's size queries, one per mount, then the value of e's one name
	assert_equal "$(grep -Ec 'getxattr\("[^"]*", "user.fattr.offline", NULL, 0\)' "$t")" 2
	assert_equal "$(grep -Ec 'getxattr\("e", "user.fattr.offline", "1", ' "$t")" 1
	refute_trace "$t" 'getxattr\("[bc]", |user\.fattr\.pinned|user\.other", [^N]'
}

@test "the lookups are made only for the fields shown: statx bits, file_getattr, ioctl, llistxattr" {
	fault_require
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	touch a b
	trace_run trace xstat -c '%{size} %{immutable} %{append} %{nodump}' a b
	refute_trace trace 'file_getattr|syscall_0x1d4|ioctl\(|xattr\(|syscall_0x1(cf|d[0-2])\(|mountinfo'
	assert_equal "$(grep -c 'statx(AT_FDCWD, "[ab]", AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW, STATX_SIZE, ' trace)" 2
	trace_run trace xstat -c '%{noatime}%{projid}' a b
	assert_equal "$(grep -Ec 'file_getattr|syscall_0x1d4' trace)" 2
	refute_trace trace 'ioctl\(|xattr\(|syscall_0x1(cf|d[0-2])\('
	trace_run trace xstat -c '%{nocow}' a
	assert_trace trace 'ioctl\([0-9]+, FS_IOC_GETFLAGS'
	trace_run trace xstat -c '%{mnt_id}' a
	refute_trace trace 'mountinfo|STATX_MNT_ID_UNIQUE|0x4000 /\*'
}

@test "%{mnt_id_unique}: its own statx, only when shown; one per mount, not the reusable id" {
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		touch "$D/a" "$D/b"
		trace_run "$BATS_TEST_TMPDIR/trace" xstat -c "%{mnt_id} %{mnt_id_unique}" "$D/a" "$D/b" /
	'
	local -a a b r
	read -ra a <<<"${lines[0]}"
	read -ra b <<<"${lines[1]}"
	read -ra r <<<"${lines[2]}"
	assert_equal "${a[*]}" "${b[*]}"
	((a[1] >= 2147483648 && a[1] != a[0] && r[1] != a[1]))
	# (strace 6.1 does not know the bit's name)
	assert_equal "$(grep -Ec 'statx\(.*, (STATX_MNT_ID_UNIQUE|0x4000 /\* STATX_\?\?\? \*/), ' "$BATS_TEST_TMPDIR/trace")" 3
}

@test "xfs: direct I/O alignment as O_DIRECT itself has it, atomic-write limits as xfs_io's stx_mask says" {
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		cd "$D" || exit 1
		xfs_io -f -c "pwrite 0 64k" f >/dev/null
		read -r mem off rd min max opt segs aw <<<"$(xstat -c "%{dio_mem_align} %{dio_offset_align} %{dio_read_offset_align} %{atomic_write_unit_min} %{atomic_write_unit_max} %{atomic_write_unit_max_opt} %{atomic_write_segments_max} %{atomic_write}" f)"
		echo "$mem $off $rd $min $max $opt $segs $aw"
		xfs_io -c "statx -r -m 0x7fffffff" f | sed -n "s/^stat.mask = //p"
		xfs_io -d -c "pread -b $off $off $off" f >/dev/null 2>&1 && echo aligned-ok
		xfs_io -d -c "pread -b $off $((off / 2)) $off" f 2>&1 | grep -q "Invalid argument" && echo misaligned-einval
	'
	read -r mem off rd min max opt segs aw <<<"${lines[0]}"
	((mem >= 1 && off >= 512 && rd >= 1))
	(( ${lines[1]} & 0x10000 ))
	((min > 0 && max >= min && segs >= 1))
	assert_equal "$aw" set
	assert_line --index 2 aligned-ok
	assert_line --index 3 misaligned-einval
}

@test "btrfs: %{subvol} is btrfs's root id of the file's subvolume" {
	fs_require btrfs
	command -v btrfs >/dev/null || skip "needs btrfs"
	run -0 --separate-stderr fs_run btrfs '
		btrfs -q subvolume create "$D/sv" >/dev/null && touch "$D/sv/f" "$D/g" || exit 1
		xstat -c %{subvol} "$D/sv/f" "$D/g"
		btrfs inspect-internal rootid "$D/sv/f"
		btrfs inspect-internal rootid "$D/g"
	'
	assert_equal "${lines[0]}" "${lines[2]}"
	assert_equal "${lines[1]}" "${lines[3]}"
	assert_equal "${lines[1]}" 5
}

@test "a FUSE mount that no longer answers, elsewhere in the mount table, never holds up a local file's mount fields" {
	fs_require ntfs-3g
	local here=$BATS_TEST_TMPDIR/local
	touch "$here"
	run -0 --separate-stderr fs_run ntfs-3g '
		fuse_stop
		timeout 20 xstat -c "%{mount_point}|%{fstype}|%{offline}|%{noatime}" "'"$here"'"; echo "rc=$?"
		timeout 20 xstat --json -a "'"$here"'" >/dev/null; echo "rc=$?"
		fuse_cont
	'
	assert_line --index 0 "$(findmnt -no TARGET -T "$here")|$(findmnt -no FSTYPE -T "$here")|clear|clear"
	assert_line --index 1 rc=0
	assert_line --index 2 rc=0
}

@test "'-' (standard input): the lookups reach the open file, as the same file named" {
	touch f
	setfattr -n user.fattr.offline -v 1 f
	chattr +d f 2>/dev/null || skip "this file system keeps no nodump flag"
	local fmt='%{offline} %{nodump} %{noatime} %{nocow} %{mount_point} %{ino} %{mnt_id_unique}'
	run -0 --separate-stderr xstat -c "$fmt" f
	local want=$output
	run -0 --separate-stderr xstat -c "$fmt" - <f
	assert_output "$want"
	[[ $want == "set set clear "* ]]
}
