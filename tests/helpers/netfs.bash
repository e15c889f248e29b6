# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Network filesystems served and mounted for a whole .bats file (or a
# script), inside private namespaces:  load '../helpers/netfs'
#
#   netfs_setup_file KIND...   in setup_file: start them (netfs_start),
#                              recording why not; never skips
#   netfs_teardown_file        in teardown_file: netfs_stop
#   netfs_require KIND         in a test: skip with the reason unless KIND
#                              came up
#   netfs_run SCRIPT           run SCRIPT (bash) inside, in the namespaces of
#                              the servers and clients; its stdout, stderr and
#                              exit status are netfs_run's (use it under run)
#   netfs_start KIND...        start them; 0 if all came up (else the reasons
#                              are in $NETFS_DIR/KIND.skip)
#   netfs_stop                 end everything netfs_start started
#
# KIND:
#   gluster  glusterd (GlusterFS 10) with two volumes on one node, each
#            mounted twice by the FUSE client (two clients with caches of
#            their own, as two machines would have):
#              fattrs-dist  distribute, one brick   $DIST_A $DIST_B ($DIST_BRICK)
#              fattrs-repl  replica 2, two bricks   $REPL_A $REPL_B ($REPL_BRICK1 $REPL_BRICK2)
#   webdav   rclone serve webdav of $DAV_SRV on 127.0.0.1, and an rclone
#            mount of it (FUSE, --vfs-cache-mode off: the worst case) at $DAV
#
# Everything runs in one set of namespaces made by unshare: mount (the
# mounts; a private /etc/hosts; glusterd's /var/lib/glusterd and
# /var/log/glusterfs bind-mounted from $NETFS_DIR; a tmpfs on /run),
# network (its own lo: only 127.0.0.1, no port shared with anything else),
# UTS (the host name fattrs-gluster, which resolves to 127.0.0.1 there:
# glusterd refuses a literal 127.0.0.1 as brick host) and PID (unshare
# --kill-child): when netfs_stop ends it, or the process that started it
# ($NETFS_OWNER, default $$: the .bats file or script) dies without doing
# so, the kernel kills every process inside and the mounts go with the
# namespace.  Nothing outside
# $NETFS_DIR is touched.
#
# NETFS_DIR: where everything lives ($BATS_FILE_TMPDIR/netfs by default);
# logs of glusterd, the bricks and the clients in $NETFS_DIR/log, rclone's
# in $NETFS_DIR/rclone-*.log.
#
# In SCRIPT, each run gets a fresh directory of its own on every volume
# (named test-$BATS_TEST_NUMBER, or run-N outside bats):
#   $DA $DB   it through client A and client B of fattrs-dist
#   $RA $RB   it through client A and client B of fattrs-repl
#   $DV       it on the WebDAV mount, $DVS the same on the server's side
#   $DBRICK, $RBRICK1, $RBRICK2   it on the bricks (the server's side)
# and these functions:
#   brick_kill VOL N [SIG]   kill brick N (1, 2) of VOL (dist, repl) with SIG
#                            (default KILL)
#   bricks_start VOL         restart the bricks of VOL that are down
#                            ("gluster volume start VOL force") and wait
#                            until they are online
#   heal_wait [SECONDS]      heal fattrs-repl and wait (default 60 s) until
#                            "heal info" lists nothing to heal
#   gluster_stop             stop glusterd, every brick and the self-heal
#                            daemon (the clients stay mounted)
#   gluster_start            start glusterd again (it starts the bricks) and
#                            wait until they are online
#   client_wait MNT [SECONDS]  wait until MNT answers again (a client
#                            reconnects to a brick within a few seconds)
#   gluster ...              the gluster CLI of this glusterd
# After SCRIPT, whatever it left running is killed (the processes it started
# that are still alive), and whatever it stopped is started again: the next
# netfs_run finds every server up and every client mounted.

