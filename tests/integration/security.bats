#!/usr/bin/env bats
# Attacks on the runtime itself. Every hostile path is confined to the test's
# temp dir, so even a vulnerable ward could only damage that.
#
# One test per CVE class, here or next to the feature it attacks:
#   CVE-2019-5736  (runtime binary overwrite)      here
#   CVE-2024-21626 (leaked fd as cwd)              here, exec.bats
#   CVE-2019-16884 (bind over /proc)               here
#   CVE-2025-52881 (mount redirected into /proc)   here
#   CVE-2019-19921 (/proc symlink in the image)    here
#   CVE-2022-29162 (inheritable capabilities)      here
#   CVE-2026-41579 (planted /dev symlink)          here
#   CVE-2025-52565 (/dev/console symlink)          here
#   2025 masked-path CVEs (mask source swapped)    here

load ../helpers/common

teardown() {
	# A vulnerable ward could have made this on the host's /.
	[ ! -d "/escape-$ID" ] || rmdir "/escape-$ID"
	ward_teardown
}

@test "no runtime fd reaches the container" {
	cmd 'ls /proc/self/fd'
	exec 7>"$TMP/leak"
	run ward run --bundle "$BUNDLE" "$ID"
	exec 7>&-
	assert_success
	# 0 1 2 and the fd ls itself opens to read the directory.
	assert_output $'0\n1\n2\n3'
}

@test "--preserve-fds passes exactly the first N extra fds" {
	cmd 'cat <&3; ls /proc/self/fd | tr "\n" " "'
	echo "from-fd3" >"$TMP/fd3"
	# fd 3 is bats' own in this shell: set up 3 and 4 in a child.
	run bash -c 'exec 3<"$1" 4<"$1"; exec "$2" --root "$3" run --preserve-fds 1 --bundle "$4" "$5"' \
		_ "$TMP/fd3" "$WARD" "$ROOT" "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 from-fd3
	# fd 4 (beyond the preserved one) is closed; ls's own is 4 now.
	assert_line --index 1 "0 1 2 3 4 "
}

@test "CVE-2019-5736: the init runs from a sealed memfd, not the ward binary" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	run readlink "/proc/$pid/exe"
	assert_output --regexp '^/memfd:ward \(deleted\)$'
	# Writing through the init's exe must fail: the copy is sealed.
	run sh -c "echo x >>/proc/$pid/exe"
	assert_failure
	ward delete "$ID"
	assert_no_leftovers
}

@test "the waiting init is not dumpable" {
	cfg_userns
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	# The init runs as host uid 200000, yet its /proc files belong to host
	# root: the kernel's sign of a non-dumpable process, which the
	# container's processes can neither ptrace nor read through /proc.
	run awk '/^Uid:/{print $2}' "/proc/$pid/status"
	assert_output 200000
	run stat -c %u "/proc/$pid/environ" "/proc/$pid/mem"
	assert_output $'0\n0'
	ward delete "$ID"
	assert_no_leftovers
}

@test "CVE-2024-21626: cwd cannot be a leaked host directory" {
	# A host directory as fd 7, passed on (--preserve-fds) or not: the cwd
	# through /proc/self/fd is refused as a magic link, or is not there.
	for preserve in 0 5; do
		cfg '.process.cwd = "/proc/self/fd/7"'
		exec 7<"$TMP"
		run ward run --preserve-fds "$preserve" --bundle "$BUNDLE" "$ID"
		exec 7<&-
		assert_ward_failed # the magic link refused (126), or an fd not open (125)
		if [ "$preserve" = 5 ]; then
			assert_output 'ward: process.cwd /proc/self/fd/7: refused: resolves through a magic link such as /proc/self/fd/N (CVE-2024-21626 class), or through a symlink loop'
		else
			assert_output 'ward: process.cwd /proc/self/fd/7: No such file or directory'
		fi
		assert_no_leftovers
	done
}

@test "a mount destination through an absolute symlink stays in the rootfs" {
	mkdir -p "$TMP/outside"
	ln -s "$TMP/outside" "$BUNDLE/rootfs/mnt/evil"
	# (the link's target is under /tmp: keep the image's /tmp visible)
	cfg '.mounts |= map(select(.destination != "/tmp"))'
	cfg '.mounts += [{"destination": "/mnt/evil/sub", "type": "tmpfs", "source": "tmpfs"}]'
	cmd 'true'
	# The link resolves (as if the rootfs were /) to a directory the image
	# lacks: ward refuses rather than guess.
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --partial 'ward: mounts[6] (/mnt/evil/sub): /mnt/evil: '
	run ls -A "$TMP/outside"
	assert_output ""
	# With the target present inside the rootfs, the mount lands there.
	mkdir -p "$BUNDLE/rootfs$TMP/outside"
	cmd 'grep -c " '"$TMP"'/outside/sub " /proc/self/mountinfo'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output 1
	[ -d "$BUNDLE/rootfs$TMP/outside/sub" ] || fail "destination not created inside the rootfs"
	run ls -A "$TMP/outside"
	assert_output ""
	assert_no_leftovers
}

