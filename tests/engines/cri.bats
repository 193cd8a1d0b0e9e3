#!/usr/bin/env bats
# containerd 1.6's CRI (the path Kubernetes takes) with the runc v2 shim
# running ward, driven by a small gRPC client (cri_client.py). The pods use
# the host's network (no CNI): their runtime is ward's compat profile.

load cri
bats_require_minimum_version 1.5.0

setup_file() { cri_setup_file; }
teardown_file() { cri_teardown_file; }
setup() { cri_setup; }
teardown() { cri_teardown; }

@test "CRI: the runtime answers, the images are there without a registry" {
	run cri version
	assert_success
	assert_output --partial '"runtime_name": "containerd"'
	assert_output --partial '"runtime_api_version": "v1"'
	# Imported by ctr into CRI's namespace, seen by CRI: nothing to pull.
	run cri image-id "$CRI_PAUSE"
	assert_success
	assert_output --regexp '^sha256:[0-9a-f]{64}$'
	run cri image-id "$CRI_IMAGE"
	assert_success
	assert_output --regexp '^sha256:[0-9a-f]{64}$'
}

@test "CRI: a pod's lifecycle: run, create, start, exec, logs, stop, remove" {
	pod_json=$(cri_pod_json p1)
	cri_runp "$pod_json"
	run cri pod-state "$POD"
	assert_output SANDBOX_READY
	# ward runs the sandbox, its state where the shim's --root says.
	run "$WARD" --root "$CRI_WARD_ROOT" state "$POD"
	assert_success
	assert_output --partial '"status": "running"'

	# sleep, PID 1 of its own PID namespace without a handler, ignores the
	# SIGTERM of a stop.
	run cri create "$POD" "$pod_json" --name c1 --image "$CRI_IMAGE" --log-path c1.log \
		-- sh -c 'echo hello from c1; echo to stderr >&2; exec sleep 1000'
	assert_success
	C=$output
	run cri state "$C"
	assert_output CONTAINER_CREATED
	run cri start "$C"
	assert_success
	run cri wait-state "$C" RUNNING --within 10
	assert_success
	run "$WARD" --root "$CRI_WARD_ROOT" state "$C"
	assert_output --partial '"status": "running"'

	# ExecSync: output and exit status.
	run cri exec "$C" --timeout 10 -- echo hi
	assert_success
	assert_output hi
	run --separate-stderr cri exec "$C" --timeout 10 -- sh -c 'echo out; echo err >&2; exit 7'
	assert_equal "$status" 7
	assert_output out
	assert_equal "$stderr" err
	run cri exec "$C" -- sh -c 'tr "\0" " " </proc/1/cmdline'
	assert_output 'sleep 1000 '
	# The pod's network is the host's (compat allows it).
	run cri exec "$C" -- readlink /proc/self/ns/net
	assert_output "$(readlink /proc/self/ns/net)"

	# The log file containerd writes, in the CRI format.
	run cri status "$C"
	log=$(echo "$output" | jq -r .log_path)
	assert_equal "$log" "$CT/pods/p1/c1.log"
	logged() { grep -q 'stdout F hello from c1$' "$log" 2>/dev/null && grep -q 'stderr F to stderr$' "$log"; }
	wait_for "the log lines" logged
	run cri logs "$log"
	assert_success
	assert_line 'stdout hello from c1'
	assert_line 'stderr to stderr'

	# Stop: SIGTERM, ignored; SIGKILL after the 2 s; back promptly.
	start=$SECONDS
	run cri --deadline 20 stop "$C" --timeout 2
	assert_success
	took=$((SECONDS - start))
	[ "$took" -le 8 ] || fail "StopContainer took ${took}s"
	run cri wait-state "$C" EXITED --within 5
	assert_success
	run cri status "$C"
	assert_equal "$(echo "$output" | jq -r .exit_code)" 137
	# A second stop of the stopped container: nothing to do, no error.
	run cri --deadline 20 stop "$C" --timeout 2
	assert_success
	run cri rm "$C"
	assert_success
	run cri status "$C"
	assert_equal "$status" 125
	assert_output --partial NOT_FOUND
	run "$WARD" --root "$CRI_WARD_ROOT" state "$C"
	assert_failure

	run cri stopp "$POD"
	assert_success
	run cri pod-state "$POD"
	assert_output SANDBOX_NOTREADY
	run cri rmp "$POD"
	assert_success
	cri_no_leftovers
}

