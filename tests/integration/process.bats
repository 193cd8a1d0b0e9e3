#!/usr/bin/env bats
# The user process: env, cwd, user, capabilities, rlimits, no_new_privs.

load ../helpers/common

@test "env is exactly process.env: the runtime's environment never leaks" {
	cfg '.process.env = ["PATH=/bin", "ONLY=this"]'
	cmd 'env | sort'
	WARD_SECRET_TOKEN=leak run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	refute_output --partial leak
	refute_output --partial WARD_
	assert_line ONLY=this
	assert_line PATH=/bin
}

@test "PATH from process.env is used for the lookup" {
	mkdir -p "$BUNDLE/rootfs/opt/tools"
	printf '#!/bin/sh\necho from-opt\n' >"$BUNDLE/rootfs/opt/tools/mytool"
	chmod 755 "$BUNDLE/rootfs/opt/tools/mytool"
	cfg '.process.env = ["PATH=/opt/tools:/bin"] | .process.args = ["mytool"]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output from-opt
}

@test "cwd is honoured; a missing cwd fails clearly" {
	cfg '.process.cwd = "/etc"'
	cmd 'pwd'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_output /etc
	cfg '.process.cwd = "/does/not/exist"'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: process.cwd /does/not/exist: No such file or directory'
	assert_no_leftovers
}

@test "user uid, gid, additionalGids and umask" {
	cfg '.process.user = {"uid": 1000, "gid": 1001, "additionalGids": [5, 7], "umask": 63}'
	cmd 'id -u; id -g; id -G; umask'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'1000\n1001\n1001 5 7\n0077'
}

@test "capabilities: the five sets as configured" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.process.user.uid = 1000 | .process.capabilities = {
	  "bounding": ["CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_CHOWN"],
	  "effective": ["CAP_KILL", "CAP_NET_BIND_SERVICE"],
	  "permitted": ["CAP_KILL", "CAP_NET_BIND_SERVICE"],
	  "inheritable": ["CAP_NET_BIND_SERVICE"],
	  "ambient": ["CAP_NET_BIND_SERVICE"]}'
	cmd 'grep ^Cap /proc/self/status'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	# After execve as uid 1000: ambient keeps NET_BIND_SERVICE (bit 10).
	assert_line "CapInh:	0000000000000400"
	assert_line "CapPrm:	0000000000000400"
	assert_line "CapEff:	0000000000000400"
	assert_line "CapBnd:	0000000000000421"
	assert_line "CapAmb:	0000000000000400"
}

@test "compat: an ambient capability that is not inheritable is dropped quietly, said at debug level (runc spec 1.1)" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.process.capabilities = {
	  "bounding": ["CAP_KILL", "CAP_NET_BIND_SERVICE"],
	  "effective": ["CAP_KILL", "CAP_NET_BIND_SERVICE"],
	  "permitted": ["CAP_KILL", "CAP_NET_BIND_SERVICE"],
	  "inheritable": ["CAP_NET_BIND_SERVICE"],
	  "ambient": ["CAP_KILL", "CAP_NET_BIND_SERVICE"]}'
	cmd 'grep ^CapAmb /proc/self/status'
	# runc 1.1 says nothing: its tests compare the output exactly.
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "CapAmb:	0000000000000400" # NET_BIND_SERVICE only
	WARD_GLOBALS=(--profile compat --debug)
	run ward run --bundle "$BUNDLE" "$ID-debug"
	assert_success
	assert_line --partial 'process.capabilities.ambient: CAP_KILL is not both permitted and inheritable; not raised'
	assert_line "CapAmb:	0000000000000400"
	refute_line --partial CAP_NET_BIND_SERVICE
	# With a log file, what the init says after it closed ward's fds is
	# dropped: never written to the container's stderr (runc's debug.bats
	# checks stderr holds no debug line then).
	WARD_GLOBALS=(--profile compat --debug --log "$TMP/ward.log")
	run ward run --bundle "$BUNDLE" "$ID-log"
	assert_success
	assert_output "CapAmb:	0000000000000400"
	grep -q 'level=debug' "$TMP/ward.log" || fail "no debug line in the log file"
}

@test "root with a capped bounding set cannot exceed it" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cmd 'grep -E "^Cap(Eff|Bnd)" /proc/self/status; chown 1 /tmp 2>&1 || echo chown-denied'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	# spec default: AUDIT_WRITE, KILL, NET_BIND_SERVICE
	assert_line "CapEff:	0000000020000420"
	assert_line "CapBnd:	0000000020000420"
	assert_line chown-denied
}

