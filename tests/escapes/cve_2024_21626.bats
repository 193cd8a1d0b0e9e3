#!/usr/bin/env bats
# CVE-2024-21626 (runc GHSA-xr7r-f8xq-vfvv, "Leaky Vessels"): runc leaked an
# fd of a host directory (/sys/fs/cgroup) into the container's init and
# exec'd processes. process.cwd = /proc/self/fd/N (attack 1: a malicious
# image's WORKDIR; attack 2: `runc exec --cwd`, also through a symlink the
# container plants) left the process with a cwd outside its root, from which
# ".." climbs to the host's /; process.args = /proc/self/fd/N/../../../bin/sh
# (attacks 3a/3b) executed a host binary. Class: leaked fd + a cwd or exec
# path resolved through a magic link. Swept: every fd 3..FD_MAX, every
# profile, run and exec, with and without a terminal, detached and
# foreground. A run is clean when its process reports no host file, no
# foreign root and no fd beyond 0-2 (VERDICT); a refusal must name the
# field. Also: the caller's own fds (a host directory at 7, 63 and 200) never
# reach the container.

load escapes

CWD_REFUSAL='^ward: process\.cwd /proc/self/fd/[0-9]+[ :]'
UPS=$(printf '../%.0s' $(seq 24))
# The container's busybox is a copy of the host's: the exe's identity tells
# which one ran.
EXE_CHECK='[ "$(stat -L -c %d:%i /proc/self/exe)" = "$(stat -c %d:%i /bin/busybox)" ] || echo ESCAPED:host-exe-$(readlink /proc/self/exe); '

# judge WHAT: count $out/$rc as contained (ran or refused) or escaped.
judge() {
	local why
	if why=$(verdict_ok "$out" "$rc" "$2"); then
		if [ "$rc" -eq 0 ]; then ran=$((ran + 1)); else refused=$((refused + 1)); fi
	else
		echo "$1: $why"
		bad=$((bad + 1))
	fi
}

# sweep_run PROFILE MODE: process.cwd = /proc/self/fd/N for every N.
#   MODE fg: ward run; detached: create + start; tty: ward run with a terminal
#   (relayed from a pipe); tty-detached: create --console-socket + start.
sweep_run() {
	local p=$1 mode=$2 n started=0 k
	ran=0 refused=0 bad=0
	as "$p"
	local t=false
	case $mode in tty | tty-detached) t=true ;; esac
	gen_configs '.process.cwd = "/proc/self/fd/\($n)" | .process.args = ["sh", "-c", $v] | .process.terminal = $t' \
		--arg v "$VERDICT" --argjson t "$t"
	if [ "$mode" = tty-detached ]; then
		mkdir -p "$TMP/sink-$p"
		bg_start 60 "$TMP/sink-$p.log" "$BATS_TEST_DIRNAME/console-sink" "$TMP/sink-$p.sock" "$TMP/sink-$p"
		wait_for "the console sink" test -S "$TMP/sink-$p.sock"
	fi
	for n in $FDS; do
		use_config "$n"
		case $mode in
		fg | tty) wrun run --bundle "$BUNDLE" "$ID" ;;
		detached)
			# (the init's output goes where create's went: a file)
			rc=0
			timeout -s KILL 20 "$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" create --bundle "$BUNDLE" "$ID-$n" \
				>"$TMP/out.$n" 2>&1 </dev/null 3>&- || rc=$?
			out=$(cat "$TMP/out.$n")
			if [ "$rc" -eq 0 ]; then
				wrun start "$ID-$n"
				started=$((started + 1))
				continue
			fi
			;;
		tty-detached)
			wrun create --console-socket "$TMP/sink-$p.sock" --bundle "$BUNDLE" "$ID-$n"
			if [ "$rc" -eq 0 ]; then
				wrun start "$ID-$n"
				started=$((started + 1))
				continue
			fi
			;;
		esac
		judge "$p $mode cwd=/proc/self/fd/$n" "$CWD_REFUSAL"
	done
	# The detached ones: every started container's whole verdict.
	if [ "$started" -gt 0 ]; then
		if [ "$mode" = tty-detached ]; then
			# (a refused create has connected too: its pty closes empty)
			wait_files "$started" "$TMP/sink-$p/*.done" || bad=$((bad + 1))
			for k in "$TMP/sink-$p"/[0-9]*; do
				case $k in *.done) continue ;; esac
				wait_files 1 "$k.done" || bad=$((bad + 1))
			done
			out=$(cat "$TMP/sink-$p"/[0-9]* | tr -d '\r')
			case "$out" in *ESCAPED*) echo "$p $mode: $out"; bad=$((bad + 1)) ;; esac
			k=$(printf '%s\n' "$out" | grep -c '^VERDICT-OK$') || true
			[ "$k" -eq "$started" ] || { echo "$p $mode: $k verdicts from $started containers: $out"; bad=$((bad + 1)); }
			ran=$((ran + k))
			kill -9 "$BGPID" 2>/dev/null
			wait "$BGPID" 2>/dev/null || true
		else
			for n in $FDS; do
				[ -d "$ROOT/$ID-$n" ] || continue
				wait_for "$ID-$n to stop" stopped_fast "$ID-$n"
				# (create's own output was empty: what is there is the init's)
				rc=0 out=$(cat "$TMP/out.$n")
				judge "$p $mode cwd=/proc/self/fd/$n" "$CWD_REFUSAL"
			done
		fi
	fi
	for n in $FDS; do
		[ -d "$ROOT/$ID-$n" ] && "$WARD" --root "$ROOT" delete --force "$ID-$n" >/dev/null 2>&1
	done
	tally "$p $mode: fds 3..$FD_MAX: $ran ran contained, $refused refused, $bad escaped"
	[ "$bad" -eq 0 ]
}