@test "a mount destination with .. cannot climb out of the rootfs" {
	# (a name of this test's own: nothing on the host is ever in the way)
	cfg --arg d "/../../../../escape-$ID" '.mounts += [{"destination": $d, "type": "tmpfs", "source": "tmpfs"}]'
	cmd "grep -c ' /escape-$ID ' /proc/self/mountinfo; echo ran-inside"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'1\nran-inside'
	[ ! -e "/escape-$ID" ] || fail "created /escape-$ID on the host"
	[ -d "$BUNDLE/rootfs/escape-$ID" ] || fail "the destination was not made inside the rootfs"
	assert_no_leftovers
}

@test "a relative symlink chain out of the rootfs is contained" {
	mkdir -p "$TMP/outside2"
	ln -s ../../../../../../../../"$TMP"/outside2 "$BUNDLE/rootfs/mnt/up"
	# (the link's target is under /tmp: keep the image's /tmp visible)
	cfg '.mounts |= map(select(.destination != "/tmp"))'
	cfg '.mounts += [{"destination": "/mnt/up/x", "type": "tmpfs", "source": "tmpfs"}]'
	cmd 'echo ran-inside'
	# The .. climb stops at the rootfs's /: the target the image lacks is
	# refused, and nothing appears outside.
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --partial 'ward: mounts[6] (/mnt/up/x): /mnt/up: '
	[ "${#lines[@]}" -eq 1 ] || fail "more than the refusal: $output"
	run ls -A "$TMP/outside2"
	assert_output ""
	# With the target inside the rootfs the container runs, the mount lands
	# there (seen from inside), and the host's directory stays empty.
	mkdir -p "$BUNDLE/rootfs$TMP/outside2"
	cmd 'grep -c " '"$TMP"'/outside2/x " /proc/self/mountinfo; echo ran-inside'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'1\nran-inside'
	[ -d "$BUNDLE/rootfs$TMP/outside2/x" ] || fail "destination not created inside the rootfs"
	run ls -A "$TMP/outside2"
	assert_output ""
	assert_no_leftovers
}

@test "a planted /dev symlink does not make ward create nodes on the host" {
	# The same bundle with a real /dev: the container runs and its /dev
	# gets ward's nodes (what a followed symlink would put on the host).
	cmd 'ls /dev/null /dev/tty /dev/zero; echo ran-inside'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'/dev/null\n/dev/tty\n/dev/zero\nran-inside'
	# /dev a symlink to a host directory: refused, nothing made there.
	mkdir -p "$TMP/hostdev"
	rmdir "$BUNDLE/rootfs/dev"
	ln -s "$TMP/hostdev" "$BUNDLE/rootfs/dev"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: mounts[1] (/dev): /dev: Not a directory'
	run ls -A "$TMP/hostdev"
	assert_output ""
	assert_no_leftovers
}

@test "a file bind destination that is a symlink to a host file is contained" {
	echo original >"$TMP/hostfile"
	echo payload >"$TMP/payload"
	ln -s "$TMP/hostfile" "$BUNDLE/rootfs/etc/target"
	cfg --arg p "$TMP/payload" '.mounts += [{"destination": "/etc/target", "type": "bind", "source": $p, "options": ["bind"]}]'
	cmd 'cat /etc/target; echo ran-inside'
	run ward run --bundle "$BUNDLE" "$ID"
	# The container sees the payload at the destination...
	assert_success
	assert_output $'payload\nran-inside'
	# ...and the host file the link named is untouched.
	run cat "$TMP/hostfile"
	assert_output original
	[ -L "$BUNDLE/rootfs/etc/target" ] || fail "the image's link was replaced on disk"
	assert_no_leftovers
}

@test "masking uses a verified /dev/null" {
	cmd 'stat -c "%t:%T %F" /proc/timer_list'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "1:3 character special file"
}

@test "the state directory is private" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	run stat -c %a "$ROOT/$ID" "$ROOT/$ID/state.json" "$ROOT/$ID/exec.fifo"
	assert_output $'700\n600\n600'
	ward delete "$ID"
	assert_no_leftovers
}

@test "CVE-2019-19921 class: a /proc that is a symlink in the image is refused" {
	mkdir -p "$TMP/fakeproc"
	rmdir "$BUNDLE/rootfs/proc"
	ln -s "$TMP/fakeproc" "$BUNDLE/rootfs/proc"
	cmd 'true'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: the rootfs's /proc is not a directory (a symlink?): refused: must be mounted on ordinary directory"
	run ls -A "$TMP/fakeproc"
	assert_output ""
	assert_no_leftovers
}

