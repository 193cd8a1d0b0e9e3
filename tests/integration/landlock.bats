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

@test "strict: programs run only from the root filesystem (not from a read-only volume the mount lets execute); writes on the writable ones work" {
	# A read-only volume holding a program, mounted without noexec: only
	# Landlock stands between the code and executing it.
	mkdir "$TMP/ro"
	cp "$BUNDLE/rootfs/bin/busybox" "$TMP/ro/busybox"
	chown 65534 "$TMP/ro/busybox"
	cfg --arg v "$TMP/ro" '.mounts += [{"destination": "/ro", "type": "bind", "source": $v, "options": ["rbind", "ro"]}]'
	cmd '/ro/busybox true 2>/dev/null && echo ro-ran || echo ro-denied
	     echo data >/vol/f && cat /vol/f
	     echo data2 >/tmp/f && cat /tmp/f
	     grep -c " /ro .*noexec" /proc/self/mountinfo || true'
	# run, and a process exec'd into the running container.
	probe=$(jq -r '.process.args[2]' "$BUNDLE/config.json")
	run_and_exec() { # run_and_exec GLOBALS...: the probe's output from run, then from exec
		ward "$@" run --bundle "$BUNDLE" "$ID" || return
		cfg '.process.args = ["sleep", "100"]'
		ward "$@" run -d --bundle "$BUNDLE" "$ID" &&
			ward exec "$ID" sh -c "$probe"
		local rc=$?
		ward delete --force "$ID"
		cmd "$probe"
		return $rc
	}
	run run_and_exec --profile strict
	assert_success
	assert_output $'ro-denied\ndata\ndata2\n0\nro-denied\ndata\ndata2\n0'
	# The opt-out (allowAlways here: the operator's word for every
	# container) lifts it.
	policy '{"allowAlways": ["landlock-off"]}'
	run run_and_exec --policy "$POLICY" --profile strict
	assert_success
	assert_equal "$(grep -c ro-ran <<<"$output")" 2
	# baseline and compat: unchanged.
	for p in baseline compat; do
		run run_and_exec --profile "$p"
		assert_success
		assert_equal "$(grep -c ro-ran <<<"$output")" 2
	done
	assert_no_leftovers
}

@test "strict: a volume whose mount point is long once escaped in mountinfo is still a volume to Landlock" {
	# 1250 spaces: "\040" each in /proc/self/mountinfo (5000 bytes), past
	# a fixed-width field: cut, the mount was not seen and fell under the
	# root filesystem's rights (execute included).
	mkdir "$TMP/ro"
	cp "$BUNDLE/rootfs/bin/busybox" "$TMP/ro/busybox"
	sp=$(printf ' %.0s' $(seq 250))
	dest="/ro/$sp/$sp/$sp/$sp/$sp"
	cfg --arg v "$TMP/ro" --arg d "$dest" '.mounts += [{"destination": $d, "type": "bind", "source": $v, "options": ["rbind", "ro"]}]'
	probe='"$1/busybox" true 2>/dev/null && echo ran || echo denied'
	cfg --arg d "$dest" --arg p "$probe" '.process.args = ["sh", "-c", $p, "sh", $d]'
	# run, and a process exec'd into the running container (its wall is
	# built from the mount table it reads itself).
	for profile in strict baseline; do
		want=denied
		[ "$profile" = strict ] || want=ran
		run ward --profile "$profile" run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_output "$want"
		cfg '.process.args = ["sleep", "100"]'
		ward --profile "$profile" run -d --bundle "$BUNDLE" "$ID"
		run ward exec "$ID" sh -c "$probe" sh "$dest"
		assert_success
		assert_output "$want"
		ward delete --force "$ID"
		cfg --arg d "$dest" --arg p "$probe" '.process.args = ["sh", "-c", $p, "sh", $d]'
	done
}

@test "strict: nothing executes from a writable volume (noexec, and Landlock under it)" {
	cmd 'cp /bin/busybox /vol/busybox && echo copied
	     /vol/busybox true 2>/dev/null && echo vol-ran || echo vol-denied'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'copied\nvol-denied'
	run ward --profile baseline run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line vol-ran
	assert_no_leftovers
}

@test "strict: the dynamic loader cannot map a program from a volume either (writable mounts are noexec)" {
	# Landlock's execute right is checked at execve, not at mmap: ld.so
	# /vol/prog mapped it (an attacker's review). Host ld.so and libc in the
	# image, a dynamic program in the volume.
	mkdir -p "$BUNDLE/rootfs/lib64" "$BUNDLE/rootfs/lib/x86_64-linux-gnu"
	cp /lib64/ld-linux-x86-64.so.2 "$BUNDLE/rootfs/lib64/"
	cp /lib/x86_64-linux-gnu/libc.so.6 "$BUNDLE/rootfs/lib/x86_64-linux-gnu/"
	cp /bin/true "$TMP/vol/dyn"
	chmod 644 "$TMP/vol/dyn" # (ld.so needs no execute bit)
	cmd '/lib64/ld-linux-x86-64.so.2 /vol/dyn && echo loader-ran || echo loader-refused
	     grep " /vol " /proc/self/mountinfo | grep -q noexec && echo noexec; true'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line loader-refused
	assert_line noexec
	# ... and from a process exec'd into the running container.
	probe=$(jq -r '.process.args[2]' "$BUNDLE/config.json")
	cfg '.process.args = ["sleep", "100"]'
	ward --profile strict run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" sh -c "$probe"
	ward delete --force "$ID"
	assert_success
	assert_line loader-refused
	cmd "$probe"
	run ward --profile strict check --format json "$BUNDLE"
	[ "$(jq '[.adjustments[] | select(.rule == "strict-noexec")] | length' <<<"$output")" -ge 1 ]
	run ward --profile baseline run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line loader-ran
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
