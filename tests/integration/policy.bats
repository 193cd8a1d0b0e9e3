#!/usr/bin/env bats
# The hardening policy (issue #6): profiles, adjustments seen from inside
# the container, refusals with their messages, opt-outs that need both the
# operator's policy and the container's annotation, and the audit log.

load ../helpers/common

setup() {
	ward_setup
	POLICY="$TMP/policy.json"
}

teardown() {
	ip netns delete "ward-test-$ID" 2>/dev/null || true
	ward_teardown
}



@test "baseline fills the gaps: seccomp, no_new_privs, caps, masks, core, pids, netns, /dev noexec" {
	cfg 'del(.linux.seccomp) | .process.noNewPrivileges = false
	     | .process.capabilities = {"bounding": ["CAP_KILL", "CAP_NET_RAW", "CAP_CHOWN"], "effective": ["CAP_KILL", "CAP_NET_RAW"], "permitted": ["CAP_KILL", "CAP_NET_RAW"], "inheritable": ["CAP_KILL"], "ambient": ["CAP_KILL"]}
	     | .linux.maskedPaths = [] | .linux.readonlyPaths = []
	     | .linux.namespaces |= map(select(.type != "network"))
	     | .mounts |= map(select(.type != "sysfs"))
	     | .mounts |= map(if .destination == "/dev" then .options -= ["noexec"] else . end)
	     | .process.rlimits = [{"type": "RLIMIT_CORE", "soft": 0, "hard": 1000000}]'
	# No network namespace: refused by default (see below), a fresh one
	# with "missingNetwork": "isolate".
	policy '{"missingNetwork": "isolate"}'
	WARD_GLOBALS=(--policy "$POLICY")
	cmd 'grep -E "^(Seccomp|NoNewPrivs|CapBnd|CapEff|CapInh|CapAmb):" /proc/self/status
	     wc -c </proc/timer_list; echo 1 >/proc/sys/kernel/domainname 2>/dev/null || echo sys-ro
	     echo core $(ulimit -c) $(ulimit -Hc)
	     grep " /dev " /proc/self/mountinfo | grep -q noexec && echo dev-noexec
	     readlink /proc/self/ns/net; sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	# (the filter is loaded just before the process's execve)
	wait_for "the init's seccomp filter" grep -q '^Seccomp:[[:space:]]*2$' "/proc/$pid/status"
	run cat "/proc/$pid/status"
	assert_line --regexp '^Seccomp:	2$'
	assert_line --regexp '^NoNewPrivs:	1$'
	# KILL (bit 5) and CHOWN (bit 0) stay; NET_RAW (13) is outside the safe set.
	assert_line --regexp '^CapBnd:	0000000000000021$'
	assert_line --regexp '^CapInh:	0000000000000000$'
	assert_line --regexp '^CapAmb:	0000000000000000$'
	[ "$(readlink "/proc/$(init_pid "$ID")/ns/net")" != "$(readlink /proc/self/ns/net)" ] ||
		fail "the container shares the host's network namespace"
	d=/sys/fs/cgroup/pids/ward/$ID
	[ -d "$d" ] || d=/sys/fs/cgroup/ward/$ID
	assert_equal "$(cat "$d/pids.max")" 4096
	# The audit log says what changed and why.
	run cat "$ROOT/$ID/audit.log"
	assert_line --partial '"field":".linux.seccomp","old":"(none)"'
	assert_line --partial '"field":".process.noNewPrivileges","old":"false","new":"true","rule":"no-new-privs"'
	assert_line --partial '"field":".process.capabilities.bounding","old":"CHOWN KILL NET_RAW","new":"CHOWN KILL","rule":"caps-safe-set"'
	assert_line --partial '"rule":"masked-paths"'
	assert_line --partial '"field":".process.rlimits[RLIMIT_CORE]","old":"soft 0 hard 1000000","new":"soft 0 hard 0"'
	assert_line --partial '"field":".linux.resources.pids.limit","old":"(none)","new":"4096","rule":"pids-default"'
	assert_line --partial '"rule":"new-netns"'
	assert_line --partial '"rule":"dev-noexec"'
	ward delete --force "$ID"
	# The same, in the foreground: what the process sees.
	cmd 'wc -c </proc/timer_list; echo 1 >/proc/sys/kernel/domainname 2>/dev/null || echo sys-ro
	     echo core $(ulimit -c) $(ulimit -Hc); ulimit -c 100 2>/dev/null || echo raise-denied
	     grep " /dev " /proc/self/mountinfo | grep -q noexec && echo dev-noexec'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line 0
	assert_line sys-ro
	assert_line 'core 0 0'
	assert_line raise-denied
	assert_line dev-noexec
	assert_no_leftovers
}

@test "--debug shows each adjustment; compat changes nothing" {
	cfg '.process.noNewPrivileges = false'
	cmd 'grep NoNewPrivs /proc/self/status'
	run ward --debug run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --partial 'policy baseline: .process.noNewPrivileges: false -> true (no-new-privs)'
	assert_line 'NoNewPrivs:	1'
	run ward --profile compat run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output 'NoNewPrivs:	0'
	assert_no_leftovers
}

@test "privilege-escalation: baseline keeps the config's noNewPrivileges false only with both keys (allowPrivilegeEscalation: true); strict never" {
	# A setuid-root program in the image (it prints its effective uid):
	# what escalation means.
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/suid-probe"
	chmod 4755 "$BUNDLE/rootfs/bin/suid-probe"
	cfg '.process.noNewPrivileges = false | .process.user = {"uid": 1000, "gid": 1000}'
	cmd 'grep NoNewPrivs /proc/self/status; /bin/suid-probe geteuid | cut -d" " -f2'
	policy '{"allow": ["privilege-escalation"]}'
	# The policy alone: still forced.
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'NoNewPrivs:\t1\n1000'
	# ... and ward check says which key is missing.
	run ward --policy "$POLICY" check --format json --bundle "$BUNDLE"
	assert_equal "$(jq -r '.notes[] | select(.field == ".process.noNewPrivileges") | .reason' <<<"$output")" \
		"the policy file allows privilege-escalation, and only the annotation org.ward.allow.privilege-escalation=true is missing"
	# The annotation alone: forced, and said the other way round.
	policy '{}'
	cfg '.annotations["org.ward.allow.privilege-escalation"] = "true"'
	run ward --policy "$POLICY" check --format json --bundle "$BUNDLE"
	assert_equal "$(jq -r '.notes[] | select(.field == ".process.noNewPrivileges") | .reason' <<<"$output")" \
		"the annotation org.ward.allow.privilege-escalation=true is set, but the policy file does not allow privilege-escalation"
	# Both under strict: forced, and the note says why the opt-out did nothing.
	policy '{"allow": ["privilege-escalation"]}'
	run ward --policy "$POLICY" --profile strict check --format json --bundle "$BUNDLE"
	assert_equal "$(jq -r '.notes[] | select(.field == ".process.noNewPrivileges") | .reason' <<<"$output")" \
		"strict forces no_new_privs whatever the opt-out privilege-escalation says (it is baseline's only)"
	cfg 'del(.annotations["org.ward.allow.privilege-escalation"])'
	# Both keys: the config's false is kept, the setuid bit works.
	cfg '.annotations["org.ward.allow.privilege-escalation"] = "true"'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'NoNewPrivs:\t0\n0'
	# allowAlways: what an operator sets for a cluster that allows it.
	cfg 'del(.annotations["org.ward.allow.privilege-escalation"])'
	policy '{"allowAlways": ["privilege-escalation"]}'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'NoNewPrivs:\t0\n0'
	# A config that asks for noNewPrivileges keeps it.
	cfg '.process.noNewPrivileges = true'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'NoNewPrivs:\t1\n1000'
	# strict forces it whatever the policy says.
	cfg '.process.noNewPrivileges = false'
	run ward --policy "$POLICY" --profile strict run --bundle "$BUNDLE" "$ID"
	assert_line 'NoNewPrivs:	1'
	refute_line 0
	assert_no_leftovers
}