@test "CVE-2019-16884 class: only procfs may be mounted at /proc" {
	mkdir -p "$TMP/notproc"
	cfg --arg s "$TMP/notproc" '.mounts |= map(if .destination == "/proc" then {"destination": "/proc", "type": "bind", "source": $s, "options": ["bind"]} else . end)'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: mounts[0] (/proc): only procfs may be mounted at /proc: Operation not permitted"
	cfg '.mounts |= map(if .destination == "/proc" then {"destination": "/proc", "type": "tmpfs", "source": "tmpfs"} else . end)'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial "only procfs may be mounted at /proc"
	assert_no_leftovers
}

@test "CVE-2025-52881 class: no mount over procfs, also through a symlinked destination" {
	cfg '.mounts += [{"destination": "/proc/sys/kernel", "type": "tmpfs", "source": "tmpfs"}]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial "ward: mounts[7] (/proc/sys/kernel): mounting over procfs is refused"
	# /mnt/p -> /proc/self/attr inside the image: the target is on procfs.
	cfg '.mounts |= map(select(.destination != "/proc/sys/kernel"))'
	ln -s /proc/sys "$BUNDLE/rootfs/mnt/p"
	cfg '.mounts += [{"destination": "/mnt/p", "type": "tmpfs", "source": "tmpfs"}]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial "mounting over procfs is refused"
	assert_no_leftovers
}

@test "lxcfs-style views over a few /proc files stay possible" {
	echo "fake-uptime" >"$TMP/uptime"
	cfg --arg s "$TMP/uptime" '.mounts += [{"destination": "/proc/uptime", "type": "bind", "source": $s, "options": ["bind", "ro"]}]'
	cmd 'cat /proc/uptime'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output fake-uptime
}

@test "systemd socket activation: LISTEN_FDS fds reach the container" {
	cmd 'echo "$LISTEN_FDS $LISTEN_PID"; cat <&3; ls /proc/self/fd | tr "\n" " "'
	echo "socket-fd" >"$TMP/fd3"
	run bash -c 'exec 3<"$1" 4<"$1"; LISTEN_FDS=1 exec "$2" --root "$3" run --bundle "$4" "$5"' \
		_ "$TMP/fd3" "$WARD" "$ROOT" "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 "1 1"
	assert_line --index 1 socket-fd
	# fd 4 was not passed on: 0 1 2 3 and the one ls opens.
	assert_line --index 2 "0 1 2 3 4 "
	assert_no_leftovers
}

@test "a LISTEN_FDS that is not a count is refused before anything is made" {
	for bad in 1x -1 1025; do
		LISTEN_FDS=$bad run ward run --bundle "$BUNDLE" "$ID"
		assert_failure 125
		assert_output "ward: LISTEN_FDS=\"$bad\" is not a number of fds"
		assert_no_leftovers
	done
}