@test "no capabilities object means no capabilities" {
	cfg 'del(.process.capabilities)'
	cmd 'grep -E "^Cap" /proc/self/status'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line "CapEff:	0000000000000000"
	assert_line "CapBnd:	0000000000000000"
	assert_line "CapPrm:	0000000000000000"
}

@test "noNewPrivileges on and off" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cmd 'grep NoNewPrivs /proc/self/status'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_output "NoNewPrivs:	1"
	cfg '.process.noNewPrivileges = false'
	run ward run --bundle "$BUNDLE" "$ID-2"
	assert_output "NoNewPrivs:	0"
}

@test "rlimits are applied" {
	cfg '.process.rlimits = [{"type": "RLIMIT_NOFILE", "hard": 200, "soft": 100}, {"type": "RLIMIT_CORE", "hard": 0, "soft": 0}]'
	cmd 'ulimit -n; ulimit -H -n; ulimit -c'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'100\n200\n0'
}

@test "raising a hard rlimit without CAP_SYS_RESOURCE fails clearly" {
	if grep -q '^CapEff:.*' /proc/self/status && [ $(( 0x$(awk '/^CapEff/{print $2}' /proc/self/status) >> 24 & 1 )) -eq 1 ]; then
		skip "this host has CAP_SYS_RESOURCE"
	fi
	# The runtime's own error (baseline refuses it before: policy.bats).
	WARD_GLOBALS=(--profile compat)
	hard=$(ulimit -H -n)
	cfg --argjson h "$((hard + 1))" '.process.rlimits = [{"type": "RLIMIT_NOFILE", "hard": $h, "soft": 1024}]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: process.rlimits[0] RLIMIT_NOFILE: hard limit $((hard + 1)) is above the current $hard and raising it needs CAP_SYS_RESOURCE: Operation not permitted"
	assert_no_leftovers
}

@test "oomScoreAdj is applied" {
	cfg '.process.oomScoreAdj = 500'
	cmd 'cat /proc/self/oom_score_adj'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_output 500
}

@test "args with spaces and special characters pass through unchanged" {
	cfg '.process.args = ["/bin/echo", "a b", "$HOME", "--", "'"'"'q'"'"'"]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_output "a b \$HOME -- 'q'"
}

@test "personality, scheduler, ioPriority and execCPUAffinity are applied" {
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	cfg '.linux.personality = {"domain": "LINUX32"}
	     | .process.scheduler = {"policy": "SCHED_BATCH", "nice": 5}
	     | .process.ioPriority = {"class": "IOPRIO_CLASS_BE", "priority": 6}
	     | .process.execCPUAffinity = {"initial": "0", "final": "1"}'
	# stat: field 19 is nice, 41 the policy (3 = SCHED_BATCH)
	cmd 'cat /proc/self/personality; ionice -p $$; awk "{print \$19, \$41}" /proc/self/stat; grep Cpus_allowed_list /proc/self/status'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 00000008
	assert_line --index 1 "best-effort: prio 6"
	assert_line --index 2 "5 3"
	assert_line --index 3 "Cpus_allowed_list:	1"
}

@test "bad scheduler and affinity values fail clearly" {
	cfg '.process.execCPUAffinity = {"final": "1-x"}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: process.execCPUAffinity.final "1-x": not a CPU list'
	cfg 'del(.process.execCPUAffinity) | .process.scheduler = {"policy": "SCHED_OTHER", "flags": ["SCHED_FLAG_BOGUS"]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: process.scheduler.flags[0]: unknown flag "SCHED_FLAG_BOGUS"'
	assert_no_leftovers
}

@test "AppArmor and SELinux labels need their LSM: a clear refusal without it" {
	[ ! -e /sys/module/apparmor/parameters/enabled ] || skip "AppArmor present"
	cfg '.process.apparmorProfile = "ward-default"'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: config.json: .process.apparmorProfile "ward-default": AppArmor is not enabled on this host'
	[ ! -e /sys/fs/selinux/enforce ] || skip "SELinux present"
	cfg '.process.apparmorProfile = "" | .process.selinuxLabel = "system_u:system_r:container_t:s0"'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output 'ward: config.json: .process.selinuxLabel: SELinux is not enabled on this host'
	assert_no_leftovers
}
