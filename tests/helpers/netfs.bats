#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/helpers/netfs.bash itself: GlusterFS (two volumes, each mounted by
# two clients) and rclone's WebDAV server and mount come up in private
# namespaces on 127.0.0.1 only, netfs_run puts back what a script stopped
# and kills what it left running, and nothing at all is left once
# netfs_stop ran or the process that started them died.
# bats file_tags=helpers,netfs

# Scripts for netfs_run are single-quoted: they expand inside the namespace.
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
}

# Nothing of NETFS_DIR is a mount or on a process's command line here.
assert_netfs_gone() {
	local dir=$1 left f
	if grep -F "$dir" /proc/self/mountinfo; then
		fail "a mount of the test is left in the host's table"
	fi
	printf '%s\n' "$dir" >"$BATS_TEST_TMPDIR/gone.pat"
	left=$(grep -lasF -f "$BATS_TEST_TMPDIR/gone.pat" /proc/[0-9]*/cmdline || :)
	if [[ -n $left ]]; then
		fail "processes of the test are left: $(for f in $left; do tr '\0' ' ' <"$f"; echo; done)"
	fi
}

@test "gluster: two volumes, each mounted by two clients, served on 127.0.0.1 only" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		for m in "$DIST_A" "$DIST_B" "$REPL_A" "$REPL_B"; do findmnt -n -o FSTYPE,SOURCE "$m"; done
		echo a >"$DA/f"; cat "$DB/f" "$DBRICK/f"
		echo r >"$RA/f"; cat "$RB/f" "$RBRICK1/f" "$RBRICK2/f"
		[[ $(findmnt -n -o MAJ:MIN "$DIST_A") != $(findmnt -n -o MAJ:MIN "$DIST_B") ]] && echo two clients
		ip -o -4 addr show | awk "{ print \$2, \$4 }"
		getent hosts "$NETFS_HOST"'
	assert_output "$(printf '%s\n' 'fuse.glusterfs fattrs-gluster:fattrs-dist' \
		'fuse.glusterfs fattrs-gluster:fattrs-dist' 'fuse.glusterfs fattrs-gluster:fattrs-repl' \
		'fuse.glusterfs fattrs-gluster:fattrs-repl' a a r r r 'two clients' 'lo 127.0.0.1/8' \
		'127.0.0.1       localhost fattrs-gluster')"
	# The host's table knows nothing of it.
	! grep -F "$NETFS_DIR" /proc/self/mountinfo
}

@test "webdav: rclone mounts its own WebDAV server of a plain directory" {
	netfs_require webdav
	run -0 --separate-stderr netfs_run '
		findmnt -n -o FSTYPE "$DAV"
		echo w >"$DV/f"; cat "$DVS/f"
		ln "$DV/f" "$DV/g" 2>&1 | sed "s/.*: //"'
	assert_output "$(printf '%s\n' fuse.rclone w 'Input/output error')"
}

@test "gluster: netfs_run kills what a script left running and starts what it stopped" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		sleep 1000 &
		echo $! >"$NETFS_DIR/sleeper"
		brick_kill repl 2
		gluster_stop
		timeout 10 cat "$DA/x" 2>&1 | sed "s/.*: //"'
	assert_output 'Transport endpoint is not connected'
	run -0 --separate-stderr netfs_run '
		kill -0 "$(<"$NETFS_DIR/sleeper")" 2>/dev/null && echo sleeper alive
		echo b >"$DA/f"; cat "$DB/f"
		echo c >"$RA/f"; cat "$RB/f"
		heal_wait && cat "$RBRICK1/f" "$RBRICK2/f"'
	assert_output "$(printf '%s\n' b c c c)"
}

@test "gluster, webdav: nothing is left after netfs_stop, or once the starting process died" {
	netfs_require gluster
	local dir=$BATS_TEST_TMPDIR/netfs
	# A process that starts them and dies without netfs_stop.
	run -137 bash -c 'NETFS_DIR=$1; . "$2"; netfs_start gluster webdav && netfs_run "ls \$DA \$DV" &&
		kill -KILL $$' - "$dir" "$FATTRS_SRCDIR/tests/helpers/netfs.bash"
	local i
	# The watchdog looks every second.
	for ((i = 0; i < 100; i++)); do
		[[ -n $(grep -lasF "$dir" /proc/[0-9]*/cmdline) ]] || break
		sleep 0.1
	done
	assert_netfs_gone "$dir"
	# netfs_stop.
	NETFS_DIR=$dir netfs_start webdav
	NETFS_DIR=$dir netfs_stop
	assert_netfs_gone "$dir"
}