@test "CVE-2022-29162 class: inheritable and ambient sets stay empty unless asked" {
	cfg '.process.capabilities.inheritable = [] | .process.capabilities.ambient = []'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec --cap CAP_CHOWN "$ID" grep -E "^Cap(Inh|Amb)" /proc/self/status
	assert_output $'CapInh:\t0000000000000000\nCapAmb:\t0000000000000000'
	run ward exec "$ID" grep CapInh /proc/1/status
	assert_output $'CapInh:\t0000000000000000'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "CVE-2026-41579 class: devices never land outside through a planted /dev" {
	mkdir -p "$TMP/hostdev"
	rmdir "$BUNDLE/rootfs/dev"
	ln -s "$TMP/hostdev" "$BUNDLE/rootfs/dev"
	cfg '.mounts |= map(select(.destination | startswith("/dev") | not))'
	cfg '.linux.devices = [{"type": "c", "path": "/dev/evil", "major": 1, "minor": 3}]'
	cmd 'ls -l /dev/evil | cut -c1; echo ran-inside'
	# /dev a symlink to the host: refused before any node is made.
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: mounts[3] (/dev): /dev: Not a directory'
	run ls -A "$TMP/hostdev"
	assert_output ""
	# And a symlink planted where a device goes is replaced, not followed:
	# the container gets its character device, the host file stays.
	rm "$BUNDLE/rootfs/dev"
	mkdir "$BUNDLE/rootfs/dev"
	echo keep >"$TMP/victim"
	cfg '.mounts = [{"destination": "/proc", "type": "proc", "source": "proc"}]'
	ln -s "$TMP/victim" "$BUNDLE/rootfs/dev/evil"
	cfg '.root.readonly = false'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'c\nran-inside'
	run cat "$TMP/victim"
	assert_output keep
	assert_no_leftovers
}

@test "CVE-2025-52565 class: a planted /dev/console symlink is not followed" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.process.terminal = true | .mounts |= map(select(.destination != "/dev"))'
	echo original >"$TMP/victim"
	ln -s "$TMP/victim" "$BUNDLE/rootfs/dev/console"
	cmd 'ls -l /dev/console | cut -c1; echo ran-inside'
	start_receiver c3
	ward run -d --console-socket "$SOCK" --bundle "$BUNDLE" "$ID"
	wait_receiver
	# The container ran on its terminal, which /dev/console is (a
	# character device, not the planted link)...
	run tr -d '\r' <"$OUT"
	assert_output $'c\nran-inside'
	# ...and the link's host target was not written.
	run cat "$TMP/victim"
	assert_output original
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "CVE-2019-16884 class in exec: writes meant for procfs refuse a fake /proc" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	# A container that may mount (CAP_SYS_ADMIN, no seccomp) covers its
	# own /proc with a look-alike.
	cfg '.process.capabilities.bounding += ["CAP_SYS_ADMIN"] | .process.capabilities.effective += ["CAP_SYS_ADMIN"] | .process.capabilities.permitted += ["CAP_SYS_ADMIN"] | del(.linux.seccomp)'
	cmd 'mount -t tmpfs tmpfs /proc && mkdir -p /proc/self && echo 0 >/proc/self/oom_score_adj && touch /proc/covered && exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	# (through the init's root: its mounts, so its fake /proc)
	wait_for "the container to cover its /proc" test -e "/proc/$pid/root/proc/covered"
	cat >"$TMP/p.json" <<-'JSON'
	{"user": {"uid": 0, "gid": 0}, "args": ["true"], "cwd": "/", "oomScoreAdj": 500}
	JSON
	run ward exec --process "$TMP/p.json" "$ID"
	assert_failure 255 # compat: runc's exec status for its own failures
	assert_output 'ward: process.oomScoreAdj: /proc is not the root of a procfs: Operation not permitted'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "2025 masked-path CVEs: a /dev/null that is not the null device is refused, not bound over /proc files" {
	# The mask's source, swapped in ward's own mount namespace: /dev/zero
	# bound over /dev/null. A masked /proc/keys would then read zeros
	# (and a writable mask source would be worse): ward refuses.
	cmd 'echo ran; wc -c </proc/keys'
	run unshare -m sh -c "mount --bind /dev/zero /dev/null && exec '$WARD' --root '$ROOT' run --bundle '$BUNDLE' '$ID'"
	assert_failure 125
	assert_output --regexp '^ward: maskedPaths\[[0-9]+\] /proc/[a-z_/]+: /dev/null is not the null device \(1:3\)'
	refute_line ran
	assert_no_leftovers
	# The control: the same container with the real /dev/null runs, and
	# the masked file reads empty from inside.
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'ran\n0'
	assert_no_leftovers
}

@test "CVE-2019-5736 for exec: ward's process enters the container as the sealed memfd copy" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	init=$(init_pid "$ID")
	# Frozen: the exec'd process stops in the container's cgroup before its
	# execve, while it is still ward, where the container could reach it.
	ward pause "$ID"
	bg_start 30 "$TMP/exec.log" "$WARD" --root "$ROOT" exec --ignore-paused "$ID" true
	child() { ward ps --format json "$ID" | jq -r '.[]' | grep -vx "$init"; }
	has_child() { [ -n "$(child)" ]; }
	wait_for "ward's exec child in the container" has_child
	pid=$(child)
	run readlink "/proc/$pid/exe"
	assert_output --regexp '^/memfd:ward \(deleted\)$'
	run sh -c "echo x >>/proc/$pid/exe"
	assert_failure
	ward resume "$ID"
	wait "$BGPID"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "compat: a procfs root bound at /proc runs (runc's host pid namespace case); a part of one is refused, and baseline refuses the host's" {
	WARD_GLOBALS=(--profile compat)
	cfg '.linux.namespaces -= [{"type": "pid"}]
	     | .mounts |= map((select(.type == "proc") | .type = "none" | .source = "/proc" | .options = ["rbind", "nosuid", "nodev", "noexec"]) // .)'
	cmd '[ "$(cat /proc/1/comm)" != sh ] && [ "$$" != 1 ] && echo host-pids-visible'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output host-pids-visible
	cfg '.mounts |= map(if .destination == "/proc" then .source = "/proc/sys" else . end)'
	run ward run --bundle "$BUNDLE" "$ID-part"
	assert_failure 1
	assert_output "ward: mounts[0] (/proc): only procfs may be mounted at /proc: Operation not permitted"
	WARD_GLOBALS=()
	cfg '.mounts |= map(if .destination == "/proc" then .source = "/proc" else . end)'
	run ward run --bundle "$BUNDLE" "$ID-baseline"
	assert_failure 126
	assert_no_leftovers
}
