#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/kernels.sh [SUITE...]: fetch the kernels the guest boots, as
# Debian packages through apt, and unpack each into $FATTRS_VM_CACHE/SUITE
# (vmlinuz, modules/).  SUITE: bookworm trixie sid (default: all three).
# A private apt configuration reaches the suites on the archive this
# machine already uses; nothing else is downloaded.  A suite whose kernel
# is already unpacked, at the newest version, is left alone.
set -euo pipefail

CACHE=${FATTRS_VM_CACHE:-/var/cache/fattrs-vm}
mkdir -p "$CACHE"

# The archive this machine uses for ARCHIVE (debian, debian-security).
mirror() {
	local uri
	# shellcheck disable=SC2016  # apt's own $(URI), not the shell's
	uri=$(apt-get indextargets --format '$(URI)' 'Identifier: Packages' 2>/dev/null |
		sed -n "s,^\\(https\\?://[^ ]*/$1\\)/dists/.*,\\1,p" | head -n 1)
	printf '%s\n' "${uri:-http://deb.debian.org/$1}"
}

# SUITE's sources: a stable suite with its updates and security fixes, as
# a Debian system of that release has them.
sources() {
	printf 'deb %s %s main\n' "$(mirror debian)" "$1"
	[[ $1 == sid || $1 == unstable ]] && return
	printf 'deb %s %s-updates main\n' "$(mirror debian)" "$1"
	printf 'deb %s %s-security main\n' "$(mirror debian-security)" "$1"
}

# apt-get/apt-cache with SUITE's private configuration.
papt() {
	local tool=$1 suite=$2 d=$CACHE/apt/$2
	shift 2
	"$tool" -o Dir::Etc::sourcelist="$d/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$d/lists" -o Dir::State::status="$d/status" \
		-o Dir::Cache="$d/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

# The package that depends on nothing but the kernel's files: the image
# package, or (unstable) its linux-binary- part and linux-modules- part.
fetch() {
	local suite=$1 d=$CACHE/apt/$1 image ver pkgs p m out=$CACHE/$1
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	sources "$suite" >"$d/sources.list"
	: >>"$d/status"
	papt apt-get "$suite" -qq update
	image=$(papt apt-cache "$suite" depends linux-image-amd64 |
		sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
	[[ -n $image ]] || { echo "kernels.sh: no linux-image-amd64 in $suite" >&2; return 1; }
	ver=$(papt apt-cache "$suite" show "$image" | sed -n 's/^Version: //p' | head -n 1)
	if [[ -s $out/kver && $(cat "$out/version" 2>/dev/null) == "$image $ver" ]]; then
		return 0
	fi
	pkgs=("$image")
	# Not "| grep -q" under pipefail: grep ending first fails the pipe.
	p=$(papt apt-cache "$suite" depends "$image")
	if [[ $p == *"Depends: linux-binary-"* ]]; then
		pkgs=("linux-binary-${image#linux-image-}" "linux-modules-${image#linux-image-}"
		      "linux-base-${image#linux-image-}")
	fi
	rm -rf "$out.new" && mkdir -p "$out.new/root"
	for p in "${pkgs[@]}"; do
		(cd "$out.new" && papt apt-get "$suite" -qq download "$p")
		dpkg-deb -x "$out.new"/"$p"_*.deb "$out.new/root"
		rm -f "$out.new"/"$p"_*.deb
	done
	# Modules in lib/modules/KVER (usr/lib/modules in unstable), the
	# image in boot/ (or, in unstable, beside the modules).
	for p in "$out.new/root/lib/modules"/* "$out.new/root/usr/lib/modules"/*; do
		[[ -d $p ]] || continue
		mkdir -p "$out.new/lib/modules"
		mv "$p" "$out.new/lib/modules/"
	done
	p=$(find "$out.new/lib/modules" -mindepth 1 -maxdepth 1 -printf "%f\n" | head -n 1)
	[[ -n $p ]] || { echo "kernels.sh: no modules in $image" >&2; return 1; }
	if [[ -e $out.new/lib/modules/$p/vmlinuz ]]; then
		mv "$out.new/lib/modules/$p/vmlinuz" "$out.new/vmlinuz"
	else
		mv "$out.new/root/boot/vmlinuz-$p" "$out.new/vmlinuz"
	fi
	depmod -b "$out.new" "$p"
	# What the guest cannot boot without (vm.sh): a truncated download or a
	# package split differently fails here, not as a panic in the guest.
	[[ -s $out.new/vmlinuz ]] || { echo "kernels.sh: no vmlinuz in $image" >&2; return 1; }
	for m in 9pnet_virtio 9p overlay cifs nfsd; do
		modprobe -d "$out.new" -S "$p" --show-depends "$m" >/dev/null 2>&1 ||
			{ echo "kernels.sh: $image has no module $m" >&2; return 1; }
	done
	echo "$p" >"$out.new/kver"
	rm -rf "$out.new/root"
	echo "$image $ver" >"$out.new/version"
	rm -rf "$out" && mv "$out.new" "$out"
	echo "kernels.sh: $suite: $image $ver"
}

(($#)) || set -- bookworm trixie sid
for s in "$@"; do
	fetch "$s"
done
