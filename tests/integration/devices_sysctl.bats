#!/usr/bin/env bats
# linux.devices and linux.sysctl, checked from inside the container.

load ../helpers/common

@test "linux.devices: node type, numbers, mode and owner" {
	cfg '.linux.devices = [
	  {"type": "c", "path": "/dev/mynull", "major": 1, "minor": 3, "fileMode": 432, "uid": 7, "gid": 8},
	  {"type": "c", "path": "/dev/sub/zero2", "major": 1, "minor": 5},
	  {"type": "p", "path": "/dev/myfifo"}]'
	cmd 'ls -ln /dev/mynull /dev/sub/zero2 | awk "{print \$1, \$3, \$4, \$5, \$6}"; ls -l /dev/myfifo | cut -c1; head -c 2 /dev/sub/zero2 | wc -c; echo x 2>&1 >/dev/mynull; true'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line 'crw-rw---- 7 8 1, 3'
	assert_line 'crw-rw-rw- 0 0 1, 5'
	assert_line p
	assert_line 2
	# 0660 and owned by 7:8: root without CAP_DAC_OVERRIDE may not write.
	assert_line --partial "Permission denied"
}

@test "linux.devices under a user namespace: the host node is bound" {
	cfg_userns
	cfg '.linux.devices = [{"type": "c", "path": "/dev/zero", "major": 1, "minor": 5}]'
	cmd 'head -c 3 /dev/zero | wc -c'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output 3
	cfg '.linux.devices = [{"type": "c", "path": "/dev/not-on-host", "major": 1, "minor": 5}]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --partial '.linux.devices[0]: /dev/not-on-host: in a user namespace (always, rootless) no device node can be made'
	assert_no_leftovers
}

@test "sysctl: namespaced keys are set inside only" {
	host_shm=$(cat /proc/sys/kernel/shmmni)
	cfg '.linux.sysctl = {"kernel.shmmni": "1234", "net.ipv4.ip_forward": "1", "fs.mqueue.msg_max": "20"}'
	cmd 'cat /proc/sys/kernel/shmmni /proc/sys/net/ipv4/ip_forward /proc/sys/fs/mqueue/msg_max'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'1234\n1\n20'
	assert_equal "$(cat /proc/sys/kernel/shmmni)" "$host_shm"
}

@test "sysctl: non-namespaced keys and host namespaces are refused" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.linux.sysctl = {"kernel.panic": "1"}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: config.json: .linux.sysctl.kernel.panic: not a namespaced sysctl: setting it would change the host'
	cfg '.linux.sysctl = {"net.ipv4.ip_forward": "1"} | .linux.namespaces |= map(select(.type != "network"))'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: config.json: .linux.sysctl.net.ipv4.ip_forward: needs a network namespace of the container'"'"'s own, not the host'"'"'s'
	cfg '.linux.sysctl = {"net/../../kernel/panic": "1"}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: config.json: .linux.sysctl.net/../../kernel/panic: not a sysctl name'
	assert_no_leftovers
}

@test "fileMode with the file-type bits engines send (st_mode) is taken when they match" {
	# 8630 = 020666: S_IFCHR | 0666, as Podman writes it from the host node.
	cfg '.linux.devices = [{"type": "c", "path": "/dev/mynull2", "major": 1, "minor": 3, "fileMode": 8630}]'
	cmd 'stat -c "%a %F" /dev/mynull2'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output '666 character special file'
	# 24998 = 060646: S_IFBLK bits on a "c" device: refused, nothing left.
	cfg '.linux.devices[0].fileMode = 24998'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'config.json: .linux.devices[0]: fileMode must be a permission mode no larger than 07777 (or one with the file type bits of a type "c" device)'
	assert_no_leftovers
}
