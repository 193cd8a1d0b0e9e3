#!/usr/bin/env bats
# exec: another process in every namespace of a container, under its filter.

bats_require_minimum_version 1.5.0

load ../helpers/common

setup() {
	ward_setup
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	cmd 'sleep 1000'
	cfg '.process.env += ["FROM_CONFIG=1"] | .process.rlimits = [{"type": "RLIMIT_NOFILE", "hard": 300, "soft": 200}]'
}

@test "exec joins every namespace of the container" {
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" sh -c 'for n in pid mnt net ipc uts cgroup; do [ "$(readlink /proc/1/ns/$n)" = "$(readlink /proc/self/ns/$n)" ] || echo "differs: $n"; done; echo pid=$$; hostname'
	assert_success
	refute_output --partial differs
	assert_line --regexp '^pid=[0-9]+$'
	assert_line ward
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "exec gets the container's filter, capabilities, no_new_privs, rlimits and env" {
	cfg '.linux.seccomp.defaultErrnoRet = 200'
	ward run -d --bundle "$BUNDLE" "$ID"
	# baseline: AUDIT_WRITE (bit 29) of the spec default is outside the safe set.
	run ward exec --env EXTRA=2 "$ID" sh -c 'grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status; ulimit -n; echo $FROM_CONFIG$EXTRA; sysprobe keyctl 0; sysprobe unshare 0'
	assert_success
	assert_output "$(printf 'CapEff:\t0000000000000420\nNoNewPrivs:\t1\nSeccomp:\t2\n200\n12\nerrno 200\nerrno 200')"
	ward delete --force "$ID"
}

@test "exec: --user, --additional-gids, --cwd and --cap" {
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec --user 1000:1001 -g 7 --cwd /etc "$ID" sh -c 'id -u; id -G; pwd'
	assert_success
	assert_output $'1000\n1001 7\n/etc'
	run ward exec --cap CAP_CHOWN "$ID" grep CapEff /proc/self/status
	assert_output "CapEff:	0000000000000421"
	run ward exec --cap CAP_FLY "$ID" true
	assert_failure 126
	assert_output 'ward: exec: --cap: unknown capability "CAP_FLY"'
	# Every request exec cannot take is the caller's to fix: 126, as
	# --cap's (ward failing itself is 125).
	run ward exec --cwd etc "$ID" true
	assert_failure 126
	assert_output 'ward: exec: --cwd etc: must be an absolute path'
	run ward exec --user nobody "$ID" true
	assert_failure 126
	assert_output 'ward: exec: user "nobody" is not a numeric id'
	run ward exec "$ID"
	assert_failure 126
	assert_output 'ward: exec: no command given (and no --process file)'
	echo '{"args": ["true"], "cwd": "/"}' >"$BATS_TEST_TMPDIR/p.json"
	run ward exec --process "$BATS_TEST_TMPDIR/p.json" "$ID" true
	assert_failure 126
	assert_output 'ward: exec: give the command in --process or on the command line, not both'
	ward delete --force "$ID"
}

@test "exec's statuses under every profile: a request exec cannot take is 126 (compat: runc's 255), the job's own status passed on" {
	echo '{"args": ["true"], "cwd": "/"}' >"$BATS_TEST_TMPDIR/p.json"
	cmd 'sleep 1000'
	for p in compat baseline strict; do
		ward --profile "$p" run -d --bundle "$BUNDLE" "$ID"
		local want=126
		[ "$p" = compat ] && want=255
		run ward exec --cwd etc "$ID" true
		assert_failure "$want"
		assert_output 'ward: exec: --cwd etc: must be an absolute path'
		run ward exec --user nobody "$ID" true
		assert_failure "$want"
		run ward exec "$ID"
		assert_failure "$want"
		run ward exec --process "$BATS_TEST_TMPDIR/p.json" "$ID" true
		assert_failure "$want"
		run ward exec --cap CAP_FLY "$ID" true
		assert_failure "$want"
		# The job's own status, whatever it is (126 and 125 included:
		# only the line on stderr tells them from ward's).
		for code in 0 1 7 124 125 126 127; do
			run -"$code" ward exec "$ID" sh -c "exit $code"
			refute_output
		done
		ward delete --force "$ID"
	done
	assert_no_leftovers
}

@test "no fd closed twice: run, start, exec (detached, tty or not) and delete under every profile close nothing that was not open" {
	# A close of a number already closed may by then close another fd of
	# ward's (a destructor after an early close): strace counts EBADF.
	# (Commands that end: strace -f waits for every process it follows.)
	local p t
	for p in compat baseline strict; do
		cmd 'true'
		strace -f -Z -e trace=close -o "$TMP/run-$p" "$WARD" --root "$ROOT" --profile "$p" \
			run --bundle "$BUNDLE" "$ID" </dev/null
		cfg '.process.terminal = true'
		PTY_DRIVE_LOG=/dev/null "$WARD_SRCDIR/tests/helpers/pty-drive" -- strace -f -Z \
			-e trace=close -o "$TMP/runtty-$p" "$WARD" --root "$ROOT" --profile "$p" \
			run --bundle "$BUNDLE" "$ID" >/dev/null
		cfg '.process.terminal = false'
		cmd 'sleep 100'
		# (create forks the init, which strace would follow for good:
		# start, exec, exec -d and delete are traced.)
		ward --profile "$p" create --bundle "$BUNDLE" "$ID"
		strace -f -Z -e trace=close -o "$TMP/start-$p" "$WARD" --root "$ROOT" start "$ID"
		strace -f -Z -e trace=close -o "$TMP/exec-$p" "$WARD" --root "$ROOT" exec "$ID" true </dev/null
		strace -f -Z -e trace=close -o "$TMP/execd-$p" "$WARD" --root "$ROOT" exec -d "$ID" true </dev/null
		PTY_DRIVE_LOG=/dev/null "$WARD_SRCDIR/tests/helpers/pty-drive" -- strace -f -Z \
			-e trace=close -o "$TMP/exectty-$p" "$WARD" --root "$ROOT" exec --tty "$ID" true >/dev/null
		strace -f -Z -e trace=close -o "$TMP/delete-$p" "$WARD" --root "$ROOT" delete --force "$ID"
	done
	for t in "$TMP"/run-* "$TMP"/runtty-* "$TMP"/start-* "$TMP"/exec-* "$TMP"/execd-* \
		"$TMP"/exectty-* "$TMP"/delete-*; do
		[ -s "$t" ] || fail "no trace in $t"
		! grep -q EBADF "$t" || fail "${t##*/}: $(grep EBADF "$t" | head -3)"
	done
	assert_no_leftovers
}

@test "exec passes on the exit status and the output" {
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" sh -c 'echo out; echo err >&2; exit 42'
	assert_failure 42
	assert_line out
	assert_line err
	ward delete --force "$ID"
}

@test "exec --process FILE runs a runtime-spec process object" {
	ward run -d --bundle "$BUNDLE" "$ID"
	cat >"$TMP/process.json" <<-'JSON'
	{"user": {"uid": 5, "gid": 6}, "args": ["sh", "-c", "id -u; id -g; echo $ONLY; pwd"],
	 "env": ["ONLY=proc", "PATH=/bin"], "cwd": "/tmp", "noNewPrivileges": true}
	JSON
	run ward exec --process "$TMP/process.json" "$ID"
	assert_success
	assert_output $'5\n6\nproc\n/tmp'
	echo '{"user": {"uid": 0, "gid": 0}, "cwd": "/", "args": []}' >"$TMP/bad.json"
	run ward exec --process "$TMP/bad.json" "$ID"
	assert_failure 126
	assert_output "ward: $TMP/bad.json: .args: must be a non-empty array of strings"
	ward delete --force "$ID"
}

@test "exec --process from a pipe (bash's <(...), /dev/fd/N) and update --resources from one" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec --process <(echo '{"args": ["echo", "from-a-pipe"], "cwd": "/", "user": {"uid": 0, "gid": 0}}') "$ID"
	assert_success
	assert_output from-a-pipe
	run ward update --resources <(echo '{"pids": {"limit": 77}}') "$ID"
	assert_success
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "exec --detach --pid-file leaves the process running in the container" {
	ward run -d --bundle "$BUNDLE" "$ID"
	ward exec --detach --pid-file "$TMP/exec.pid" "$ID" sleep 999 >/dev/null 2>&1
	pid=$(cat "$TMP/exec.pid")
	pid_alive "$pid" || fail "the detached process is not running"
	[ "$(readlink "/proc/$pid/ns/pid")" = "$(readlink "/proc/$(init_pid "$ID")/ns/pid")" ]
	ward kill --all "$ID" KILL
	wait_dead "$pid" || fail "kill --all missed the detached process"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "exec errors: not found, stopped container, unknown id, terminal" {
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" no-such-binary
	assert_failure 125
	assert_output 'ward: exec: "no-such-binary": executable file not found in $PATH'
	run ward exec --tty -d "$ID" sh
	assert_failure 126
	assert_output 'ward: exec: a detached process with a terminal needs --console-socket'
	run ward exec nosuch true
	assert_failure 125
	assert_output 'ward: container "nosuch" does not exist'
	pid=$(init_pid "$ID")
	ward kill "$ID" KILL
	wait_dead "$pid"
	run ward exec "$ID" true
	assert_failure 125
	assert_output "ward: container \"$ID\" is stopped: exec needs a created or running container"
	ward delete "$ID"
	assert_no_leftovers
}

@test "CVE-2024-21626: exec --cwd through a leaked fd cannot reach the host" {
	ward run -d --bundle "$BUNDLE" "$ID"
	# fds 3 to 9 a host directory (the bundle) when ward starts, and every
	# fd number ward could hold: each cwd through /proc/self/fd is refused
	# as a magic link, or is not there at all; never a directory.
	for fd in $(seq 3 80); do
		run bash -c 'exec 3<"$1" 4<"$1" 5<"$1" 6<"$1" 7<"$1" 8<"$1" 9<"$1"
			exec "$2" --root "$3" exec --cwd "/proc/self/fd/$4" "$5" sh -c "ls .."' \
			_ "$BUNDLE" "$WARD" "$ROOT" "$fd" "$ID"
		assert_ward_failed # the magic link refused (126), or an fd not open (125)
		assert_output --regexp "^ward: process.cwd /proc/self/fd/$fd(: refused: resolves through a magic link such as /proc/self/fd/N \(CVE-2024-21626 class\), or through a symlink loop|: No such file or directory)\$"
	done
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "exec gets no runtime fd" {
	ward run -d --bundle "$BUNDLE" "$ID"
	exec 7<"$TMP"
	run ward exec "$ID" ls /proc/self/fd
	exec 7<&-
	assert_success
	assert_output $'0\n1\n2\n3'
	ward delete --force "$ID"
}

@test "exec into a user-namespaced container" {
	cfg_userns
	chown -R 200000:200000 "$BUNDLE/rootfs"
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" sh -c 'id -u; cat /proc/self/uid_map'
	assert_success
	assert_line --index 0 0
	assert_line --index 1 --regexp '^ +0 +200000 +65536$'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "the config exec uses is the one create saw, not the bundle's current one" {
	ward run -d --bundle "$BUNDLE" "$ID"
	cfg '.process.env = ["PATH=/bin", "FROM_CONFIG=changed-later"]'
	run ward exec "$ID" sh -c 'echo $FROM_CONFIG'
	assert_success
	assert_output 1
	run stat -c %a "$ROOT/$ID/config.json"
	assert_output 600
	ward delete --force "$ID"
}

@test "exec joins the container's cgroups, wherever ward exec runs from" {
	cg=/sys/fs/cgroup/pids/ward-test-$ID
	[ -d /sys/fs/cgroup/pids ] || cg=/sys/fs/cgroup/ward-test-$ID
	mkdir "$cg"
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	# exec from a shell in another cgroup...
	bash -c 'echo $$ >"$1/cgroup.procs"; exec "$2" --root "$3" exec --detach --pid-file "$4" "$5" sleep 50' \
		_ "$cg" "$WARD" "$ROOT" "$TMP/e.pid" "$ID" >/dev/null 2>&1
	epid=$(cat "$TMP/e.pid")
	init_cg=$(cat "/proc/$pid/cgroup")
	exec_cg=$(cat "/proc/$epid/cgroup")
	# Inside, the cgroup namespace shows the container's cgroup as "/".
	run ward exec "$ID" grep -c "/\.\." /proc/self/cgroup
	ward delete --force "$ID"
	rmdir "$cg"
	# ...lands in the container's cgroups, not the caller's.
	assert_equal "$exec_cg" "$init_cg"
	[[ "$init_cg" == *"/ward/$ID"* ]] || fail "init not in its cgroup: $init_cg"
	assert_output 0
	assert_no_leftovers
}

@test "compat: exec's own failures exit 255 as runc's, the process's own status passes through" {
	WARD_GLOBALS=(--profile compat)
	cmd 'exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" sh -c 'exit 42'
	assert_failure 42
	run ward exec "$ID" false
	assert_failure 1
	run ward exec "$ID" no-such-binary
	assert_failure 255
	run ward exec --pid-file /non-existent/directory "$ID" true
	assert_failure 255
	run ward exec no-such-container true
	assert_failure 255
	# A process file without a user runs as 0:0, as runc's.
	echo '{"args": ["id", "-u"], "cwd": "/"}' >"$TMP/p.json"
	run ward exec --process "$TMP/p.json" "$ID"
	assert_success
	assert_output 0
	ward delete --force "$ID"
}
