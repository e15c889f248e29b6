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
#   FS_FUNCS='NAME...' fs_run TYPE SCRIPT
#                        the shell functions NAME... of the test (its .bats
#                        file or a helper it loaded) are defined inside too,
#                        for SCRIPT (and FS_LOWER) to call: fs_run passes
#                        on their text (declare -f).  Set FS_FUNCS before one
#                        fs_run, or for the whole test (in setup, or in a
#                        helper's function that calls fs_run).  List every
#                        function SCRIPT calls, those they call too; a name
#                        fs_run defines itself (below) is refused.
#
# TYPE: tmpfs ramfs ext4 xfs btrfs ntfs-3g (all of them: "${FS_TYPES[@]}").  The loop images live in
# $BATS_FILE_TMPDIR/fs (sparse), the mount point is $BATS_TEST_TMPDIR/mnt.
#
# Network and stacked types (all of them: "${NET_FS_TYPES[@]}", never part
# of FS_TYPES; tests/README.md has what each one does):
#   sshfs          sshfs over an OpenSSH server that fs_run starts for the
#                  test on 127.0.0.1 (a free port, throw-away host and user
#                  keys), and stops at the end
#   sshfs-rename   the same with -o workaround=rename
#   sshfs-nocache  the same with -o cache=no,dir_cache=no
#   bindfs         bindfs (FUSE, libfuse 2 high-level API): a passthrough
#                  mirror of a plain directory
#   overlay        overlayfs over tmpfs layers (lower, upper, work)
#   overlay-ext4   overlayfs whose layers are on one ext4 image (loop device)
#   cifs, nfs      the kernel's SMB 3.1.1 and NFSv4.2 clients: only in the guest
#                  of tests/vm, mounting its Samba share and knfsd export (a
#                  client of their own; not in NET_FS_TYPES)
# $SRV is the directory behind $MNT (sshfs*, bindfs: the directory served;
# overlay*: the upper layer) and $SD is $D there: the server side, read
# without the client.  fs_ls lists $SD for sshfs* and bindfs.  SCRIPT may
# call sshfs_mount, sshd_stop, sshd_start, sftp_kill, fuse_stop, fuse_cont,
# fuse_abort, fuse_asleep, fuse_settle and srv_ls (described at _FS_INNER).
#   FS_LOWER=SCRIPT0 fs_run overlay SCRIPT   SCRIPT0 runs before the overlay
#                  is mounted, in $D of the lower layer (copy-up tests)
#   FS_SFTP_ARGS='-P hardlink' fs_run sshfs SCRIPT   options of
#                  the server's sftp-server (-P: requests it refuses)
# Loop devices: "mount -o loop" attaches one with autoclear, umount (or the
# namespace dying) frees it; a test holds at most one at a time.
# ntfs-3g needs no loop device: it opens the image file itself (FUSE).

# Every type fs_run knows: fs_setup_file (or fs_prepare "${FS_TYPES[@]}")
# prepares them all.
FS_TYPES=(tmpfs ramfs ext4 xfs btrfs ntfs-3g)
# The network and stacked ones: fs_prepare "${NET_FS_TYPES[@]}".
NET_FS_TYPES=(sshfs sshfs-rename sshfs-nocache bindfs overlay overlay-ext4)
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
	sshfs | sshfs-*)
		_fs_ssh_keys ;;
	bindfs)
		command -v bindfs >/dev/null || { echo "needs bindfs"; return 1; }
		[[ -c /dev/fuse ]] || { echo "needs FUSE (/dev/fuse is missing)"; return 1; } ;;
	cifs | nfs)
		[[ -n ${VM_SMB-} ]] || { echo "needs the guest of tests/vm (make vm-check)"; return 1; } ;;
	overlay | overlay-ext4)
		grep -qw overlay /proc/filesystems || modprobe -q overlay 2>/dev/null
		grep -qw overlay /proc/filesystems || { echo "needs overlayfs (no overlay module)"; return 1; }
		if [[ $type == overlay-ext4 ]]; then
			command -v mkfs.ext4 >/dev/null || { echo "needs mkfs.ext4"; return 1; }
			truncate -s 16M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1
		fi ;;
	*)
		echo "unknown filesystem type $type"; return 1 ;;
	esac || { echo "cannot make a $type image"; return 1; }
}

