#!/usr/bin/env bats
# containerd 1.6 + containerd-shim-runc-v2 with ward as its runc binary,
# driven by ctr (issue #7).

load containerd
bats_require_minimum_version 1.5.0

setup_file() { ct_setup_file; }
teardown_file() { ct_teardown_file; }
setup() { ct_env; }
teardown() { ct_teardown; }

@test "ctr run: output and exit status" {
	run crun --rm "$CT_IMAGE" c1 sh -c 'echo hello; exit 5'
	assert_equal "$status" 5
	assert_output hello
	run crun --rm "$CT_IMAGE" c1 true
	assert_success
	ct_no_leftovers
}

@test "a missing binary: ward's message reaches the ctr user" {
	run crun --rm "$CT_IMAGE" c1 /nonexistent
	assert_failure
	assert_output --partial 'OCI runtime create failed: exec: "/nonexistent": stat /nonexistent: No such file or directory'
	ct_no_leftovers
}

@test "detached task, exec, ps, kill --all, delete" {
	crun -d "$CT_IMAGE" c2 sh -c 'sleep 1000 & sleep 1001'
	ct_wait_running c2
	run c tasks exec --exec-id e1 c2 sh -c 'echo from-exec; exit 4'
	assert_equal "$status" 4
	assert_output from-exec
	run c tasks ps c2
	assert_success
	[ "$(echo "$output" | grep -c '^[0-9]')" -ge 2 ] || fail "ps: $output"
	# --all reaches the background sleep too.
	c tasks kill --all -s SIGKILL c2
	ct_wait_status c2 STOPPED
	run c tasks ls
	assert_line --regexp '^c2 +[0-9]+ +STOPPED'
	c tasks delete c2
	c containers delete c2
	ct_no_leftovers
}

@test "kill: SIGTERM to the init, its exit status reported" {
	crun --rm "$CT_IMAGE" c3 sh -c 'trap "exit 9" TERM; touch /tmp/trap-set; while :; do sleep 0.1; done' </dev/null >"$BATS_TEST_TMPDIR/c3.out" 2>&1 3>&- &
	p=$!
	ct_wait_running c3
	# The TERM must find the trap set.
	trap_set() { c tasks exec --exec-id probe c3 test -e /tmp/trap-set; }
	wait_for "the trap in c3" trap_set
	c tasks kill c3
	rc=0
	wait "$p" || rc=$?
	assert_equal "$rc" 9
	ct_no_leftovers
}

@test "pause and resume freeze and thaw the task" {
	crun -d "$CT_IMAGE" c4 sleep 1000
	ct_wait_running c4
	c tasks pause c4
	run c tasks ls
	assert_line --regexp '^c4 +[0-9]+ +PAUSED'
	c tasks resume c4
	run c tasks ls
	assert_line --regexp '^c4 +[0-9]+ +RUNNING'
	c tasks kill -s SIGKILL c4
	ct_wait_status c4 STOPPED
	c tasks delete c4
	c containers delete c4
	ct_no_leftovers
}

@test "metrics: the shim reads the task's cgroup" {
	crun -d --memory-limit 67108864 "$CT_IMAGE" c5 sleep 1000
	ct_wait_running c5
	run c tasks metrics c5
	assert_success
	assert_output --partial 'memory.usage_in_bytes'
	assert_output --partial 'pids.current'
	c tasks kill -s SIGKILL c5
	ct_wait_status c5 STOPPED
	c tasks delete c5
	c containers delete c5
	ct_no_leftovers
}

@test "--tty: the task gets a terminal through the console socket" {
	run script -qec "ctr --address '$CT/containerd.sock' --namespace '$CT_NS' run --rm -t '$CT_IMAGE' c6 sh -c 'tty; stty size'" /dev/null
	assert_success
	assert_output --partial /dev/pts/0
	ct_no_leftovers
}

