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
	# /tmp is a tmpfs in the container: look through the init's root.
	wait_for "the process's mark" test -s "/proc/$pid/root/tmp/mark"
	run cat "/proc/$pid/root/tmp/mark"
	assert_output started
	ward kill "$ID" KILL
	wait_dead "$pid"
	assert_equal "$(status_of "$ID")" stopped
	ward delete "$ID"
	assert_no_leftovers
}

@test "--pid-file: relative to the caller's directory, not the bundle (runc's 'with new CWD'); into a missing directory the run is refused and nothing is left" {
	cmd 'sleep 100'
	mkdir "$TMP/pid_file"
	(cd "$TMP/pid_file" && "$WARD" --root "$ROOT" run -d --pid-file pid.txt -b "$BUNDLE" "$ID") >"$TMP/out" 2>&1
	run cat "$TMP/out"
	assert_output ""
	assert_equal "$(cat "$TMP/pid_file/pid.txt")" "$(init_pid "$ID")"
	[ ! -e "$BUNDLE/pid.txt" ] || fail "the pid file went to the bundle"
	ward delete --force "$ID"
	# As runc: the directory is not made; the container is not left half-made.
	run ward run -d --pid-file "$TMP/nodir/pid.txt" -b "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: --pid-file $TMP/nodir/pid.txt: No such file or directory"
	[ ! -e "$TMP/nodir" ] || fail "the directory was made"
	assert_no_leftovers
}

@test "state JSON has the runtime-spec fields" {
	cmd 'sleep 100'
	cfg '.annotations = {"org.example.k": "v"}'
	ward create --bundle "$BUNDLE" "$ID"
	run ward state "$ID"
	assert_success
	run jq -r '[.ociVersion, .id, .status, (.pid|tostring), .bundle, .annotations["org.example.k"]] | join(" ")' <<<"$output"
	assert_output "1.3.0 $ID created $(init_pid "$ID") $BUNDLE v"
	ward delete "$ID"
	assert_no_leftovers
}

@test "state and list show the profile create decided: --profile, an annotation that tightens, one that would loosen" {
	cmd 'sleep 100'
	ward --profile compat create --bundle "$BUNDLE" "$ID-c"
	ward create --bundle "$BUNDLE" "$ID-b"
	cfg '.annotations["org.ward.profile"] = "strict"'
	ward create --bundle "$BUNDLE" "$ID-s"
	# Would loosen baseline: ignored, the state says baseline.
	cfg '.annotations["org.ward.profile"] = "compat"'
	ward create --bundle "$BUNDLE" "$ID-l"
	for x in c:compat b:baseline s:strict l:baseline; do
		run ward state "$ID-${x%%:*}"
		assert_success
		assert_equal "$(jq -r .wardProfile <<<"$output")" "${x#*:}"
	done
	run ward list
	assert_line --index 0 --regexp '^ID +PID +STATUS +BUNDLE +CREATED +OWNER +PROFILE$'
	assert_line --regexp "^$ID-c +[0-9]+ +created +.* compat$"
	assert_line --regexp "^$ID-s +[0-9]+ +created +.* strict$"
	run ward list --format json
	assert_equal "$(jq -r 'map(.id + "=" + .wardProfile) | join(" ")' <<<"$output")" \
		"$ID-b=baseline $ID-c=compat $ID-l=baseline $ID-s=strict"
	# Not in the stored state: the policy record is the one truth.
	run ! grep -q wardProfile "$ROOT/$ID-s/state.json"
	for x in c b s l; do ward delete --force "$ID-$x"; done
	assert_no_leftovers
}

@test "duplicate id is refused and the first container is untouched" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: container \"$ID\" already exists"
	assert_equal "$(status_of "$ID")" created
	ward delete "$ID"
	assert_no_leftovers
}

@test "unknown id: every command says so" {
	for c in start state delete kill; do
		run ward $c nosuch
		assert_failure "$(case $c in start) echo 125 ;; *) echo 1 ;; esac)" # ward(1), EXIT STATUS
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
	assert_failure 125
	assert_output "ward: container \"$ID\" is running, not created: only a created container can be started"
	pid=$(init_pid "$ID")
	ward kill "$ID" 9
	wait_dead "$pid"
	run ward start "$ID"
	assert_failure 125
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
	pid_alive "$pid" || fail "the refused delete killed the container"
	run ward delete --force "$ID"
	assert_success
	wait_dead "$pid" || fail "the init survived delete --force"
	assert_no_leftovers
}

