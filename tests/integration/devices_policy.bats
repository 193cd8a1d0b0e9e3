#!/usr/bin/env bats
# The device policy (ward-policy(7)): baseline and strict always install a
# device cgroup that denies by default (v1 devices.deny/allow, and the eBPF
# program wherever there is a cgroup2 hierarchy), whatever config.json says;
# wildcard allow rules are refused unless they are runc's standard ones;
# compat is exactly config.json. Checked from inside the container with
# device nodes the image itself ships (outside /dev, where ward makes none).

load ../helpers/common

setup() {
	ward_setup
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	# userfaultfd's minor is given out at boot: this host's.
	UFFD=$(awk '$2 == "userfaultfd" {print $1}' /proc/misc)
	# What an image can ship (in its rootfs, /mnt) or a volume can hold
	# (a host directory bound at /vol): nodes of the host's hardware and
	# kernel interfaces, and a copy of a harmless one. strict's rootfs is
	# nodev, so there the volume is what shows the device cgroup at work.
	mkdir -p "$BUNDLE/rootfs/mnt" "$TMP/vol"
	for d in "$BUNDLE/rootfs/mnt" "$TMP/vol"; do
		mknod "$d/fuse" c 10 229
		mknod "$d/kvm" c 10 232
		mknod "$d/loop" b 7 0
		mknod "$d/zero" c 1 5
		# tun, and /dev/mem, kmem, port (raw memory and I/O ports): the
		# device cgroup answers before any driver (present or not) and
		# before the driver's own capability check.
		mknod "$d/tun" c 10 200
		mknod "$d/mem" c 1 1
		mknod "$d/kmem" c 1 2
		mknod "$d/port" c 1 4
		[ -z "$UFFD" ] || mknod "$d/uffd" c 10 "$UFFD"
		chmod 666 "$d"/*
	done
	cfg --arg v "$TMP/vol" '.mounts += [{"destination": "/vol", "type": "bind", "source": $v, "options": ["bind"]}]'
	# No device rules at all: no linux.resources object.
	cfg 'del(.linux.resources)'
	cmd 'for d in mnt vol; do for n in fuse kvm uffd loop zero tun mem kmem port; do [ -e /$d/$n ] && echo "$d/$n $(sysprobe open @/$d/$n 2)"; done; done
	     echo x >/dev/null && echo null-ok; head -c 3 /dev/urandom | wc -c; echo inside-marker'
}

is_v2() { [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; }
# The cgroup2 directory the eBPF program is attached to ("" without one).
unified_dir() {
	if is_v2; then
		echo "/sys/fs/cgroup/ward/$ID"
	elif [ -d /sys/fs/cgroup/unified ]; then
		echo "/sys/fs/cgroup/unified/ward/$ID"
	fi
}
n_progs() { "$WARD_BUILDDIR/tests/helpers/cgbpf" "$(unified_dir)"; }

# The denied nodes of DIR (mnt: the image's, vol: the volume's) fail with
# EPERM (1), the device cgroup's errno: a nodev mount would say EACCES
# (13), a missing node ENOENT. The standard nodes work, and the container
# ran (a marker from inside).
assert_denied_by_cgroup() {
	assert_line "$1/fuse errno 1"
	assert_line "$1/kvm errno 1"
	assert_line "$1/loop errno 1"
	assert_line "$1/tun errno 1"
	assert_line "$1/mem errno 1"
	assert_line "$1/kmem errno 1"
	assert_line "$1/port errno 1"
	[ -z "$UFFD" ] || assert_line "$1/uffd errno 1"
	assert_line "$1/zero ok 3"
	assert_line null-ok
	assert_line 3
	assert_line inside-marker
}

# Not denied by the device cgroup: it opens where the host has FUSE (a
# kernel without it says ENODEV or ENXIO, never EPERM or EACCES).
assert_fuse_opens() {
	if [ -e /dev/fuse ]; then
		assert_line "$1/fuse ok 3"
	else
		assert_line --regexp "^$1/fuse (ok 3|errno (6|19))\$"
	fi
}

# baseline: the image's nodes and the volume's; strict: the volume's (its
# rootfs is nodev as well: the image's nodes fail either way).
assert_denied_for() {
	assert_denied_by_cgroup vol
	if [ "$1" = baseline ]; then
		assert_denied_by_cgroup mnt
	else
		assert_line --regexp '^mnt/fuse errno (1|13)$'
		assert_line --regexp '^mnt/kvm errno (1|13)$'
	fi
}

@test "baseline and strict, no device rules: a node the image ships does not open (EPERM), the standard ones do" {
	for p in baseline strict; do
		WARD_GLOBALS=(--profile "$p")
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_denied_for "$p"
		assert_no_leftovers
	done
}

@test "the default deny is installed on v1 and as the eBPF program, and recorded in the audit log" {
	for p in baseline strict; do
		WARD_GLOBALS=(--profile "$p")
		cmd 'sleep 1000'
		ward run -d --bundle "$BUNDLE" "$ID"
		if ! is_v2; then
			run cat "/sys/fs/cgroup/devices/ward/$ID/devices.list"
			refute_line 'a *:* rwm'
			assert_line 'c 1:5 rwm'
			assert_line 'c 136:* rwm'
			refute_line --partial 'c 10:'
		fi
		[ -z "$(unified_dir)" ] || assert_equal "$(n_progs)" 1
		run cat "$ROOT/$ID/audit.log"
		assert_line --partial '"field":".linux.resources.devices","old":"(none: every device node opens)","new":"+deny all first: ward'"'"'s default nodes and linux.devices allowed","rule":"devices-default-deny"'
		ward delete --force "$ID"
		assert_no_leftovers
	done
}

@test "rules without a deny-all get one first: allowing one node does not leave every other open" {
	# On cgroup v1 allow rules alone change nothing: the cgroup starts
	# from its parent's "a *:* rwm".
	cfg '.linux.resources = {"devices": [{"allow": true, "type": "c", "major": 1, "minor": 5, "access": "rwm"}]}'
	for p in baseline strict; do
		WARD_GLOBALS=(--profile "$p")
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_denied_for "$p"
		assert_no_leftovers
	done
	WARD_GLOBALS=()
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	run cat "$ROOT/$ID/audit.log"
	assert_line --partial '"old":"(no rule denies every device)"'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "compat as runc: no rules means runc's defaults (every node denied but the standard ones and tun), never an open device cgroup" {
	# runc 1.1.5 installs its default rules whatever the config says: an
	# image's /dev/mem, fuse or the host's serial port never opens (an
	# attacker's review: ward compat, with no device cgroup, let an image's
	# c 4:64 and c 5:1 write to the host's serial port and console).
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	for n in fuse kvm mem kmem port; do
		assert_line --regexp "^(mnt|vol)/$n errno 1$"
	done
	assert_line 'vol/zero ok 3'
	# tun/tap is in runc's list: its driver answers (or its absence).
	assert_line --regexp '^vol/tun (ok 3|errno (6|19))$'
	assert_line inside-marker
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	if ! is_v2; then
		run cat "/sys/fs/cgroup/devices/ward/$ID/devices.list"
		refute_output 'a *:* rwm'
		assert_line 'c 10:200 rwm'
		refute_line 'c 5:1 rwm'
	fi
	run grep -s devices-default-deny "$ROOT/$ID/audit.log"
	assert_failure
	ward delete --force "$ID"
	# The host's serial port and console, as nodes the image ships.
	mkdir -p "$BUNDLE/rootfs/srv"
	mknod "$BUNDLE/rootfs/srv/ttyS0" c 4 64
	mknod "$BUNDLE/rootfs/srv/console" c 5 1
	cmd 'for n in ttyS0 console; do echo "srv/$n $(sysprobe open @/srv/$n 2)"; done'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_line 'srv/ttyS0 errno 1'
	assert_line 'srv/console errno 1'
	# compat with a deny-all of its own: the cgroup is there.
	cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"}]}'
	cmd 'sysprobe open @/vol/fuse 2; echo inside-marker'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_line 'errno 1'
	assert_line inside-marker
	assert_no_leftovers
}

# refused_field FIELD TEXT OPTOUT: create fails with one line naming the
# field, the reason and the opt-out; nothing is left.
refused_field() {
	run ward "${P[@]}" create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial "config.json: $1: $2"
	assert_output --partial "opt-out: add \"$3\" to \"allow\""
	assert_output --partial "and set the annotation org.ward.allow.$3=true"
	[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
	assert_no_leftovers
}

@test "wildcard allow rules are refused at create with the field, the reason and the opt-out" {
	P=()
	deny='{"allow": false, "access": "rwm"}'
	cfg ".linux.resources = {\"devices\": [$deny, {\"allow\": true, \"type\": \"c\", \"major\": 10, \"access\": \"rwm\"}]}"
	refused_field '.linux.resources.devices[1]' 'allows c 10:* (a wildcard minor), every misc device of the host (kvm, fuse, tun, vhost-net, vhost-vsock, userfaultfd' 'device.c10:*'
	cfg ".linux.resources = {\"devices\": [$deny, {\"allow\": true, \"type\": \"c\", \"major\": 1, \"access\": \"r\"}]}"
	refused_field '.linux.resources.devices[1]' 'allows c 1:* (a wildcard minor), every device of major 1 (mem, kmem, port among them)' 'device.c1:*'
	# A negative minor is a wildcard too.
	cfg ".linux.resources = {\"devices\": [$deny, {\"allow\": true, \"type\": \"c\", \"major\": 10, \"minor\": -1, \"access\": \"rw\"}]}"
	refused_field '.linux.resources.devices[1]' 'allows c 10:* (a wildcard minor)' 'device.c10:*'
	cfg ".linux.resources = {\"devices\": [$deny, {\"allow\": true, \"type\": \"c\", \"access\": \"rwm\"}]}"
	refused_field '.linux.resources.devices[1]' 'allows every character device of the host' 'devices-all'
	cfg ".linux.resources = {\"devices\": [$deny, {\"allow\": true, \"type\": \"b\", \"major\": 8, \"access\": \"r\"}]}"
	refused_field '.linux.resources.devices[1]' 'allows b 8:*, a device node for raw host storage (a block device)' 'device.block'
	# Exact nodes: the new ones, in linux.devices and as allow rules.
	cfg 'del(.linux.resources) | .linux.devices = [{"type": "c", "path": "/dev/vhost-net", "major": 10, "minor": 238}]'
	refused_field '.linux.devices[0]' '/dev/vhost-net (c 10:238) is a device node for the kernel'"'"'s virtio-net backend (vhost-net)' 'device.vhost-net'
	cfg '.linux.devices = [] | .linux.resources = {"devices": [{"allow": true, "type": "c", "major": 10, "minor": 241, "access": "rw"}]}'
	refused_field '.linux.resources.devices[0]' 'allows c 10:241, a device node for the kernel'"'"'s vsock backend (vhost-vsock)' 'device.vhost-vsock'
	if [ -n "$UFFD" ]; then
		cfg --argjson m "$UFFD" 'del(.linux.resources) | .linux.devices = [{"type": "c", "path": "/dev/userfaultfd", "major": 10, "minor": $m}]'
		refused_field '.linux.devices[0]' "/dev/userfaultfd (c 10:$UFFD) is a device node for a kernel misc interface" "device.c10:$UFFD"
		# The host's node, bind-mounted: the same table.
		cfg 'del(.linux.devices) | .mounts += [{"destination": "/mnt/u", "type": "bind", "source": "/dev/userfaultfd", "options": ["bind"]}]'
		n=$(jq '.mounts | length - 1' "$BUNDLE/config.json")
		refused_field ".mounts[$n].source" '/dev/userfaultfd is a device node for a kernel misc interface' "device.c10:$UFFD"
		cfg 'del(.mounts[-1])'
	fi
	# strict too.
	P=(--profile strict)
	cfg ".linux.resources = {\"devices\": [$deny, {\"allow\": true, \"type\": \"c\", \"major\": 10}]}"
	refused_field '.linux.resources.devices[1]' 'allows c 10:*' 'device.c10:*'
}

@test "runc's standard wildcards are taken, and open nothing they should not" {
	cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"},
	       {"allow": true, "type": "c", "access": "m"}, {"allow": true, "type": "b", "access": "m"},
	       {"allow": true, "type": "c", "major": 136, "access": "rwm"},
	       {"allow": true, "type": "c", "major": 1, "minor": 5, "access": "rwm"}]}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_denied_for baseline
	# mknod alone: not even that, without CAP_MKNOD (baseline caps it away).
	cmd 'mknod /tmp/f c 10 229 2>&1 || echo mknod-denied; echo inside-marker'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_line mknod-denied
	assert_line inside-marker
	assert_no_leftovers
}

@test "an opt-out needs the policy's allow and the annotation; then the node opens" {
	cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"}, {"allow": true, "type": "c", "major": 10, "minor": 229, "access": "rw"}]}'
	P=()
	refused_field '.linux.resources.devices[1]' 'allows c 10:229, a device node for FUSE' 'device.fuse'
	echo '{"allow": ["device.fuse"]}' >"$TMP/policy.json"
	P=(--policy "$TMP/policy.json")
	run ward "${P[@]}" create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial "opt-out: $TMP/policy.json allows \"device.fuse\", and only the annotation org.ward.allow.device.fuse=true is missing)"
	assert_no_leftovers
	cfg '.annotations["org.ward.allow.device.fuse"] = "true"'
	run ward "${P[@]}" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_fuse_opens vol
	assert_fuse_opens mnt
	assert_line 'vol/kvm errno 1'
	assert_line inside-marker
	assert_no_leftovers
}

@test "ward check shows the device policy in force" {
	cfg '.linux.devices = [{"type": "c", "path": "/dev/zero2", "major": 1, "minor": 5}]'
	run "$WARD" check "$BUNDLE"
	assert_success
	assert_line '  deviceCgroup: deny by default: only what deviceRules allow opens'
	assert_line '    - deny a *:* rwm (ward: devices-default-deny)'
	assert_line "    - allow c *:* m (ward's default)"
	assert_line "    - allow c 1:3 rwm (ward's default)"
	assert_line "    - allow c 136:* rwm (ward's default)"
	refute_line --partial 'c 5:1'
	assert_line '    - allow c 1:5 rwm (linux.devices[0] /dev/zero2)'
	assert_line '    rule: devices-default-deny'
	run "$WARD" check --format json "$BUNDLE"
	assert_success
	run jq -r '.reach.deviceRules[0], .reach.deviceRules[-1], (.reach.deviceRules | length)' <<<"$output"
	assert_output "deny a *:* rwm (ward: devices-default-deny)
allow c 1:5 rwm (linux.devices[0] /dev/zero2)
12"
	# The config's own rules, numbered as in config.json.
	cfg '.linux.resources = {"devices": [{"allow": true, "type": "c", "major": 1, "minor": 8, "access": "r"}]}'
	run "$WARD" check "$BUNDLE"
	assert_line '    - deny a *:* rwm (ward: devices-default-deny)'
	assert_line '    - allow c 1:8 r (linux.resources.devices[0])'
	run "$WARD" --profile compat check "$BUNDLE"
	assert_success
	assert_line '  deviceCgroup: no rule denies every device: on cgroup v1 every device no rule denies opens'
	cfg 'del(.linux.resources)'
	run "$WARD" --profile compat check "$BUNDLE"
	assert_success
	assert_line '  deviceCgroup: none: every device node works'
	refute_line --partial 'devices-default-deny'
}

@test "update keeps the device policy: device rules in --resources are ignored" {
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	echo '{"devices": [{"allow": true, "access": "rwm"}], "pids": {"limit": 77}}' | ward update --resources - "$ID"
	d=/sys/fs/cgroup/pids/ward/$ID
	is_v2 && d=/sys/fs/cgroup/ward/$ID
	assert_equal "$(cat "$d/pids.max")" 77
	run ward exec "$ID" sh -c 'sysprobe open @/vol/fuse 2; sysprobe open @/vol/zero 2'
	assert_line 'errno 1'
	assert_line 'ok 3'
	if ! is_v2; then
		run cat "/sys/fs/cgroup/devices/ward/$ID/devices.list"
		refute_line 'a *:* rwm'
	fi
	[ -z "$(unified_dir)" ] || assert_equal "$(n_progs)" 1
	ward delete --force "$ID"
	assert_no_leftovers
}

# issue 25: the host's console (c 5:1), virtual consoles (4:0-63) and
# serial ports (4:64-255, 204:*) are the host's terminals. Shipped as
# nodes in the image (or a volume), they do not open in baseline and
# strict (EPERM: the device cgroup), also when the config carries the
# engines' "c 5:1 rwm" rule (made a deny, with a finding). Opened O_RDWR |
# O_NOCTTY (258): nothing is written, no controlling terminal taken.
@test "p25b-console: the host console, virtual consoles and serial ports in the image do not open; an engine's c 5:1 rule becomes a deny" {
	for d in "$BUNDLE/rootfs/mnt" "$TMP/vol"; do
		mknod "$d/hostcon" c 5 1
		mknod "$d/tty1" c 4 1
		mknod "$d/ttyS0" c 4 64
		chmod 666 "$d/hostcon" "$d/tty1" "$d/ttyS0"
	done
	cmd 'for d in mnt vol; do for n in hostcon tty1 ttyS0; do echo "$d/$n $(sysprobe open @/$d/$n 258)"; done; done; echo inside-marker'
	for rules in none engine; do
		if [ "$rules" = engine ]; then
			# What Podman and runc's spec write: deny all, the standard
			# nodes, the console among them.
			cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"},
				{"allow": true, "type": "c", "major": 1, "minor": 3, "access": "rwm"},
				{"allow": true, "type": "c", "major": 5, "minor": 1, "access": "rwm"},
				{"allow": true, "type": "c", "major": 136, "access": "rwm"}]}'
		fi
		for p in baseline strict; do
			WARD_GLOBALS=(--profile "$p")
			run ward run --bundle "$BUNDLE" "$ID"
			assert_success
			assert_line inside-marker
			for n in hostcon tty1 ttyS0; do
				assert_line "vol/$n errno 1"
				if [ "$p" = baseline ]; then
					assert_line "mnt/$n errno 1"
				else
					assert_line --regexp "^mnt/$n errno (1|13)\$"
				fi
			done
			assert_no_leftovers
		done
	done
	WARD_GLOBALS=()
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	run cat "$ROOT/$ID/audit.log"
	assert_line --partial '"field":".linux.resources.devices[2]","old":"allow c 5:1 (the host'"'"'s console)","new":"deny (the container'"'"'s /dev/console is its pty)","rule":"device-console"'
	ward delete --force "$ID"
	# As a node of linux.devices it is refused, naming the entry.
	cfg '.linux.devices = [{"type": "c", "path": "/dev/hostcon", "major": 5, "minor": 1}]'
	P=()
	refused_field '.linux.devices[0]' "/dev/hostcon (c 5:1) is a device node for the host's console" 'device.console'
	assert_no_leftovers
}

# runc (1.1) makes the linux.devices nodes but allows none of them in the
# device cgroup: a config that denies everything and lists /dev/kmsg does
# not open it. compat is runc. (O_WRONLY: reading wants CAP_SYSLOG
# under dmesg_restrict, an EPERM of its own.)
@test "p25b-listed: compat: deny-all and /dev/kmsg in linux.devices: kmsg does not open (as runc)" {
	WARD_GLOBALS=(--profile compat)
	cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"}]} | .linux.devices = [{"type": "c", "path": "/dev/kmsg", "major": 1, "minor": 11, "fileMode": 420}]'
	cmd 'echo "kmsg $(sysprobe open @/dev/kmsg 1)"; echo x >/dev/null && echo null-ok; echo inside-marker'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line 'kmsg errno 1'
	assert_line null-ok
	assert_line inside-marker
	assert_no_leftovers
}

@test "more than 1024 device rules or device nodes are refused before any is written (baseline and strict): each costs the host's kernel" {
	for p in baseline strict; do
		cfg '.linux.resources.devices = [range(1025) | {"allow": false, "type": "c", "major": (. % 4000), "minor": ((. / 4000) | floor), "access": "rwm"}]'
		run ward --profile "$p" run --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output "ward: config.json: .linux.resources.devices: 1025 device rules, more than the 1024 a container may have: each costs ward (and the host's kernel) work before any limit of the container holds (refused by the $p profile)"
		assert_no_leftovers
		cfg 'del(.linux.resources.devices) | .linux.devices = [range(1025) | {"path": "/dev/n\(.)", "type": "c", "major": 1, "minor": 3}]'
		run ward --profile "$p" run --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output --partial "ward: config.json: .linux.devices: 1025 device nodes, more than the 1024 a container may have"
		assert_no_leftovers
		cfg 'del(.linux.devices)'
	done
}
