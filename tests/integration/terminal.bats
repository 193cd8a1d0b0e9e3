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
	assert_failure 126
	assert_output 'ward: config.json: .process.terminal needs --console-socket when the container is detached (only a foreground run relays the terminal)'
	run ward run -d --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: config.json: .process.terminal needs --console-socket when the container is detached (only a foreground run relays the terminal)'
	run ward create --console-socket "$TMP/nobody.sock" --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: --console-socket $TMP/nobody.sock: No such file or directory"
	cfg '.process.terminal = false'
	run ward create --console-socket "$TMP/x.sock" --bundle "$BUNDLE" "$ID"
	assert_failure 126
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
	run ward exec --tty --detach "$ID" true
	assert_failure 126
	assert_output 'ward: exec: a detached process with a terminal needs --console-socket'
	ward delete --force "$ID"
	assert_no_leftovers
}

# ---- the terminal relay of a foreground run/exec (issue #13, 3.) ----
# On a real pty (tests/helpers/pty-drive), as a person at a terminal.

drive() { # drive STEP... -- ARGS (of ward)
	local steps=()
	while [ "$1" != -- ]; do steps+=("$1"); shift; done
	shift
	PTY_DRIVE_LOG="$TMP/pty.log" run "$WARD_SRCDIR/tests/helpers/pty-drive" "${steps[@]}" -- \
		timeout -s KILL 30 "$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" "$@"
}

@test "run relays the terminal: typed input, output, the exit status, raw mode and back" {
	cfg '.process.terminal = true | .process.args = ["sh"]'
	drive size:30:100 'expect:# ' raw 'send:echo in-$((6*7)); tty; stty size\r' 'expect:in-42' \
		'expect:30 100' 'send:exit 3\r' -- run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'exit=3\nrestored=yes'
	run tr -d '\r' <"$TMP/pty.log"
	assert_line --regexp '^/dev/pts/[0-9]+$'
	assert_no_leftovers
}

@test "run relays window-size changes (SIGWINCH) and ^C reaches the container's terminal" {
	cfg '.process.terminal = true'
	cmd 'trap "stty size; exit 7" WINCH; echo ready; while :; do sleep 1; done'
	drive size:30:100 expect:ready raw size:41:123 'expect:41 123' -- run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'exit=7\nrestored=yes'
	# ^C typed: the container's line discipline sends SIGINT to its
	# foreground group (ward's terminal is raw: ward itself gets nothing).
	cmd 'trap "echo got-int; exit 9" INT; echo ready; while :; do sleep 1; done'
	drive expect:ready raw 'send:\x03' expect:got-int -- run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'exit=9\nrestored=yes'
	assert_no_leftovers
}

@test "a relayed terminal has the caller's size before the process runs: no SIGWINCH, no 0x0 at start" {
	# Sized after the start, the process would read 0x0 at once, and a
	# WINCH trap set early would fire for a resize nobody made.
	cfg '.process.terminal = true'
	cmd 'trap "echo spurious-winch" WINCH; stty size; sleep 0.3; echo end'
	drive size:27:91 'expect:end' -- run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'exit=0\nrestored=yes'
	run tr -d '\r' <"$TMP/pty.log"
	assert_line '27 91'
	refute_line --partial spurious
	cfg '.process.terminal = false'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	drive size:26:88 'expect:26 88' -- exec --tty "$ID" stty size
	assert_success
	run tr -d '\r' <"$TMP/pty.log"
	refute_line '0 0'
	assert_line '26 88'
	ward kill "$ID" KILL
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "run relays: input ends with EOF, and the terminal is restored after the container is killed" {
	cfg '.process.terminal = true'
	cmd 'echo ready; read line; echo "line=[$line]"; read more || echo got-eof; sleep 100'
	drive expect:ready raw 'send:abc\r' 'expect:line=[abc]' eof expect:got-eof \
		"shell:$WARD --root $ROOT kill $ID KILL" -- run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'exit=137\nrestored=yes'
	assert_no_leftovers
}

@test "exec --tty without --console-socket relays the terminal in the foreground" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	drive size:25:90 'expect:# ' raw 'send:tty; stty size; exit 5\r' 'expect:25 90' -- exec --tty "$ID" sh
	assert_success
	assert_output $'exit=5\nrestored=yes'
	run tr -d '\r' <"$TMP/pty.log"
	assert_line --regexp '^/dev/pts/[0-9]+$'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "run relays a terminal from a pipe too: the input, then EOF; the output and status" {
	cfg '.process.terminal = true | .process.args = ["sh"]'
	run bash -c "printf 'echo piped-\$((2+3))\nexit 4\n' | timeout -s KILL 30 '$WARD' --root '$ROOT' run --bundle '$BUNDLE' '$ID' 3>&-"
	assert_failure 4
	assert_line --partial piped-5
	cmd 'cat; echo cat-ended'
	run bash -c "printf 'one\n' | timeout -s KILL 30 '$WARD' --root '$ROOT' run --bundle '$BUNDLE' '$ID' 3>&-"
	assert_success
	assert_line --partial cat-ended
	assert_no_leftovers
}

@test "the terminal belongs to process.user.uid, its group stays tty's (as runc)" {
	cfg '.process.terminal = true | .process.user.uid = 1000 | .process.user.gid = 100'
	cmd 'stat -c %u:%g $(tty)'
	run script -qec "'$WARD' --root '$ROOT' run --bundle '$BUNDLE' '$ID'" /dev/null </dev/null
	assert_success
	assert_output --partial '1000:5'
}