# The sshfs types' keys and server configuration, once per .bats file, in
# $FS_DIR/ssh: a throw-away host key (pinned in known_hosts under an alias),
# a user key that only 127.0.0.1 may use, an sshd_config template
# (@PORT@ is chosen at each start) and the ssh command sshfs runs.
_fs_ssh_keys() {
	local dir=$FS_DIR/ssh c sftp
	for c in sshfs ssh ssh-keygen; do
		command -v "$c" >/dev/null || { echo "needs $c"; return 1; }
	done
	[[ -x /usr/sbin/sshd ]] || { echo "needs sshd (openssh-server)"; return 1; }
	for sftp in /usr/lib/openssh/sftp-server /usr/libexec/openssh/sftp-server \
		    /usr/libexec/sftp-server ""; do
		[[ -x $sftp ]] && break
	done
	[[ -n $sftp ]] || { echo "needs sftp-server (openssh-server)"; return 1; }
	[[ -c /dev/fuse ]] || { echo "needs FUSE (/dev/fuse is missing)"; return 1; }
	[[ -e $dir/ssh ]] && return 0
	rm -rf "$dir" && mkdir -m 0700 "$dir" || return 1
	ssh-keygen -q -t ed25519 -N '' -C fattrs-test-host -f "$dir/host_key" &&
	ssh-keygen -q -t ed25519 -N '' -C fattrs-test-user -f "$dir/user_key" ||
		{ echo "ssh-keygen failed"; return 1; }
	printf 'from="127.0.0.1",restrict %s\n' "$(<"$dir/user_key.pub")" >"$dir/authorized_keys"
	printf 'fattrs-test-sshd %s\n' "$(cut -d' ' -f1,2 "$dir/host_key.pub")" >"$dir/known_hosts"
	# StrictModes no: the key files live under /tmp, which is world
	# writable (sticky); the files themselves are 0600 in a 0700 directory.
	# HOME: sshd runs sftp-server through root's shell, and bash sources
	# ~/.bashrc when sshd runs it: slow (seconds), and output there would
	# break SFTP.  The key directory has no .bashrc.
	cat >"$dir/sshd_config.in" <<-EOF
		ListenAddress 127.0.0.1:@PORT@
		HostKey $dir/host_key
		PidFile none
		AuthorizedKeysFile $dir/authorized_keys
		AuthenticationMethods publickey
		PubkeyAuthentication yes
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		PermitRootLogin prohibit-password
		AllowUsers root
		StrictModes no
		UsePAM no
		UseDNS no
		X11Forwarding no
		AllowTcpForwarding no
		AllowAgentForwarding no
		AllowStreamLocalForwarding no
		PermitTunnel no
		PermitUserRC no
		PrintMotd no
		MaxStartups 100
		SetEnv HOME=$dir
		LogLevel ERROR
		Subsystem sftp $sftp @SFTP_ARGS@
	EOF
	cat >"$dir/ssh" <<-EOF
		#!/bin/sh
		exec ssh -F /dev/null -i '$dir/user_key' -o IdentitiesOnly=yes \\
		 -o IdentityAgent=none -o UserKnownHostsFile='$dir/known_hosts' \\
		 -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes \\
		 -o HostKeyAlias=fattrs-test-sshd -o BatchMode=yes -o LogLevel=ERROR \\
		 -o ControlMaster=no -o ControlPath=none "\$@"
	EOF
	chmod 0700 "$dir/ssh" && chmod 0600 "$dir"/*_key
}

# The script run inside the namespace: mount, run the test's script in a
# subshell, record the listing, clean up whatever happened.
# Arguments: TYPE IMAGE MNT LS-FILE SCRIPT FUNCS (the text of FS_FUNCS'
# functions); FS_DIR, FS_LOWER and FS_SFTP_ARGS come through the environment.
#
# What SCRIPT may call (sshfs*, bindfs, overlay* as noted):
#   sshfs_mount MOUNTPOINT [SSHFS-OPTION...]
#                   mount $SRV a second time (a second client of the same
#                   server, as another machine would be); unmounted at the end
#   sshd_stop       stop the server: the listening sshd and every session it
#                   started, sftp-server included (the clients see the
#                   connection close); sshd_start starts a new one
#   sftp_kill [SIG] kill only the sftp-server processes (default SIGKILL)
#   fuse_stop       SIGSTOP the FUSE daemon of $MNT (sshfs, bindfs): every
#                   request to $MNT then waits; fuse_cont resumes it
#   fuse_abort      abort the FUSE connection of $MNT (what cleanup does to a
#                   dead mount): requests waiting for the daemon fail with
#                   ECONNABORTED, later ones with ENOTCONN
#   fuse_asleep PID wait until process PID sleeps on a request to $MNT (its
#                   daemon stopped: the request waits until fuse_cont or
#                   fuse_abort)
#   fuse_settle     wait until the FUSE daemons have answered every request
#                   (libfuse removes a .fuse_hidden* name only then)
#   srv_ls [DIR]    ls -A of $SD (or DIR) once they have: what a program
#                   left on the server side after it exited
# FS_PID is the FUSE daemon of $MNT, SSHD_PID the listening sshd, SSHD_PORT
# its port.
# shellcheck disable=SC2016
_FS_INNER='
FS_TYPE=$1 FS_IMAGE=$2 MNT=$3 FS_LS=$4 FS_SCRIPT=$5 FS_FUNCS_TEXT=$6
FS_PID= FS_MOUNTED= FS_ERR=${MNT%/*}/mount.err FS_BASE=${MNT%/*}
FS_EXTRA_PIDS=() FS_EXTRA_MNTS=() SSHD_PID= SSHD_PORT=
FS_SSH=$FS_DIR/ssh SRV= SD= FS_DEAD=

# The descendants of PID (children first), from /proc.
_fs_descendants() {
	local p c
	for p in "$@"; do
		for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do
			_fs_descendants "$c"
			echo "$c"
		done
	done
}

# The processes of PID and its descendants whose command is NAME.
_fs_named() {
	local name=$1 p
	shift
	for p in $(_fs_descendants "$@"); do
		[[ $(cat /proc/"$p"/comm 2>/dev/null) == "$name" ]] && echo "$p"
	done
}

# Is PATH a mount point?  From the mount table, never by a stat of PATH
# (which would wait on a FUSE server that does not answer).
_fs_is_mount() {
	local id parent dev root mp rest
	while read -r id parent dev root mp rest; do
		[[ $mp == "$1" ]] && return 0
	done </proc/self/mountinfo
	return 1
}

# The device number (MAJ:MIN) of the mount at PATH, from the mount table.
_fs_dev_of() {
	local id parent dev root mp rest found=
	while read -r id parent dev root mp rest; do
		[[ $mp == "$1" ]] && found=$dev
	done </proc/self/mountinfo
	[[ -n $found ]] && echo "$found"
}

sshd_start() {
	local i try
	[[ -d /run/sshd ]] || mkdir -p -m 0755 /run/sshd || return 1
	for ((try = 0; try < 8; try++)); do
		SSHD_PORT=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
		sed "s/@PORT@/$SSHD_PORT/; s|@SFTP_ARGS@|${FS_SFTP_ARGS-}|" \
			"$FS_SSH/sshd_config.in" >"$FS_BASE/sshd_config" || return 1
		/usr/sbin/sshd -D -e -f "$FS_BASE/sshd_config" 2>>"$FS_BASE/sshd.log" &
		SSHD_PID=$!
		# Listening?  Read /proc/net/tcp (a connection would make sshd log).
		local hex
		printf -v hex "0100007F:%04X" "$SSHD_PORT"
		for ((i = 0; i < 200; i++)); do
			grep -q "^ *[0-9]*: $hex 00000000:0000 0A" /proc/net/tcp && return 0
			kill -0 "$SSHD_PID" 2>/dev/null || break
			sleep 0.01
		done
		kill "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
		SSHD_PID=
	done
	echo "fs_run: sshd does not start: $(tail -n 3 "$FS_BASE/sshd.log")" >&2
	return 1
}

sshd_stop() {
	[[ -n $SSHD_PID ]] || return 0
	local p pids
	pids=$(_fs_descendants "$SSHD_PID")
	kill "$SSHD_PID" $pids 2>/dev/null
	wait "$SSHD_PID" 2>/dev/null
	for p in $pids; do
		while kill -0 "$p" 2>/dev/null; do sleep 0.01; done
	done
	SSHD_PID=
}

sftp_kill() {
	local sig=${1:-KILL} p
	[[ -n $SSHD_PID ]] || return 1
	p=$(_fs_named sftp-server "$SSHD_PID")
	[[ -n $p ]] || { echo "sftp_kill: no sftp-server runs" >&2; return 1; }
	kill -s "$sig" $p
}

# sshfs_mount MOUNTPOINT [OPTION...]: mount $SRV there (foreground daemon,
# in the background); records it for cleanup.  Prints the daemon pid in
# FS_LAST_PID.
sshfs_mount() {
	local mp=$1 i pid
	shift
	[[ -d $mp ]] || mkdir -p "$mp" || return 1
	sshfs -f -o ssh_command="$FS_SSH/ssh" -p "$SSHD_PORT" "$@" \
		"root@127.0.0.1:$SRV" "$mp" 2>>"$FS_ERR" &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		_fs_is_mount "$mp" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.025
	done
	FS_EXTRA_PIDS+=("$pid") FS_EXTRA_MNTS+=("$mp")
	FS_LAST_PID=$pid
	_fs_is_mount "$mp"
}

fuse_stop() { kill -STOP "$FS_PID"; }
fuse_cont() { kill -CONT "$FS_PID"; }

# fuse_abort [MOUNTPOINT]: abort the FUSE connection of a mount ($MNT).
fuse_abort() {
	local dev ctl=/sys/fs/fuse/connections
	dev=$(_fs_dev_of "${1:-$MNT}") || return 1
	[[ -e $ctl/${dev#*:}/abort ]] ||
		mount -t fusectl fusectl "$ctl" 2>/dev/null || :
	echo 1 >"$ctl/${dev#*:}/abort"
}

# fuse_asleep PID [MOUNTPOINT]: wait until process PID sleeps on a request
# to a mount ($MNT) whose daemon fuse_stop stopped: the connection counts a
# request waiting, and PID is no longer running.  A request the connection
# is aborted under (fuse_abort) then fails with ECONNABORTED, one made
# after it with ENOTCONN.  Fails after 10 s or when PID is gone.
fuse_asleep() {
	local pid=$1 dev ctl=/sys/fs/fuse/connections i st
	dev=$(_fs_dev_of "${2:-$MNT}") || return 1
	[[ -e $ctl/${dev#*:}/waiting ]] ||
		mount -t fusectl fusectl "$ctl" 2>/dev/null || :
	for ((i = 0; i < 1000; i++)); do
		st=$(awk "{print \$3}" /proc/"$pid"/stat 2>/dev/null) || break
		[[ $st == [SD] && $(cat "$ctl/${dev#*:}/waiting" 2>/dev/null) == [1-9]* ]] && return 0
		sleep 0.01
	done
	echo "fuse_asleep: $pid does not wait on ${2:-$MNT}" >&2
	return 1
}

# fuse_settle: wait until the FUSE daemons of the mounts of the test ($MNT and
# those of sshfs_mount; sshfs*, bindfs) have answered every request the
# kernel queued for them (the "waiting" count of each connection reads 0).
# libfuse renames a file unlinked while open to .fuse_hidden* and removes
# it when it handles the RELEASE of the file, which the kernel sends in the
# background after the last close(2) -- also after the process has
# exited.  So the server side shows what a program left only once its
# daemon is done.  A stopped daemon is not waited for; fails after 10 s.
fuse_settle() {
	local mp dev ctl=/sys/fs/fuse/connections i p
	case $FS_TYPE in sshfs* | bindfs) ;; *) return 0 ;; esac
	for p in "$FS_PID" "${FS_EXTRA_PIDS[@]}"; do
		[[ $(awk "{print \$3}" /proc/"$p"/stat 2>/dev/null) == T ]] && return 0
	done
	for mp in "$MNT" "${FS_EXTRA_MNTS[@]}"; do
		dev=$(_fs_dev_of "$mp") || continue
		[[ -e $ctl/${dev#*:}/waiting ]] ||
			mount -t fusectl fusectl "$ctl" 2>/dev/null || :
		for ((i = 0; i < 1000; i++)); do
			[[ $(cat "$ctl/${dev#*:}/waiting" 2>/dev/null) == 0 ]] && break
			sleep 0.01
		done
		((i < 1000)) || { echo "fuse_settle: $mp: requests still waiting after 10 s" >&2; return 1; }
	done
}

# srv_ls [DIR]: ls -A of DIR ($SD; $D where there is no server side)
# once the FUSE daemons have settled (fuse_settle).
srv_ls() {
	fuse_settle
	ls -A "${1:-${SD:-$D}}"
}

_fs_umount() {
	local mp=$1
	_fs_is_mount "$mp" || return 0
	case $FS_TYPE in
	sshfs* | bindfs)
		# A stopped or dead server must not hang the cleanup: abort
		# the connection first when the daemon is gone or stopped.
		if [[ -n $FS_DEAD ]]; then
			fuse_abort "$mp" 2>/dev/null
			umount -l "$mp"
			return
		fi ;;
	esac
	umount "$mp" 2>/dev/null || umount -l "$mp"
}

_fs_cleanup() {
	cd / || :
	local i p
	# Resume stopped daemons, and treat their mounts as dead: nothing
	# of cleanup may wait on them.
	for p in "$FS_PID" "${FS_EXTRA_PIDS[@]}"; do
		[[ -n $p ]] || continue
		if [[ $(awk "{print \$3}" /proc/"$p"/stat 2>/dev/null) == T ]]; then
			FS_DEAD=1
			kill -CONT "$p" 2>/dev/null
		fi
	done
	[[ -z $SSHD_PID ]] || kill -0 "$SSHD_PID" 2>/dev/null || FS_DEAD=1
	case $FS_TYPE in sshfs*) [[ -n $SSHD_PID ]] || FS_DEAD=1 ;; esac
	for ((i = ${#FS_EXTRA_MNTS[@]} - 1; i >= 0; i--)); do
		_fs_umount "${FS_EXTRA_MNTS[i]}"
	done
	[[ -n $FS_MOUNTED ]] && _fs_umount "$MNT"
	case $FS_TYPE in
	overlay*) umount "$FS_BASE/layers" 2>/dev/null || umount -l "$FS_BASE/layers" ;;
	esac
	if [[ -n $FS_PID || ${#FS_EXTRA_PIDS[@]} -gt 0 ]]; then
		# ntfs-3g writes the volume out after umount: wait for it, so the
		# next mount of the image finds it clean.
		for p in "$FS_PID" "${FS_EXTRA_PIDS[@]}"; do
			[[ -n $p ]] || continue
			for ((i = 0; i < 100; i++)); do
				kill -0 "$p" 2>/dev/null || break
				sleep 0.05
			done
			kill "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		done
	fi
	sshd_stop
	case $FS_TYPE in
	sshfs* | bindfs) [[ -n $SRV ]] && rm -rf "$SRV" ;;
	esac
}
# The functions of the test that FS_FUNCS named, for FS_LOWER and SCRIPT.
eval "$FS_FUNCS_TEXT"
trap _fs_cleanup EXIT
[[ -d $MNT ]] || mkdir -p "$MNT" || exit 125
DN=test-${BATS_TEST_NUMBER:-0}
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
sshfs*)
	SRV=$FS_BASE/srv
	rm -rf "$SRV" && mkdir -p "$SRV" && : >"$FS_ERR" && sshd_start &&
	case $FS_TYPE in
	sshfs) sshfs_mount "$MNT" ;;
	sshfs-rename) sshfs_mount "$MNT" -o workaround=rename ;;
	sshfs-nocache) sshfs_mount "$MNT" -o cache=no,dir_cache=no ;;
	*) echo "unknown type $FS_TYPE" >"$FS_ERR"; false ;;
	esac && {
		FS_PID=$FS_LAST_PID
		unset "FS_EXTRA_PIDS[-1]" "FS_EXTRA_MNTS[-1]"
	} ;;
bindfs)
	SRV=$FS_BASE/srv
	rm -rf "$SRV" && mkdir -p "$SRV" || exit 125
	bindfs -f --no-allow-other "$SRV" "$MNT" 2>"$FS_ERR" &
	FS_PID=$!
	for ((i = 0; i < 200; i++)); do
		_fs_is_mount "$MNT" && break
		kill -0 "$FS_PID" 2>/dev/null || break
		sleep 0.025
	done
	_fs_is_mount "$MNT" ;;
cifs)
	# The Samba share of the guest (tests/vm/guest.sh), a client of its own.
	mount -t cifs //127.0.0.1/share "$MNT" -o guest,vers=3.1.1,nosharesock 2>"$FS_ERR" &&
		SRV=$VM_SMB_SRV ;;
nfs)
	mount -t nfs4 -o vers=4.2,nosharecache 127.0.0.1:/ "$MNT" 2>"$FS_ERR" && SRV=$VM_NFS_SRV ;;
overlay*)
	L=$FS_BASE/layers
	mkdir -p "$L" && {
		if [[ $FS_TYPE == overlay-ext4 ]]; then
			for ((i = 0; i < 5; i++)); do
				mount -t ext4 -o loop "$FS_IMAGE" "$L" 2>"$FS_ERR" && break
				sleep 0.2
			done
			[[ $i -lt 5 ]] && rm -rf "$L"/lower "$L"/upper "$L"/work
		else
			mount -t tmpfs -o size=16m fattrs-layers "$L" 2>"$FS_ERR"
		fi
	} && LOWER=$L/lower UPPER=$L/upper WORK=$L/work &&
	mkdir "$LOWER" "$UPPER" "$WORK" && {
		if [[ -n ${FS_LOWER-} ]]; then
			mkdir "$LOWER/$DN" &&
			(D=$LOWER/$DN; cd "$LOWER/$DN" && eval "$FS_LOWER") >&2
		fi
	} && mount -t overlay -o "lowerdir=$LOWER,upperdir=$UPPER,workdir=$WORK" \
		fattrs-overlay "$MNT" 2>"$FS_ERR" && SRV=$UPPER
	export LOWER UPPER WORK ;;
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
D=$MNT/$DN
[[ -n $SRV ]] && SD=$SRV/$DN
if [[ -n ${FS_LOWER-} && -d $D ]]; then
	:
else
	mkdir "$D" 2>/dev/null || { rm -rf "$D" && mkdir "$D"; } || exit 125
fi
export MNT D FS_TYPE SRV SD FS_PID SSHD_PID SSHD_PORT
(eval "$FS_SCRIPT")
rc=$?
# The listing: on the server side where there is one (a dead or stopped
# server must not hang it), else through the mount.
case $FS_TYPE in
sshfs* | bindfs) srv_ls "$SD" >"$FS_LS" 2>&1 ;;
*) ls -A "$D" >"$FS_LS" 2>&1 ;;
esac
case $FS_TYPE in
tmpfs | ramfs | sshfs* | bindfs) ;;
overlay) ;;
*) cd / && rm -rf "$D" ;;
esac
exit $rc
'

# fs_run TYPE SCRIPT: see the top of this file.
fs_run() {
	local type=$1 script=$2 f funcs=
	# FS_FUNCS: the definitions of the test's functions, passed on as text.
	for f in ${FS_FUNCS-}; do
		if ! declare -F "$f" >/dev/null; then
			echo "fs_run: FS_FUNCS: $f is not a shell function" >&2
			return 125
		elif [[ $_FS_INNER == *$'\n'"$f() {"* ]]; then
			echo "fs_run: FS_FUNCS: $f is one of fs_run's own functions" >&2
			return 125
		fi
		funcs+=$(declare -f "$f")$'\n'
	done
	# shellcheck disable=SC2097,SC2098  # passed on into the namespace
	BATS_TEST_TMPDIR=$BATS_TEST_TMPDIR BATS_TEST_NUMBER=${BATS_TEST_NUMBER:-0} \
	FS_DIR=$FS_DIR FS_LOWER=${FS_LOWER-} FS_SFTP_ARGS=${FS_SFTP_ARGS-} \
	unshare -m --propagation private -- bash -c "$_FS_INNER" fs_run \
		"$type" "$FS_DIR/$type.img" "$BATS_TEST_TMPDIR/mnt" \
		"$BATS_TEST_TMPDIR/fs-ls" "$script" "$funcs"
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