NETFS_DIR=${NETFS_DIR:-${BATS_FILE_TMPDIR:-/nonexistent}/netfs}
export GNU_MKTEMP
# The host name of the server inside the namespaces.
NETFS_HOST=fattrs-gluster

# The functions of the holder (the first process in the namespaces) and of
# every netfs_run: their text, evaluated in both.
# shellcheck disable=SC2016
_NETFS_FUNCS='
_nf_is_mount() {
	local id parent dev root mp rest
	while read -r id parent dev root mp rest; do
		[[ $mp == "$1" ]] && return 0
	done </proc/self/mountinfo
	return 1
}
_nf_g() { gluster --mode=script "$@"; }
gluster() { command gluster --mode=script "$@"; }

# The pid of the brick process serving directory BRICK (none: fails).
_nf_brick_pid() {
	local f pid
	for f in /proc/[0-9]*/cmdline; do
		[[ $(tr "\0" " " 2>/dev/null <"$f") == *glusterfsd*" --brick-name $1 "* ]] || continue
		pid=${f#/proc/}; echo "${pid%/cmdline}"; return 0
	done
	return 1
}
_nf_bricks() {
	case $1 in
	dist | fattrs-dist) echo "$NETFS_DIR/bricks/dist" ;;
	repl | fattrs-repl) echo "$NETFS_DIR/bricks/repl1 $NETFS_DIR/bricks/repl2" ;;
	esac
}
client_wait() {
	local mp=$1 i t=${2:-60}
	for ((i = 0; i < t * 10; i++)); do
		timeout 5 stat -f "$mp" >/dev/null 2>&1 && timeout 5 ls "$mp" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "netfs: $mp does not answer after $t s" >&2
	return 1
}
brick_kill() {
	local b pid
	b=$(_nf_bricks "$1") && b=$(echo $b | cut -d" " -f"$2") && [[ -n $b ]] ||
		{ echo "brick_kill: no brick $2 of $1" >&2; return 1; }
	pid=$(_nf_brick_pid "$b") || { echo "brick_kill: brick $2 of $1 is not running" >&2; return 1; }
	kill -s "${3:-KILL}" "$pid"
	while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
}
# Is the brick process of directory BRICK up and listening on its port?
_nf_brick_listens() {
	local pid port hex
	pid=$(_nf_brick_pid "$1") || return 1
	port=$(tr "\0" "\n" </proc/"$pid"/cmdline | grep -A1 -x -- --brick-port | tail -n 1)
	[[ $port == [0-9]* ]] || return 1
	printf -v hex ":%04X 00000000:0000 0A" "$port"
	grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
_nf_wait_bricks() {
	local v=$1 b i
	for b in $(_nf_bricks "$v"); do
		for ((i = 0; i < 600; i++)); do
			_nf_brick_listens "$b" && break
			sleep 0.1
		done
		((i < 600)) || { echo "netfs: brick $b of fattrs-$v is not online" >&2; return 1; }
	done
}
bricks_start() {
	gluster volume start "fattrs-$1" force >/dev/null || return 1
	_nf_wait_bricks "$1"
}
heal_wait() {
	local i t=${1:-60}
	gluster volume heal fattrs-repl >/dev/null 2>&1
	for ((i = 0; i < t * 5; i++)); do
		[[ $(gluster volume heal fattrs-repl info 2>/dev/null |
			awk "/^Number of entries:/ { n += \$4 } END { print n + 0 }") == 0 ]] &&
			! gluster volume heal fattrs-repl info 2>/dev/null | grep -q "Transport endpoint\|not connected" &&
			return 0
		sleep 0.2
	done
	echo "heal_wait: fattrs-repl still has entries to heal after $t s" >&2
	return 1
}
_nf_glusterd_pid() { cat "$NETFS_DIR/glusterd.pid" 2>/dev/null; }
gluster_stop() {
	local p f
	p=$(_nf_glusterd_pid) && kill -KILL "$p" 2>/dev/null
	for f in /proc/[0-9]*/cmdline; do
		case $(tr "\0" " " 2>/dev/null <"$f") in
		*glusterfsd*--brick-name* | *"--process-name glustershd"*)
			p=${f#/proc/}; kill -KILL "${p%/cmdline}" 2>/dev/null ;;
		esac
	done
	for f in /proc/[0-9]*/cmdline; do
		case $(tr "\0" " " 2>/dev/null <"$f") in
		*glusterfsd*--brick-name* | *"--process-name glustershd"* | "glusterd "*) sleep 0.05 ;;
		esac
	done
	rm -f "$NETFS_DIR/glusterd.pid"
}
gluster_start() {
	local i
	glusterd -p "$NETFS_DIR/glusterd.pid" || return 1
	for ((i = 0; i < 300; i++)); do
		gluster volume list >/dev/null 2>&1 && break
		sleep 0.1
	done
	((i < 300)) || { echo "netfs: glusterd does not answer" >&2; return 1; }
	# At the first start there is no volume yet.
	gluster volume list 2>/dev/null | grep -qx fattrs-dist || return 0
	_nf_wait_bricks dist && _nf_wait_bricks repl
}
_nf_gluster_mount() {
	local vol=$1 mp=$2
	mkdir -p "$mp" &&
	glusterfs --volfile-server="$NETFS_HOST" --volfile-id="$vol" \
		--log-file="$NETFS_DIR/log/client-${mp##*/}.log" "$mp" || return 1
	client_wait "$mp"
}
_nf_gluster_up() {
	local g=$NETFS_DIR
	mkdir -p "$g/lib" "$g/log" "$g/bricks" "$g/mnt" &&
	cp -a /var/lib/glusterd/groups "$g/lib/" 2>/dev/null
	# No hooks: those of Debian start samba, ctdb and ganesha.
	mount --bind "$g/lib" /var/lib/glusterd &&
	mount --bind "$g/log" /var/log/glusterfs &&
	# /run: glusterd listens on /run/glusterd.socket besides /run/gluster.
	mount -t tmpfs -o mode=0755,size=16m netfs-run /run && mkdir -p /run/gluster &&
	gluster_start &&
	_nf_g volume create fattrs-dist "$NETFS_HOST:$g/bricks/dist" force >/dev/null &&
	_nf_g volume create fattrs-repl replica 2 "$NETFS_HOST:$g/bricks/repl1" \
		"$NETFS_HOST:$g/bricks/repl2" force >/dev/null &&
	_nf_g volume start fattrs-dist >/dev/null && _nf_g volume start fattrs-repl >/dev/null &&
	_nf_wait_bricks dist && _nf_wait_bricks repl &&
	_nf_gluster_mount fattrs-dist "$g/mnt/dist-a" && _nf_gluster_mount fattrs-dist "$g/mnt/dist-b" &&
	_nf_gluster_mount fattrs-repl "$g/mnt/repl-a" && _nf_gluster_mount fattrs-repl "$g/mnt/repl-b"
}
_nf_dav_serve() {
	local d=$NETFS_DIR i hex
	rclone serve webdav --config "$d/rclone.conf" --addr 127.0.0.1:8080 "$d/dav-srv" \
		>>"$d/rclone-serve.log" 2>&1 &
	echo $! >"$d/dav-serve.pid"
	hex=0100007F:1F90
	for ((i = 0; i < 300; i++)); do
		grep -q "^ *[0-9]*: $hex 00000000:0000 0A" /proc/net/tcp && return 0
		kill -0 "$(<"$d/dav-serve.pid")" 2>/dev/null || break
		sleep 0.05
	done
	echo "netfs: rclone serve webdav does not start: $(tail -n 3 "$d/rclone-serve.log")" >&2
	return 1
}
_nf_dav_mount() {
	local d=$NETFS_DIR i
	rclone mount --config "$d/rclone.conf" --cache-dir "$d/rclone-cache" \
		--webdav-url http://127.0.0.1:8080 ${NETFS_RCLONE_ARGS-} :webdav: "$d/mnt/dav" \
		>>"$d/rclone-mount.log" 2>&1 &
	echo $! >"$d/dav-mount.pid"
	for ((i = 0; i < 300; i++)); do
		_nf_is_mount "$d/mnt/dav" && return 0
		kill -0 "$(<"$d/dav-mount.pid")" 2>/dev/null || break
		sleep 0.05
	done
	echo "netfs: rclone mount does not mount: $(tail -n 3 "$d/rclone-mount.log")" >&2
	return 1
}
_nf_webdav_up() {
	local d=$NETFS_DIR
	mkdir -p "$d/dav-srv" "$d/mnt/dav" "$d/rclone-cache" && : >"$d/rclone.conf" &&
	_nf_dav_serve && _nf_dav_mount
}
# Put back what a script stopped or killed.
_nf_restore() {
	local d=$NETFS_DIR v mp
	if [[ -e $d/gluster.ok ]]; then
		if ! kill -0 "$(_nf_glusterd_pid)" 2>/dev/null; then
			gluster_stop; gluster_start
		fi
		for v in dist repl; do
			_nf_wait_bricks "$v" 2>/dev/null || bricks_start "$v"
		done
		for mp in dist-a dist-b repl-a repl-b; do
			if ! _nf_is_mount "$d/mnt/$mp" || ! timeout 10 stat -f "$d/mnt/$mp" >/dev/null 2>&1; then
				umount -l "$d/mnt/$mp" 2>/dev/null
				v=${mp%-*}
				_nf_gluster_mount "fattrs-$v" "$d/mnt/$mp"
			fi
		done
		for mp in dist-a dist-b repl-a repl-b; do client_wait "$d/mnt/$mp" 30; done
	fi
	if [[ -e $d/webdav.ok ]]; then
		kill -0 "$(<"$d/dav-serve.pid")" 2>/dev/null || _nf_dav_serve
		if ! kill -0 "$(<"$d/dav-mount.pid")" 2>/dev/null; then
			umount -l "$d/mnt/dav" 2>/dev/null
			_nf_dav_mount
		fi
	fi
}
'