@test "refused: host namespaces by path, and missing pid/ipc/uts namespaces" {
	cfg '.linux.namespaces |= map(if .type == "network" then .path = "/proc/self/ns/net" else . end)'
	refused_with 'config.json: .linux.namespaces[1].path: /proc/self/ns/net is the host'"'"'s network namespace '"$(optout_tail baseline host-network)"
	cfg '.linux.namespaces |= map(if .type == "network" then del(.path) else . end) | .linux.namespaces |= map(select(.type != "pid"))'
	refused_with 'config.json: .linux.namespaces: no pid namespace: the container would share the host'"'"'s'
	# No network namespace (an engine's --network host): refused (by
	# default, or when the policy says so), or, with "missingNetwork":
	# "isolate", a fresh one is added.
	cfg '.linux.namespaces += [{"type": "pid"}] | .linux.namespaces |= map(select(.type != "network")) | .mounts |= map(select(.type != "sysfs"))'
	refused_with 'config.json: .linux.namespaces: no network namespace: the container would share the host'"'"'s network (refused by the baseline profile; engines write it for `--network host` (Kubernetes: hostNetwork: true); opt-out: add "host-network" to "allow"'
	policy '{"missingNetwork": "refuse"}'
	refused_with 'config.json: .linux.namespaces: no network namespace: the container would share the host'"'"'s network (refused by the baseline profile; engines write it for `--network host` (Kubernetes: hostNetwork: true); opt-out: add "host-network" to "allow"'
	policy '{"missingNetwork": "isolate"}'
	cmd 'ls /proc/self/ns >/dev/null; cat /proc/net/dev | grep -c :'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_output 1
	rm "$POLICY"
	cfg '.linux.namespaces += [{"type": "network"}]'
	# Joining another container's namespace (a pod) stays allowed.
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID-pod"
	cfg --arg p "/proc/$(init_pid "$ID-pod")/ns/net" '.linux.namespaces |= map(if .type == "network" then .path = $p else . end)'
	cmd 'true'
	ward run --bundle "$BUNDLE" "$ID"
	ward delete --force "$ID-pod"
	assert_no_leftovers
}

@test "refused: sensitive host paths as bind sources; single files and data dirs allowed" {
	bind() { cfg --arg s "$1" '.mounts += [{"destination": "/mnt", "type": "bind", "source": $s, "options": ["rbind", "ro"]}]'; }
	unbind() { cfg 'del(.mounts[-1])'; }
	# /var/lib: when it holds an engine's state (by identity: only what
	# exists can be contained).
	for s in / /proc /sys/kernel /etc /etc/ssl /root /boot /var/lib /var/lib/containers /dev /usr /usr/bin /run /var/run; do
		[ -e "$s" ] || continue
		if [ "$s" = /var/lib ] && ! ls -d /var/lib/docker /var/lib/containerd /var/lib/containers /var/lib/kubelet /var/lib/crio >/dev/null 2>&1; then
			continue
		fi
		bind "$s"
		refused_with "config.json: .mounts[7].source: $s "
		unbind
	done
	# A symlink to / is seen through.
	ln -s / "$TMP/alias"
	bind "$TMP/alias"
	refused_with "config.json: .mounts[7].source: $TMP/alias is the host's root filesystem"
	unbind
	cmd 'cat /hosts >/dev/null && echo file-ok'
	cfg '.mounts += [{"destination": "/hosts", "type": "bind", "source": "/etc/hosts", "options": ["bind", "ro"]}]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_output file-ok
	assert_no_leftovers
}