@test "delete of a created container kills the waiting init" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	pid_alive "$pid" || fail "no waiting init"
	ward delete "$ID"
	wait_dead "$pid" || fail "the waiting init survived delete"
	assert_no_leftovers
}

@test "kill takes signal names and numbers; bad signals are refused" {
	# pid 1 of a namespace only gets the signals it has handlers for.
	cmd 'trap "echo got-usr1 >/tmp/sig" USR1; trap "exit 0" TERM; touch /tmp/traps-set; while :; do sleep 0.1; done'
	cfg '.root.readonly = false'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	wait_for "the traps to be set" test -e "/proc/$pid/root/tmp/traps-set"
	ward kill "$ID" SIGUSR1
	wait_for "the USR1 trap's file" test -s "/proc/$pid/root/tmp/sig"
	run cat "/proc/$pid/root/tmp/sig"
	assert_output got-usr1
	run ward kill "$ID" SIGBOGUS
	assert_failure 1
	assert_output 'ward: unknown signal "SIGBOGUS"'
	run ward kill "$ID" 99
	assert_failure 1
	assert_output 'ward: invalid signal number 99'
	# 0: is it there (kill(2)'s null signal)
	ward kill "$ID" 0
	ward kill "$ID" term
	wait_dead "$pid" || fail "TERM did not end the init"
	# As runc: the words containerd's shim and conmon read as "already
	# finished"; --all of a stopped container is not an error.
	run ward kill "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is stopped: container not running"
	run ward kill "$ID" 0
	assert_failure 1
	assert_output "ward: container \"$ID\" is stopped: container not running"
	run ward kill --all "$ID" KILL
	assert_success
	assert_output ''
	ward delete "$ID"
	assert_no_leftovers
}