# The holder: the first process of the namespaces.  Brings up each KIND,
# writes KIND.ok or KIND.skip, then "ready", and waits to be killed.
# shellcheck disable=SC2016
_NETFS_HOLDER='
eval "$_NETFS_FUNCS"
ip link set lo up || { echo "cannot bring up lo" >"$NETFS_DIR/lo.err"; }
hostname "$NETFS_HOST"
printf "127.0.0.1\tlocalhost %s\n::1\tlocalhost\n" "$NETFS_HOST" >"$NETFS_DIR/hosts"
mount --bind "$NETFS_DIR/hosts" /etc/hosts
for kind in "$@"; do
	if "_nf_${kind}_up" >"$NETFS_DIR/$kind.err" 2>&1; then
		: >"$NETFS_DIR/$kind.ok"
	else
		printf "cannot start %s here: %s\n" "$kind" "$(tail -n 3 "$NETFS_DIR/$kind.err" | tr "\n" " ")" \
			>"$NETFS_DIR/$kind.skip"
	fi
done
: >"$NETFS_DIR/ready"
while :; do sleep 60; done
'

# Why KIND cannot run here (nothing: it can).
_netfs_why_not() {
	local c
	[[ $EUID -eq 0 ]] || { echo "needs root to start $1"; return; }
	for c in unshare nsenter ip; do
		command -v "$c" >/dev/null || { echo "needs $c"; return; }
	done
	[[ -c /dev/fuse ]] || { echo "needs FUSE (/dev/fuse is missing)"; return; }
	case $1 in
	gluster)
		command -v glusterd >/dev/null || { echo "needs glusterd (glusterfs-server)"; return; }
		command -v glusterfs >/dev/null || { echo "needs glusterfs (glusterfs-client)"; return; }
		command -v gluster >/dev/null || { echo "needs gluster (glusterfs-cli)"; return; } ;;
	webdav)
		command -v rclone >/dev/null || { echo "needs rclone"; return; } ;;
	*) echo "unknown kind $1" ;;
	esac
}

