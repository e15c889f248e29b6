#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest's first process (vm.sh boots it): the servers, the mounts, the
# job in /run/vm/job, its status in /run/vm/rc, then power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t tmpfs -o mode=0755 tmpfs /run
mkdir -p /run/vm /dev/pts /dev/shm
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /run/vm
: >/run/vm/started	# vm.sh: the guest came this far
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
exec >/run/vm/log 2>&1 </dev/null

off() {
	sync
	echo o >/proc/sysrq-trigger
	sleep 10
}

fail() {
	echo "guest: $*"
	dmesg | tail -n 20
	tail -n 20 /run/vm/smbd.log 2>/dev/null
	echo 125 >/run/vm/rc
	off
}

# This kernel's modules, for the kernel's own requests too (the crypto
# an SMB 3.1.1 mount asks for: "Failed alloc encrypt aead" without them).
mods=$(sed -n 's/.*fattrs\.modules=\([^ ]*\).*/\1/p' /proc/cmdline)
mkdir -p /lib/modules
ln -sfn "$mods" "/lib/modules/$(uname -r)"
for m in virtio_blk ext4 ctr seqiv gcm ccm cmac ghash_generic cifs nfsd nfsv4 sch_netem; do
	modprobe "$m" 2>/dev/null || echo "guest: cannot load $m"
done

hostname fattrs-vm
ip link set lo up
for fs in /var/lib/samba /var/cache/samba /var/log/samba /var/lib/nfs /etc/samba /etc/exports.d; do
	mkdir -p "$fs"
done

# The server's disk.
mkfs.ext4 -q -F /dev/vda || fail "cannot format the disk"
mkdir -p /srv/disk
mount /dev/vda /srv/disk || fail "cannot mount the disk"
mkdir -p /srv/disk/smb /srv/disk/nfs
chmod 0777 /srv/disk/smb /srv/disk/nfs

# Samba on the loopback only, one guest share written as root.
cat >/run/smb.conf <<'EOF'
[global]
	server role = standalone server
	interfaces = lo
	bind interfaces only = yes
	smb ports = 445
	disable netbios = yes
	load printers = no
	printcap name = /dev/null
	map to guest = Bad User
	server min protocol = SMB2_10
	log file = /run/vm/smbd.log
	log level = 1
	lock directory = /run/samba
	state directory = /run/samba
	cache directory = /run/samba
	private dir = /run/samba/private
	pid directory = /run/samba
[share]
	path = /srv/disk/smb
	read only = no
	guest ok = yes
	force user = root
EOF
mkdir -p /run/samba/private
smbd -D -s /run/smb.conf || fail "smbd does not start"

# knfsd, NFSv4 only, exporting the disk's nfs directory as the root.
# No delegations: the two mounts are one NFS client to the server (one
# client id), and under a delegation each keeps its locks to itself, where
# two machines would have the delegation recalled.
sysctl -q fs.leases-enable=0
mount -t nfsd nfsd /proc/fs/nfsd || fail "no nfsd"
mkdir -p /var/lib/nfs/v4recovery /var/lib/nfs/rpc_pipefs
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
: >/etc/exports
exportfs -o rw,fsid=0,no_root_squash,no_subtree_check,insecure,sync 127.0.0.1:/srv/disk/nfs ||
	fail "exportfs"
rpc.mountd -N 2 -N 3 || fail "rpc.mountd"
rpc.nfsd -N 3 -G 10 -L 10 4 || fail "rpc.nfsd"

export VM_SMB=/mnt/smb VM_SMB2=/mnt/smb2 VM_NFS=/mnt/nfs VM_NFS2=/mnt/nfs2
export VM_SMB_SRV=/srv/disk/smb VM_NFS_SRV=/srv/disk/nfs
mkdir -p $VM_SMB $VM_SMB2 $VM_NFS $VM_NFS2
for _ in $(seq 50); do
	mount -t cifs //127.0.0.1/share $VM_SMB -o guest,vers=3.1.1 2>/dev/null && break
	sleep 0.2
done
mountpoint -q $VM_SMB || fail "cannot mount cifs: $(mount -t cifs //127.0.0.1/share $VM_SMB -o guest,vers=3.1.1 2>&1)"
# A second client: its own connection and superblock.
mount -t cifs //127.0.0.1/share $VM_SMB2 -o guest,vers=3.1.1,nosharesock || fail "second cifs mount"
mount -t nfs4 -o vers=4.2 127.0.0.1:/ $VM_NFS || fail "cannot mount nfs4"
mount -t nfs4 -o vers=4.2,nosharecache 127.0.0.1:/ $VM_NFS2 || fail "second nfs4 mount"
# The grace period: opens wait until it is over.
for _ in $(seq 150); do
	: >$VM_NFS/.grace 2>/dev/null && break
	sleep 0.2
done
rm -f $VM_NFS/.grace

bash /run/vm/job
echo $? >/run/vm/rc
cd /
umount $VM_SMB2 $VM_SMB $VM_NFS2 $VM_NFS 2>/dev/null
off
