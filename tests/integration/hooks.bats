#!/usr/bin/env bats
# OCI hooks: all six points, state on stdin, env, args, timeouts, failures.

load ../helpers/common

setup() {
	ward_setup
	# Outside compat a hook runs only when the operator vouches for it
	# (containment_misc.bats tests that rule): these tests are about what
	# hooks do once they run.
	POLICY="$TMP/policy.json"
	policy "$(jq -n --arg t "$TMP/*" '{hooks: [$t, "/bin/*", "/usr/bin/*"]}')"
	WARD_GLOBALS=(--policy "$POLICY")
	LOG="$TMP/hooklog"
	mkdir -p "$LOG"
	: >"$LOG/log"
	# One script serves every point: "point status pid id" from stdin's state.
	cat >"$TMP/hook.sh" <<-'SH'
	#!/bin/sh
	state=$(cat)
	status=$(echo "$state" | sed -n 's/.*"status": *"\([a-z]*\)".*/\1/p')
	pid=$(echo "$state" | sed -n 's/.*"pid": *\([0-9]*\).*/\1/p')
	id=$(echo "$state" | sed -n 's/.*"id": *"\([^"]*\)".*/\1/p')
	echo "$1 $status $pid $id $HOOKVAR" >>"$2"
	SH
	chmod 755 "$TMP/hook.sh"
	# startContainer runs in the container after pivot_root: its path
	# and log are the container's (/hooklog is bind-mounted from $LOG).
	cp "$TMP/hook.sh" "$BUNDLE/rootfs/bin/hook.sh"
	cfg --arg l "$LOG" '.mounts += [{"destination": "/hooklog", "type": "bind", "source": $l, "options": ["bind"]}]'
}

hook() { # hook POINT [PATH] [LOGFILE]: a hook entry that logs POINT
	printf '{"path": "%s", "args": ["hook.sh", "%s", "%s"], "env": ["HOOKVAR=v1"]}' \
		"${2:-$TMP/hook.sh}" "$1" "${3:-$LOG/log}"
}

@test "all six hook points run, in order, with the state on stdin" {
	# The runtime-spec's semantics: baseline refuses startContainer hooks
	# (the container's own program; containment_misc.bats).
	WARD_GLOBALS=(--profile compat)
	cfg --argjson a "$(hook prestart)" --argjson b "$(hook createRuntime)" \
		--argjson c "$(hook createContainer)" --argjson d "$(hook startContainer /bin/hook.sh /hooklog/log)" \
		--argjson e "$(hook poststart)" --argjson f "$(hook poststop)" \
		'.hooks = {"prestart": [$a], "createRuntime": [$b], "createContainer": [$c], "startContainer": [$d], "poststart": [$e], "poststop": [$f]}'
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	run cat "$LOG/log"
	# prestart sees "created" (crun; the runtime-tools suite checks it).
	assert_output "$(printf '%s %s %s %s v1\n' prestart created "$pid" "$ID" createRuntime creating "$pid" "$ID" createContainer creating "$pid" "$ID")"
	ward start "$ID"
	five_lines() { [ "$(wc -l <"$LOG/log")" -ge 5 ]; }
	wait_for "startContainer and poststart in the log" five_lines
	ward delete --force "$ID"
	# (the order of these two: see the next test)
	run sed -n '4,5p' "$LOG/log"
	assert_line "startContainer running $pid $ID v1"
	assert_line "poststart running $pid $ID v1"
	run cat "$LOG/log"
	assert_line --index 5 "poststop stopped $pid $ID v1"
	assert_no_leftovers
}

@test "poststart runs after startContainer, once the process is executed" {
	# The runtime-spec's semantics: baseline refuses startContainer hooks
	# (the container's own program; containment_misc.bats).
	WARD_GLOBALS=(--profile compat)
	cfg --argjson d "$(hook startContainer /bin/hook.sh /hooklog/log)" --argjson e "$(hook poststart)" \
		'.hooks = {"startContainer": [$d], "poststart": [$e]}'
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	ward start "$ID"
	two_lines() { [ "$(wc -l <"$LOG/log")" -ge 2 ]; }
	wait_for "both hooks in the log" two_lines
	run cat "$LOG/log"
	assert_output "$(printf '%s running %s %s v1\n' startContainer "$pid" "$ID" poststart "$pid" "$ID")"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "hooks get exactly their env, not ward's" {
	printf '#!/bin/sh\nenv | sort >%s\n' "$LOG/env" >"$TMP/env.sh"
	chmod 755 "$TMP/env.sh"
	cfg --arg p "$TMP/env.sh" '.hooks = {"prestart": [{"path": $p, "env": ["ONLY=this"]}]}'
	cmd 'true'
	WARD_LEAK=yes run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	run cat "$LOG/env"
	assert_output --regexp '^(ONLY=this|PWD=[^ ]*)(
(ONLY=this|PWD=[^ ]*))*$'
	refute_output --partial WARD_LEAK
}

@test "createContainer hooks run in the container's namespaces, in its root directory (as runc)" {
	printf '#!/bin/sh\nreadlink /proc/self/ns/mnt >%s\nls >%s\n' "$LOG/ns" "$LOG/ls" >"$TMP/ns.sh"
	chmod 755 "$TMP/ns.sh"
	cfg --arg p "$TMP/ns.sh" '.hooks = {"createContainer": [{"path": $p}]}'
	cmd 'sleep 100'
	touch "$BUNDLE/rootfs/busybox-marker"
	ward create --bundle "$BUNDLE" "$ID"
	[ "$(cat "$LOG/ns")" = "$(readlink "/proc/$(init_pid "$ID")/ns/mnt")" ]
	[ "$(cat "$LOG/ns")" != "$(readlink /proc/self/ns/mnt)" ]
	grep -qx busybox-marker "$LOG/ls" || fail "the hook's cwd is not the rootfs: $(cat "$LOG/ls")"
	ward delete "$ID"
}

