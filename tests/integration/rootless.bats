#!/usr/bin/env bats
# Rootless (issue #16): ward run by users made for the test, one with
# subordinate ids (/etc/subuid, /etc/subgid) and one without. Each test
# proves the container ran (a marker from inside) before it looks at what
# the host kept; the container's root must have no authority over the host.

load ../helpers/common
load ../helpers/rootless

setup_file() {
	rootless_users
}

setup() {
	ward_setup
	U=$RL
	# Everything the user needs, where it can reach it: the binary, the
	# bundle, its runtime directory.
	UTMP=$(mktemp -d /tmp/ward-rl.XXXXXX)
	rootless_binary "$UTMP"
	UXDG="$UTMP/xdg"
	UB="$UTMP/bundle"
	mkdir -p "$UB" "$UTMP/xdg"
	cp -a "$ROOTFS_CACHE" "$UB/rootfs"
	"$WARD" spec --full --bundle "$UB"
	chmod 700 "$UTMP/xdg"
	chown -R "$U:" "$UTMP/xdg" "$UB"
	POLICY="$UTMP/policy.json"
}

teardown() {
	local c p
	for u in "$RL" "$RL_NOSUB"; do
		U=$u
		for c in $(ls "$UTMP/xdg/ward" 2>/dev/null); do
			uward delete --force "$c" >/dev/null 2>&1 || true
		done
	done
	if [ -e "$UTMP/linger" ]; then
		loginctl disable-linger "$RL" || true
		loginctl terminate-user "$RL" 2>/dev/null || true
	fi
	for u in "$RL" "$RL_NOSUB"; do
		pkill -9 -u "$u" 2>/dev/null || true
	done
	for d in /sys/fs/cgroup/ward-test-rl-"$ID"; do
		[ -d "$d" ] || continue
		find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null || true
	done
	rm -rf "$UTMP"
	ward_teardown
}

# ward as the test's user ($U).
uward() { as_user -- "$UBIN" "$@"; }

# Edit the user's config.json with a jq filter.
ucfg() {
	jq "$@" "$UB/config.json" >"$UB/config.json.new"
	mv "$UB/config.json.new" "$UB/config.json"
	chown "$U:" "$UB/config.json"
}

ucmd() { ucfg --arg s "$1" '.process.args = ["sh", "-c", $s]'; }

# The user's state root holds nothing, and no process of the user runs
# (a zombie waits for the host's pid 1 to reap it: it runs nothing). The
# supervisor's last steps may take a moment after the run returns.
assert_user_clean() {
	local p left
	if [ -e "$UTMP/xdg/ward" ]; then
		run ls "$UTMP/xdg/ward"
		assert_output ""
	fi
	for _ in $(seq 50); do
		left=
		for p in $(pgrep -u "$U"); do
			pid_alive "$p" && left="$left $p"
		done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	fail "processes of $U still run:$left"
}

@test "rootless: a user runs, execs, kills and deletes; container root is the caller, the rest its subordinate ids" {
	local uid sub pid
	uid=$(id -u "$U")
	sub=$(awk -F: -v u="$U" '$1 == u {print $2; exit}' /etc/subuid)
	ucmd 'echo uid=$(id -u); cat /proc/self/uid_map'
	run uward run --bundle "$UB" "$ID"
	assert_success
	assert_line uid=0
	assert_line --regexp "^ +0 +$uid +1\$"
	assert_line --regexp "^ +1 +$sub +65535\$"
	# The state root is the user's runtime directory's.
	[ -d "$UTMP/xdg/ward" ]
	ucfg '.process.args = ["sleep", "100"]'
	# The init keeps ward's stdout: a file, not bats' pipe.
	uward run -d --bundle "$UB" "$ID" >"$UTMP/run-d.out" 2>&1
	run uward state "$ID"
	assert_success
	assert_output --partial '"status": "running"'
	assert_output --partial "\"owner\": \"$U\""
	pid=$(uward state "$ID" | jq .pid)
	# On the host the container's root is the user itself.
	[ "$(stat -c %u "/proc/$pid")" = "$uid" ]
	run uward exec "$ID" sh -c 'echo in-exec uid=$(id -u) pid1=$(cat /proc/1/comm)'
	assert_success
	assert_output "in-exec uid=0 pid1=sleep"
	# ps: the container's processes (by its pid namespace where no cgroup
	# is delegated).
	run uward ps --format json "$ID"
	assert_success
	[ "$(jq length <<<"$output")" -ge 1 ]
	jq -e --argjson p "$pid" 'index($p) != null' <<<"$output"
	# Root does not take the user's state for its own: a forged state.json
	# would aim root's signals and namespaces anywhere.
	run "$WARD" --root "$UXDG/ward" exec "$ID" true
	assert_failure 125
	assert_output --partial "state root $UXDG/ward belongs to uid $uid: ward trusts only a state root of its own user"
	run uward kill "$ID" KILL
	assert_success
	for _ in $(seq 50); do
		[ "$(uward state "$ID" | jq -r .status)" = stopped ] && break
		sleep 0.1
	done
	run uward delete "$ID"
	assert_success
	wait_dead "$pid"
	assert_user_clean
}