@test "CVE-2024-21626 attack 1 (run, leaked fd as process.cwd): /proc/self/fd/N for every N, foreground and detached, every profile" {
	local p fails=0
	for p in "${PROFILES[@]}"; do
		sweep_run "$p" fg || fails=$((fails + 1))
		sweep_run "$p" detached || fails=$((fails + 1))
	done
	assert_no_leftovers
	[ "$fails" -eq 0 ]
}

@test "CVE-2024-21626 attack 1 with a terminal (run, process.cwd /proc/self/fd/N): every N, relayed and through --console-socket, every profile" {
	local p fails=0
	for p in "${PROFILES[@]}"; do
		sweep_run "$p" tty || fails=$((fails + 1))
		sweep_run "$p" tty-detached || fails=$((fails + 1))
	done
	assert_no_leftovers
	[ "$fails" -eq 0 ]
}

@test "CVE-2024-21626 attack 3a (run, process.args /proc/self/fd/N/../(x24)/bin/busybox): never a host binary, every N, every profile" {
	local p n ran refused bad=0 fails=0
	for p in "${PROFILES[@]}"; do
		as "$p"
		ran=0 refused=0 bad=0
		gen_configs '.process.args = ["/proc/self/fd/\($n)/\($u)bin/busybox", "sh", "-c", $v]' \
			--arg u "$UPS" --arg v "$EXE_CHECK$VERDICT"
		for n in $FDS; do
			use_config "$n"
			wrun run --bundle "$BUNDLE" "$ID"
			judge "$p run args fd $n" "^ward: exec: \"/proc/self/fd/$n/"
		done
		tally "$p run args: fds 3..$FD_MAX: $ran ran contained, $refused refused, $bad escaped"
		fails=$((fails + bad))
	done
	assert_no_leftovers
	[ "$fails" -eq 0 ]
}

# A running container per profile, to exec into.
exec_target() {
	as "$1"
	cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
	cmd 'exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	ran=0 refused=0 bad=0
	REFUSE_RC=
	[ "$1" != compat ] || REFUSE_RC=255
}

@test "CVE-2024-21626 attack 2 (exec --cwd /proc/self/fd/N: foreground, --tty, --detach): every N, every profile" {
	local p n ran refused bad fails=0 d
	for p in "${PROFILES[@]}"; do
		exec_target "$p"
		for n in $FDS; do
			wrun exec --cwd "/proc/self/fd/$n" "$ID" sh -c "$VERDICT"
			judge "$p exec fd $n" "$CWD_REFUSAL"
			# With a terminal (relayed from a pipe).
			wrun exec --tty --cwd "/proc/self/fd/$n" "$ID" sh -c "$VERDICT"
			judge "$p exec --tty fd $n" "$CWD_REFUSAL"
			# Detached: the process leaves its verdict in the container.
			wrun exec --detach --cwd "/proc/self/fd/$n" "$ID" sh -c "{ $VERDICT; } >/tmp/v.$n 2>&1; mv /tmp/v.$n /tmp/d.$n"
			[ "$rc" -eq 0 ] || judge "$p exec --detach fd $n" "$CWD_REFUSAL"
		done
		# Every detached one that started has finished: their verdicts.
		wrun exec "$ID" sh -c 'i=0; while [ $i -lt 200 ] && ls /tmp/v.* >/dev/null 2>&1; do sleep 0.05; i=$((i+1)); done; for f in /tmp/d.*; do [ -e "$f" ] && { echo "== $f"; cat "$f"; }; done'
		d=$(printf '%s\n' "$out" | grep -c '^== ') || true
		case "$out" in *ESCAPED*) echo "$p exec --detach: $out"; bad=$((bad + 1)) ;; esac
		[ "$(printf '%s\n' "$out" | grep -c '^VERDICT-OK')" -eq "$d" ] || { echo "$p exec --detach: $out"; bad=$((bad + 1)); }
		tally "$p exec --cwd (fg, --tty): fds 3..$FD_MAX: $ran ran contained, $refused refused; --detach: $d ran; $bad escaped"
		fails=$((fails + bad))
		ward delete --force "$ID"
		REFUSE_RC=
	done
	assert_no_leftovers
	[ "$fails" -eq 0 ]
}

