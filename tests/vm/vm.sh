#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/vm.sh SUITE SCRIPT [ARG...]: boot Debian SUITE's kernel (bookworm,
# trixie, sid; fetched by kernels.sh) in qemu and run bash SCRIPT in the guest
# with Samba and knfsd serving an ext4 disk on the guest's loopback, mounted
# by the kernel's own clients, each twice (two clients):
#   $VM_SMB $VM_SMB2   cifs (SMB 3.1.1) mounts of //127.0.0.1/share
#   $VM_NFS $VM_NFS2   nfs4.2 mounts of 127.0.0.1:/
#   $VM_SMB_SRV $VM_NFS_SRV   the directories behind them, on the server's disk
#   $VM_SUITE $VM_KVER   which kernel
# The guest's root is this machine's / (read-only over virtio-9p) under a
# tmpfs overlay, so it runs this machine's Samba, nfs-utils, bats and the
# programs built here.  SCRIPT's output goes to stdout; its exit status is
# vm.sh's.  Exit 77 when the guest cannot run here (no qemu, not root), with
# the reason on stderr.
#   FATTRS_VM_CACHE    where kernels and initramfs images are kept
#                      (default /var/cache/fattrs-vm)
#   FATTRS_VM_TIMEOUT  seconds before the guest is killed (default 1800)
#   FATTRS_VM_MEM      guest memory in MiB (default 2048)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${FATTRS_VM_CACHE:-/var/cache/fattrs-vm}
suite=${1:?usage: vm.sh SUITE SCRIPT [ARG...]}
script=${2:?usage: vm.sh SUITE SCRIPT [ARG...]}
shift 2

skip() {
	echo "vm.sh: $*" >&2
	exit 77
}

[[ $EUID -eq 0 ]] || skip "needs root (the guest shares / over virtio-9p as root)"
command -v qemu-system-x86_64 >/dev/null || skip "needs qemu-system-x86_64 (package qemu-system-x86)"
if ! [[ -x /bin/busybox ]] || ! [[ $'\n'$(/bin/busybox --list)$'\n' == *$'\nswitch_root\n'* ]]; then
	skip "needs a static busybox (package busybox-static)"
fi
[[ -s $CACHE/$suite/kver ]] || FATTRS_VM_CACHE=$CACHE "$here/kernels.sh" "$suite" >&2 ||
	skip "cannot fetch the $suite kernel"
kver=$(<"$CACHE/$suite/kver")
script=$(realpath "$script")

# What the initramfs loads to reach the root; modprobe adds what each
# needs.  The guest loads the rest with its own modprobe (guest.sh).
MODULES=(virtio_pci 9pnet_virtio 9p overlay)

# The initramfs of $suite: busybox, the modules, /init.  Made again when
# this script or the module list changes.
initrd() {
	local out=$CACHE/$suite/initrd.img stamp t line m n=0 seen=" "
	stamp=$(cat "$here/vm.sh" "$CACHE/$suite/version" | sha1sum | cut -c1-16)
	if [[ -s $out && $(cat "$out.stamp" 2>/dev/null) == "$stamp" ]]; then
		echo "$out"
		return
	fi
	t=$(mktemp -d)
	mkdir -p "$t"/{bin,dev,proc,sys,host,upper,newroot,mods}
	cp /bin/busybox "$t/bin/busybox"
	for m in "${MODULES[@]}"; do
		while read -r line; do
			case $line in
			insmod\ *) ;;
			*) continue ;;
			esac
			line=${line#insmod }
			line=${line%% *}
			[[ $seen == *" $line "* ]] && continue
			seen+="$line "
			n=$((n + 1))
			local name
			name=$(printf '%03d-%s' "$n" "$(basename "${line%.[xgz]*}" .ko).ko")
			case $line in
			*.xz) xz -dc "$line" >"$t/mods/$name" ;;
			*.zst) zstd -qdc "$line" >"$t/mods/$name" ;;
			*.gz) gzip -dc "$line" >"$t/mods/$name" ;;
			*) cp "$line" "$t/mods/$name" ;;
			esac
			echo "$name" >>"$t/mods.list"
		done < <(modprobe -d "$CACHE/$suite" -S "$kver" --show-depends "$m" 2>/dev/null ||
			echo "vm.sh: the $suite kernel ($kver) has no module $m" >&2)
	done
	cat >"$t/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r m; do
	insmod "/mods/$m" 2>/dev/null || echo "init: cannot load $m" >&2