# netfs_start KIND...: see the top of this file.
netfs_start() {
	local kind why kinds=() i d=$NETFS_DIR owner=${NETFS_OWNER:-$$}
	mkdir -p "$d" || return 1
	for kind in "$@"; do
		why=$(_netfs_why_not "$kind")
		if [[ -n $why ]]; then
			echo "$why" >"$d/$kind.skip"
		else
			kinds+=("$kind")
		fi
	done
	((${#kinds[@]})) || return 1
	# What a start before this one left, if its starter died without
	# netfs_stop: its pid files and answers would be taken for this one's.
	rm -f "$d/ready" "$d/unshare.pid" "$d/watchdog.pid"
	for kind in "${kinds[@]}"; do rm -f "$d/$kind.ok" "$d/$kind.skip"; done
	# A watchdog outside: when the owner dies (a .bats file killed
	# before its teardown_file), it kills unshare, whose --kill-child
	# kills the namespaces' first process, and with it every other one.
	(
		trap "" HUP INT
		NETFS_DIR=$d NETFS_HOST=$NETFS_HOST _NETFS_FUNCS=$_NETFS_FUNCS \
		NETFS_RCLONE_ARGS=${NETFS_RCLONE_ARGS-} \
		unshare -m -n -u -p -f --kill-child --mount-proc --propagation private \
			bash -c "$_NETFS_HOLDER" netfs "${kinds[@]}" &
		echo $! >"$d/unshare.pid"
		while kill -0 "$owner" 2>/dev/null && kill -0 "$!" 2>/dev/null; do sleep 1; done
		kill -KILL "$!" 2>/dev/null
	) </dev/null >>"$d/holder.log" 2>&1 3>&- &
	echo $! >"$d/watchdog.pid"
	for ((i = 0; i < 1800; i++)); do
		[[ -e $d/ready ]] && break
		[[ -s $d/unshare.pid ]] && ! kill -0 "$(<"$d/unshare.pid")" 2>/dev/null && break
		sleep 0.1
	done
	for kind in "${kinds[@]}"; do
		[[ -e $d/$kind.ok || -e $d/$kind.skip ]] ||
			echo "cannot start $kind here: it did not come up in 180 s" >"$d/$kind.skip"
	done
	for kind in "$@"; do [[ -e $d/$kind.ok ]] || return 1; done
}

# The pid (outside) of the namespaces' first process.
_netfs_init_pid() {
	local u
	u=$(cat "$NETFS_DIR/unshare.pid" 2>/dev/null) && [[ -n $u ]] || return 1
	cat /proc/"$u"/task/*/children 2>/dev/null | awk "{ print \$1; exit }" | grep .
}

# netfs_stop: end the namespaces and everything in them.
netfs_stop() {
	local u w i init
	# Each may be gone already (never started, or ended): nothing to stop then.
	u=$(cat "$NETFS_DIR/unshare.pid" 2>/dev/null) || u=
	w=$(cat "$NETFS_DIR/watchdog.pid" 2>/dev/null) || w=
	init=$(_netfs_init_pid) || init=
	[[ -n $u ]] && kill -KILL "$u" 2>/dev/null
	# The first process ends once the kernel has killed and reaped every
	# other one of the namespace (a zombie then, until it is reaped).
	for ((i = 0; i < 200; i++)); do
		[[ -n $init ]] || break
		[[ $(awk '{ print $3 }' /proc/"$init"/stat 2>/dev/null) == [RSDTt] ]] || break
		sleep 0.05
	done
	if [[ -n $w ]]; then
		kill "$w" 2>/dev/null
		wait "$w" 2>/dev/null || :
	fi
	rm -f "$NETFS_DIR/unshare.pid" "$NETFS_DIR/watchdog.pid" "$NETFS_DIR/ready"
	return 0
}

# The script of every netfs_run: its directories, the test's script, then
# killing what it left and putting back what it stopped.
# shellcheck disable=SC2016
_NETFS_INNER='
eval "$_NETFS_FUNCS"
# netfs_run starts this script as the leader of a new setsid(1) group: what the
# script of the test left running is what is still in it (a daemon that a
# script restarted, glusterd, leaves it by its own setsid).
_nf_cleanup() {
	local f p stat kids=
	cd / || :
	for f in /proc/[0-9]*/stat; do
		p=${f#/proc/} p=${p%/stat}
		[[ $p == "$$" ]] && continue
		stat=$(cat "$f" 2>/dev/null) || continue
		stat=${stat##*) }
		set -- $stat
		[[ $4 == "$$" ]] && kids+=" $p"
	done
	[[ -n $kids ]] && kill -KILL $kids 2>/dev/null
	_nf_restore >&2
}
trap _nf_cleanup EXIT
DN=$1 S=$NETFS_DIR
DIST_A=$S/mnt/dist-a DIST_B=$S/mnt/dist-b DIST_BRICK=$S/bricks/dist
REPL_A=$S/mnt/repl-a REPL_B=$S/mnt/repl-b REPL_BRICK1=$S/bricks/repl1 REPL_BRICK2=$S/bricks/repl2
DAV=$S/mnt/dav DAV_SRV=$S/dav-srv
DA= DB= RA= RB= DV= DVS= DBRICK= RBRICK1= RBRICK2=
if [[ -e $S/gluster.ok ]]; then
	DA=$DIST_A/$DN DB=$DIST_B/$DN RA=$REPL_A/$DN RB=$REPL_B/$DN
	DBRICK=$DIST_BRICK/$DN RBRICK1=$REPL_BRICK1/$DN RBRICK2=$REPL_BRICK2/$DN
	[[ -d $DA ]] || mkdir "$DA" || exit 125
	[[ -d $RA ]] || mkdir "$RA" || exit 125
	client_wait "$DB" 10 2>/dev/null; client_wait "$RB" 10 2>/dev/null
fi
if [[ -e $S/webdav.ok ]]; then
	DV=$DAV/$DN DVS=$DAV_SRV/$DN
	[[ -d $DV ]] || mkdir "$DV" || exit 125
fi
export DIST_A DIST_B DIST_BRICK REPL_A REPL_B REPL_BRICK1 REPL_BRICK2 DAV DAV_SRV
export DA DB RA RB DV DVS DBRICK RBRICK1 RBRICK2 NETFS_HOST
(eval "$2")
'

_NETFS_RUNS=0
# netfs_run SCRIPT: see the top of this file.
netfs_run() {
	local pid dn
	pid=$(_netfs_init_pid) || { echo "netfs_run: the servers are not running" >&2; return 125; }
	if [[ -n ${BATS_TEST_NUMBER-} ]]; then
		dn=test-$BATS_TEST_NUMBER
	else
		_NETFS_RUNS=$((_NETFS_RUNS + 1)) dn=run-$$-$_NETFS_RUNS
	fi
	NETFS_DIR=$NETFS_DIR NETFS_HOST=$NETFS_HOST _NETFS_FUNCS=$_NETFS_FUNCS \
	NETFS_RCLONE_ARGS=${NETFS_RCLONE_ARGS-} \
	nsenter -t "$pid" -m -n -u -p -- setsid --wait bash -c "$_NETFS_INNER" netfs_run "$dn" "$1"
}

# netfs_setup_file KIND...: in setup_file; tests of the file share the
# servers, so they run one at a time.
netfs_setup_file() {
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	netfs_start "$@" || :
}

netfs_teardown_file() { netfs_stop; }

# netfs_require KIND: skip this test with a reason unless KIND is up.
netfs_require() {
	[[ -e $NETFS_DIR/$1.ok ]] || skip "$(cat "$NETFS_DIR/$1.skip" 2>/dev/null || echo "$1 was not started")"
	_netfs_init_pid >/dev/null || skip "$1: the servers are no longer running"
}
