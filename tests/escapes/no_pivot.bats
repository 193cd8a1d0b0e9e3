#!/usr/bin/env bats
# --no-pivot (runc GHSA-m8cg-xc2p-r3fc class, every profile): without
# pivot_root, the rootfs is moved over "/" and chrooted into, and every host
# mount stays in the container's mount namespace beneath it. Invisible in the
# container's mountinfo, they still count for the kernel: a container root
# with CAP_SYS_ADMIN in its user namespace may mount a fresh procfs or sysfs
# (unmasked: /proc/kcore, /proc/sys writable, /sys/firmware) because the
# host's full procfs/sysfs is "visible" in its namespace. Class: with
# --no-pivot no host mount stays in the container's mount namespace, and in a
# user namespace one that cannot go is refused.
# (runc PR 1962's reproducer: `unshare -mrfp sh -c "mount -t proc none /proc"`
# from inside.) Swept: compat with CAP_SYS_ADMIN and a user namespace (the container tries
# procfs and sysfs, and what they would show), and as root without a user
# namespace (default capabilities, and compat's CAP_SYS_ADMIN); the host side
# reads the container's whole mount namespace (nsenter puts a reader at its
# root, below the chroot): only the rootfs, its mounts and the mounts on the
# way to it may be there.

load escapes

# From inside: a fresh procfs or sysfs must not mount (and, if it did, what
# it shows).
PROBE='mkdir -p /tmp/p /tmp/s
if mount -t proc proc /tmp/p 2>/dev/null; then
	echo "ESCAPED: a fresh procfs mounted"
	[ -s /tmp/p/kcore ] && echo "ESCAPED: its kcore is there, unmasked"
	umount /tmp/p
fi
if mount -t sysfs sysfs /tmp/s 2>/dev/null; then
	echo "ESCAPED: a fresh sysfs mounted"
	[ -n "$(ls /tmp/s/firmware 2>/dev/null)" ] && echo "ESCAPED: its firmware is there, unmasked"
	umount /tmp/s
fi
# the reproducer of runc PR 1962: a user namespace of its own, inside
if unshare -rmpf sh -c "mkdir -p /tmp/q; mount -t proc none /tmp/q" 2>/dev/null; then
	echo "ESCAPED: a fresh procfs mounted in a nested user namespace"
fi
echo VERDICT-OK'

# The mounts of PID's mount namespace that are neither the rootfs's mount (the
# last one made on "/": the rootfs moved over the old root), below it, nor on
# the way to it: what --no-pivot must have detached.
host_mounts_left() {
	# (the host's /proc, opened before joining: the namespace's root may
	# have none)
	python3 -c '
import ctypes, os, sys
proc = os.open("/proc", os.O_PATH)
ns = os.open("/proc/%s/ns/mnt" % sys.argv[1], os.O_RDONLY)
if ctypes.CDLL(None, use_errno=True).setns(ns, 0x00020000) != 0:
    sys.exit("setns: errno %d" % ctypes.get_errno())
sys.stdout.write(open(os.open("self/mountinfo", os.O_RDONLY, dir_fd=proc)).read())
'  "$1" | awk -v all="${2:-}" '
		{ id[NR] = $1; par[$1] = $2; line[$1] = $0; if ($5 == "/" && (root == "" || $1 + 0 > root + 0)) root = $1 }
		END {
			if (root == "") { print "no rootfs mount found"; exit }
			for (a = root; a != "" && !(a in up); a = par[a]) up[a] = 1
			for (i = 1; i <= NR; i++) {
				m = id[i]; keep = (m in up); n = 0
				for (a = m; a != "" && n < 64 && !keep; a = par[a]) { if (a == root) keep = 1; n++ }
				if (!keep || all != "") print (keep ? "kept " : "LEFT ") line[m]
			}
		}'
}

@test "GHSA-m8cg-xc2p-r3fc: with --no-pivot the container can mount no fresh procfs/sysfs and no host mount stays in its mount namespace (user namespace with CAP_SYS_ADMIN; root without one), every profile" {
	local p c left bad=0 ran=0 refused=0
	for p in "${PROFILES[@]}"; do
		as "$p"
		for c in userns-sysadmin root root-sysadmin; do
			cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
			cmd "$PROBE"
			case $c in
			userns*) cfg_userns ;;
			esac
			case $c in
			*sysadmin) cfg '.process.capabilities |= with_entries(.value += ["CAP_SYS_ADMIN"])' ;;
			esac
			chown -R "$([ "$c" = userns-sysadmin ] && echo 200000:200000 || echo 0:0)" "$BUNDLE/rootfs"
			wrun run --no-pivot --bundle "$BUNDLE" "$ID"
			if why=$(verdict_ok "$out" "$rc" '^ward: '); then
				if [ "$rc" -eq 0 ]; then ran=$((ran + 1)); else refused=$((refused + 1)); tally "$p $c refused: $out"; fi
			else
				echo "$p $c: $why"
				bad=$((bad + 1))
			fi
			# The host's side: the same config, detached; its namespace read.
			cfg '.process.args = ["sleep", "100"]'
			wfile run -d --no-pivot --bundle "$BUNDLE" "$ID"
			if [ "$rc" -eq 0 ]; then
				left=$(host_mounts_left "$(ward state "$ID" | jq -r .pid)")
				[ -z "${ESC_DEBUG:-}" ] || { echo "== $p $c: $out"; host_mounts_left "$(ward state "$ID" | jq -r .pid)" all; } >&3
				[ -z "$left" ] || { echo "$p $c: host mounts left in the container's namespace:"; echo "$left"; bad=$((bad + 1)); }
			fi
			wrun delete --force "$ID"
		done
	done
	tally "$ran ran contained, $refused refused, $bad escaped"
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}
