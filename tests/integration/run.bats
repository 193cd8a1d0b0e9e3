#!/usr/bin/env bats
# run: exit status and signals passed on, --detach, cleanup.

load ../helpers/common

@test "run passes on the exit status and removes the container" {
	cmd 'exit 3'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 3
	assert_no_leftovers
}

# Wait until a container reports running.
wait_running() {
	for i in $(seq 100); do
		[ "$(ward state "$1" 2>/dev/null | jq -r .status)" = running ] && return 0
		sleep 0.05
	done
	return 1
}

@test "run reports death by signal as 128+N" {
	# pid 1 of a pid namespace cannot be SIGKILLed from inside: kill it
	# from outside, as an engine would.
	cmd 'sleep 100'
	(exec "$WARD" --root "$ROOT" run --bundle "$BUNDLE" "$ID" </dev/null >"$TMP/out" 2>&1 3>&-) &
	wpid=$!
	track_pid "$wpid"
	wait_running "$ID" || fail "the container never ran"
	ward kill "$ID" KILL
	rc=0
	wait "$wpid" || rc=$?
	assert_equal "$rc" 137
	assert_no_leftovers
}

@test "run forwards signals to the container" {
	cmd 'trap "echo term; exit 7" TERM; touch /tmp/trap-set; while :; do sleep 0.1; done'
	# exec: $! must be ward itself, not a subshell around it.
	(exec "$WARD" --root "$ROOT" run --bundle "$BUNDLE" "$ID" >"$TMP/out" 3>&-) &
	wpid=$!
	track_pid "$wpid"
	wait_running "$ID" || fail "the container never ran"
	pid=$(init_pid "$ID")
	wait_for "the container's trap" test -e "/proc/$pid/root/tmp/trap-set"
	kill -TERM "$wpid"
	rc=0
	wait "$wpid" || rc=$?
	assert_equal "$rc" 7
	run cat "$TMP/out"
	assert_output term
	assert_no_leftovers
}

@test "run --detach returns at once and leaves the container running" {
	cmd 'sleep 100'
	ward run --detach --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1
	run cat "$TMP/out"
	assert_output ""
	assert_equal "$(status_of "$ID")" running
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "run --keep leaves the stopped container for inspection, delete removes it" {
	cmd 'exit 5'
	run ward run --keep --bundle "$BUNDLE" "$ID"
	assert_failure 5
	assert_equal "$(status_of "$ID")" stopped
	ward delete "$ID"
	assert_no_leftovers
}

@test "stdout and stderr of the container reach the caller" {
	cmd 'echo out; echo err >&2'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line out
	assert_line err
}

@test "binary not found: runc's wording, exit 1, nothing left" {
	cfg '.process.args = ["no-such-binary"]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: exec: "no-such-binary": executable file not found in $PATH'
	cfg '.process.args = ["/bin/nope"]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: exec: "/bin/nope": stat /bin/nope: No such file or directory'
	assert_no_leftovers
}

@test "a file that is not executable is refused" {
	cfg '.process.args = ["/etc/passwd"]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: exec: "/etc/passwd": stat /etc/passwd: Permission denied'
	assert_no_leftovers
}

@test "many containers in a row leave nothing behind" {
	cmd 'true'
	for i in $(seq 20); do
		ward run --bundle "$BUNDLE" "$ID-$i" || fail "run $i failed"
	done
	assert_no_leftovers
}
