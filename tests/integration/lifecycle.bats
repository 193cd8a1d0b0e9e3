#!/usr/bin/env bats
# create → start → kill → delete, and every wrong-state and unknown-id path.

load ../helpers/common

@test "create leaves the init waiting; start runs the process" {
	cmd 'echo started >/tmp/mark; sleep 100'
	cfg '.root.readonly = false'
	# Not under `run`: the waiting init holds the caller's stdout open.
	ward create --bundle "$BUNDLE" --pid-file "$TMP/pid" "$ID" >"$TMP/out" 2>&1
	run cat "$TMP/out"
	assert_output ""
	assert_equal "$(status_of "$ID")" created
	pid=$(init_pid "$ID")
	assert_equal "$(cat "$TMP/pid")" "$pid"
	# Nothing of the user process ran yet.
	[ ! -e "$BUNDLE/rootfs/tmp/mark" ] || fail "process ran before start"
	run stat -c %a "$ROOT/$ID"
	assert_output 700
	ward start "$ID"
	assert_equal "$(status_of "$ID")" running
	sleep 0.3
	# /tmp is a tmpfs in the container: look through the init's root.
	run cat "/proc/$pid/root/tmp/mark"
	assert_output started
	ward kill "$ID" KILL
	wait_dead "$pid"
	assert_equal "$(status_of "$ID")" stopped
	ward delete "$ID"
	assert_no_leftovers
}

@test "state JSON has the runtime-spec fields" {
	cmd 'sleep 100'
	cfg '.annotations = {"org.example.k": "v"}'
	ward create --bundle "$BUNDLE" "$ID"
	run ward state "$ID"
	assert_success
	run jq -r '[.ociVersion, .id, .status, (.pid|tostring), .bundle, .annotations["org.example.k"]] | join(" ")' <<<"$output"
	assert_output "1.2.0 $ID created $(init_pid "$ID") $BUNDLE v"
	ward delete "$ID"
	assert_no_leftovers
}

@test "duplicate id is refused and the first container is untouched" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" already exists"
	assert_equal "$(status_of "$ID")" created
	ward delete "$ID"
	assert_no_leftovers
}

@test "unknown id: every command says so" {
	for c in start state delete kill; do
		run ward $c nosuch
		assert_failure 1
		assert_output 'ward: container "nosuch" does not exist'
	done
	# As runc: a forced delete of what is not there is done (the engines
	# clean up after a failed create this way).
	run ward delete --force nosuch
	assert_success
	assert_output ''
	assert_no_leftovers
}

@test "start is refused unless created" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	ward start "$ID"
	run ward start "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is running, not created: only a created container can be started"
	pid=$(init_pid "$ID")
	ward kill "$ID" 9
	wait_dead "$pid"
	run ward start "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is stopped, not created: only a created container can be started"
	ward delete "$ID"
	assert_no_leftovers
}

@test "delete of a running container needs --force" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	run ward delete "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is running: stop it first, or use delete --force"
	pid_alive "$pid"
	run ward delete --force "$ID"
	assert_success
	! pid_alive "$pid"
	assert_no_leftovers
}

@test "delete of a created container kills the waiting init" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	ward delete "$ID"
	! pid_alive "$pid"
	assert_no_leftovers
}

@test "kill takes signal names and numbers; bad signals are refused" {
	# pid 1 of a namespace only gets the signals it has handlers for.
	cmd 'trap "echo got-usr1 >/tmp/sig" USR1; trap "exit 0" TERM; while :; do sleep 0.1; done'
	cfg '.root.readonly = false'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	sleep 0.3
	ward kill "$ID" SIGUSR1
	sleep 0.5
	run cat "/proc/$pid/root/tmp/sig"
	assert_output got-usr1
	run ward kill "$ID" SIGBOGUS
	assert_failure 1
	assert_output 'ward: unknown signal "SIGBOGUS"'
	run ward kill "$ID" 99
	assert_failure 1
	assert_output 'ward: invalid signal number 99'
	ward kill "$ID" term
	wait_dead "$pid"
	run ward kill "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is stopped: it cannot be signalled"
	ward delete "$ID"
	assert_no_leftovers
}

@test "kill --all reaches every process of the container" {
	cmd 'sleep 1000 & sleep 1001 & wait'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	sleep 0.3
	kids=$(pgrep -P "$pid" sleep)
	[ "$(echo "$kids" | wc -w)" -eq 2 ] || fail "expected 2 sleeps, got: $kids"
	ward kill --all "$ID" KILL
	wait_dead "$pid"
	for k in $kids; do wait_dead "$k" || fail "child $k survived kill --all"; done
	ward delete "$ID"
	assert_no_leftovers
}

@test "a recycled pid is never taken for the container" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	# Pretend the recorded process started at another time: as after pid reuse.
	jq -c '.wardPidStart = 1' "$ROOT/$ID/state.json" >"$TMP/s" && cp "$TMP/s" "$ROOT/$ID/state.json"
	assert_equal "$(status_of "$ID")" stopped
	run ward kill "$ID" KILL
	assert_failure 1
	pid_alive "$pid" || fail "ward signalled a process it could not prove was its own"
	kill -9 "$pid"
	ward delete "$ID"
	assert_no_leftovers
}

@test "a container whose creator died mid-create is removable" {
	mkdir -p "$ROOT/$ID"
	chmod 700 "$ROOT/$ID"
	run ward state "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is still being created"
	run ward delete --force "$ID"
	assert_success
	assert_no_leftovers
}

@test "killing ward during create leaves no process behind" {
	cmd 'sleep 100'
	# A bind source on a fifo that never opens would hang; instead stop the
	# parent while the child waits for its id maps.
	cfg '.linux.namespaces += [{"type": "user"}] | .linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] | .linux.gidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}]'
	(exec "$WARD" --root "$ROOT" create --bundle "$BUNDLE" "$ID") &
	wpid=$!
	kill -9 "$wpid" 2>/dev/null || true
	wait "$wpid" 2>/dev/null || true
	sleep 0.3
	run ward delete --force "$ID"
	assert_no_leftovers
}