@test "rootless: ward check says what a run makes: a user namespace of the caller's, not the host's" {
	local uid sub
	uid=$(id -u "$U")
	sub=$(awk -F: -v u="$U" '$1 == u {print $2; exit}' /etc/subuid)
	run uward check --format json "$UB"
	assert_success
	[ "$(jq -r .reach.namespaces.user <<<"$output")" = new ] || fail "user: $(jq -c .reach.namespaces <<<"$output")"
	run uward check "$UB"
	assert_line --regexp "userMapping: container 0 = host uid $uid "
	refute_line --partial 'user: host (shared)'
}

@test "rootless: spec --rootless maps the caller alone, as runc's; a user runs it as it is" {
	local uid
	uid=$(id -u "$U")
	rm "$UB/config.json"
	chmod 777 "$UB"
	run as_user -- "$UBIN" spec --rootless --bundle "$UB"
	assert_success
	run jq -c '[.linux.uidMappings, .linux.gidMappings, (.linux.namespaces | map(.type) | index("user") != null),
	            (.mounts[] | select(.type == "devpts") | .options | index("gid=5"))]' "$UB/config.json"
	assert_output "[[{\"containerID\":0,\"hostID\":$uid,\"size\":1}],[{\"containerID\":0,\"hostID\":$(id -g "$U"),\"size\":1}],true,null]"
	ucmd 'echo ran maps=$(wc -l < /proc/self/uid_map)'
	run uward run --bundle "$UB" "$ID"
	assert_success
	assert_line "ran maps=1"
	assert_user_clean
}

@test "rootless: the demo (runtime/setup/demo.sh) runs as the user, strict, nothing left" {
	local demo="$UTMP/demo"
	# The demo's scripts where the user reaches them; ward with a policy
	# that lets strict run without a delegated cgroup (none here).
	mkdir -p "$demo/runtime/setup" "$demo/tests/helpers"
	cp "$WARD_SRCDIR/runtime/setup/demo.sh" "$demo/runtime/setup/"
	cp "$WARD_SRCDIR/tests/helpers/mkrootfs.sh" "$demo/tests/helpers/"
	policy '{"strict": {"rootlessLimits": "warn"}}'
	chmod 644 "$POLICY"
	printf '#!/bin/sh\nexec %s --policy %s "$@"\n' "$UBIN" "$POLICY" >"$demo/ward"
	chmod -R a+rX "$demo"
	chmod 755 "$demo/ward"
	chown "$U:" "$demo"
	run as_user DEMO_BUNDLE="$demo/bundle" -- sh -c "cd $demo && sh runtime/setup/demo.sh $demo/ward $BUSYBOX"
	assert_success
	assert_line "== inside a ward container =="
	assert_line --regexp "^user: uid=0\(root\) gid=0\(root\).*uid map: +0 $(id -u "$U") 1\$"
	assert_line --regexp "^ *1 [0-9]+ 65535\$"
	assert_line "root filesystem: read-only"
	assert_line --partial "containers left behind: 0"
	assert_user_clean
}

