#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate --probe [--json] [DIR]...: what each directory's filesystem
# supports, checked on real filesystems (tests/helpers/fs.bash) against
# findmnt and setfattr run in the same mount namespace, and that the probe
# leaves every directory as it found it.
# bats file_tags=tmpcreate

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (every FS_TYPES image)
load '../helpers/mounts'

# One JSON object per line on stdin (checked with jq, else python3); print
# each key=value (value as JSON) on a line, in the order of the object.
json_fields() {
	if command -v jq >/dev/null 2>&1; then
		jq -e -r 'if type == "object" then to_entries[] | "\(.key)=\(.value | tojson)" else error("not an object") end'
	else
		python3 -c '
import json, sys
for line in sys.stdin:
    obj = json.loads(line)
    assert isinstance(obj, dict), "not an object"
    for k, v in obj.items():
        print("%s=%s" % (k, json.dumps(v, separators=(",", ":"))))'
	fi
}

require_json() {
	command -v jq >/dev/null 2>&1 || command -v python3 >/dev/null 2>&1 ||
		skip "needs jq or python3 to read JSON"
}

# TYPE: the human block and the JSON object for $D, against findmnt and
# setfattr in the same namespace; $D keeps exactly what it had.
probe_on() {
	local type=$1 fstype target source xattr json
	local -a want
	fs_require "$type"
	require_cmd findmnt setfattr
	require_json
	run -0 --separate-stderr fs_run "$type" '
		: >"$D/keep" && mkdir "$D/sub" && ln -s keep "$D/link" || exit
		findmnt -rno FSTYPE,TARGET,SOURCE --target "$D" || exit
		if setfattr -n user.test -v 1 "$D/keep" 2>/dev/null; then
			setfattr -x user.test "$D/keep" && echo xattr=true
		else
			echo xattr=false
		fi
		tmpcreate --probe "$D" && tmpcreate --probe --json "$D"'
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" ''
	assert_equal "${#lines[@]}" 11
	read -r fstype target source <<<"${lines[0]}"
	xattr=${lines[1]#xattr=}
	[[ $type != ramfs ]] || assert_equal "$xattr" false

	if [[ $type == ntfs-3g ]]; then
		want=(
			"$D:"
			"  filesystem:        $fstype on $target ($source)"
			"  O_TMPFILE:         no (Operation not supported)"
			"  link unnamed:      not applicable"
			"  RENAME_NOREPLACE:  no (Invalid argument)"
			"  hard links:        yes"
		)
	else
		want=(
			"$D:"
			"  filesystem:        $fstype on $target ($source)"
			"  O_TMPFILE:         yes"
			"  link unnamed:      AT_EMPTY_PATH"
			"  RENAME_NOREPLACE:  yes"
			"  hard links:        yes"
		)
	fi
	if [[ $xattr == true ]]; then
		want+=("  user xattrs:       yes")
	else
		want+=("  user xattrs:       no (Operation not supported)")
	fi
	if [[ $type == ntfs-3g ]]; then
		want+=("  auto method:       named (O_TMPFILE is not supported here: Operation not supported)")
	else
		want+=("  auto method:       tmpfile (O_TMPFILE works here)")
	fi
	assert_equal "$(printf '%s\n' "${lines[@]:2:8}")" "$(printf '%s\n' "${want[@]}")"

	json=${lines[10]}
	want=(
		"dir=\"$D\""
		"fstype=\"$fstype\""
		"mount_point=\"$target\""
		"source=\"$source\""
	)
	if [[ $type == ntfs-3g ]]; then
		want+=(
			'o_tmpfile=false'
			'o_tmpfile_error="Operation not supported"'
			'link=null'
			'rename_noreplace=false'
			'hard_links=true'
			"user_xattr=$xattr"
			"writable=true"
			"create_error=null"
			'method="named"'
			'reason="O_TMPFILE is not supported here: Operation not supported"'
		)
	else
		want+=(
			'o_tmpfile=true'
			'o_tmpfile_error=null'
			'link="AT_EMPTY_PATH"'
			'rename_noreplace=true'
			'hard_links=true'
			"user_xattr=$xattr"
			"writable=true"
			"create_error=null"
			'method="tmpfile"'
			'reason="O_TMPFILE works here"'
		)
	fi
	run -0 json_fields <<<"$json"
	assert_equal "$output" "$(printf '%s\n' "${want[@]}")"

	# Both probes left the directory as it was.
	assert_equal "$(fs_ls)" "$(printf '%s\n' keep link sub)"
}

# bats test_tags=mount
@test "ext4: --probe reports O_TMPFILE, AT_EMPTY_PATH, RENAME_NOREPLACE and xattrs, as text and JSON" {
	probe_on ext4
}

# bats test_tags=mount
@test "xfs: --probe reports O_TMPFILE, AT_EMPTY_PATH, RENAME_NOREPLACE and xattrs, as text and JSON" {
	probe_on xfs
}

# bats test_tags=mount
@test "btrfs: --probe reports O_TMPFILE, AT_EMPTY_PATH, RENAME_NOREPLACE and xattrs, as text and JSON" {
	probe_on btrfs
}

# bats test_tags=mount
@test "tmpfs: --probe reports O_TMPFILE, AT_EMPTY_PATH, RENAME_NOREPLACE and xattrs, as text and JSON" {
	probe_on tmpfs
}

# bats test_tags=mount
@test "ramfs: --probe reports O_TMPFILE but no user xattrs, as text and JSON" {
	probe_on ramfs
}

# bats test_tags=mount
@test "ntfs-3g: --probe reports no O_TMPFILE, no RENAME_NOREPLACE and the named method, as text and JSON" {
	probe_on ntfs-3g
}

@test "a missing directory is reported and the other directories are still probed" {
	local ok=$BATS_TEST_TMPDIR/ok miss=$BATS_TEST_TMPDIR/missing
	mkdir "$ok"
	: >"$ok/keep"
	run -1 --separate-stderr tmpcreate --probe "$ok" "$miss" "$ok"
	# shellcheck disable=SC2154
	assert_equal "$stderr" "tmpcreate: cannot probe '$miss': No such file or directory"
	assert_equal "${#lines[@]}" 16
	assert_equal "${lines[0]}" "$ok:"
	assert_equal "${lines[8]}" "$ok:"

	run -1 --separate-stderr tmpcreate --probe --json "$miss" "$ok"
	assert_equal "$stderr" "tmpcreate: cannot probe '$miss': No such file or directory"
	assert_equal "${#lines[@]}" 1
	assert_regex "${lines[0]}" "^\\{\"dir\":\"$ok\","
	assert_equal "$(ls -A "$ok")" keep
}

@test "a regular file is not probed: Not a directory" {
	local f=$BATS_TEST_TMPDIR/file
	: >"$f"
	run -1 --separate-stderr tmpcreate --probe "$f"
	assert_output ''
	# shellcheck disable=SC2154
	assert_equal "$stderr" "tmpcreate: cannot probe '$f': Not a directory"
}

# The O_TMPFILE open of a directory (strace -P: only calls naming it) fails
# with an error that tells nothing of the filesystem: the probe stops there,
# prints no table, and makes nothing (the named try is not made).
@test "a directory whose O_TMPFILE try gets an I/O error, or finds it gone, is not probed" {
	local d=$BATS_TEST_TMPDIR/d e
	fault_require
	mkdir "$d"
	for e in EIO:'Input/output error' ENOENT:'No such file or directory' \
		ECONNABORTED:'Software caused connection abort'; do
		run -1 --separate-stderr env ASAN_OPTIONS="$FAULT_ASAN_OPTIONS" \
			strace -qq -o /dev/null -P "$d" -e trace=openat -e "inject=openat:error=${e%%:*}" \
			tmpcreate --probe "$d"
		assert_output ''
		# shellcheck disable=SC2154
		assert_equal "$stderr" "tmpcreate: cannot probe '$d': ${e#*:}"
		assert_equal "$(ls -A "$d")" ''
	done
}

@test "without DIR, --probe probes \$TMPDIR" {
	local t=$BATS_TEST_TMPDIR/t
	mkdir "$t"
	require_json
	TMPDIR=$t run -0 --separate-stderr tmpcreate --probe --json
	assert_equal "$(json_fields <<<"$output" | head -n 1)" "dir=\"$t\""
	TMPDIR=$t run -0 --separate-stderr tmpcreate --probe
	assert_equal "${lines[0]}" "$t:"
	assert_equal "$(ls -A "$t")" ''
}

# bats test_tags=mount
@test "without DIR and without \$TMPDIR, --probe probes /tmp" {
	local top
	require_root "put a scratch tmpfs over /tmp"
	require_json
	# /tmp gets a tmpfs of its own in a private mount namespace; the build
	# tree (often under /tmp) is bound back in place through a descriptor.
	top=$(command -v tmpcreate)
	top=${top%/*}
	[[ $top == "$FATTRS_BUILDDIR"/* ]] && top=$FATTRS_BUILDDIR
	run -0 --separate-stderr unshare -m --propagation private -- bash -c '
		exec 8<"$1" &&
		mount -t tmpfs fattrs-tmp /tmp &&
		mkdir -p "$1" && mount -c --bind /proc/self/fd/8 "$1" &&
		exec 8<&- || exit 125
		echo "/tmp before:" $(ls -A /tmp) >&2
		env -u TMPDIR tmpcreate --probe --json || exit
		echo "/tmp after:" $(ls -A /tmp) >&2
		TMPDIR= tmpcreate --probe --json' _ "$top"
	assert_equal "${#lines[@]}" 2
	assert_equal "$(json_fields <<<"${lines[0]}" | head -n 3)" "$(printf '%s\n' 'dir="/tmp"' 'fstype="tmpfs"' 'mount_point="/tmp"')"
	assert_equal "$(json_fields <<<"${lines[1]}" | head -n 1)" 'dir="/tmp"'
	# shellcheck disable=SC2154
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[1]#*:}" "${stderr_lines[0]#*:}"
}

# bats test_tags=mount
@test "a read-only directory is still probed: nothing can be made there, and it says why" {
	fs_require tmpfs
	require_json
	run -0 --separate-stderr fs_run tmpfs '
		mount -o remount,ro "$MNT" || exit 125
		tmpcreate --probe "$D" && tmpcreate --probe --json "$D"
		rc=$?
		mount -o remount,rw "$MNT"
		exit $rc'
	# shellcheck disable=SC2154
	assert_equal "$stderr" ''
	assert_line --index 2 --regexp '^  O_TMPFILE: +no \(Read-only file system\)$'
	assert_line --index 4 --regexp '^  RENAME_NOREPLACE: +unknown$'
	assert_line --index 5 --regexp '^  hard links: +unknown$'
	assert_line --index 7 --regexp '^  auto method: +none: no file can be made here \(Read-only file system\)$'
	run -0 json_fields <<<"${lines[8]}"
	assert_line 'writable=false'
	assert_line 'create_error="Read-only file system"'
	assert_line 'method=null'
	assert_line 'rename_noreplace=null'
	assert_line 'hard_links=null'
}

@test "--json is valid JSON for any directory name; names that are not UTF-8 come as byte arrays" {
	require_json
	command -v jq >/dev/null 2>&1 || skip "needs jq to compare the decoded names"
	local nl=$BATS_TEST_TMPDIR/$'a\nb "q" \\ \x01 é' bad=$BATS_TEST_TMPDIR/$'bad\xff'
	mkdir "$nl" "$bad"
	run -0 --separate-stderr tmpcreate --probe --json "$nl" "$bad"
	assert_equal "${#lines[@]}" 2
	# The first decodes to the very name (jq -j: no newline added).
	assert_equal "$(jq -j '.dir' <<<"${lines[0]}")" "$nl"
	# The second is its bytes, one number each.
	local bytes
	bytes=$(printf '%s' "$bad" | od -An -tu1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//; s/ /,/g')
	assert_equal "$(jq -c '.dir' <<<"${lines[1]}")" "[$bytes]"
	# The human block quotes a name that would not print unambiguously.
	run -0 --separate-stderr tmpcreate --probe "$bad"
	assert_equal "${lines[0]}" "'${BATS_TEST_TMPDIR}/bad\\377':"
}