@test "CVE-2024-21626 attack 2 via the image (exec --process with cwd /proc/self/fd/N; exec --cwd of a planted symlink to it): every N, every profile" {
	local p n ran refused bad fails=0
	for p in "${PROFILES[@]}"; do
		exec_target "$p"
		# The container plants /tmp/lN -> /proc/self/fd/N (a WORKDIR a
		# later `exec --cwd` names without knowing).
		ward exec "$ID" sh -c "for n in $(echo $FDS); do ln -s /proc/self/fd/\$n /tmp/l\$n; done"
		for n in $FDS; do
			jq -n --arg c "/proc/self/fd/$n" --arg v "$VERDICT" \
				'{"user": {"uid": 0, "gid": 0}, "args": ["sh", "-c", $v], "cwd": $c, "env": ["PATH=/bin"]}' >"$TMP/p.json"
			wrun exec --process "$TMP/p.json" "$ID"
			judge "$p exec --process cwd fd $n" "$CWD_REFUSAL"
			wrun exec --cwd "/tmp/l$n" "$ID" sh -c "$VERDICT"
			judge "$p exec --cwd /tmp/l$n" "^ward: process\.cwd /tmp/l$n[ :]"
		done
		tally "$p exec --process / planted link: fds 3..$FD_MAX: $ran ran contained, $refused refused, $bad escaped"
		fails=$((fails + bad))
		ward delete --force "$ID"
		REFUSE_RC=
	done
	assert_no_leftovers
	[ "$fails" -eq 0 ]
}

@test "CVE-2024-21626 attack 3b (exec of /proc/self/fd/N/../(x24)/bin/busybox): never a host binary, every N, every profile" {
	local p n ran refused bad fails=0
	for p in "${PROFILES[@]}"; do
		exec_target "$p"
		for n in $FDS; do
			wrun exec "$ID" "/proc/self/fd/$n/${UPS}bin/busybox" sh -c "$EXE_CHECK$VERDICT"
			judge "$p exec args fd $n" "^ward: exec: \"/proc/self/fd/$n/"
		done
		tally "$p exec args: fds 3..$FD_MAX: $ran ran contained, $refused refused, $bad escaped"
		fails=$((fails + bad))
		ward delete --force "$ID"
		REFUSE_RC=
	done
	assert_no_leftovers
	[ "$fails" -eq 0 ]
}

@test "CVE-2024-21626 root cause: the caller's fds (a host directory at 7, 63, 200) reach neither run nor exec, every profile" {
	local p probe
	mkdir -p "$TMP/hostdir"
	echo host-only >"$TMP/hostdir/ESC_MARK"
	probe="for n in 7 63 200; do [ -e /proc/self/fd/\$n/ESC_MARK ] && echo ESCAPED:fd\$n; done; $VERDICT"
	for p in "${PROFILES[@]}"; do
		as "$p"
		cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
		cfg --arg v "$probe" '.process.args = ["sh", "-c", $v]'
		run bash -c 'exec 7<"$1" 63<"$1" 200<"$1"; exec "$2" --root "$3" --profile "$4" run --bundle "$5" "$6" 3>&-' \
			_ "$TMP/hostdir" "$WARD" "$ROOT" "$p" "$BUNDLE" "$ID"
		assert_success
		refute_output --partial ESCAPED
		assert_output --partial VERDICT-OK
		exec_target "$p"
		run bash -c 'exec 7<"$1" 63<"$1" 200<"$1"; exec "$2" --root "$3" --profile "$4" exec "$6" sh -c "$7" 3>&-' \
			_ "$TMP/hostdir" "$WARD" "$ROOT" "$p" "$BUNDLE" "$ID" "$probe"
		assert_success
		refute_output --partial ESCAPED
		assert_output --partial VERDICT-OK
		ward delete --force "$ID"
	done
	assert_no_leftovers
}