@test "rootless: the container's root has no authority over the host, even under compat" {
	local d="$UTMP/hostdir"
	mkdir -p "$d/sub"
	echo host-file >"$d/file"
	chmod 755 "$d"
	ucfg --arg d "$d" '.mounts += [{"destination": "/host", "type": "bind", "source": $d, "options": ["rbind", "rw"]}]'
	ucmd 'echo ran; echo x >> /host/file || echo append-refused; touch /host/new || echo create-refused;
	      chown 0 /host/file || echo chown-refused; mknod /tmp/sda b 8 0 || echo mknod-refused;
	      echo 1 > /proc/sys/vm/overcommit_memory || echo sysctl-refused;
	      mount -t tmpfs x /host || echo mount-host-refused; cat /host/file'
	run uward --profile compat run --bundle "$UB" "$ID"
	assert_success
	assert_line ran
	assert_line append-refused
	assert_line create-refused
	assert_line chown-refused
	assert_line mknod-refused
	assert_line sysctl-refused
	assert_line host-file
	[ "$(cat "$d/file")" = host-file ]
	[ ! -e "$d/new" ]
	[ "$(stat -c %u "$d/file")" = 0 ]
	assert_user_clean
}

@test "rootless: ward is not open to the container's root, which has its uid: no ptrace, no /proc fds (create and exec)" {
	local bystander
	# No pid namespace (compat; the host's /proc bound at /hostproc, as
	# proc cannot be mounted for a pid namespace the user does not own):
	# the container sees ward, its parent.
	ucfg '.linux.namespaces |= map(select(.type != "pid"))
	      | .mounts |= map(select(.destination != "/proc"))
	      | .mounts += [{"destination": "/hostproc", "type": "bind", "source": "/proc", "options": ["rbind"]}]'
	local probe='w=$PPID; echo ward=$(cat /hostproc/$w/comm 2>/dev/null)
	ls /hostproc/$w/fd/ >/dev/null 2>&1 && echo fds-open || echo fds-denied
	cat /hostproc/$w/environ >/dev/null 2>&1 && echo environ-open || echo environ-denied
	ls /hostproc/$w/cwd/ >/dev/null 2>&1 && echo cwd-open || echo cwd-denied'
	ucmd "$probe"
	run uward --profile compat run --bundle "$UB" "$ID"
	assert_success
	assert_line --regexp '^ward=.+'
	assert_line fds-denied
	assert_line environ-denied
	assert_line cwd-denied
	ucfg '.process.args = ["sleep", "100"]'
	uward --profile compat run -d --bundle "$UB" "$ID" >"$UTMP/run-d.out" 2>&1
	run uward exec "$ID" sh -c "$probe"
	assert_success
	assert_line fds-denied
	assert_line environ-denied
	assert_line cwd-denied
	# Nothing tells its processes from the user's others: kill --all says
	# so, and delete --force kills the init alone, never the rest of the
	# user's processes.
	bystander=$(as_user -- sh -c 'sleep 60 >/dev/null 2>&1 3>&- & echo $!')
	run uward kill --all "$ID" KILL
	assert_failure 1
	assert_output --partial "neither a cgroup nor a pid namespace of its own"
	run uward delete --force "$ID"
	assert_success
	pid_alive "$bystander"
	kill -9 "$bystander"
	assert_user_clean
}

@test "rootless: exec's process is never open to a container root with CAP_SYS_PTRACE before it runs (its /proc root stays closed)" {
	local marker="ward-rl-marker-$ID"
	: >"$UTMP/$marker"
	chmod 644 "$UTMP/$marker"
	# A prober in the container: CAP_SYS_PTRACE in its user namespace,
	# looking through every process's /proc root for a file of the host's.
	ucfg '.process.capabilities.bounding += ["CAP_SYS_PTRACE"] | .process.capabilities.effective += ["CAP_SYS_PTRACE"] | .process.capabilities.permitted += ["CAP_SYS_PTRACE"]'
	ucmd "end=\$((\$(date +%s) + 8)); while [ \$(date +%s) -lt \$end ]; do
	        for p in /proc/[0-9]*; do [ -e \$p/root$UTMP/$marker ] && echo escaped-via-\$p >/tmp/found; done
	      done; echo done >/tmp/probed; sleep 100"
	uward --profile compat run -d --bundle "$UB" "$ID" >"$UTMP/run-d.out" 2>&1
	for _ in $(seq 30); do
		uward --profile compat exec "$ID" true
	done
	WAIT_FOR_SECS=20 wait_for "the prober" uward exec "$ID" test -e /tmp/probed
	run uward exec "$ID" cat /tmp/found
	assert_failure
	refute_output --partial escaped
	run uward delete --force "$ID"
	assert_success
}

