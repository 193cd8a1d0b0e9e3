#!/bin/sh
# Install everything ward needs to build, test and demo, from Debian 12
# packages. Idempotent: it asks apt only for what is missing.
set -eu

PKGS="build-essential autoconf automake libtool pkg-config
      libyajl-dev libseccomp-dev libmount-dev libsystemd-dev libbpf-dev bpftool
      bats bats-support bats-assert parallel busybox-static jq python3-jsonschema
      clang clang-format cppcheck
      qemu-system-x86 binutils
      podman conmon catatonit containernetworking-plugins iptables containerd iproute2 uidmap python3-grpcio
      slirp4netns passt dnsmasq-base"
# For benchmarks only; skipped when not available.
OPTIONAL="crun runc hyperfine"

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: run as root (apt-get needs it)" >&2
	exit 1
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "install-deps: installing$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
for p in $OPTIONAL; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" \
			>/dev/null 2>&1 || echo "install-deps: optional $p not installed (benchmarks only)"
	fi
done

# The pure cgroup-v2 test lane boots Debian's generic 6.1 kernel (the cloud
# image has no 9p) under QEMU: fetch and unpack it once, here, so that no
# test needs the network.
VM_CACHE=${WARD_VM_CACHE:-/var/cache/ward-vm}
if ! ls "$VM_CACHE"/kernel/boot/vmlinuz-* >/dev/null 2>&1; then
	pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' |
		awk '{print $1}' | sort -V | tail -1)
	if [ -z "$pkg" ]; then
		apt-get update -qq
		pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' |
			awk '{print $1}' | sort -V | tail -1)
	fi
	[ -n "$pkg" ] || { echo "install-deps: no linux-image-6.1.0-*-amd64 package" >&2; exit 1; }
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) &&
		mkdir -p "$VM_CACHE" && rm -rf "$VM_CACHE/kernel.tmp" &&
		dpkg -x "$tmp"/*.deb "$VM_CACHE/kernel.tmp" &&
		mv "$VM_CACHE/kernel.tmp" "$VM_CACHE/kernel" ||
		{ rm -rf "$tmp"; echo "install-deps: could not fetch $pkg for the v2 test lane" >&2; exit 1; }
	rm -rf "$tmp"
	echo "install-deps: $pkg unpacked into $VM_CACHE/kernel"
fi