@test "user namespaces: --uidmap/--gidmap" {
	crun -d --uidmap 0:200000:65536 --gidmap 0:200000:65536 "$CT_IMAGE" c7 sleep 1000
	ct_wait_running c7
	pid=$(c tasks ls | awk '$1 == "c7" {print $2}')
	assert_equal "$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")" 200000
	run c tasks exec --exec-id e1 c7 cat /proc/self/uid_map
	assert_output --regexp '^ +0 +200000 +65536$'
	c tasks kill -s SIGKILL c7
	ct_wait_status c7 STOPPED
	c tasks delete c7
	c containers delete c7
	ct_no_leftovers
}

@test "--with-ns: a second container joins the first one's network namespace" {
	crun -d "$CT_IMAGE" c8 sleep 1000
	ct_wait_running c8
	pid=$(c tasks ls | awk '$1 == "c8" {print $2}')
	crun -d --with-ns "network:/proc/$pid/ns/net" "$CT_IMAGE" c9 sleep 1000
	ct_wait_running c9
	pid9=$(c tasks ls | awk '$1 == "c9" {print $2}')
	assert_equal "$(readlink /proc/$pid9/ns/net)" "$(readlink /proc/$pid/ns/net)"
	[ "$(readlink /proc/$pid/ns/net)" != "$(readlink /proc/self/ns/net)" ] || fail "host network"
	for t in c9 c8; do
		c tasks kill -s SIGKILL "$t"
	done
	ct_wait_status c9 STOPPED
	ct_wait_status c8 STOPPED
	for t in c9 c8; do
		c tasks delete "$t"
		c containers delete "$t"
	done
	ct_no_leftovers
}

@test "baseline refuses the host's network namespace with ward's message" {
	run crun --rm --with-ns network:/proc/self/ns/net "$CT_IMAGE" c10 true
	assert_failure
	assert_output --partial "is the host's network namespace (refused by the baseline profile"
	# --net-host: no network namespace in the config, the host's network.
	run crun --rm --net-host "$CT_IMAGE" c10 true
	assert_failure
	assert_output --partial "no network namespace: the container would share the host's network (refused by the baseline profile; engines write it for \`--network host\` (Kubernetes: hostNetwork: true); opt-out: add \"host-network\" to \"allow\""
	run crun --rm --privileged "$CT_IMAGE" c10 true
	assert_failure
	assert_output --partial 'refused by the baseline profile; the config asks for every capability and host device, as `--privileged` (Kubernetes: privileged: true) does'
	ct_no_leftovers
}

@test "egress under containerd: the network namespace ctr gives (--with-ns), ward's allow-list and DNS gate from inside; the programs go with the task" {
	TMP=$BATS_TEST_TMPDIR
	NW="ce$RANDOM"
	nw_up || fail "the test world could not be made"
	nw_dns_up || fail "no upstream resolver"
	egress_engine_policy "$TMP/policy.json"
	# The shim's runc: ward with the test's policy.
	printf '#!/bin/sh\nexec %s --policy %s "$@"\n' "$WARD" "$TMP/policy.json" >"$TMP/ward-egress"
	chmod +x "$TMP/ward-egress"
	c run -d --runc-binary "$TMP/ward-egress" --with-ns "network:/var/run/netns/${NW}c" \
		--mount "type=bind,src=$WARD_BUILDDIR/tests/helpers/egprobe,dst=/bin/egprobe,options=rbind:ro" \
		"$CT_IMAGE" c12 sleep 1000
	local objs pid
	pid=$(c tasks ls | awk '$1 == "c12" {print $2}')
	objs=$(egress_objects_at "$(cgroup2_dir_of "$pid")")
	[ "$(grep -c '^prog' <<<"$objs")" -ge 4 ] || fail "programs on the task's cgroup: $objs"
	run c tasks exec --exec-id p1 c12 sh -c "$EGRESS_ENGINE_PROBES"
	assert_egress_engine_probes
	c tasks kill -s SIGKILL c12
	for _ in $(seq 50); do ct_stopped c12 && break; sleep 0.1; done
	c tasks delete c12
	c containers delete c12
	assert_objects_gone "$objs"
	ct_no_leftovers
}