@test "CRI: a container that exits by itself: EXITED with its status" {
	pod_json=$(cri_pod_json p3)
	cri_runp "$pod_json"
	run cri create "$POD" "$pod_json" --name c3 --image "$CRI_IMAGE" --log-path c3.log \
		-- sh -c 'echo bye; exit 3'
	assert_success
	C=$output
	cri start "$C"
	run cri wait-state "$C" EXITED --within 10
	assert_success
	run cri status "$C"
	assert_equal "$(echo "$output" | jq -r .exit_code)" 3
	# containerd reaped it with a kill of the stopped container (then its
	# delete): ward's "container not running" let that pass as not found.
	run grep -c -- "kill --all $C 9\$" "$CT/runtime-calls.log"
	assert_output 1
	run cri logs "$CT/pods/p3/c3.log"
	assert_output 'stdout bye'
	run cri --deadline 20 stop "$C" --timeout 2
	assert_success
	cri rm "$C"
	cri stopp "$POD"
	cri rmp "$POD"
	cri_no_leftovers
}

@test "CRI: baseline refuses a host-network pod with ward's message, not a timeout" {
	# The runtime handler whose binary is ward itself: its default profile.
	pod_json=$(cri_pod_json p2)
	run cri --deadline 30 runp "$pod_json" --handler ward-baseline
	assert_equal "$status" 125
	assert_output --partial 'RunPodSandbox: UNKNOWN: failed to create containerd task'
	assert_output --partial "no network namespace: the container would share the host's network (refused by the baseline profile; engines write it for \`--network host\` (Kubernetes: hostNetwork: true); opt-out: add \"host-network\" to \"allow\""
	refute_output --partial DEADLINE_EXCEEDED
	cri_no_leftovers
}

@test "CRI: a container's org.ward.profile annotation tightens compat to baseline" {
	pod_json=$(cri_pod_json p4)
	cri_runp "$pod_json"
	run cri create "$POD" "$pod_json" --name c4 --image "$CRI_IMAGE" \
		--annotation org.ward.profile=baseline -- sleep 1000
	assert_success
	C=$output
	run cri --deadline 30 start "$C"
	assert_equal "$status" 125
	# The pod's host network brings the host's UTS namespace (joined through
	# the sandbox's): the first of the two refusals.
	assert_output --partial 'StartContainer: UNKNOWN: failed to create containerd task'
	assert_output --regexp "OCI runtime create failed: config.json: \.linux\.namespaces\[[0-9]+\]\.path: /proc/[0-9]+/ns/uts is the host's uts namespace \(refused by the baseline profile; engines write it for \`--uts host\`; opt-out: add \"host-uts\" to \"allow\" .*\) \[and 1 more: ward --profile baseline( --policy [^ ]+)? check --bundle /[^]]+\]"
	refute_output --partial DEADLINE_EXCEEDED
	# CRI's record of it: a start error, with ward's message.
	run cri status "$C"
	assert_equal "$(echo "$output" | jq -r .state)" CONTAINER_EXITED
	assert_equal "$(echo "$output" | jq -r .reason)" StartError
	assert_equal "$(echo "$output" | jq -r .exit_code)" 128
	assert_output --partial "is the host's uts namespace (refused by the baseline profile"
	cri rm "$C"
	cri stopp "$POD"
	cri rmp "$POD"
	cri_no_leftovers
}
