#!/usr/bin/env bats
# A config whose .linux.namespaces has no "mount" entry. runtime-spec
# config-linux.md: the container inherits the runtime's mount namespace.
# compat runs it as runc does: the mounts are made in the runtime's
# namespace, inside the rootfs, and the process is chrooted there; ward
# detaches them at delete. baseline and strict refuse it.

load ../helpers/common

setup() {
	ward_setup
	cfg '.linux.namespaces |= map(select(.type != "mount"))'
}

teardown() {
	ward_teardown
	# Only if ward left them: the host's mounts inside this test's bundle.
	unmount_test_mounts
}

host_mounts() { awk -v r="$BUNDLE/rootfs" '$5 == r || index($5, r "/") == 1' /proc/self/mountinfo | wc -l; }

@test "compat: no mount namespace: the runtime's, chrooted into the rootfs, mounts gone after" {
	WARD_GLOBALS=(--profile compat)
	touch "$TMP/host-only"
	cmd "readlink /proc/self/ns/mnt; test -x /bin/busybox && echo in-rootfs; test -e $TMP/host-only || echo host-unseen"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 "$(readlink /proc/self/ns/mnt)"
	assert_line --index 1 in-rootfs
	assert_line --index 2 host-unseen
	run host_mounts
	assert_output 0
}

@test "compat: no mount namespace: the mounts are the host's until delete detaches them" {
	WARD_GLOBALS=(--profile compat)
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	run awk -v r="$BUNDLE/rootfs/proc" '$5 == r {print $5}' /proc/self/mountinfo
	assert_output "$BUNDLE/rootfs/proc"
	ward delete --force "$ID"
	run host_mounts
	assert_output 0
}

@test "baseline and strict still refuse a config without a mount namespace" {
	for p in baseline strict; do
		run "$WARD" --root "$ROOT" --profile $p run --bundle "$BUNDLE" "$ID"
		assert_failure
		assert_output --partial "mount namespace"
		run host_mounts
		assert_output 0
	done
}
