#!/usr/bin/env bats
# Landlock under strict, a second wall under the mounts: seen from inside,
# each rule bites where the mount rules alone would let the code through
# (a volume without noexec), and baseline and compat are unchanged.

load ../helpers/common

setup() {
	ward_setup
	[ "$("$WARD_BUILDDIR/tests/helpers/sysprobe" landlock_create_ruleset 0 0 1 | cut -d' ' -f2)" -ge 6 ] 2>/dev/null ||
		skip "the kernel's Landlock ABI is below 6"
	# A volume the container's root may write (strict maps it to a host id
	# of its own), mounted without noexec.
	mkdir -m 777 "$TMP/vol"
	cfg --arg v "$TMP/vol" '.mounts += [{"destination": "/vol", "type": "bind", "source": $v, "options": ["rbind", "rw"]}]'
	POLICY="$TMP/policy.json"
}

teardown() {
	ward_teardown
}

@test "strict: nothing executes from a volume or the scratch tmpfs (the root filesystem's programs do); writes there work" {
	cmd 'cp /bin/busybox /vol/busybox && echo copied
	     /vol/busybox true 2>/dev/null && echo vol-ran || echo vol-denied
	     echo data >/tmp/f && cat /tmp/f
	     grep -c " /vol .*noexec" /proc/self/mountinfo || true'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	# The mount allows execution (no noexec): Landlock is what refuses.
	assert_output $'copied\nvol-denied\ndata\n0'
	# The opt-out (allowAlways here: the operator's word for every
	# container) lifts it.
	policy '{"allowAlways": ["landlock-off"]}'
	run ward --policy "$POLICY" --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line vol-ran
	# baseline and compat: unchanged.
	for p in baseline compat; do
		run ward --profile "$p" run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_line vol-ran
	done
	assert_no_leftovers
}

@test "strict: signals stay within the container's own domain: an exec'd process cannot signal the container's processes, its own children it can" {
	cmd 'sleep 100'
	for p in strict baseline; do
		ward --profile "$p" run -d --bundle "$BUNDLE" "$ID"
		run ward exec "$ID" sh -c 'kill -0 1 2>/dev/null && echo init-signalled || echo init-refused; sleep 5 & kill $! && echo own-child-signalled'
		assert_success
		if [ "$p" = strict ]; then
			assert_output $'init-refused\nown-child-signalled'
		else
			assert_output $'init-signalled\nown-child-signalled'
		fi
		ward delete --force "$ID"
	done
	assert_no_leftovers
}

@test "ward check shows the Landlock wall under strict, and its opt-out" {
	run "$WARD" --profile strict check --format json "$BUNDLE"
	[ "$(jq '[.adjustments[] | select(.rule == "landlock")] | length' <<<"$output")" = 1 ]
	run "$WARD" check --format json "$BUNDLE"
	[ "$(jq '[.adjustments[] | select(.rule == "landlock")] | length' <<<"$output")" = 0 ]
	policy '{"allowAlways": ["landlock-off"]}'
	run "$WARD" --policy "$POLICY" --profile strict check --format json "$BUNDLE"
	[ "$(jq '[.adjustments[] | select(.rule == "landlock")] | length' <<<"$output")" = 0 ]
}