@test "rootless: a bind source the user cannot read is refused, naming the field; nothing is left" {
	local d="$UTMP/private"
	mkdir -m 700 "$d"
	ucfg --arg d "$d" '.mounts += [{"destination": "/private", "type": "bind", "source": $d, "options": ["rbind", "ro"]}]'
	ucmd 'echo ran'
	run uward run --bundle "$UB" "$ID"
	assert_failure 125
	refute_line ran
	assert_output --partial "config.json: .mounts[$(jq '.mounts | length - 1' "$UB/config.json")].source: $d: uid $(id -u "$U") cannot read it"
	assert_user_clean
}

@test "rootless: without subordinate ids a single-id map; ids the user does not own or its own id unmapped are refused" {
	local uid
	U=$RL_NOSUB
	chown -R "$U:" "$UTMP/xdg" "$UB"
	uid=$(id -u "$U")
	ucmd 'echo uid=$(id -u) maps=$(wc -l < /proc/self/uid_map); cat /proc/self/uid_map'
	run uward run --bundle "$UB" "$ID"
	assert_success
	assert_line "uid=0 maps=1"
	assert_line --regexp "^ +0 +$uid +1\$"
	# More than its own id: only through newuidmap, which refuses ranges
	# that are not the user's.
	ucfg --argjson u "$uid" '.linux.namespaces += [{"type": "user"}]
	     | .linux.uidMappings = [{"containerID": 0, "hostID": $u, "size": 1}, {"containerID": 1, "hostID": 500000, "size": 10}]
	     | .linux.gidMappings = [{"containerID": 0, "hostID": $u, "size": 1}]'
	run uward run --bundle "$UB" "$ID"
	assert_failure 125
	assert_output --partial "config.json: .linux.uidMappings"
	assert_output --partial "newuidmap"
	refute_line --partial "uid=0"
	# Its own id must be mapped: ward works inside as that id.
	ucfg '.linux.uidMappings = [{"containerID": 0, "hostID": 500000, "size": 10}]'
	run uward run --bundle "$UB" "$ID"
	assert_failure 126
	assert_output --partial "config.json: .linux.uidMappings: a rootless container must map the caller's uid $uid"
	assert_user_clean
}

@test "rootless: with no runtime directory the error says how to give a state root; --root works" {
	[ ! -e "/run/user/$(id -u "$U")" ] || skip "/run/user/$(id -u "$U") exists on this host"
	ucmd 'echo ran'
	run setpriv --reuid "$U" --regid "$U" --clear-groups env -i PATH=/usr/bin:/bin \
		"$UBIN" run --bundle "$UB" "$ID"
	assert_failure 1
	assert_output --partial "XDG_RUNTIME_DIR is not set"
	assert_output --partial "--root"
	refute_line ran
	# A runtime directory that is not the user's is not taken either.
	run setpriv --reuid "$U" --regid "$U" --clear-groups env -i PATH=/usr/bin:/bin \
		XDG_RUNTIME_DIR=/tmp "$UBIN" run --bundle "$UB" "$ID"
	assert_failure 1
	assert_output --partial "XDG_RUNTIME_DIR=/tmp: not a directory of yours (uid $(id -u "$U"))"
	refute_line ran
	[ ! -e /tmp/ward ]
	run setpriv --reuid "$U" --regid "$U" --clear-groups env -i PATH=/usr/bin:/bin \
		"$UBIN" --root "$UTMP/xdg/other" run --bundle "$UB" "$ID"
	assert_success
	assert_line ran
	run ls "$UTMP/xdg/other"
	assert_output ""
}

@test "rootless: strict still applies; without a delegated cgroup its limits are required unless the policy says warn" {
	# (Here ward's own cgroup's parent is root's: nothing is delegated.)
	ucmd 'echo ran; cat /proc/self/uid_map; touch /x || echo ro-root
	      echo sys_admin=$(( (0x$(awk "/CapEff/ {print \$2}" /proc/self/status) >> 21) & 1 ))'
	run uward --profile strict run --bundle "$UB" "$ID"
	assert_failure 125
	refute_line ran
	assert_output --partial 'config.json: .linux.resources: strict enforces limits, and a rootless container here has no cgroup'
	assert_output --partial '"rootlessLimits": "warn"'
	policy '{"strict": {"rootlessLimits": "warn"}}'
	chmod 644 "$POLICY"
	run uward --policy "$POLICY" --profile strict run --bundle "$UB" "$ID"
	assert_success
	assert_line ran
	assert_line ro-root
	assert_line sys_admin=0
	assert_line --partial "warning: config.json: .linux.resources: not enforced"
	assert_user_clean
}