done </mods.list
# A root that cannot be reached says why on the console, then powers off
# (an init that exits is a panic that names nothing).
die() {
	echo "init: $*" >&2
	poweroff -f
}
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro host /host ||
	die "cannot mount the host's / over virtio-9p"
mount -t tmpfs -o mode=0755 tmpfs /upper
mkdir /upper/u /upper/w
mount -t overlay -o lowerdir=/host,upperdir=/upper/u,workdir=/upper/w overlay /newroot ||
	die "cannot mount the overlay root"
for d in proc sys dev; do
	mount --move /$d /newroot/$d
done
init=$(sed -n 's/.*fattrs\.init=\([^ ]*\).*/\1/p' /newroot/proc/cmdline)
exec switch_root /newroot /bin/bash "$init"
EOF
	chmod +x "$t/init"
	(cd "$t" && find . | /bin/busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$out.new"
	rm -rf "$t"
	mv "$out.new" "$out"
	echo "$stamp" >"$out.stamp"
	echo "$out"
}

img=$(initrd)
work=$(mktemp -d /tmp/fattrs-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/out"
truncate -s 1G "$work/disk.img"
{
	printf 'export VM_SUITE=%q VM_KVER=%q\n' "$suite" "$kver"
	printf 'cd %q\n' "$PWD"
	printf 'exec bash %q' "$script"
	printf ' %q' "$@"
	printf '\n'
} >"$work/out/job"

# One boot; its console in $work/console.
boot() {
	rc=0
	timeout -k 10 "${FATTRS_VM_TIMEOUT:-1800}" \
		qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp "$(nproc)" -m "${FATTRS_VM_MEM:-2048}" \
		-nographic -no-reboot -nic none \
		-kernel "$CACHE/$suite/vmlinuz" -initrd "$img" \
		-append "console=ttyS0 quiet loglevel=3 panic=-1 fattrs.init=$here/guest.sh fattrs.modules=$CACHE/$suite/lib/modules/$kver" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$work/out",mount_tag=out,security_model=none,multidevs=remap \
		-drive file="$work/disk.img",if=virtio,format=raw,cache=unsafe \
		</dev/null >"$work/console" 2>&1 || rc=$?
}

# The line of the console that says why the guest ended early.
why() {
	local w
	w=$(grep -a -m 1 -e '^init: ' -e 'Kernel panic' -e 'not syncing' "$work/console" || true)
	printf '%s' "${w//$'\r'/}"
}

boot
# A guest that died before guest.sh began (so before the job did
# anything): once more, with its initramfs made again, saying why.
if [[ ! -e $work/out/started ]]; then
	echo "vm.sh: the $suite guest did not start (qemu exit $rc): $(why); booting it once more" >&2
	rm -f "$CACHE/$suite/initrd.img" "$CACHE/$suite/initrd.img.stamp"
	img=$(initrd)
	boot
fi
cat "$work/out/log" 2>/dev/null || true
if [[ ! -s $work/out/rc ]]; then
	echo "vm.sh: the $suite guest ended without a result (qemu exit $rc); its console:" >&2
	tail -n 40 "$work/console" >&2
	# Last, the line that says why (check.sh reports the last line).
	w=$(why)
	[[ -z $w ]] || echo "vm.sh: $suite: $w" >&2
	exit 1
fi
exit "$(<"$work/out/rc")"