@test "host paths are judged under the profile in force: compat (flag or policy) tightened by the annotation refuses an engine socket, the host's /proc, /etc and /run; compat alone takes them" {
	sock() { python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$1"; }
	mkdir -p "$TMP/run"
	sock "$TMP/run/docker.sock"
	policy '{"profile": "compat"}'
	cmd 'true'
	# By kind (the socket, procfs) and by the host's sensitive paths (/etc,
	# /var/run: the list gathered only when paths are judged).
	for m in "$TMP/run/docker.sock|/var/run/docker.sock|is a container engine socket" \
		"/proc|/hostpath|/proc" "/etc|/hostpath|/etc is the host's /etc" \
		"/var/run|/hostpath|/var/run is the host's /run"; do
		IFS='|' read -r src dst why <<<"$m"
		cfg --arg s "$src" --arg d "$dst" '.mounts += [{"destination": $d, "type": "bind", "source": $s, "options": ["rbind"]}]'
		for a in baseline strict; do
			cfg --arg a "$a" '.annotations["org.ward.profile"] = $a'
			for how in "--profile compat" "--policy $POLICY"; do
				# shellcheck disable=SC2086 # HOW is two words
				run ward $how create --bundle "$BUNDLE" "$ID"
				assert_failure 126
				assert_output --partial "$why"
				assert_no_leftovers
			done
		done
		# The control: compat itself takes it (runc does).
		cfg 'del(.annotations["org.ward.profile"])'
		ward --profile compat run --bundle "$BUNDLE" "$ID"
		ward delete --force "$ID" 2>/dev/null || true
		cfg 'del(.mounts[-1])'
	done
	assert_no_leftovers
}

@test "refused: container engine sockets, by type and name or by inode; a plain file of that name is not" {
	sock() { python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$1"; }
	mkdir -p "$TMP/run"
	sock "$TMP/run/docker.sock"
	cfg --arg s "$TMP/run/docker.sock" '.mounts += [{"destination": "/var/run/docker.sock", "type": "bind", "source": $s, "options": ["bind"]}]'
	refused_with "$TMP/run/docker.sock is a container engine socket"
	# A regular file with the name is only a file.
	rm "$TMP/run/docker.sock"
	: >"$TMP/run/docker.sock"
	cmd 'true'
	ward run --bundle "$BUNDLE" "$ID"
	# The engine's socket under another name (a hard link): by inode. The
	# socket is where ward looks for containerd's only in a mount namespace
	# of the test's own (a tmpfs /run there: the host's is not touched).
	mkdir "$TMP/eng"
	sock "$TMP/eng/containerd.sock"
	ln "$TMP/eng/containerd.sock" "$TMP/eng/innocent"
	cfg --arg s "$TMP/eng/innocent" '.mounts[-1].source = $s'
	rc=0
	unshare -m sh -c 'mount -t tmpfs tmpfs /run && mkdir /run/containerd &&
		mount --bind "$0/eng" /run/containerd &&
		exec "$1" --root "$2" create --bundle "$3" "$4"' "$TMP" "$WARD" "$ROOT" "$BUNDLE" "$ID" \
		>"$TMP/out" 2>&1 </dev/null || rc=$?
	run cat "$TMP/out"
	[ "$rc" -eq 126 ] || fail "create exited $rc, not refused: $output"
	assert_output --partial "$TMP/eng/innocent is the container engine socket /run/containerd/containerd.sock"
	[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
	# The engine's socket name a link to where the socket is (as Docker
	# Desktop's /run/docker.sock): the directory really holding it is
	# refused too, not only the socket.
	mkdir -p "$TMP/eng2/d/e/f"
	sock "$TMP/eng2/d/e/f/bk"
	cfg --arg s "$TMP/eng2" '.mounts[-1] = {"destination": "/x", "type": "bind", "source": $s, "options": ["rbind"]}'
	rc=0
	unshare -m sh -c 'mount -t tmpfs tmpfs /run && mkdir /run/buildkit &&
		ln -s "$0/eng2/d/e/f/bk" /run/buildkit/buildkitd.sock &&
		exec "$1" --root "$2" create --bundle "$3" "$4"' "$TMP" "$WARD" "$ROOT" "$BUNDLE" "$ID" \
		>"$TMP/out" 2>&1 </dev/null || rc=$?
	run cat "$TMP/out"
	[ "$rc" -eq 126 ] || fail "create exited $rc, not refused: $output"
	assert_output --partial "$TMP/eng2 contains the container engine socket /run/buildkit/buildkitd.sock"
	assert_no_leftovers
}

@test "refused: dangerous capabilities, allow-all device rules, host device nodes, rw cgroup v1" {
	cfg '.process.capabilities.bounding += ["CAP_SYS_ADMIN"]'
	refused_with 'config.json: .process.capabilities.bounding: CAP_SYS_ADMIN mounts, namespaces, BPF and most of the kernel'"'"'s admin interfaces (refused by the baseline profile; engines write it for `--cap-add` (Kubernetes: securityContext.capabilities.add); opt-out: add "cap.SYS_ADMIN"'
	cfg '.process.capabilities.bounding -= ["CAP_SYS_ADMIN"] | .process.capabilities.ambient = ["CAP_SYS_PTRACE"]'
	refused_with 'config.json: .process.capabilities.ambient: CAP_SYS_PTRACE traces and reads other processes'
	cfg 'del(.process.capabilities.ambient) | .linux.resources = {"devices": [{"allow": true, "access": "rwm"}]}'
	refused_with 'config.json: .linux.resources.devices[0]: allows every device of the host'
	cfg '.linux.resources = {"devices": [{"allow": true, "type": "c", "access": "rwm"}]}'
	refused_with 'allows every character device of the host'
	cfg 'del(.linux.resources) | .linux.devices = [{"type": "c", "path": "/dev/fuse", "major": 10, "minor": 229}]'
	refused_with 'config.json: .linux.devices[0]: /dev/fuse (c 10:229) is a device node for FUSE, a kernel attack surface (refused by the baseline profile; engines write it for `--device` (or `--privileged`); opt-out: add "device.fuse"'
	cfg '.linux.devices = [{"type": "b", "path": "/dev/sdz", "major": 8, "minor": 0}]'
	refused_with 'is a device node for raw host storage (a block device)'
	cfg '.linux.devices = [{"type": "c", "path": "/dev/mem", "major": 1, "minor": 1}]'
	refused_with 'opt-out: add "device.mem"'
	cfg 'del(.linux.devices)'
	if [ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ]; then
		cfg '.mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["rw"]}]'
		refused_with 'a writable cgroup v1 mount (release_agent runs host programs)'
	fi
	assert_no_leftovers
}

@test "an opt-out needs the policy's allow and the container's annotation" {
	cfg '.process.capabilities.bounding += ["CAP_SYS_PTRACE"] | .process.capabilities.effective += ["CAP_SYS_PTRACE"] | .process.capabilities.permitted += ["CAP_SYS_PTRACE"]'
	cmd 'grep CapEff /proc/self/status'
	# Neither: the line gives the JSON to add and the annotation to set.
	policy '{}'
	refused_with 'CAP_SYS_PTRACE traces and reads other processes '"$(optout_tail baseline cap.SYS_PTRACE)"
	# The annotation alone: refused, saying what the policy lacks.
	cfg '.annotations["org.ward.allow.cap.SYS_PTRACE"] = "true"'
	refused_with 'CAP_SYS_PTRACE traces and reads other processes (refused by the baseline profile; engines write it for `--cap-add` (Kubernetes: securityContext.capabilities.add); opt-out: the annotation org.ward.allow.cap.SYS_PTRACE=true is set, but '"$POLICY"' does not allow it: add {"allow": ["cap.SYS_PTRACE"]} there)'
	# The policy alone: refused, saying only the annotation is missing.
	cfg 'del(.annotations["org.ward.allow.cap.SYS_PTRACE"])'
	policy '{"allow": ["cap.SYS_PTRACE"]}'
	refused_with 'CAP_SYS_PTRACE traces and reads other processes (refused by the baseline profile; engines write it for `--cap-add` (Kubernetes: securityContext.capabilities.add); opt-out: '"$POLICY"' allows "cap.SYS_PTRACE", and only the annotation org.ward.allow.cap.SYS_PTRACE=true is missing)'
	# Both: allowed, and kept in the capped sets (bit 19).
	cfg '.annotations["org.ward.allow.cap.SYS_PTRACE"] = "true"'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output 'CapEff:	0000000000080420'
	# allowAlways: no annotation needed.
	cfg 'del(.annotations["org.ward.allow.cap.SYS_PTRACE"])'
	policy '{"allowAlways": ["cap.SYS_PTRACE"]}'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output 'CapEff:	0000000000080420'
	# A mount opt-out names the host path.
	cfg '.process.capabilities |= map_values(. - ["CAP_SYS_PTRACE"])'
	cfg '.mounts += [{"destination": "/mnt", "type": "bind", "source": "/etc/ssl", "options": ["rbind", "ro"]}]'
	cmd 'ls /mnt >/dev/null && echo mounted'
	policy '{"allow": ["mount:/etc/ssl"]}'
	refused_with '/etc/ssl is inside the host'"'"'s /etc'
	cfg '.annotations["org.ward.allow.mount:/etc/ssl"] = "true"'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_output mounted
	assert_no_leftovers
}

@test "a refusal names the bundle for ward check and logs every refusal to --log; a --privileged config is named as such" {
	# What `podman run --privileged` writes: every capability, the host's
	# devices, no masked paths.
	local caps
	caps=$("$WARD" features | jq -c '.linux.capabilities')
	cfg --argjson c "$caps" '.process.capabilities |= map_values($c) | .linux.maskedPaths = [] | .linux.readonlyPaths = []'
	cfg '.linux.devices = [{"path": "/dev/fuse", "type": "c", "major": 10, "minor": 229}, {"path": "/dev/net/tun", "type": "c", "major": 10, "minor": 200}]'
	local bundle
	bundle=$(realpath "$BUNDLE")
	for fmt in json text; do
		rm -f "$TMP/log"
		run ward --log "$TMP/log" --log-format "$fmt" create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output --regexp '^ward: config.json: \.linux\.devices\[0\]: /dev/fuse \(c 10:229\) is a device node for FUSE, a kernel attack surface \(refused by the baseline profile; the config asks for every capability and host device, as `--privileged` \(Kubernetes: privileged: true\) does, which only the compat profile runs \(ward --profile compat; Podman: --runtime-flag profile=compat\)\) \[and [0-9]+ more: ward --profile baseline( --policy [^ ]+)? check --bundle '"$bundle"'\]$'
		[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
		# The log has each refusal `ward check` lists, at info level,
		# then the error line.
		run ward check --format json "$BUNDLE"
		local n
		n=$(jq '.refusals | length' <<<"$output")
		[ "$n" -ge 3 ] || fail "ward check lists $n refusals"
		if [ $fmt = json ]; then
			run jq -r 'select(.level == "info") | .msg' "$TMP/log"
		else
			run sed -n 's/.* level=info msg="\(.*\)"$/\1/p' "$TMP/log"
		fi
		[ "${#lines[@]}" -eq "$n" ] || fail "$n refusals, ${#lines[@]} logged: $output"
		assert_line --partial 'refused by the baseline profile: .linux.devices[0]: /dev/fuse (c 10:229) is a device node for FUSE, a kernel attack surface (opt-out: device.fuse)'
		assert_line --partial 'refused by the baseline profile: .linux.devices[1]: /dev/net/tun'
		grep -q 'level.*error' "$TMP/log" || fail "no error line: $(cat "$TMP/log")"
	done
	# An engine gives what it holds: a host without CAP_SYS_RESOURCE
	# (as this one) still writes --privileged's shape ...
	cfg '.process.capabilities |= map_values(. - ["CAP_SYS_RESOURCE"])'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'as `--privileged` (Kubernetes: privileged: true) does'
	# ... a config with three capabilities fewer is judged field by field.
	cfg '.process.capabilities |= map_values(. - ["CAP_SYS_PTRACE", "CAP_SYS_MODULE", "CAP_SYS_RAWIO"])'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	refute_output --partial '`--privileged` (Kubernetes'
	assert_output --partial 'opt-out: add "device.fuse" to "allow"'
	# Without --log, nothing but the one line; --log-level error keeps
	# the refusals in the log all the same (an engine passes no level).
	run ward --log "$TMP/log2" --log-format json --log-level error create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	[ "$(jq -c 'select(.level == "info")' "$TMP/log2" | wc -l)" -ge 3 ] || fail "$(cat "$TMP/log2")"
	assert_no_leftovers
}

@test "a hook path longer than PATH_MAX: refused naming the whole path and opt-out; an opt-out of its first PATH_MAX bytes lifts nothing" {
	local long
	long=$(python3 -c 'print("/" + "a/" * 4600 + "x")')
	cfg --arg p "$long" '.hooks.prestart = [{"path": $p}]'
	# (the output is 28 KB: checked without printing it)
	run ward create --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 126 ] || fail "status $status"
	[ "${#lines[@]}" -eq 1 ] || fail "more than one line"
	[[ $output == *"$long does not resolve on the host (File name too long)"* ]] || fail "reason cut short"
	[[ $output == *"add \"hook:$long\" to \"allow\""* ]] || fail "opt-out cut short: ${output: -200}"
	# The name a fixed buffer would have cut it to, allowed: still refused.
	policy "$(jq -n --arg o "hook:${long:0:4100}" '{allowAlways: [$o]}')"
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 126 ] || fail "status $status: ${output:0:200}"
	[[ $output == *"$long does not resolve on the host"* ]] || fail "${output:0:200}"
	assert_no_leftovers
}

@test "a config's strings cannot forge the refusal: one line, no control characters, and a JSON snippet of exactly the one opt-out (or none)" {
	local esc nl
	esc=$(printf '\033')
	nl=$(printf '\nward: forged line')
	# A hook path that would close the snippet's string and add its own
	# opt-out, and one with a newline and an escape sequence.
	for path in '/usr/bin/true", "host-network' "/x${nl}${esc}[2J\r"; do
		cfg --arg p "$path" '.hooks.prestart = [{"path": $p}]'
		for p in baseline strict; do
			run ward --profile "$p" create --bundle "$BUNDLE" "$ID"
			assert_failure 126
			[ "${#lines[@]}" -eq 1 ] || fail "$p: ${#lines[@]} lines: $output"
			[[ $output != *"$esc"* && $output != *$'\r'* ]] || fail "$p: a raw control character"
			refute_output --partial '{"allow"'
			assert_output --partial 'opt-out: its name holds characters a policy file and an annotation do not take as written'
			# ward check's text says it on one line each too.
			run ward --profile "$p" check --bundle "$BUNDLE"
			refute_line --regexp '^ *ward: forged line'
			[[ $output != *"$esc"* ]] || fail "check: a raw escape"
		done
	done
	# A plain name: the snippet is JSON holding exactly that name.
	cfg 'del(.hooks) | .process.capabilities.bounding += ["CAP_SYS_PTRACE"]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	local snippet
	snippet=$(sed -n 's/.*(\({"allow": \[.*\]}\)) and set.*/\1/p' <<<"$output")
	run jq -c .allow <<<"$snippet"
	assert_output '["cap.SYS_PTRACE"]'
	assert_no_leftovers
}

@test "strict: user namespace, read-only root, noexec scratch tmpfs, limits" {
	cfg '.root.readonly = false | .mounts |= map(select(.destination != "/tmp"))'
	cmd 'cat /proc/self/uid_map; touch /x 2>/dev/null || echo root-ro
	     echo hi >/tmp/f && cat /tmp/f
	     cp /bin/busybox /tmp/bb && (/tmp/bb true 2>/dev/null && echo tmp-exec || echo tmp-noexec)
	     grep -E " /(tmp|run) " /proc/self/mountinfo | grep -c "nosuid,nodev,noexec"; sleep 100'
	ward --profile strict run -d --bundle "$BUNDLE" "$ID"
	# (the id maps are written before create returns)
	run cat "/proc/$(init_pid "$ID")/uid_map"
	assert_output --regexp '^ +0 +1879048192 +65536$'
	if [ -d /sys/fs/cgroup/memory ]; then
		assert_equal "$(cat /sys/fs/cgroup/memory/ward/$ID/memory.limit_in_bytes)" 536870912
		assert_equal "$(cat /sys/fs/cgroup/pids/ward/$ID/pids.max)" 256
		assert_equal "$(cat /sys/fs/cgroup/cpu/ward/$ID/cpu.cfs_quota_us)" 100000
	else
		assert_equal "$(cat /sys/fs/cgroup/ward/$ID/memory.max)" 536870912
		assert_equal "$(cat /sys/fs/cgroup/ward/$ID/pids.max)" 256
	fi
	ward delete --force "$ID"
	cmd 'touch /x 2>/dev/null || echo root-ro
	     echo hi >/tmp/f && cat /tmp/f
	     cp /bin/busybox /tmp/bb && (/tmp/bb true 2>/dev/null && echo tmp-exec || echo tmp-noexec)
	     grep -E " /(tmp|run) " /proc/self/mountinfo | grep -c "nosuid,nodev,noexec"'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line root-ro
	assert_line hi
	assert_line tmp-noexec
	assert_line 2
	assert_no_leftovers
}

@test "strict limits as the code inside sees them: 64m scratch tmpfs, 512M memory and no swap, one CPU, 256 pids" {
	cfg '.mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["nosuid", "noexec", "nodev", "ro"]}]'
	cmd 'df -k /tmp /run | awk "NR > 1 {print \$6, \$2}"; cd /sys/fs/cgroup || exit 9
	     if [ -e cgroup.controllers ]; then
	         echo v2; cat memory.max memory.swap.max cpu.max pids.max
	     else
	         echo v1; cat memory/memory.limit_in_bytes memory/memory.memsw.limit_in_bytes \
	             cpu/cpu.cfs_quota_us cpu/cpu.cfs_period_us pids/pids.max
	     fi'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line '/tmp 65536'
	assert_line '/run 65536'
	if [ "${lines[2]}" = v2 ]; then
		# memory.swap.max is swap beyond memory.max: none.
		assert_equal "${lines[*]:3}" "536870912 0 100000 100000 256"
	else
		assert_equal "${lines[2]}" v1
		# memsw is memory + swap: the same as the memory limit.
		assert_equal "${lines[*]:3}" "536870912 536870912 100000 100000 256"
	fi
	assert_no_leftovers
}

@test "the [and N more] hint is a command that, pasted, lists every refusal as the run judged them (its profile and policy file, quoted)" {
	cfg '.process.env += ["API_TOKEN=x", "DB_PASSWORD=y"]'
	local pol="$TMP/the operator's policy.json"
	echo '{}' >"$pol"
	for how in "--profile strict" "--policy"; do
		if [ "$how" = --policy ]; then
			echo '{"profile": "strict"}' >"$pol"
			WARD_GLOBALS=(--policy "$pol")
		else
			WARD_GLOBALS=(--profile strict --policy "$pol")
		fi
		run ward create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		[[ "$output" =~ \[and\ 1\ more:\ (ward\ .*)\]$ ]] || fail "no hint: $output"
		local hint=${BASH_REMATCH[1]}
		# As a user pastes it (ward on the PATH).
		run env PATH="$(dirname "$WARD"):$PATH" sh -c "$hint --format json"
		assert_failure 1
		assert_equal "$(jq -c '[.refusals[].field]' <<<"$output")" '[".process.env[2]",".process.env[3]"]'
		# Each with the opt-out as the line says it: the JSON for this
		# policy file, and the annotation.
		local name
		name=$(jq -r '.refusals[0].optOut' <<<"$output")
		assert_equal "$(jq -r '.refusals[0].optOutHow' <<<"$output")" \
			"add \"$name\" to \"allow\" in $pol ({\"allow\": [\"$name\"]}) and set the annotation org.ward.allow.$name=true"
		assert_no_leftovers
	done
}

@test "strict: secret-looking environment names and joined network namespaces are refused" {
	cfg '.process.env += ["AWS_SECRET_ACCESS_KEY=x"]'
	run ward --profile strict create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'config.json: .process.env[2]: AWS_SECRET_ACCESS_KEY looks like a secret (pattern *SECRET*)'
	assert_output --partial 'opt-out: add "env.AWS_SECRET_ACCESS_KEY"'
	# The patterns are policy data.
	policy '{"secretEnv": ["MY_*"]}'
	cfg '.process.env += ["MY_THING=1"]'
	run ward --policy "$POLICY" --profile strict create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'MY_THING looks like a secret (pattern MY_*)'
	# baseline lets both through.
	cmd 'true'
	ward run --bundle "$BUNDLE" "$ID"
	cfg '.process.env = ["PATH=/bin"]'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID-other"
	cfg --arg p "/proc/$(init_pid "$ID-other")/ns/net" '.linux.namespaces |= map(if .type == "network" then .path = $p else . end)'
	run ward --profile strict create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'strict allows no network namespace but a fresh one'
	ward delete --force "$ID-other"
	assert_no_leftovers
}

@test "profile selection: ward-strict, the policy file, --profile; annotations only tighten" {
	cmd 'cat /proc/self/uid_map'
	ln -s "$WARD" "$TMP/ward-strict"
	run "$TMP/ward-strict" --root "$ROOT" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output --regexp '^ +0 +1879048192 +65536$'
	policy '{"profile": "strict"}'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_output --regexp '^ +0 +1879048192 +65536$'
	run ward --policy "$POLICY" --profile baseline run --bundle "$BUNDLE" "$ID"
	assert_output --regexp '^ +0 +0 +4294967295$'
	# Tighten: baseline -> strict.
	cfg '.annotations["org.ward.profile"] = "strict"'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_output --regexp '^ +0 +1879048192 +65536$'
	# Loosen: ignored (and noted in the audit log).
	cfg '.annotations["org.ward.profile"] = "compat" | .process.noNewPrivileges = false'
	cmd 'grep NoNewPrivs /proc/self/status; sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run grep -c NoNewPrivs:.1 "/proc/$(init_pid "$ID")/status"
	assert_output 1
	run cat "$ROOT/$ID/audit.log"
	assert_output --partial '"note":"\"compat\" ignored: an annotation may only tighten the baseline profile"'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "every policy file of ward-policy(7)'s EXAMPLES is one ward loads" {
	local n=0 f
	python3 - "$WARD_SRCDIR/runtime/policy/ward-policy.7" "$TMP" <<-'PY'
	import re, sys
	man = open(sys.argv[1]).read()
	blocks = re.findall(r'\.\\" policy-example\n\.nf\n\.RS\n(.*?)\n\.RE', man, re.S)
	for i, b in enumerate(blocks):
	    open("%s/example-%d.json" % (sys.argv[2], i), "w").write(b.replace("\\-", "-"))
	PY
	for f in "$TMP"/example-*.json; do
		jq -e . "$f" >/dev/null || fail "$f is not JSON: $(cat "$f")"
		run ward --policy "$f" check --bundle "$BUNDLE"
		assert_success
		n=$((n + 1))
	done
	[ "$n" -ge 4 ] || fail "$n examples found"
}

@test "a malformed policy file is an error, never 'no policy'" {
	policy '{"profile": "strict", "alow": ["cap.SYS_ADMIN"]}'
	refused_with "policy file: $POLICY: .alow: unknown property"
	policy '{"profile": "lax"}'
	refused_with "policy file: $POLICY: .profile: must be compat, baseline or strict (got \"lax\")"
	policy '{"allow": ["cap.SYS_ADMIN", "everything"]}'
	refused_with "policy file: $POLICY: .allow[1]: unknown opt-out \"everything\""
	policy '{"strict": {"usernsHostID": 0}}'
	refused_with 'usernsHostID 0 would map container root to host root'
	policy '{"profile": '
	refused_with "policy file: $POLICY"
	rm "$POLICY"
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: policy file $POLICY: cannot open $POLICY: No such file or directory"
	run ward --profile lax create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: --profile lax: must be compat, baseline or strict'
	assert_no_leftovers
}

@test "exec gets the policy too: capped caps, no_new_privs, refused --cap" {
	cfg '.process.noNewPrivileges = false'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" grep -E '^(NoNewPrivs|CapBnd)' /proc/self/status
	assert_line 'NoNewPrivs:	1'
	assert_line 'CapBnd:	0000000000000420'
	run ward exec --cap CAP_SYS_ADMIN "$ID" true
	assert_failure 126
	assert_output --partial 'exec process.capabilities.bounding: CAP_SYS_ADMIN'
	run ward exec --cap CAP_NET_RAW "$ID" grep CapEff /proc/self/status
	assert_output 'CapEff:	0000000000000420'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "exec applies what create decided: not the policy file's later state; no record is an error" {
	cfg '.process.noNewPrivileges = false'
	cmd 'sleep 100'
	echo '{"profile": "baseline"}' >"$TMP/policy.json"
	ward --policy "$TMP/policy.json" run -d --bundle "$BUNDLE" "$ID"
	# The operator loosens the file afterwards: the running container keeps
	# what create decided (baseline), also for exec.
	echo '{"profile": "compat"}' >"$TMP/policy.json"
	run ward --policy "$TMP/policy.json" exec "$ID" grep -E '^NoNewPrivs' /proc/self/status
	assert_success
	assert_output 'NoNewPrivs:	1'
	# Without the record there is nothing to apply: an error, never compat.
	rm "$ROOT/$ID/policy.json"
	run ward exec "$ID" true
	assert_failure 125
	assert_output --partial "ward: container \"$ID\": no policy record"
	# A damaged record (300000 levels deep: yajl's tree free recursed
	# off the stack before) is an error too.
	python3 -c 'print("[" * 300000 + "]" * 300000)' >"$ROOT/$ID/policy.json"
	run ward exec "$ID" true
	assert_failure 125
	assert_output --partial 'JSON nested deeper than 4 levels'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "ward check: what the container reaches and what ward would do; exit 0, 1, 2" {
	cfg 'del(.linux.seccomp) | .process.env += ["API_TOKEN=x"]'
	run "$WARD" check "$BUNDLE"
	assert_success
	assert_line 'verdict: allowed'
	assert_line --partial 'rule: seccomp-default'
	# --bundle, as every other command takes the bundle; not both.
	run "$WARD" check --bundle "$BUNDLE"
	assert_success
	assert_line 'verdict: allowed'
	run "$WARD" check --bundle "$BUNDLE" "$BUNDLE"
	assert_failure 2
	assert_output 'ward: check: give the bundle with --bundle or as the argument, not both'
	run "$WARD" check "$BUNDLE"
	assert_line --partial '- API_TOKEN'
	refute_output --partial 'API_TOKEN=x'
	run "$WARD" check --profile strict --format json "$BUNDLE"
	assert_failure 1
	echo "$output" >"$TMP/check.json"
	python3 - "$WARD_SRCDIR/config-schema/check.schema.json" "$TMP/check.json" <<-'PY'
	import json, sys, jsonschema
	jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
	PY
	run jq -r '.verdict, .profile, .refusals[0].field, .refusals[0].optOut, .reach.limits.memory.state, .reach.namespaces.user' "$TMP/check.json"
	assert_output $'refused\nstrict\n.process.env[2]\nenv.API_TOKEN\ndefaulted\nnew'
	echo '{' >"$BUNDLE/config.json"
	run "$WARD" check "$BUNDLE"
	assert_failure 2
	assert_output --partial 'config.json'
	run "$WARD" check "$TMP/nope"
	assert_failure 2
	[ ! -e "$ROOT" ] || [ -z "$(ls "$ROOT")" ]
}

# The opt-outs of ward-policy(7), OPT-OUTS and the rules that name them,
# written out here (never read from ward): names, and families with the
# members the man page lists.
POLICY7_OPTOUTS="host-network host-pid host-ipc host-uts host-mount host-user host-cgroup
	mount:/var/lib/data mount-type.ramfs idmap hook:/usr/libexec/oci/hooks.d/h cap.SYS_PTRACE cap.NET_ADMIN devices-all
	device.mem device.kmem device.port device.kvm device.fuse device.tun
	device.vhost-net device.vhost-vsock device.block device.console device.c1:* device.c10:229 device.c4:64
	cgroup-rw env.API_TOKEN join-network seccomp-none privilege-escalation landlock-off egress-metadata"

@test "features lists ward's annotations, profiles and the opt-outs of ward-policy(7)" {
	run "$WARD" features
	assert_success
	features=$output
	run jq -r '.annotations | keys[]' <<<"$features"
	assert_line org.ward.profile
	assert_line 'org.ward.allow.<name>'
	assert_line org.ward.egress
	run jq -r '.["org.ward"].profiles | join(",")' <<<"$features"
	assert_output compat,baseline,strict
	# The man page's opt-outs, in features' notation, as a set.
	run jq -r '.["org.ward"].optOuts[]' <<<"$features"
	assert_success
	run sort <<<"$output"
	assert_output "$(printf '%s\n' host-network host-pid host-ipc host-uts host-mount host-user host-cgroup \
		'mount:<host path>' 'mount-type.<TYPE>' idmap 'hook:<host path>' 'cap.<NAME>' devices-all \
		'device.<mem|kmem|port|kvm|fuse|tun|vhost-net|vhost-vsock|block|console|cMAJOR:*|cMAJOR:MINOR>' \
		cgroup-rw 'env.<NAME>' join-network seccomp-none privilege-escalation landlock-off egress-metadata | sort)"
	# Every name the man page gives is taken by the policy file...
	local n
	set -f # (device.c1:* is a name, not a glob)
	for n in $POLICY7_OPTOUTS; do
		printf '{"allow": ["%s"], "allowAlways": ["%s"]}\n' "$n" "$n" >"$POLICY"
		run "$WARD" --policy "$POLICY" check "$BUNDLE"
		assert_success
	done
	# ...and a name it does not give is refused.
	for n in host-everything host-net seccomp cap. env. device. devices; do
		printf '{"allow": ["%s"]}\n' "$n" >"$POLICY"
		run "$WARD" --policy "$POLICY" check "$BUNDLE"
		assert_failure 2
		assert_output "ward: policy file: $POLICY: .allow[0]: unknown opt-out \"$n\" (see ward-policy(7))"
	done
	set +f
	echo '{"allow": ["mount:var/lib/data"]}' >"$POLICY"
	run "$WARD" --policy "$POLICY" check "$BUNDLE"
	assert_failure 2
	assert_output "ward: policy file: $POLICY: .allow[0]: a mount opt-out names an absolute host path"
}

@test "ward check lists the hooks ward would run, each with the policy's verdict" {
	printf '#!/bin/sh\n' >"$BUNDLE/in-bundle.sh"
	chmod 755 "$BUNDLE/in-bundle.sh"
	cfg --arg h "$BUNDLE/in-bundle.sh" '.hooks = {"prestart": [{"path": "/bin/true"}, {"path": $h}]}'
	run "$WARD" check --format json "$BUNDLE"
	assert_failure 1
	run jq -r '.reach.hooks[] | "\(.point) \(.path): \(.verdict)"' <<<"$output"
	assert_output "prestart /bin/true: /bin/true would run as root doing what the config says, and nobody vouches for it: it is not in the policy's \"hooks\", and no OCI hooks directory (\"hooksDirs\") has it with these args and env
prestart $BUNDLE/in-bundle.sh: $BUNDLE/in-bundle.sh is inside the bundle"
	policy '{"hooks": ["/bin/true"]}'
	run "$WARD" --policy "$POLICY" check --format json "$BUNDLE"
	assert_failure 1
	run jq -r '.reach.hooks[0].verdict' <<<"$output"
	assert_output runs
	run "$WARD" check --profile compat --format json "$BUNDLE"
	run jq -r '.reach.hooks[1].verdict' <<<"$output"
	assert_output "runs (compat: not judged)"
}

@test "an opt-out in a family but outside ward-policy(7)'s list is refused" {
	for n in device.bogus device.sda device. device.c cap.FLY cap.CAP_SYS_ADMIN; do
		printf '{"allow": ["%s"]}\n' "$n" >"$POLICY"
		run "$WARD" --policy "$POLICY" check "$BUNDLE"
		assert_failure 2
		assert_output --partial "unknown opt-out \"$n\""
	done
}

@test "a config as Podman 4.3 writes it for 'podman run busybox' runs unchanged under baseline" {
	# tests/fixtures/podman-run-busybox.json: saved from `podman create` +
	# `podman init` (containers.conf: cgroupfs, nofile/nproc within this
	# host's hard limits); only the host paths are placeholders.
	u="$TMP/userdata"
	mkdir -p "$u/shm"
	echo "nameserver 127.0.0.1" >"$u/resolv.conf"
	printf '127.0.0.1 localhost\n' >"$u/hosts"
	echo podman-ctr >"$u/hostname"
	: >"$u/.containerenv"
	ip netns add "ward-test-$ID"
	sed -e "s|@USERDATA@|$u|g" -e "s|@NETNS@|/run/netns/ward-test-$ID|g" \
		-e "s|@ID@|ward-test-$ID|g" -e "s|@SHORTID@|podman-ctr|g" \
		"$WARD_SRCDIR/tests/fixtures/podman-run-busybox.json" >"$BUNDLE/config.json"
	run "$WARD" check "$BUNDLE"
	assert_success
	assert_line 'verdict: allowed'
	cmd 'hostname; cat /etc/resolv.conf; grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status; ulimit -n'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line podman-ctr
	assert_line 'nameserver 127.0.0.1'
	# Podman's 14 capabilities less AUDIT_WRITE, MKNOD and NET_RAW.
	assert_line 'CapEff:	00000000800405fb'
	assert_line 'NoNewPrivs:	1'
	assert_line 'Seccomp:	2'
	assert_line 1024
	assert_no_leftovers
	[ ! -e "/sys/fs/cgroup/pids/libpod_parent/libpod-ward-test-$ID" ]
}

# The 14 capabilities baseline refuses, with their numbers from
# capabilities(7) (written here, not read from ward's table).
REFUSED_CAPS="DAC_READ_SEARCH:2 NET_ADMIN:12 SYS_MODULE:16 SYS_RAWIO:17 SYS_PTRACE:19
	SYS_ADMIN:21 SYS_BOOT:22 SYS_TIME:25 MAC_OVERRIDE:32 MAC_ADMIN:33 SYSLOG:34 PERFMON:38
	BPF:39 CHECKPOINT_RESTORE:40"

@test "each of the 14 refused capabilities: asked for, refused; with its opt-out, held inside; by default, absent inside" {
	local c name bit
	for c in $REFUSED_CAPS; do
		name=${c%%:*} bit=${c##*:}
		cfg --arg c "CAP_$name" '.process.capabilities |= map_values(. + [$c] | unique)
		     | .annotations = {}'
		rm -f "$POLICY"
		refused_with "config.json: .process.capabilities.bounding: CAP_$name"
		# With both halves of its opt-out the container runs and holds it.
		policy "{\"allow\": [\"cap.$name\"]}"
		cfg --arg a "org.ward.allow.cap.$name" '.annotations[$a] = "true"'
		cmd 'grep ^CapBnd: /proc/self/status'
		run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
		assert_success
		[ $(((0x${output##*:	} >> bit) & 1)) -eq 1 ] || fail "CAP_$name (bit $bit) not held with its opt-out: $output"
		cfg --arg c "CAP_$name" '.process.capabilities |= map_values(. - [$c])'
	done
	# The default config, seen from inside: none of the 14 in any set.
	rm -f "$POLICY"
	cfg '.annotations = {}'
	cmd 'grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb):" /proc/self/status'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	local line mask
	for line in "${lines[@]}"; do
		mask=$((0x${line##*:	}))
		for c in $REFUSED_CAPS; do
			[ $(((mask >> ${c##*:}) & 1)) -eq 0 ] || fail "CAP_${c%%:*} present inside: $line"
		done
	done
	assert_no_leftovers
}

@test "missing ipc and mount namespaces: refused; with the opt-out the container shares the host's, seen from inside" {
	local t host
	for t in ipc mount; do
		cfg --arg t "$t" '.linux.namespaces |= map(select(.type != $t)) | .annotations = {}'
		refused_with "config.json: .linux.namespaces: no $t namespace: the container would share the host's"
		cfg --arg t "$t" '.linux.namespaces += [{"type": $t}]'
	done
	# ipc with both halves of its opt-out: the container is in the host's
	# ipc namespace (as asked), and nothing else changed.
	policy '{"allow": ["host-ipc"]}'
	cfg '.linux.namespaces |= map(select(.type != "ipc")) | .annotations["org.ward.allow.host-ipc"] = "true"'
	cmd 'readlink /proc/self/ns/ipc; readlink /proc/self/ns/uts'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 "$(readlink /proc/self/ns/ipc)"
	[ "${lines[1]}" != "$(readlink /proc/self/ns/uts)" ] || fail "uts shared too"
	assert_no_leftovers
}

# issue 25: the operator policy decides for every container, so ward reads
# it only when nobody but root could have written it or changed what its
# path names: the file and every directory above it root's and not
# writable by group or others (a sticky directory such as /tmp only asks
# that the entry be root's). A host user's policy must not loosen a
# container: each case names the file and why.
@test "p25b-policy-file: a policy file a host user could write is not read" {
	cmd 'echo inside-marker'
	printf '{"profile": "compat", "allowAlways": ["host-network"]}\n' >"$TMP/pol.json"
	chmod 666 "$TMP/pol.json"
	run ward --policy "$TMP/pol.json" run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "policy file $TMP/pol.json: not read: $TMP/pol.json is writable by others (mode 0666) (the policy file and every directory above it must be owned by root and not writable by group or others)"
	refute_line inside-marker
	chmod 644 "$TMP/pol.json"
	chown 65534 "$TMP/pol.json"
	run ward --policy "$TMP/pol.json" run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "policy file $TMP/pol.json: not read: $TMP/pol.json is owned by uid 65534"
	# Root's file, in a directory anyone can write (replace the file).
	mkdir -m 0777 "$TMP/open"
	chown 0 "$TMP/pol.json"
	mv "$TMP/pol.json" "$TMP/open/pol.json"
	run ward --policy "$TMP/open/pol.json" run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "policy file $TMP/open/pol.json: not read: $TMP/open is writable by others (mode 0777)"
	# Through a symlink in a directory anyone can write: judged too.
	mv "$TMP/open/pol.json" "$TMP/pol.json"
	ln -s "$TMP/pol.json" "$TMP/open/link.json"
	run ward --policy "$TMP/open/link.json" run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "$TMP/open is writable by others"
	# The same file root's, 0644, in root's 0755 directories: read (its
	# compat profile runs the container with the host's network).
	run ward --policy "$TMP/pol.json" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line inside-marker
	assert_no_leftovers
}

# ns_ward ARGS: ward run in a mount namespace of the test's own where a
# stand-in directory ($STANDIN) is bound over the host path $AT: what the
# container is offered is the stand-in, never the host's own.
ns_ward() {
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		- "$STANDIN" "$AT" "$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" "$@" 2>&1
}

# issue 25: host authority by use. The host's root runs dpkg's maintainer
# scripts (info/*.postinst) at the next package operation: a container
# writing there is root's code. A writable bind of what root runs or trusts
# is refused in baseline and strict; read-only it runs. The class, not
# only the names: a tree holding a program owned by root is refused too.
@test "p25b-authority: a writable bind of /var/lib/dpkg (a stand-in) is refused; read-only it runs" {
	[ -d /var/lib/dpkg ] || skip "no /var/lib/dpkg on this host"
	STANDIN="$TMP/dpkg" AT=/var/lib/dpkg
	mkdir -p "$STANDIN/info"
	printf '#!/bin/sh\n' >"$STANDIN/info/base.postinst"
	chmod 755 "$STANDIN/info/base.postinst"
	cfg '.mounts += [{"destination": "/pkg", "type": "bind", "source": "/var/lib/dpkg", "options": ["rbind"]}]'
	cmd 'printf "#!/bin/sh\nid >/tmp/pwned\n" >/pkg/info/base.postinst && echo wrote; echo inside-marker'
	for p in baseline strict; do
		WARD_GLOBALS=(--profile "$p")
		run ns_ward run --bundle "$BUNDLE" "$ID"
		assert_failure
		assert_output --partial "config.json: .mounts[$(jq '.mounts | length - 1' "$BUNDLE/config.json")].source: /var/lib/dpkg is the host's /var/lib/dpkg, whose contents the host's root runs or trusts (package scripts, scheduled jobs, service state), and would be writable: bind it read-only (\"ro\")"
		refute_line wrote
		assert_no_leftovers
	done
	run cat "$STANDIN/info/base.postinst"
	assert_output '#!/bin/sh'
	# Read-only: it runs, and the database reads.
	WARD_GLOBALS=()
	cfg '.mounts[-1].options = ["rbind", "ro"]'
	cmd 'cat /pkg/info/base.postinst; echo x >/pkg/info/base.postinst 2>/dev/null || echo read-only; echo inside-marker'
	run ns_ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line '#!/bin/sh'
	assert_line read-only
	assert_line inside-marker
	assert_no_leftovers
}

@test "p25b-authority-class: a writable bind of a tree holding a program owned by root is refused (no name needed); compat takes it" {
	mkdir -p "$TMP/newpm/scripts"
	printf '#!/bin/sh\n' >"$TMP/newpm/scripts/hook.postinst"
	chmod 755 "$TMP/newpm/scripts/hook.postinst"
	cfg --arg s "$TMP/newpm" '.mounts += [{"destination": "/pkg", "type": "bind", "source": $s, "options": ["rbind"]}]'
	cmd 'echo inside-marker'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "$TMP/newpm holds ./scripts/hook.postinst, a program owned by root (the host's root may run it), and would be writable: bind it read-only (\"ro\")"
	assert_output --partial "opt-out: add \"mount:$TMP/newpm\""
	assert_no_leftovers
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line inside-marker
	assert_no_leftovers
}

# The tree is searched whole, and what could not be searched is refused:
# a program or a socket at any depth, a tree too large or too deep to look
# through (an attacker's review rewrote a root program 4 levels down and
# one after 65537 other files while the search stopped at 3 levels and
# 65536 files and then let the bind be writable).
@test "p25b-authority-scan: a program or socket at any depth is found; a tree too large or deep to search is refused" {
	cmd 'echo inside-marker'
	bind_tree() { cfg --arg s "$1" --argjson o "${2:-[\"rbind\"]}" 'del(.mounts[] | select(.destination == "/t")) | .mounts += [{"destination": "/t", "type": "bind", "source": $s, "options": $o}]'; }
	mkdir -p "$TMP/deep/vendor/product/lib/x/bin"
	cp /bin/true "$TMP/deep/vendor/product/lib/x/bin/tool"
	bind_tree "$TMP/deep"
	refused_with "$TMP/deep holds ./vendor/product/lib/x/bin/tool, a program owned by root (the host's root may run it), and would be writable"
	rm "$TMP/deep/vendor/product/lib/x/bin/tool"
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/deep/vendor/product/lib/x/bin/sock"
	bind_tree "$TMP/deep" '["rbind", "ro"]'
	refused_with "holds a unix socket (./vendor/product/lib/x/bin/sock)"
	rm "$TMP/deep/vendor/product/lib/x/bin/sock"
	# Searched whole, nothing found: it runs.
	bind_tree "$TMP/deep"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output inside-marker
	# Past the limits: refused as too large, read-only or not.
	# (a tmpfs outside $TMP, which the leftover check watches: 262145
	# files take 10 s on ext4, 1 s on tmpfs)
	many=/mnt/ward-many-$ID
	mkdir -p "$many"
	mount -t tmpfs -o size=256m tmpfs "$many"
	(cd "$many" && seq 1 262145 | xargs touch)
	for o in '["rbind"]' '["rbind", "ro"]'; do
		bind_tree "$many" "$o"
		run ward create --bundle "$BUNDLE" "$ID"
		[ "$status" -eq 126 ] && [[ "$output" == *"$many is too large to check (sockets, submounts)"* ]] ||
			{ umount "$many"; rmdir "$many"; fail "not refused as too large: $output"; }
	done
	umount "$many"
	rmdir "$many"
	assert_no_leftovers
	mkdir -p "$TMP/dirs" && (cd "$TMP/dirs" && seq -f d%g 1 16385 | xargs mkdir)
	bind_tree "$TMP/dirs" '["rbind", "ro"]'
	refused_with "$TMP/dirs is too large to check (sockets, submounts)"
	mkdir -p "$TMP/tall/$(printf 'd/%.0s' $(seq 1 70))"
	bind_tree "$TMP/tall" '["rbind", "ro"]'
	refused_with "$TMP/tall is too large to check (sockets, submounts)"
	# A root filesystem is an image (searched 3 levels down: its size is
	# anyone's), but a host service's socket in it is found at any depth
	# through the kernel's list of bound sockets.
	cfg 'del(.mounts[] | select(.destination == "/t"))'
	mkdir -p "$BUNDLE/rootfs/var/lib/svc/deep/er"
	python3 -c 'import socket, sys, time; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); print("up", flush=True); time.sleep(60)' "$BUNDLE/rootfs/var/lib/svc/deep/er/sock" >"$TMP/svc.out" &
	svc=$!
	track_pid "$svc"
	wait_for "the stand-in service" grep -q up "$TMP/svc.out"
	refused_with ".root.path: rootfs holds a unix socket (./var/lib/svc/deep/er/sock)"
	kill "$svc"
	wait "$svc" || true
	rm "$BUNDLE/rootfs/var/lib/svc/deep/er/sock"
	# ... and a service in a network namespace of its own (systemd's
	# PrivateNetwork=): every namespace's list is read.
	unshare -n python3 -c 'import socket, sys, time; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); print("up", flush=True); time.sleep(60)' "$BUNDLE/rootfs/var/lib/svc/deep/er/sock" >"$TMP/svc.out" &
	svc=$!
	track_pid "$svc"
	wait_for "the stand-in service in its own network namespace" grep -q up "$TMP/svc.out"
	refused_with ".root.path: rootfs holds a unix socket (./var/lib/svc/deep/er/sock)"
	kill "$svc"
	wait "$svc" || true
	rm "$BUNDLE/rootfs/var/lib/svc/deep/er/sock"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output inside-marker
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output inside-marker
	assert_no_leftovers
}

# Inside an engine's state directory only what the engine makes for
# containers to write may be bound writable (its volumes and per-container
# files, by the engines' layouts): an attacker's review rewrote a root
# program in an image layer there, and the engine's configs (Docker's
# hostconfig.json, a Podman container's config.json) are read as root at
# the next start.
@test "p25b-authority-engine: inside an engine's tree only its volumes and per-container files may be writable; image layers and configs are refused" {
	for E in /var/lib/containers /var/lib/containerd /var/lib/docker ""; do
		[ -z "$E" ] || [ -d "$E" ] && break
	done
	[ -n "$E" ] || skip "no engine state directory on this host"
	made=()
	for d in "$E/storage/volumes" "$E/storage/overlay-containers" "$E/storage"; do
		[ -d "$d" ] || made+=("$d")
	done
	L="$E/ward-test-$ID" V="$E/storage/volumes/ward-test-$ID/_data" U="$E/storage/overlay-containers/ward-test-$ID/userdata"
	cleanup_engine() {
		rm -rf "$L" "${V%/_data}" "${U%/userdata}"
		for d in "${made[@]}"; do rmdir "$d" || true; done
	}
	mkdir -p "$L/diff/usr/bin" "$V/bin" "$U"
	cp /bin/true "$L/diff/usr/bin/tool"
	echo '{}' >"$L/diff/config.json"
	cp /bin/true "$V/bin/tool"
	echo '{"ociVersion": "1.0.2"}' >"$U/config.json"
	echo "127.0.0.1 localhost" >"$U/hosts"
	cmd 'echo pwned >/t/usr/bin/tool 2>/dev/null; echo inside-marker'
	bind() { cfg --arg s "$1" 'del(.mounts[] | select(.destination == "/t")) | .mounts += [{"destination": "/t", "type": "bind", "source": $s, "options": ["rbind", "rw"]}]'; }
	for src in "$L/diff" "$L/diff/config.json" "$U" "$U/config.json"; do
		bind "$src"
		for p in baseline strict; do
			WARD_GLOBALS=(--profile "$p")
			run ward run --bundle "$BUNDLE" "$ID"
			[ "$status" -ne 0 ] && [[ "$output" == *"$src is inside $E, a container engine's own state (image layers, other containers' files, its configuration), not a volume or per-container file it makes for containers, and would be writable"* ]] ||
				{ cleanup_engine; fail "$p: $src not refused: $output"; }
		done
	done
	cmp -s /bin/true "$L/diff/usr/bin/tool" || { cleanup_engine; fail "the layer's program was rewritten"; }
	# A volume (programs in it are the container's) and a per-container file.
	WARD_GLOBALS=()
	cmd 'cp /bin/busybox /t/bin/mine && echo inside-marker'
	bind "$V"
	run ward run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ] && [ -x "$V/bin/mine" ] || { cleanup_engine; fail "the volume: $output"; }
	cmd 'echo "10.0.0.1 extra" >>/h && echo inside-marker'
	cfg --arg s "$U/hosts" 'del(.mounts[] | select(.destination == "/t")) | .mounts += [{"destination": "/h", "type": "bind", "source": $s, "options": ["bind", "rw"]}]'
	run ward run --bundle "$BUNDLE" "$ID"
	hosts=$(cat "$U/hosts")
	cleanup_engine
	assert_success
	assert_output inside-marker
	assert_equal "$hosts" $'127.0.0.1 localhost\n10.0.0.1 extra'
	assert_no_leftovers
}

# A root filesystem is written (ward makes its mount points in it, and the
# container writes it unless root.readonly): it is judged as a writable
# bind (an attacker's review had a user's home, /usr/local and dpkg's
# database as a rootfs, and wrote .ssh/authorized_keys there).
@test "p25b-authority-rootfs: a root filesystem inside what the host's root runs or trusts is refused; where an engine mounts roots it runs" {
	cmd 'echo inside-marker'
	for E in /var/lib/containers /var/lib/docker ""; do
		[ -z "$E" ] || [ -d "$E" ] && break
	done
	u=/usr/local/ward-test-$ID
	roots=("$u")
	[ -n "$E" ] && roots+=("$E/storage/overlay-containers/ward-test-$ID/userdata")
	cleanup_roots() { rm -rf "$u" "${E:-/nonexistent}/storage/overlay-containers/ward-test-$ID" "${E:-/nonexistent}/storage/overlay/ward-test-$ID"; rmdir "$E/storage/overlay-containers" "$E/storage/overlay" "$E/storage" 2>/dev/null || true; }
	for r in "${roots[@]}"; do
		mkdir -p "$r"
		cp -a "$BUNDLE/rootfs/." "$r/"
		cfg --arg r "$r" '.root.path = $r'
		for p in baseline strict; do
			WARD_GLOBALS=(--profile "$p")
			run ward run --bundle "$BUNDLE" "$ID"
			[ "$status" -ne 0 ] && [[ "$output" == *".root.path: $r "*"and a root filesystem is written (ward makes its mount points in it)"* ]] ||
				{ cleanup_roots; fail "$p: rootfs $r not refused: $output"; }
		done
	done
	# Where an engine mounts a container's root: it runs.
	if [ -n "$E" ]; then
		r="$E/storage/overlay/ward-test-$ID/merged"
		mkdir -p "$r"
		cp -a "$BUNDLE/rootfs/." "$r/"
		cfg --arg r "$r" '.root.path = $r'
		WARD_GLOBALS=()
		run ward run --bundle "$BUNDLE" "$ID"
		[ "$status" -eq 0 ] && [ "$output" = inside-marker ] || { cleanup_roots; fail "engine rootfs: $output"; }
	fi
	# compat runs what runc runs.
	cfg --arg r "$u" '.root.path = $r'
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	cleanup_roots
	assert_success
	assert_output inside-marker
	assert_no_leftovers
}

# issue 25: scheduling and limits ward sets as root before the capability
# drop. A baseline container without CAP_SYS_NICE / CAP_SYS_RESOURCE must
# not get nice -10, SCHED_FIFO, the real-time I/O class, an oomScoreAdj
# below ward's own or a hard limit above the host's; strict never. Read
# from inside: /proc/self/stat field 19 (nice), 41 (policy), and
# /proc/self/oom_score_adj.
@test "p25b-sched: priorities and limits only CAP_SYS_NICE/CAP_SYS_RESOURCE may set are refused (baseline without them, strict)" {
	cmd 'echo "nice=$(cut -d" " -f19 /proc/self/stat) policy=$(cut -d" " -f41 /proc/self/stat) oom=$(cat /proc/self/oom_score_adj)"; echo inside-marker'
	cfg '.process.scheduler = {"policy": "SCHED_OTHER", "nice": -10}'
	for p in baseline strict; do
		WARD_GLOBALS=(--profile "$p")
		run ward run --bundle "$BUNDLE" "$ID"
		assert_failure
		assert_output --partial "config.json: .process.scheduler.nice: nice -10 (a priority above the host's processes) needs CAP_SYS_NICE"
		refute_line inside-marker
		assert_no_leftovers
	done
	cfg 'del(.process.scheduler) | .process.oomScoreAdj = -900'
	WARD_GLOBALS=()
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "config.json: .process.oomScoreAdj: oomScoreAdj -900, below ward's own ("
	assert_output --partial "needs CAP_SYS_RESOURCE"
	refute_line inside-marker
	cfg 'del(.process.oomScoreAdj) | .process.scheduler = {"policy": "SCHED_FIFO", "priority": 10}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "config.json: .process.scheduler.policy: SCHED_FIFO (a real-time policy"
	cfg 'del(.process.scheduler) | .process.ioPriority = {"class": "IOPRIO_CLASS_RT", "priority": 0}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "config.json: .process.ioPriority.class: IOPRIO_CLASS_RT"
	cfg --argjson h "$(($(ulimit -Hn) * 2))" 'del(.process.ioPriority) | .process.rlimits = [{"type": "RLIMIT_NOFILE", "soft": 1024, "hard": $h}]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "config.json: .process.rlimits[0]: RLIMIT_NOFILE hard $(($(ulimit -Hn) * 2)), above the host's hard limit"
	assert_no_leftovers
	# The container that keeps CAP_SYS_NICE (listed, and allowed by the
	# operator) may raise its priority; compat takes it as runc.
	cfg 'del(.process.rlimits) | .process.scheduler = {"policy": "SCHED_OTHER", "nice": -5}
	     | .process.capabilities.bounding += ["CAP_SYS_NICE"]'
	policy '{"allowAlways": ["cap.SYS_NICE"]}'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --regexp '^nice=-5 policy=0 oom=[-0-9]+$'
	assert_no_leftovers
	rm "$POLICY"
	cfg '.process.scheduler.nice = -7'
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --regexp '^nice=-7 policy=0 oom=[-0-9]+$'
	assert_no_leftovers
}

@test "p25b-sched-exec: exec --process with nice -10 or a lower oomScoreAdj is refused (baseline), as create" {
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	jq '.process | .args = ["sh", "-c", "cut -d\" \" -f19 /proc/self/stat"] | .scheduler = {"policy": "SCHED_OTHER", "nice": -10}' \
		"$BUNDLE/config.json" >"$TMP/proc.json"
	run ward exec --process "$TMP/proc.json" "$ID"
	assert_failure
	assert_output --partial "exec process.scheduler.nice: nice -10 (a priority above the host's processes) needs CAP_SYS_NICE"
	refute_line -- -10
	jq 'del(.scheduler) | .oomScoreAdj = -950' "$TMP/proc.json" >"$TMP/proc2.json"
	run ward exec --process "$TMP/proc2.json" "$ID"
	assert_failure
	assert_output --partial "exec process.oomScoreAdj: oomScoreAdj -950, below ward's own"
	jq 'del(.scheduler)' "$TMP/proc.json" >"$TMP/proc3.json"
	run ward exec --process "$TMP/proc3.json" "$ID"
	assert_success
	assert_output 0
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "ward check notes a bind source that does not exist (the create fails there; check must not say only allowed)" {
	cfg --arg s "$TMP/no/such/dir" '.mounts += [{"destination": "/x", "type": "bind", "source": $s, "options": ["bind"]}]'
	for p in baseline strict; do
		run ward --profile "$p" check --format json --bundle "$BUNDLE"
		assert_equal "$(jq -r '.notes[] | select(.field | test("^\\.mounts\\[[0-9]+\\]\\.source$")) | .reason' <<<"$output")" \
			"$TMP/no/such/dir does not exist: the create will fail there"
		run ward --profile "$p" run --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output --partial "source $TMP/no/such/dir: No such file or directory"
		assert_no_leftovers
	done
}