@test "rootless: egress: baseline joins a network unfiltered, saying so; strict with an allow-list is refused, saying why" {
	local ns="eg$$${RANDOM}"
	ns=${ns:0:11}
	ip netns add "$ns"
	ucfg --arg p "/var/run/netns/$ns" '.linux.namespaces |= map(if .type == "network" then .path = $p else . end)'
	run uward check --format json "$UB"
	ip netns del "$ns"
	assert_success
	[ "$(jq -c .reach.egress.enforced <<<"$output")" = false ] || fail "$(jq -c .reach.egress <<<"$output")"
	run jq -r '.notes[] | select(.field == ".linux.namespaces") | .reason' <<<"$output"
	assert_output --partial 'egress not filtered: the cloud metadata endpoints stay reachable: rootless ward cannot load the egress programs'
	# strict, its own network namespace: without a list it runs (loopback
	# only); with one it is refused, never run unfiltered.
	ucfg '.linux.namespaces |= map(del(.path))'
	ucmd 'echo ran'
	policy '{"strict": {"rootlessLimits": "warn"}}'
	run uward --policy "$POLICY" --profile strict run --bundle "$UB" "$ID"
	assert_success
	assert_line ran
	policy '{"strict": {"rootlessLimits": "warn"}, "egress": {"strict": {"allow": ["10.213.1.1:443"]}}}'
	run uward --policy "$POLICY" --profile strict run --bundle "$UB" "$ID"
	assert_failure 126
	refute_line ran
	assert_output --partial 'strict never runs unfiltered, and its egress allow-list cannot be enforced: rootless ward cannot load the egress programs'
	assert_user_clean
}

@test "rootless: baseline warns once that limits go unenforced without a delegated cgroup" {
	ucmd 'echo ran'
	run uward run --bundle "$UB" "$ID"
	assert_success
	assert_line ran
	run grep -c "not enforced" <<<"$output"
	assert_output 1
	# Its report (a supervised run: --timeout) says what nobody measured
	# is unknown, and no limit held; a note is not drawn as an adjustment.
	run uward run --timeout 1m --bundle "$UB" "$ID"
	assert_success
	run uward report "$ID"
	assert_line --index 0 --regexp '^exit 0, [0-9.]+s, peak memory unknown, '
	assert_line "  limits:   none enforced"
	assert_line "  cpu:      unknown (no cgroup to read it from)"
	assert_line "  OOM kills: unknown, pids-limit hits: unknown"
	refute_output --regexp ': +->'
	# Without a cgroup, pause and update say why in one sentence (no
	# strerror tacked on).
	ucmd 'sleep 100'
	uward run -d --bundle "$UB" "$ID"
	run uward pause "$ID"
	assert_failure
	assert_output "ward: container \"$ID\" has no cgroup (rootless, without a delegated cgroup2 subtree): there is no freezer to pause it"
	run uward update --pids-limit 10 "$ID"
	assert_failure
	assert_output "ward: container \"$ID\" has no cgroup (rootless, without a delegated cgroup2 subtree): there are no limits to update"
	uward delete --force "$ID"
}

