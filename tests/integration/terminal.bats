#!/usr/bin/env bats
# process.terminal with --console-socket, for create and exec.

load ../helpers/common


@test "terminal: the master goes to the console socket, the peer is the process's tty" {
	cfg '.process.terminal = true | .process.consoleSize = {"height": 33, "width": 101}'
	cmd 'tty; stty size; ls -l /dev/console | cut -c1; [ -t 0 ] && echo stdin-tty'
	start_receiver c1
	ward run -d --console-socket "$SOCK" --bundle "$BUNDLE" "$ID"
	wait_receiver
	# (the pty turns each \n into \r\n)
	run tr -d '\r' <"$OUT"
	assert_output $'/dev/pts/0\n33 101\nc\nstdin-tty'
	run cat "$OUT.name"
	assert_output /dev/pts/0
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "terminal: input typed on the master reaches the process" {
	cfg '.process.terminal = true'
	cmd 'read line; echo "got:$line"'
	start_receiver c2 $'hello\n'
	ward run -d --console-socket "$SOCK" --bundle "$BUNDLE" "$ID"
	wait_receiver
	# The echo of the typed line, then the process's answer.
	run tr -d '\r' <"$OUT"
	assert_line got:hello
	ward delete --force "$ID"
}

@test "terminal errors: no socket, socket without terminal, unreachable socket" {
	cfg '.process.terminal = true'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: config.json: .process.terminal needs --console-socket (ward does not relay a terminal itself)'
	run ward create --console-socket "$TMP/nobody.sock" --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: --console-socket $TMP/nobody.sock: No such file or directory"
	cfg '.process.terminal = false'
	run ward create --console-socket "$TMP/x.sock" --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: --console-socket is for process.terminal, which config.json does not set'
	assert_no_leftovers
}

@test "exec --tty --console-socket gives the exec'd process its own pty" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	start_receiver e1
	ward exec --tty --console-socket "$SOCK" "$ID" sh -c 'tty; [ -t 1 ] && echo out-tty' >/dev/null
	wait_receiver
	run tr -d '\r' <"$OUT"
	assert_output --regexp $'^/dev/pts/[0-9]+\nout-tty$'
	run ward exec --tty "$ID" true
	assert_failure 1
	assert_output 'ward: exec: a terminal needs --console-socket'
	ward delete --force "$ID"
	assert_no_leftovers
}