@test "a failing prestart hook aborts the create: message, stderr, nothing left" {
	printf '#!/bin/sh\necho "no network for you" >&2\nexit 3\n' >"$TMP/fail.sh"
	chmod 755 "$TMP/fail.sh"
	cfg --arg p "$TMP/fail.sh" '.hooks = {"prestart": [{"path": $p}]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: prestart hook 0 ($TMP/fail.sh): exit status 3; stderr: no network for you"
	assert_no_leftovers
}

@test "a failing createContainer hook aborts too" {
	cfg '.hooks = {"createContainer": [{"path": "/bin/false"}]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: createContainer hook 0 (/bin/false): exit status 1"
	assert_no_leftovers
}

@test "a state larger than a pipe holds reaches the hook whole (large annotations), at every host-side point" {
	WARD_GLOBALS=(--profile compat)
	# 300 KB of annotations: the state is over four times a pipe's 64 KiB.
	cat >"$TMP/size.sh" <<-'SH'
	#!/bin/sh
	# The state's size, and whether it is whole JSON (jq reads it).
	cat >"$3.json"
	echo "$1 $(wc -c <"$3.json") $(jq -r '.annotations.big | length' "$3.json")" >>"$2"
	SH
	chmod 755 "$TMP/size.sh"
	h() { printf '{"path": "%s", "args": ["size.sh", "%s", "%s", "%s"]}' "$TMP/size.sh" "$1" "$LOG/log" "$TMP/$1"; }
	cfg --argjson a "$(h prestart)" --argjson c "$(h createRuntime)" --argjson p "$(h poststop)" \
		'.annotations.big = ("a" * 300000) | .hooks = {"prestart": [$a], "createRuntime": [$c], "poststop": [$p]}'
	ward run --bundle "$BUNDLE" "$ID"
	run cat "$LOG/log"
	for point in prestart createRuntime poststop; do
		size=$(jq -c . "$TMP/$point.json" | wc -c)
		[ "$size" -gt 300000 ] || fail "$point got $size bytes of state"
		assert_line --regexp "^$point [0-9]+ 300000\$"
	done
	assert_no_leftovers
}

@test "a hook that outlives its timeout is killed and fails the create" {
	# A duration of this test's own, to find exactly this sleep afterwards.
	d="30.$$$RANDOM"
	cfg --arg d "$d" '.hooks = {"createRuntime": [{"path": "/bin/sleep", "args": ["sleep", $d], "timeout": 1}]}'
	SECONDS=0
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: createRuntime hook 0 (/bin/sleep): timed out after 1 s (killed)"
	[ "$SECONDS" -lt 10 ] || fail "create took $SECONDS s"
	run pgrep -fx "sleep $d"
	assert_failure 1
	assert_no_leftovers
}

@test "a missing hook binary fails clearly" {
	# The runtime-spec's semantics: baseline refuses a hook that does not
	# resolve before anything runs (containment_misc.bats).
	WARD_GLOBALS=(--profile compat)
	cfg '.hooks = {"prestart": [{"path": "/nonexistent/hook"}]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: prestart hook 0 (/nonexistent/hook): exit status 127; stderr: exec /nonexistent/hook: No such file or directory"
	assert_no_leftovers
}

@test "failing poststart and poststop hooks are warnings, not failures" {
	cfg '.hooks = {"poststart": [{"path": "/bin/false"}], "poststop": [{"path": "/bin/false"}]}'
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	run ward start "$ID"
	assert_success
	assert_output "ward: warning: poststart hook 0 (/bin/false): exit status 1"
	assert_equal "$(status_of "$ID")" running
	run ward delete --force "$ID"
	assert_success
	assert_output "ward: warning: poststop hook 0 (/bin/false): exit status 1"
	assert_no_leftovers
}

@test "a failing startContainer hook stops the container before its process" {
	# The runtime-spec's semantics: baseline refuses startContainer hooks
	# (the container's own program; containment_misc.bats).
	WARD_GLOBALS=(--profile compat)
	cfg '.hooks = {"startContainer": [{"path": "/bin/false"}]} | .root.readonly = false'
	cmd 'touch /ran'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	# The spec: start reports the error (runc 1.1 exits 0 here).
	run ward start "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\": error running hook: startContainer hook 0 (/bin/false): exit status 1"
	wait_dead "$pid"
	[ ! -e "$BUNDLE/rootfs/ran" ] || fail "the process ran despite the failed hook"
	run ward state "$ID"
	assert_output --partial '"status": "stopped"'
	ward delete "$ID"
	assert_no_leftovers
}

@test "startContainer hooks run under the container's seccomp filter (as runc)" {
	WARD_GLOBALS=(--profile compat)
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mkdir"], "action": "SCMP_ACT_KILL"}]}
	     | .hooks = {"startContainer": [{"path": "/bin/sh", "args": ["sh", "-c", "mkdir /tmp/foo"]}]}'
	cmd 'true'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\": error running hook: startContainer hook 0 (/bin/sh): killed by signal 31 (bad system call)"
	assert_no_leftovers
}

@test "poststop runs when a foreground run cleans up" {
	cfg --argjson f "$(hook poststop)" '.hooks = {"poststop": [$f]}'
	cmd 'true'
	ward run --bundle "$BUNDLE" "$ID"
	run cat "$LOG/log"
	assert_output --regexp "^poststop stopped [0-9]+ $ID v1$"
}
