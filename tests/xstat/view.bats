#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat's default view (xstat FILE under its own name): GNU stat's lines
# first, byte for byte, then the mount, direct I/O, subvolume, atomic
# writes and the flags; every named field of the table on it; -a for the
# rest; GNU's outputs kept for -f, -t, a format, and the name "stat".
# The same on every file system: tests/xstat/matrix.bats.
# bats file_tags=xstat

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/stat-compat'
	GNU_STAT=${GNU_STAT:-/usr/bin/stat}
	cd "$BATS_TEST_TMPDIR" || return
}

# The view's labels after GNU's lines, in order, for FILE (-a: ARGS); not
# the state words of a flag line's continuation ("unsupported:" under the value).
labels() {
	xstat "$@" | sed -n '/^ Birth: /,$p' | sed '/^ \{18\}/d' |
		sed -n 's/^ *\([A-Za-z][A-Za-z /-]*\): .*/\1/p' | sed 1d
}

# The named fields of --help outside the first two groups (file, time: GNU's lines show them).
view_fields() {
	xstat --help | sed -n '/^Named directives/,$p' | awk '
		/^$/ { if (seen) para++; next }
		/^  %\{/ { seen = 1; if (para >= 2) { sub(/^  %\{/, ""); sub(/\}.*/, ""); print } }'
}

@test "xstat FILE begins with GNU stat's default output, byte for byte, for every kind of file" {
	make_fixtures fix
	cd fix || return
	local f n
	for f in * . ..; do
		"$GNU_STAT" -- "$f" >gnu.out
		n=$(wc -l <gnu.out)
		xstat -- "$f" | head -n "$n" >ours.out
		cmp gnu.out ours.out || fail "the view of $(printf %q "$f") differs from GNU stat's first $n lines: $(diff gnu.out ours.out)"
	done
}

@test "the view's lines, in order, and an empty line between two files" {
	echo data >f
	run -0 labels f
	assert_output "$(printf '%s\n' Mount 'Mount options' 'Direct I/O' Subvolume 'Atomic write' \
		Attributes 'Kernel flags' 'Project id' fattrs)"
	run -0 xstat f f
	assert_equal "$(grep -c '^  File: f$' <<<"$output")" 2
	assert_equal "$(grep -c '^$' <<<"$output")" 1
	[[ $output == *$'\n\n  File: f\n'* ]]
}

@test "-a adds the unique mount id and the attribute word, and more kernel flags" {
	echo data >f
	run -0 labels -a f
	assert_line 'Unique mount id'
	assert_line 'Mount root'
	assert_line 'Attribute word'
	run -0 xstat -a f
	# the same unique id as %{mnt_id_unique}, the same word as %{attributes}
	assert_line --regexp "^ +Unique mount id: $(xstat -c '%{mnt_id_unique}' f)\$"
	assert_line --regexp "^ +Attribute word: (0x)?$(xstat -c '%{attributes}' f) of mask 0x$(xstat -c '%{attributes_mask}' f)\$"
	local short long
	short=$(xstat f | wc -l) long=$(xstat -a f | wc -l)
	((long > short))
}

@test "the default view fits a terminal: at most 24 lines, at most 80 columns but for long values" {
	echo data >f
	run -0 xstat f
	((${#lines[@]} <= 24)) || fail "${#lines[@]} lines"
	local l
	for l in "${lines[@]}"; do
		[[ $l == *Mount* || $l == *File:* ]] && continue	# names and mount options are what they are
		((${#l} <= 80)) || fail "too wide: $l"
	done
}

@test "every named field of the table outside GNU's lines is on the view (-a), with the value %{name} prints" {
	echo data >f
	setfattr -n user.fattr.offline -v 1 f 2>/dev/null || :
	local view name value flags=0
	view=$(xstat -a f | sed -n '/^ Birth: /,$p')
	while read -r name; do
		value=$(xstat -c "%{$name}" f)
		case $value in
		set | clear | unsupported | invalid)
			flags=$((flags + 1))
			grep -Eq "(^| )$name( |,|\$)" <<<"$view" || fail "flag $name is not on the view" ;;
		-)
			grep -q 'not available' <<<"$view" || fail "$name is not available, and the view does not say so" ;;
		*)
			grep -qF -- "$value" <<<"$view" || fail "$name ($value) is not on the view:"$'\n'"$view" ;;
		esac
	done < <(view_fields)
	((flags >= 20))
}

@test "a flag reads by state: set, clear, unsupported; the fattrs flags say where a set one was found" {
	require_cmd setfattr
	echo data >f
	setfattr -n user.fattr.offline -v 1 f || skip "no user xattrs here"
	setfattr -n user.fattr.pinned -v maybe f
	run -0 --separate-stderr xstat f
	assert_equal "$stderr" "xstat: warning: 'f': user.fattr.pinned holds 'maybe', neither 1 nor 0: the flag reads as invalid"
	assert_line --regexp '^ +fattrs: set: offline \(user\.fattr\.offline\)$'
	assert_line --regexp '^ +clear: integrity noscrub$'
	assert_line --regexp '^ +invalid: pinned \(user\.fattr\.pinned\)$'
	refute_line --regexp '^ +other: '
	# getfattr (attr) sees the same
	run -0 getfattr --absolute-names -d -m '^user\.fattr\.' f
	assert_line 'user.fattr.offline="1"'
	assert_line 'user.fattr.pinned="maybe"'
	run -0 xstat f
	assert_line --regexp '^ +Kernel flags: (set|clear|unsupported): '
}

@test "a field the kernel did not return reads 'not available', never 0" {
	# tmpfs returns no STATX_DIOALIGN (doc/kernel.md §1.5), and no subvolume
	require_root "to mount a tmpfs in a private namespace"
	run -0 unshare -m --propagation private bash -c '
		mkdir -p m && mount -t tmpfs fattrs-view m && echo x >m/f &&
		xstat m/f && xfs_io -r -c "statx -r -m 0x3ffff" m/f'
	assert_line --regexp '^ +Direct I/O: not available$'
	assert_line --regexp '^ +Subvolume: not available$'
	assert_line --regexp '^ +Mount: .*/m \(tmpfs from fattrs-view\), id [0-9]+$'
	# xfs_io (xfsprogs) agrees: neither DIOALIGN (0x2000) nor SUBVOL (0x8000) is in stx_mask
	local mask
	mask=$(sed -n 's/^stat\.mask = //p' <<<"$output")
	(((mask & 0x2000) == 0 && (mask & 0x8000) == 0))
}

@test "-f, -t and a format keep GNU stat's outputs under xstat's own name" {
	echo data >f
	run -0 xstat -t f
	assert_output "$("$GNU_STAT" -t f)"
	run -0 xstat -f -c '%n %T' .
	assert_output "$("$GNU_STAT" -f -c '%n %T' .)"
	run -0 xstat -c '%n %s' f
	assert_output 'f 5'
}

@test "under the name stat the default output is GNU's, not the view" {
	echo data >f
	mkdir bin && ln -s "$(command -v xstat)" bin/stat
	run -0 bin/stat f
	assert_output "$("$GNU_STAT" f)"
}

@test "a file that cannot be looked at: named on stderr, the others still shown, exit 1" {
	echo data >f
	run -1 --separate-stderr xstat nothing f
	assert_equal "$stderr" "xstat: cannot statx 'nothing': No such file or directory"
	[[ $output == '  File: f'* ]]
	assert_line --regexp '^ +fattrs: '
}

@test "a mount point or source with a space or a newline is quoted as the File: line quotes a name" {
	require_root "to mount a tmpfs in a private namespace"
	run -0 unshare -m --propagation private bash -c '
		mkdir "a b" $'"'"'new\nline'"'"' && mount -t tmpfs "src x" "a b" && mount -t tmpfs plain $'"'"'new\nline'"'"' &&
		xstat "a b" && xstat new?line'
	assert_line "           Mount: '$BATS_TEST_TMPDIR/a b' (tmpfs from 'src x'), id $(sed -nE 's/.*\), id ([0-9]+)$/\1/p' <<<"${lines[8]}")"
	assert_line --regexp "^ +Mount: '$BATS_TEST_TMPDIR/new'\\$'\\\\n''line' \\(tmpfs from plain\\), id [0-9]+\$"
}

@test "a mount the mount table does not list (lazily unmounted): the Mount line gives its id and says so" {
	require_root "to mount a tmpfs in a private namespace"
	run -0 unshare -m --propagation private bash -c '
		mkdir -p m && mount -t tmpfs fattrs-gone m && echo x >m/f && cd m && umount -l "$OLDPWD/m" &&
		xstat f && xstat -c "%{mnt_id} %{mount_point}" f && ! grep -q fattrs-gone /proc/self/mountinfo'
	local id=${lines[-1]% -}
	[[ $id =~ ^[0-9]+$ ]] || fail "%{mnt_id}: ${lines[-1]}"
	assert_line "           Mount: id $id (not in this namespace's mount table)"
	assert_line --regexp '^ +Mount options: not available$'
	refute_output --partial 'not available (not available'
}

@test "a bind mount of a subdirectory: the view's mount is the bind, its root the subdirectory, as findmnt says" {
	require_root "to mount in a private namespace"
	require_cmd findmnt
	run -0 unshare -m --propagation private bash -c '
		mkdir -p t b && mount -t tmpfs fattrs-bind t && mkdir t/sub && echo x >t/sub/f &&
		mount --bind t/sub b && xstat -a b/f &&
		findmnt -rn -o TARGET,FSTYPE,SOURCE,FSROOT,ID -T "$PWD/b/f"'
	local target fstype source fsroot id
	read -r target fstype source fsroot id <<<"${lines[-1]}"
	[[ $target == "$BATS_TEST_TMPDIR/b" && $fsroot == /sub ]] || fail "findmnt: ${lines[-1]}"
	source=${source%%\[*}	# findmnt shows a bind mount's source as SOURCE[FSROOT]
	assert_line --regexp "^ +Mount: $target \\($fstype from $source\\), id $id\$"
	assert_line --regexp "^ +Mount root: $fsroot\$"
}

@test "a lookup that fails (llistxattr EIO): the flags read 'error', the message names the file, the next file is shown, exit 1" {
	load '../helpers/fault'
	fault_require
	nosys_require
	echo data >f
	echo data >g
	# the path calls, into which strace injects (tests/helpers/fault.bash)
	run -1 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" llistxattr EIO -- "$NOSYS" xattrat xstat f g
	assert_equal "$stderr" "xstat: cannot read the fattrs flags of 'f': Input/output error"$'\n'"xstat: cannot read the fattrs flags of 'g': Input/output error"
	assert_equal "$(grep -c '^ *fattrs: error: offline pinned integrity noscrub$' <<<"$output")" 2
	refute_line --regexp '^ +fattrs: not available$'
	assert_line '  File: g'
}

@test "%{attributes_mask} and %{atomic_write} alone: the kernel's whole mask, as xfs_io asking for every field sees it" {
	# The kernel reports STATX_ATTR_WRITE_ATOMIC only to a statx asking for
	# STATX_WRITE_ATOMIC: ext4 says 0x303874 without it, 0x703874 with it.
	require_cmd xfs_io
	echo data >f
	local want
	want=$(xfs_io -r -c 'statx -r -m 0x3bfff' f | sed -n 's/^stat\.attributes_mask = 0x//p')
	run -0 xstat -c '%{attributes_mask}' f
	assert_output "$want"
	run -0 xstat -c '%{atomic_write}' f
	if ((0x$want & 0x400000)); then refute_output unsupported; else assert_output unsupported; fi
}

@test "other names under user.fattr.: an 'other:' line of the fattrs, quoted when they need it; none without them" {
	require_cmd setfattr
	echo data >f
	setfattr -n user.fattr.zzz -v 1 f || skip "no user xattrs here"
	setfattr -n 'user.fattr.a b' -v 1 f
	run -0 --separate-stderr xstat f
	# in the order llistxattr gives them
	assert_line --regexp "^ +other: '(user\.fattr\.a b,user\.fattr\.zzz|user\.fattr\.zzz,user\.fattr\.a b)'\$"
	# the same names as getfattr (attr) lists
	run -0 getfattr --absolute-names -m '^user\.fattr\.' f
	assert_line 'user.fattr.zzz'
	echo data >g
	run -0 xstat g
	refute_line --regexp '^ +other: '
	refute_line --regexp '^ +fattrs_other: '
}

@test "-a on a file the caller may not open: the view, its flags that need an open 'not readable' and why, exit 0" {
	require_root
	require_cmd setpriv
	local w
	w=$(mktemp -d /tmp/xstat-view.XXXXXX)
	chmod 755 "$w" && touch "$w/secret" && chmod 600 "$w/secret"
	local -a nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	run -0 --separate-stderr "${nobody[@]}" xstat -a "$w/secret"
	assert_equal "$stderr" ''
	assert_output --partial '  File: '
	assert_output --partial 'Project id: '
	assert_output --regexp 'not readable \(open: Permission denied\): [a-z ]*dirsync'
	refute_output --partial 'error:'
	# the same as root: nothing is not readable
	run -0 xstat -a "$w/secret"
	refute_output --partial 'not readable'
	# a format prints "-", --json null, still without a message
	run -0 --separate-stderr "${nobody[@]}" xstat -c '%{dirsync}|%{immutable}' "$w/secret"
	assert_equal "$stderr" ''
	assert_output --regexp '^-\|(clear|set)$'
	run -0 --separate-stderr "${nobody[@]}" xstat --json -a "$w/secret"
	assert_equal "$stderr" ''
	assert_equal "$(jq -c '[.dirsync, .immutable]' <<<"$output")" '[null,"clear"]'
	rm -rf "$w"
}
