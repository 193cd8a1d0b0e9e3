#!/usr/bin/env bats
# --no-pivot (runc PR 1962, 2019; ward's refusal and issue 24 cite it as
# GHSA-m8cg-xc2p-r3fc, which is CVE-2023-25809's id: rootless_cgroup.bats)
# (every profile): without
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
# it shows); "direct" where CAP_SYS_ADMIN is the user namespace's (root in
# the host's with it may mount anything: only the nested way counts there).
PROBE='mkdir -p /tmp/p /tmp/s
if [ "$1" = direct ]; then
if mount -t proc proc /tmp/p 2>/dev/null || mount -t proc -o nosuid,nodev,noexec proc /tmp/p 2>/dev/null; then
	echo "ESCAPED: a fresh procfs mounted"
	[ -s /tmp/p/kcore ] && echo "ESCAPED: its kcore is there, unmasked"
	umount /tmp/p
fi
if mount -t sysfs sysfs /tmp/s 2>/dev/null || mount -t sysfs -o nosuid,nodev,noexec sysfs /tmp/s 2>/dev/null; then
	echo "ESCAPED: a fresh sysfs mounted"
	[ -n "$(ls /tmp/s/firmware 2>/dev/null)" ] && echo "ESCAPED: its firmware is there, unmasked"
	umount /tmp/s
fi
fi
# the reproducer of runc PR 1962: a user namespace of its own, inside
if unshare -rmpf sh -c "mkdir -p /tmp/q; mount -t proc none /tmp/q" 2>/dev/null; then
	echo "ESCAPED: a fresh procfs mounted in a nested user namespace"
fi
echo VERDICT-OK'

# The mounts of PID's mount namespace that are neither the rootfs's mount (the
# one the container's mountinfo shows at "/"), below it, nor on the way to
# it: what --no-pivot must have detached. Every mountinfo reader sees only
# what is below its root (setns puts it on the rootfs, stacked over the old
# root): the whole namespace comes from listmount(2)/statmount(2) (Linux
# 6.8; its id from NS_GET_MNTNS_ID, 6.11).
host_mounts_left() {
	local root
	root=$(awk '$5 == "/" {print $1; exit}' "/proc/$1/mountinfo")
	python3 - "$1" "$root" <<-'PY'
	import ctypes, fcntl, os, struct, sys
	libc = ctypes.CDLL(None, use_errno=True)
	pid, root_old = int(sys.argv[1]), int(sys.argv[2])
	buf = bytearray(8)
	fcntl.ioctl(os.open("/proc/%d/ns/mnt" % pid, os.O_RDONLY), 0x8008B705, buf)  # NS_GET_MNTNS_ID
	ns = struct.unpack("Q", buf)[0]
	ids = (ctypes.c_uint64 * 4096)()
	n = libc.syscall(458, struct.pack("IIQQQ", 32, 0, 2**64 - 1, 0, ns), ids, 4096, 0)  # listmount(LSMT_ROOT)
	if n < 0:
	    sys.exit("listmount: errno %d" % ctypes.get_errno())
	m = {}
	for i in range(n):
	    sm = ctypes.create_string_buffer(512)
	    if libc.syscall(457, struct.pack("IIQQQ", 32, 0, ids[i], 3, ns), sm, 512, 0) < 0:  # statmount(SB_BASIC|MNT_BASIC)
	        sys.exit("statmount: errno %d" % ctypes.get_errno())
	    magic, = struct.unpack_from("Q", sm, 24)
	    mid, par, old = struct.unpack_from("QQI", sm, 40)
	    m[mid] = (par, old, magic)
	root = [k for k, v in m.items() if v[1] == root_old]
	if len(root) != 1:
	    sys.exit("the rootfs mount %d not found" % root_old)
	keep, a = set(), root[0]
	while a in m and a not in keep:
	    keep.add(a)
	    a = m[a][0]
	for k, (par, old, magic) in sorted(m.items()):
	    a, n = k, 0
	    while a in m and a != root[0] and n < 4096:
	        a, n = m[a][0], n + 1
	    if a != root[0] and k not in keep:
	        print("mount %d (fs magic %#x) outside the rootfs" % (old, magic))
	PY
}

@test "--no-pivot procfs class (runc PR 1962): with --no-pivot the container can mount no fresh procfs/sysfs and no host mount stays in its mount namespace (user namespace with CAP_SYS_ADMIN; root without one), every profile" {
	local p c left bad=0 ran=0 refused=0
	for p in "${PROFILES[@]}"; do
		as "$p"
		for c in userns-sysadmin root root-sysadmin; do
			cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
			# (no seccomp filter: ward spec's would deny mount(2) before
			# the kernel's own rule is reached)
			cfg 'del(.linux.seccomp)'
			cfg --arg s "$PROBE" --arg d "$([ "$c" = root-sysadmin ] && echo nested || echo direct)" '.process.args = ["sh", "-c", $s, "-", $d]' 
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
				[ -z "$left" ] || { echo "$p $c: host mounts left in the container's namespace:"; echo "$left"; bad=$((bad + 1)); }
			fi
			wrun delete --force "$ID"
		done
	done
	tally "$ran ran contained, $refused refused, $bad escaped"
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}
