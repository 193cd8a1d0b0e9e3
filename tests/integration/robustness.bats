#!/usr/bin/env bats
# No crash and no unmanageable container: valid configs without mounts, a
# state over 64 KiB, a state.json that cannot be read, a delete that did not
# finish, delete racing create on one id, and the id length limit. The
# faults and leak run of tests/stress/stress.bash, short, is at the end.

load ../helpers/common

@test "a config without mounts (absent, null or []) checks, creates and runs" {
	cmd 'true'
	for m in 'del(.mounts)' '.mounts = null' '.mounts = []'; do
		cfg "$m"
		run ward check "$BUNDLE"
		[ "$status" -lt 128 ] || fail "check with $m died by signal $((status - 128)): $output"
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		run ward create --bundle "$BUNDLE" "$ID"
		assert_success
		ward delete --force "$ID"
	done
	assert_no_leftovers
}

@test "a state file over 64 KiB (100 annotations of 1 KiB): state, start, kill and delete work" {
	cmd 'sleep 100'
	cfg '.annotations = ([range(100)] | map({key: "test.a\(.)", value: ("x" * 1024)}) | from_entries)'
	ward create --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1 || fail "$(cat "$TMP/out")"
	[ "$(stat -c %s "$ROOT/$ID/state.json")" -gt 65536 ] || fail "state.json is not over 64 KiB"
	run ward state "$ID"
	assert_success
	[ "$(echo "$output" | jq '.annotations | length')" -ge 100 ]
	run ward start "$ID"
	assert_success
	[ "$(status_of "$ID")" = running ]
	run ward kill "$ID" KILL
	assert_success
	run ward delete --force "$ID"
	assert_success
	assert_no_leftovers
}

@test "a record of the state dir larger than its buffer is said, not cut; delete --force still removes all" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1 || fail "$(cat "$TMP/out")"
	# The cgroup record: its path, then more than any buffer for it holds.
	{ cat "$ROOT/$ID/cgroup"; head -c 20000 /dev/zero | tr '\0' x; } >"$TMP/rec"
	cp "$TMP/rec" "$ROOT/$ID/cgroup"
	run ward delete --force "$ID"
	assert_success
	assert_output --partial "cgroup of \"$ID\": larger than"
	assert_no_leftovers
}

@test "a corrupted state.json: list shows it (unknown, with the error); delete --force removes its processes, cgroups and state" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1 || fail "$(cat "$TMP/out")"
	pid=$(init_pid "$ID")
	cgpath=$(head -1 "$ROOT/$ID/cgroup")
	printf '{"ociVersion": "1.2.0", "id": ' >"$ROOT/$ID/state.json"
	run ward list
	assert_success
	assert_line --regexp "^$ID +0 +unknown .*state"
	run ward list --format json
	assert_success
	[ "$(echo "$output" | jq -r --arg id "$ID" '.[] | select(.id == $id) | .status')" = unknown ]
	run ward delete "$ID"
	assert_failure
	assert_output --partial "delete --force"
	run ward delete --force "$ID"
	assert_success
	assert_output --partial "cgroup record"
	pid_alive "$pid" && fail "the init ($pid) still runs"
	for d in /sys/fs/cgroup/*"$cgpath" /sys/fs/cgroup"$cgpath"; do
		[ -e "$d" ] && fail "cgroup left behind: $d"
	done
	assert_no_leftovers
}

@test "a delete that did not finish reads as being deleted, never as being created" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1 || fail "$(cat "$TMP/out")"
	# Stop the removal midway: a file that cannot be unlinked (a mount
	# point: EBUSY), one the directory lists after state.json.
	victim=$(ls -U "$ROOT/$ID" | sed -n '/^state.json$/,$p' | sed 1d | tail -1)
	[ -n "$victim" ] || skip "this filesystem lists state.json last"
	touch "$TMP/empty"
	mount --bind "$TMP/empty" "$ROOT/$ID/$victim"
	run ward delete --force "$ID"
	umount "$ROOT/$ID/$victim"
	assert_failure
	run ward state "$ID"
	assert_failure
	refute_output --partial "being created"
	assert_output --partial "being deleted"
	run ward list
	assert_line --regexp "^$ID +0 +deleting"
	run ward delete --force "$ID"
	assert_success
	assert_no_leftovers
}

@test "delete --force racing create on one id: never 'Directory not empty', nothing left" {
	cmd 'sleep 100'
	# Two deletes wait for the lock of a create's directory; the first
	# removes it, a second create makes the name again, and the other
	# delete, locked on the removed directory, must not act on the new one.
	# ward itself, not the test's wrapper: its timing is the race's.
	w() { "$WARD" --root "$ROOT" "$@"; }
	# (Waiting on these pids only: a bare `wait` also waits for bats'
	# timeout watchdog.)
	for i in $(seq 30); do
		w create --bundle "$BUNDLE" "$ID" >"$TMP/c$i" 2>&1 &
		p1=$!
		sleep 0.005
		w delete --force "$ID" >"$TMP/d$i" 2>&1 &
		p2=$!
		w delete --force "$ID" >"$TMP/e$i" 2>&1 &
		p3=$!
		sleep 0.02
		w create --bundle "$BUNDLE" "$ID" >"$TMP/f$i" 2>&1 &
		wait "$p1" "$p2" "$p3" "$!" || true
		w delete --force "$ID" >"$TMP/g$i" 2>&1
	done
	run cat "$TMP"/d* "$TMP"/e* "$TMP"/g*
	refute_output --partial "not empty"
	assert_output ""
	assert_no_leftovers
}

@test "container ids: at most 200 characters, one clear error past that" {
	cmd 'true'
	long=$(printf 'a%.0s' $(seq 201))
	for id in "$long" "${long}${long}"; do
		run ward create --bundle "$BUNDLE" "$id"
		assert_failure
		assert_output "ward: container id is ${#id} characters long: at most 200 are allowed"
		run ward state "$id"
		assert_output --partial "at most 200"
	done
	id=${long:1}
	run ward run --bundle "$BUNDLE" "$id"
	assert_success
	assert_no_leftovers
}

@test "stress, short: kills during create, start, exec and delete, racers, workers, a full state root: no leak" {
	run env WARD="$WARD" BUSYBOX="$BUSYBOX" timeout -s KILL 300 \
		"$WARD_SRCDIR/tests/stress/stress.bash" "${WARD_STRESS_TRIALS:-10}" 2
	echo "$output"
	assert_success
	assert_line --regexp '^stress: [0-9]+ trials .*: 0 leaks, 0 failures$'
}