@test "kill KILL of a paused container ends it (frozen v1 tasks are thawed)" {
	cmd 'sleep 1000 & sleep 1001'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	ward pause "$ID"
	assert_equal "$(status_of "$ID")" paused
	ward kill "$ID" KILL
	wait_dead "$pid" || fail "the paused init survived SIGKILL"
	assert_equal "$(status_of "$ID")" stopped
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "kill --all reaches every process of the container" {
	cmd 'sleep 1000 & sleep 1001 & wait'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	two_sleeps() { [ "$(pgrep -P "$pid" -x sleep | wc -l)" -eq 2 ]; }
	wait_for "the init's two sleeps" two_sleeps
	kids=$(pgrep -P "$pid" -x sleep)
	ward kill --all "$ID" KILL
	wait_dead "$pid" || fail "the init survived kill --all"
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

# Start `ward create` in the background, SIGKILL it as soon as EVENT (a
# command) holds, and check that delete --force then leaves nothing: no
# process, cgroup, mount or state. LANDED=1 when the kill landed mid-create
# (the state says "still being created"), 0 when create had finished.
# (Call it plainly, never as `! f` or `f || ...`: bash would then ignore
# every failing assertion inside.)
kill_create_at() { # kill_create_at WHAT COMMAND...
	local what=$1 w
	shift
	LANDED=0
	"$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" create --bundle "$BUNDLE" "$ID" </dev/null >"$TMP/create.out" 2>&1 3>&- &
	w=$!
	track_pid "$w"
	# (a tight loop: the window may be short)
	local end=$((SECONDS + 20))
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || { fail "create never reached $what ($(cat "$TMP/create.out"))"; return 1; }
		[ -e "/proc/$w" ] || { fail "create ended before $what ($(cat "$TMP/create.out"))"; return 1; }
	done
	kill -9 "$w"
	wait "$w" 2>/dev/null || true # (137: the kill)
	[ -d "$ROOT/$ID" ] || fail "$what: no state dir when ward was killed"
	run ward state "$ID"
	if [ "$status" -eq 1 ] && [ "$output" = "ward: container \"$ID\" is still being created" ]; then
		LANDED=1
	else
		assert_success
		assert_equal "$(jq -r .status <<<"$output")" created
	fi
	# A prestart hook that held ward there is the test's own: end it.
	[ ! -s "$TMP/hook.pid" ] || kill -9 "$(cat "$TMP/hook.pid")" 2>/dev/null
	rm -f "$TMP/hook.pid" "$TMP/in-hook"
	run ward delete --force "$ID"
	assert_success
	[ ! -e "$ROOT/$ID" ] || fail "$what: state dir left: $(ls -A "$ROOT/$ID")"
	assert_no_leftovers
}

# The container's cgroup exists, in some hierarchy.
has_cgroup() {
	local d
	for d in /sys/fs/cgroup/*/ward/"$ID" /sys/fs/cgroup/ward/"$ID"; do
		[ -d "$d" ] && return 0
	done
	return 1
}

# The container's init runs: ward's sealed copy, with ward's command line.
has_init() {
	local p
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" != "$w" ] || continue
		[ "$(readlink "$p/exe" 2>/dev/null)" = "/memfd:ward (deleted)" ] &&
			grep -qF "$ID" "$p/cmdline" 2>/dev/null && return 0
	done
	return 1
}

@test "killing ward during create leaves nothing behind" {
	cmd 'sleep 100'
	cfg_userns
	chown -R 200000:200000 "$BUNDLE/rootfs"
	# 1. In a prestart hook (host namespaces, so its pid is a host pid):
	# the init runs in its cgroup, its mounts are made.
	printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 60\n' "$TMP/hook.pid" >"$TMP/hold.sh"
	chmod +x "$TMP/hold.sh"
	in_prestart() { [ -s "$TMP/hook.pid" ] && has_init && has_cgroup; }
	cfg --arg p "$TMP/hold.sh" '.hooks = {"prestart": [{"path": $p}]}'
	vouch_hooks "$TMP/hold.sh" "$TMP/hold-ctr.sh"
	kill_create_at "the prestart hook" in_prestart
	[ "$LANDED" -eq 1 ] || fail "the kill in the prestart hook did not land mid-create"
	# 2. In a createContainer hook: in the container's namespaces (its
	# pid namespace: the init's end takes it along). No user namespace
	# here: container root could not reach the hook under $TMP.
	cfg 'del(.linux.uidMappings, .linux.gidMappings) | .linux.namespaces |= map(select(.type != "user"))'
	chown -R 0:0 "$BUNDLE/rootfs"
	printf '#!/bin/sh\n: >"%s"\nexec sleep 60\n' "$TMP/in-hook" >"$TMP/hold-ctr.sh"
	chmod +x "$TMP/hold-ctr.sh"
	in_create_container() { [ -e "$TMP/in-hook" ] && has_init && has_cgroup; }
	cfg --arg p "$TMP/hold-ctr.sh" '.hooks = {"createContainer": [{"path": $p}]}'
	kill_create_at "the createContainer hook" in_create_container
	[ "$LANDED" -eq 1 ] || fail "the kill in the createContainer hook did not land mid-create"
}

@test "killing ward as soon as its state dir exists leaves nothing behind" {
	cmd 'sleep 100'
	cfg_userns
	chown -R 200000:200000 "$BUNDLE/rootfs"
	# Create may outrun the kill: some of a few tries must land mid-create,
	# and every one must clean up.
	n=0
	for _ in 1 2 3 4 5 6; do
		kill_create_at "its state dir" test -d "$ROOT/$ID"
		n=$((n + LANDED))
	done
	[ "$n" -ge 1 ] || fail "no kill landed while create ran"
}

@test "delete --force of an id with no state removes its empty default cgroups, and nothing that has processes" {
	local d made=()
	for d in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do
		[ -e "$d/cgroup.procs" ] || continue
		mkdir -p "$d/ward/$ID" && made+=("$d/ward/$ID")
	done
	[ "${#made[@]}" -gt 0 ] || fail "no cgroup hierarchy found"
	# One of them has a process (someone else's container with the same
	# id under another state root): it must stay, and the process live.
	sleep 100 </dev/null >/dev/null 2>&1 3>&- &
	other=$!
	track_pid "$other"
	echo "$other" >"${made[0]}/cgroup.procs"
	run ward delete --force "$ID"
	assert_success
	[ -d "${made[0]}" ] || fail "a cgroup with a process was removed"
	pid_alive "$other" || fail "ward touched a process that was not its own"
	for d in "${made[@]:1}"; do
		[ ! -e "$d" ] || fail "left: $d"
	done
	kill "$other"
	wait "$other" 2>/dev/null || true
	run ward delete --force "$ID"
	assert_success
	assert_no_leftovers
}

@test "a state root another user owns, or others may write, is refused before anything is read" {
	mkdir -m 0777 "$TMP/open-root"
	chmod 0777 "$TMP/open-root"
	run "$WARD" --root "$TMP/open-root" list
	assert_failure 1
	assert_output "ward: state root $TMP/open-root is writable by others (mode 777)"
	mkdir -m 0700 "$TMP/theirs"
	chown 65534 "$TMP/theirs"
	run "$WARD" --root "$TMP/theirs" list
	assert_failure 1
	assert_output --partial "state root $TMP/theirs belongs to uid 65534: ward trusts only a state root of its own user (0;"
}