@test "rootless: a sysctl only the host's root can set, a device the host lacks, an idmapped mount are refused, naming the field" {
	ucmd 'echo ran'
	ucfg '.linux.sysctl = {"vm.memfd_noexec": "2"}'
	run uward run --bundle "$UB" "$ID"
	assert_failure 126
	refute_line ran
	assert_output --partial "config.json: .linux.sysctl.vm.memfd_noexec: only the host's root can set it"
	ucfg 'del(.linux.sysctl) | .linux.devices = [{"type": "c", "path": "/dev/not-on-host", "major": 1, "minor": 5}]'
	run uward run --bundle "$UB" "$ID"
	assert_failure 125
	refute_line ran
	assert_output --partial "config.json: .linux.devices[0]: /dev/not-on-host"
	ucfg 'del(.linux.devices) | .mounts += [{"destination": "/mnt", "type": "bind", "source": "/tmp", "options": ["rbind", "ro", "idmap"]}]'
	run uward run --bundle "$UB" "$ID"
	assert_failure 125
	refute_line ran
	assert_output --partial "config.json: .mounts[$(jq '.mounts | length - 1' "$UB/config.json")].options: idmapped mounts are not supported rootless yet"
	ucfg 'del(.mounts[-1])'
	# A fifo is made inside, never bound from the host.
	ucfg '.linux.devices = [{"type": "p", "path": "/dev/ward-fifo"}]'
	ucmd '[ -p /dev/ward-fifo ] && echo fifo-made'
	run uward run --bundle "$UB" "$ID"
	assert_success
	assert_line fifo-made
	ucfg 'del(.linux.devices)'
	ucmd 'echo ran'
	# A namespaced sysctl of the container's own network namespace is fine.
	ucfg 'del(.linux.devices) | .linux.sysctl = {"net.ipv4.ip_forward": "1"}'
	ucmd 'echo ran fwd=$(cat /proc/sys/net/ipv4/ip_forward)'
	run uward run --bundle "$UB" "$ID"
	assert_success
	assert_line "ran fwd=1"
	assert_user_clean
}

@test "rootless: where the host allows no user namespaces the error names the setting; nothing runs or is left" {
	local go="$UTMP/go" pid end rc
	end=$(awk -F: -v u="$U" '$1 == u {print $2 + $3; exit}' /etc/subuid)
	# user.max_user_namespaces = 0, set in a user namespace of the test's
	# own (the host's setting is untouched): the user's ward runs inside it.
	mkfifo "$go"
	ucmd 'echo ran'
	unshare --user sh -c 'read x <"$1"; exec sh -c "echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --reuid $2 --regid $2 --clear-groups env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR=$3 $4 run --bundle $5 $6"' \
		sh "$go" "$U" "$UTMP/xdg" "$UBIN" "$UB" "$ID" >"$TMP/out" 2>&1 &
	pid=$!
	# Mapped once it is in its namespace (until then the file is the
	# host's).
	for _ in $(seq 100); do
		[ "$(readlink "/proc/$pid/ns/user")" != "$(readlink /proc/self/ns/user)" ] && break
		sleep 0.02
	done
	echo "0 0 $end" >"/proc/$pid/uid_map"
	echo "0 0 $end" >"/proc/$pid/gid_map"
	echo go >"$go"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 125 ] # ward failed: the host forbids what it needs
	run cat "$TMP/out"
	refute_line ran
	assert_output --partial "user.max_user_namespaces = 0"
	assert_output --partial "sysctl -w user.max_user_namespaces="
	assert_user_clean
}

@test "rootless: Debian's kernel.unprivileged_userns_clone = 0 gives the explanatory error; the setting is restored" {
	local f=/proc/sys/kernel/unprivileged_userns_clone old
	[ -e "$f" ] || skip "this kernel has no kernel.unprivileged_userns_clone (Debian's kernels do: the VM lane runs this)"
	old=$(cat "$f")
	ucmd 'echo ran'
	echo 0 >"$f"
	run uward run --bundle "$UB" "$ID"
	echo "$old" >"$f"
	assert_failure 125
	refute_line ran
	assert_output --partial "kernel.unprivileged_userns_clone = 0"
	assert_output --partial "sysctl -w kernel.unprivileged_userns_clone=1"
	[ "$(cat "$f")" = "$old" ]
	assert_user_clean
}

