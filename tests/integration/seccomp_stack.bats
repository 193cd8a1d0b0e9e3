#!/usr/bin/env bats
# A config's own seccomp filter never takes the place of ward's built-in one
# under strict (it is stacked on it: both are loaded, and the kernel takes
# the most restrictive action of all), and under baseline when it is a
# blocklist (its default action lets through what it does not name). Seen from inside: the calls ward's profile denies stay denied.

load ../helpers/common

setup() {
	ward_setup
	ID="p25-$BATS_TEST_NUMBER-$$-$RANDOM"
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_AARCH64"]}'
	cmd 'unshare -U true 2>/dev/null && echo unshare-ran || echo unshare-denied
	     for c in add_key io_uring_setup perf_event_open bpf; do echo "$c $(sysprobe $c 2>&1)"; done'
}

teardown() {
	ward_teardown
}

denied_inside() {
	assert_success
	assert_line --index 0 unshare-denied
	for c in add_key io_uring_setup perf_event_open bpf; do
		assert_line "$c errno 1" # EPERM from ward's filter (allowed: EFAULT or EINVAL)
	done
}

@test "strict: a config's allow-all seccomp profile is stacked on ward's: unshare -U, add_key, io_uring_setup, perf_event_open, bpf denied" {
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	denied_inside
	assert_no_leftovers
}

@test "strict: a config's own filter still applies with ward's (both are loaded)" {
	cfg '.linux.seccomp.syscalls = [{"names": ["getcwd"], "action": "SCMP_ACT_ERRNO", "errnoRet": 42}]'
	cmd 'sysprobe getcwd 0 0; unshare -U true 2>/dev/null && echo unshare-ran || echo unshare-denied'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 "errno 42"
	assert_line --index 1 unshare-denied
	assert_no_leftovers
}

@test "baseline: an allow-all seccomp profile gets ward's too, recorded as an adjustment" {
	run ward run --bundle "$BUNDLE" "$ID"
	denied_inside
	assert_no_leftovers
	run ward check "$BUNDLE"
	assert_output --partial 'seccomp-stack'
}

@test "baseline: a blocklist (allow by default, deny one syscall) gets ward's too: what it does not name stays denied" {
	# An attacker's review found this one: a single deny rule used to turn
	# the stacking off, and unshare -U reached the kernel.
	for deny in reboot swapon; do
		cfg --arg d "$deny" '.linux.seccomp.syscalls = [{"names": [$d], "action": "SCMP_ACT_ERRNO"}]'
		run ward run --bundle "$BUNDLE" "$ID-$deny"
		denied_inside
	done
	# An allow-list, as engines write them, gets the floor instead.
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}'
	run "$WARD" check --format json "$BUNDLE"
	[ "$(jq '[.adjustments[] | select(.rule == "seccomp-stack")] | length' <<<"$output")" = 0 ]
	[ "$(jq '[.adjustments[] | select(.rule == "seccomp-floor")] | length' <<<"$output")" = 1 ]
	assert_no_leftovers
}

# An engine's allow-list is the engine's choice, but some let through what
# no container's work needs and kernel escapes start from: Podman 4.3's
# (saved in tests/fixtures) allows unshare and keyctl. An attacker's review
# reached unshare(CLONE_NEWUSER), add_key and io_uring_setup through an
# allow-list naming them. baseline stacks a floor under any allow-list.
@test "baseline: an engine's allow-list (Podman's, or one naming them) gets the floor: new user namespaces, keyrings, io_uring, eBPF, perf, userfaultfd denied; the rest as the engine says" {
	cmd 'unshare -U true 2>/dev/null && echo unshare-ran || echo unshare-denied
	     for c in add_key keyctl io_uring_setup perf_event_open bpf userfaultfd; do echo "$c $(sysprobe $c 2>&1)"; done
	     echo "getppid $(sysprobe getppid)"'
	podman=$(jq -c '.linux.seccomp' "$WARD_SRCDIR/tests/fixtures/podman-run-busybox.json")
	for sc in "$podman" "$(jq -c '.syscalls = [{"names": ["unshare", "keyctl", "add_key", "request_key", "io_uring_setup", "io_uring_enter", "bpf", "perf_event_open", "userfaultfd"], "action": "SCMP_ACT_ALLOW"}] + .syscalls' <<<"$podman")"; do
		cfg --argjson s "$sc" '.linux.seccomp = $s'
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_line --index 0 unshare-denied
		# (EPERM from the floor, or ENOSYS from Podman's own default)
		for c in add_key keyctl io_uring_setup perf_event_open bpf userfaultfd; do
			assert_line --regexp "^$c errno (1|38)\$"
		done
		assert_line --regexp '^getppid ok [0-9]+$'
	done
	run "$WARD" check --format json "$BUNDLE"
	[ "$(jq '[.adjustments[] | select(.rule == "seccomp-floor")] | length' <<<"$output")" = 1 ]
	# compat loads the engine's alone, as runc; seccomp-none opts out.
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 unshare-ran
	assert_no_leftovers
}
