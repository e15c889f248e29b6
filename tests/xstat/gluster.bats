#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat on GlusterFS through two clients, and on rclone's mount of its own
# WebDAV server (tests/helpers/netfs.bash): the mount, its type and source
# as findmnt(8) gives them, no birth time, and the fattrs flags as getfattr
# reads them on the brick; unsupported on the WebDAV mount.
# bats file_tags=xstat,netfs,gluster

# Scripts for netfs_run are single-quoted: they expand inside the namespaces.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	load '../helpers/netfs'
	netfs_setup_file gluster webdav
}

teardown_file() {
	load '../helpers/netfs'
	netfs_teardown_file
}

setup() {
	load '../helpers/common'
	load '../helpers/netfs'
	load '../helpers/fault'
}

@test "gluster: the mount, type and source are findmnt's, there is no birth time, and the fattrs flags are the brick's" {
	require_cmd findmnt getfattr
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		echo x >"$DA/f" || exit 2
		setfattr -n user.fattr.offline -v 1 "$DBRICK/f" && setfattr -n user.fattr.noscrub -v 1 "$DBRICK/f" || exit 3
		sleep 1.1	# past the clients'"'"' attribute caches
		for c in "$DB" "$DA"; do
			[[ $(xstat -c %m "$c/f") == "$(findmnt -n -o TARGET -T "$c/f")" ]] && echo "%m: findmnt'"'"'s"
			xstat "$c/f" | grep -F "Mount: $(findmnt -n -o TARGET -T "$c/f") ($(findmnt -n -o FSTYPE -T "$c/f") from $(findmnt -n -o SOURCE -T "$c/f"))" >/dev/null && echo "mount, type and source: findmnt'"'"'s"
			xstat -c "%w %W" "$c/f"
			xstat "$c/f" | grep -E "^ *(Birth|fattrs):"
			getfattr --absolute-names -d -m "^user\.fattr\." "$DBRICK/f" | grep = | sed "s/=.*//; s/user.fattr.//" | paste -sd" "
		done'
	local fattrs='          fattrs: set: offline (user.fattr.offline) noscrub (user.fattr.noscrub)'
	assert_output "$(printf '%s\n' "%m: findmnt's" "mount, type and source: findmnt's" '- 0' ' Birth: -' \
		"$fattrs" 'noscrub offline' "%m: findmnt's" "mount, type and source: findmnt's" '- 0' ' Birth: -' \
		"$fattrs" 'noscrub offline')"
}

@test "webdav: the fattrs flags read unsupported, without an error" {
	netfs_require webdav
	run -0 --separate-stderr netfs_run '
		cd "$DV" && echo x >f && mkdir d || exit 2
		xstat f d | grep -E "^ *fattrs:"
		xstat -c "%{offline} %{pinned}" f'
	assert_output "$(printf '%s\n' '          fattrs: unsupported: offline pinned integrity noscrub' \
		'          fattrs: unsupported: offline pinned integrity noscrub' 'unsupported unsupported')"
	assert_equal "$stderr" ""
}

# What a GlusterFS client answers a lookup of a name another client has
# just replaced, until its entry cache expires: ESTALE.  Injected here, on
# a local file: asked once more; a second ESTALE is an error, not a loop.
@test "a lookup answered ESTALE is asked once more, as the kernel does for NFS" {
	fault_require
	local f=$BATS_TEST_TMPDIR/f
	echo old >"$f" && chmod 640 "$f"
	run -0 --separate-stderr estale_run 1 "$f" xstat -c '%s %a' "$f"
	assert_output '4 640'
	run -1 --separate-stderr estale_run 1+ "$f" xstat -c '%s %a' "$f"
	assert_equal "$stderr" "xstat: cannot statx '$f': Stale file handle"
	assert_equal "$(grep -c 'ESTALE' "$BATS_TEST_TMPDIR/estale.trace")" 2
}