@test "rootless: in a delegated cgroup2 subtree the container gets its cgroup and the limits hold" {
	[ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] ||
		skip "hybrid host: v1 hierarchies are never delegated (the cgroup2 VM lane runs this)"
	local base="/sys/fs/cgroup/ward-test-rl-$ID" f
	# What systemd's Delegate= hands a user: a subtree, its controllers
	# on, the directory and its procs and subtree_control the user's.
	mkdir -p "$base/launch"
	echo "+memory +pids" >"$base/cgroup.subtree_control"
	chown "$U" "$base" "$base/cgroup.procs" "$base/cgroup.subtree_control" "$base/cgroup.threads" \
		"$base/launch" "$base/launch/cgroup.procs"
	ucfg '.process.args = ["sleep", "100"] | .linux.resources.memory.limit = 67108864 | .linux.resources.pids.limit = 42'
	# ward starts inside the subtree, as a delegated user's shell would.
	sh -c "echo \$\$ >$base/launch/cgroup.procs && exec setpriv --reuid $U --regid $U --clear-groups env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR=$UTMP/xdg $UBIN run -d --bundle $UB $ID" >"$UTMP/run-d.out" 2>&1 ||
		{ cat "$UTMP/run-d.out"; false; }
	run cat "$UTMP/run-d.out"
	refute_output --partial "not enforced"
	f="$base/ward-$ID"
	[ "$(cat "$f/memory.max")" = 67108864 ]
	[ "$(cat "$f/pids.max")" = 42 ]
	grep -qx "$(uward state "$ID" | jq .pid)" "$f/cgroup.procs"
	run uward delete --force "$ID"
	assert_success
	[ ! -e "$f" ]
	assert_user_clean
}

@test "rootless: in a systemd user session the container's cgroup is beside ward's, in the delegated subtree, and limits hold" {
	[ "$(cat /proc/1/comm)" = systemd ] || skip "systemd is not PID 1 here (the cgroup2 VM lane runs this)"
	[ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] || skip "not a pure cgroup2 host"
	local uid pid cg
	uid=$(id -u "$U")
	# A lingering user: its manager (user@UID.service) runs, its subtree
	# delegated to the user by systemd.
	loginctl enable-linger "$U"
	touch "$UTMP/linger"
	wait_for "the user's manager" test -S "/run/user/$uid/systemd/private"
	ucfg '.process.args = ["sleep", "100"] | .linux.resources.memory.limit = 67108864 | .linux.resources.pids.limit = 42'
	# ward in a scope of the user's manager, as a user's shell runs it.
	setpriv --reuid "$U" --regid "$U" --clear-groups env -i PATH=/usr/bin:/bin \
		XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" \
		systemd-run --user --scope --quiet "$UBIN" --root "$UXDG/ward" run -d --bundle "$UB" "$ID" \
		>"$UTMP/run-d.out" 2>&1 || { cat "$UTMP/run-d.out"; false; }
	run cat "$UTMP/run-d.out"
	refute_output --partial "not enforced"
	pid=$(uward --root "$UXDG/ward" state "$ID" | jq .pid)
	cg=$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	[[ "$cg" == "/user.slice/user-$uid.slice/user@$uid.service/"*"/ward-$ID" ]] || fail "cgroup $cg"
	[ "$(cat "/sys/fs/cgroup$cg/memory.max")" = 67108864 ]
	[ "$(cat "/sys/fs/cgroup$cg/pids.max")" = 42 ]
	run uward --root "$UXDG/ward" delete --force "$ID"
	assert_success
	[ ! -e "/sys/fs/cgroup$cg" ]
	# (The user's manager runs on: the container alone must be gone.)
	run ls "$UXDG/ward"
	assert_output ""
	wait_dead "$pid"
}

# issue 25: a rootless create reads the policy before it enters its user
# namespace, where root's files show as the overflow uid and the user's as
# 0: root's policy (0644 in root's 0755 directory) and the user's own are
# read, another user's or a writable one is not.
@test "p25b-policy-rootless: root's and the user's own policy file are read, another user's is not" {
	ucmd 'echo inside-marker'
	policy '{"profile": "compat"}'
	run uward --policy "$POLICY" run --bundle "$UB" "$ID"
	assert_success
	assert_line inside-marker
	chown "$U:" "$POLICY"
	run uward --policy "$POLICY" run --bundle "$UB" "$ID"
	assert_success
	assert_line inside-marker
	chown "$RL_NOSUB:" "$POLICY"
	run uward --policy "$POLICY" run --bundle "$UB" "$ID"
	assert_failure
	assert_output --partial "policy file $POLICY: not read: $POLICY is owned by uid $(id -u "$RL_NOSUB") (the policy file and every directory above it must be owned by root or by you"
	refute_line inside-marker
	chown 0:0 "$POLICY"
	chmod 666 "$POLICY"
	run uward --policy "$POLICY" run --bundle "$UB" "$ID"
	assert_failure
	assert_output --partial "$POLICY is writable by others (mode 0666)"
	assert_user_clean
}
