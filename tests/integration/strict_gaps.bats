#!/usr/bin/env bats
# Issue #12, "Containment holes" (strict): secret-looking environment names
# in any case and on exec too; code written at run time into a memfd does
# not run; cgroup and time namespaces of the container's own. Each seen
# from inside the container, or as a refusal that names the field, the
# reason and the opt-out, with nothing left behind.

load ../helpers/common

setup() {
	ward_setup
	POLICY="$TMP/policy.json"
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
}

teardown() {
	ward_teardown
}

# ---- A: secrets in the environment ----

@test "strict: secret-looking names are refused in any case, naming the entry and the opt-out" {
	for name in api_token Aws_Region github_sha db_Password; do
		cfg --arg e "$name=x" '.process.env = ["PATH=/bin", $e]'
		run ward --profile strict create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output --regexp "^ward: config.json: \.process\.env\[1\]: $name looks like a secret \(pattern [^)]+\): strict keeps secrets out of untrusted code \(refused by the strict profile; engines write it for \`-e\` / \`--env\` \(Kubernetes: env\); opt-out: add \"env\.$name\" to \"allow\" in /etc/ward/policy\.json \(\{\"allow\": \[\"env\.$name\"\]\}\) and set the annotation org\.ward\.allow\.env\.$name=true\)$"
		assert_no_leftovers
	done
	# Names that only look alike stay allowed; the container runs.
	cfg '.process.env = ["PATH=/bin", "keyboard_layout=de", "monkey=1"]'
	cmd 'echo inside-ran'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output inside-ran
	assert_no_leftovers
}

@test "strict: exec --env and a --process file's env are checked as create checks config.json" {
	cmd 'sleep 100'
	ward --profile strict run -d --bundle "$BUNDLE" "$ID"
	# Refused: nothing runs (the marker is never written).
	run ward exec -e LANG=C -e Api_Token=x "$ID" sh -c 'echo ran >/tmp/marker'
	assert_failure 126
	# An exec names no config.json (it has none), and its opt-out is the
	# container's create's: an annotation now would be too late.
	assert_output 'ward: exec --env[1]: Api_Token looks like a secret (pattern *TOKEN*): strict keeps secrets out of untrusted code (refused by the strict profile; engines write it for `-e` / `--env` (Kubernetes: env); opt-out: a container created with both keys, "env.Api_Token" in "allow" in the policy file ({"allow": ["env.Api_Token"]}) and the annotation org.ward.allow.env.Api_Token=true in its config (this one was created without the opt-out, which an exec cannot add))'
	cat >"$TMP/process.json" <<-'EOF'
	{"args": ["sh", "-c", "echo ran >/tmp/marker"], "cwd": "/", "user": {"uid": 0, "gid": 0},
	 "env": ["PATH=/bin", "github_token=x"]}
	EOF
	run ward exec --process "$TMP/process.json" "$ID"
	assert_failure 126
	assert_output --partial 'ward: exec process.env[1]: github_token looks like a secret (pattern *TOKEN*)'
	assert_output --partial 'opt-out: a container created with both keys, "env.github_token" in "allow"'
	run ward exec "$ID" sh -c 'test -e /tmp/marker && echo marker-written || echo no-marker'
	assert_output no-marker
	# A harmless --env goes through.
	run ward exec -e GREETING=hello "$ID" sh -c 'echo inside:$GREETING'
	assert_success
	assert_output inside:hello
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "strict exec: the opt-outs create recorded apply, for the variable as written" {
	printf '{"allowAlways": ["env.API_TOKEN"]}\n' >"$POLICY"
	cfg '.process.env += ["API_TOKEN=from-config"]'
	cmd 'sleep 100'
	ward --policy "$POLICY" --profile strict run -d --bundle "$BUNDLE" "$ID"
	# The policy file changes afterwards: exec keeps what create recorded.
	printf '{}\n' >"$POLICY"
	run ward --policy "$POLICY" exec -e API_TOKEN=from-exec "$ID" sh -c 'echo inside:$API_TOKEN'
	assert_success
	assert_output inside:from-exec
	run ward --policy "$POLICY" exec -e api_token=other "$ID" true
	assert_failure 126
	assert_output --partial 'exec --env[0]: api_token looks like a secret'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "baseline: the environment is strict's business, at exec too" {
	cfg '.process.env += ["API_TOKEN=x"]'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec -e api_token=y "$ID" sh -c 'echo inside:$api_token'
	assert_success
	assert_output inside:y
	ward delete --force "$ID"
	assert_no_leftovers
}

# ---- B: code written at run time ----

memfd_expect_strict() {
	assert_line 'memfd_create ok'
	assert_line 'memfd_create(MFD_EXEC) errno 13'
	assert_line 'fchmod(0755) errno 1'
	assert_line 'execveat(AT_EMPTY_PATH) errno 38'
	assert_line 'execve(/proc/self/fd) errno 13'
	refute_line ran
}

@test "strict: an ELF written into a memfd runs neither by execveat(AT_EMPTY_PATH) nor by /proc/self/fd" {
	[ -e /proc/sys/vm/memfd_noexec ] || skip "the kernel has no vm.memfd_noexec (Linux < 6.3)"
	host=$(cat /proc/sys/vm/memfd_noexec)
	cmd 'echo inside-ran; cat /proc/sys/vm/memfd_noexec; sysprobe memfd-exec /bin/busybox; echo probed; sleep 100'
	"$WARD" --root "$ROOT" --profile strict run -d --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1
	wait_for "the container's output" grep -q '^probed$' "$TMP/out"
	run cat "$TMP/out"
	assert_line --index 0 inside-ran
	assert_line --index 1 2
	memfd_expect_strict
	# exec'd processes are in the same pid namespace: the same answer.
	run ward exec "$ID" sysprobe memfd-exec /bin/busybox
	memfd_expect_strict
	run grep -c '"rule":"strict-memfd-noexec"' "$ROOT/$ID/audit.log"
	assert_output 1
	# The host's own value is untouched.
	assert_equal "$(cat /proc/sys/vm/memfd_noexec)" "$host"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "baseline: execveat(AT_EMPTY_PATH) gets ENOSYS, but a memfd still runs through /proc/self/fd" {
	# baseline does not set vm.memfd_noexec: fexecve's fallback runs the
	# memfd (noexec mounts do not cover memfds). Only strict stops it.
	cmd 'sysprobe memfd-exec /bin/busybox'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line 'memfd_create ok'
	assert_line 'execveat(AT_EMPTY_PATH) errno 38'
	assert_line ran
	refute_line 'execve(/proc/self/fd) errno 13'
	assert_no_leftovers
}

@test "linux.sysctl vm.memfd_noexec: set in the container's pid namespace only, refused without one" {
	[ -e /proc/sys/vm/memfd_noexec ] || skip "the kernel has no vm.memfd_noexec (Linux < 6.3)"
	host=$(cat /proc/sys/vm/memfd_noexec)
	cfg '.linux.sysctl = {"vm.memfd_noexec": "1"}'
	cmd 'cat /proc/sys/vm/memfd_noexec; sysprobe memfd-exec /bin/busybox'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 1
	assert_line 'execve(/proc/self/fd) errno 13'
	assert_equal "$(cat /proc/sys/vm/memfd_noexec)" "$host"
	# Without a pid namespace of its own it would be the host's.
	WARD_GLOBALS=(--profile compat)
	cfg '.linux.namespaces |= map(select(.type != "pid"))'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: config.json: .linux.sysctl.vm.memfd_noexec: needs a pid namespace of the container's own, not the host's"
	assert_equal "$(cat /proc/sys/vm/memfd_noexec)" "$host"
	assert_no_leftovers
}

# ---- C: cgroup and time namespaces ----

@test "strict: cgroup and time namespaces of its own, even when the config lists none; exec joins them" {
	cfg '.linux.namespaces |= map(select(.type != "cgroup" and .type != "time"))'
	cmd 'readlink /proc/self/ns/cgroup; readlink /proc/self/ns/time; cat /proc/self/cgroup; sleep 100'
	"$WARD" --root "$ROOT" --profile strict run -d --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1
	wait_for "the container's output" grep -q '^time:' "$TMP/out"
	run cat "$TMP/out"
	assert_line --index 0 --regexp '^cgroup:\[[0-9]+\]$'
	assert_line --index 1 --regexp '^time:\[[0-9]+\]$'
	[ "${lines[0]}" != "$(readlink /proc/self/ns/cgroup)" ] || fail "the host's cgroup namespace: ${lines[0]}"
	[ "${lines[1]}" != "$(readlink /proc/self/ns/time)" ] || fail "the host's time namespace: ${lines[1]}"
	# Its cgroup is the root of what it sees: no host path leaks.
	refute_output --partial "ward/$ID"
	pid=$(init_pid "$ID")
	assert_equal "$(readlink /proc/$pid/ns/time)" "${lines[1]}"
	run ward exec "$ID" sh -c 'readlink /proc/self/ns/cgroup; readlink /proc/self/ns/time'
	assert_success
	assert_line --index 0 "$(readlink /proc/$pid/ns/cgroup)"
	assert_line --index 1 "$(readlink /proc/$pid/ns/time)"
	run grep -c '"rule":"strict-namespaces"' "$ROOT/$ID/audit.log"
	assert_output 1
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "baseline: no time namespace is added" {
	cfg '.linux.namespaces |= map(select(.type != "time"))'
	cmd 'readlink /proc/self/ns/time'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$(readlink /proc/self/ns/time)"
	assert_no_leftovers
}

# ---- the images people have ----

@test "strict runs a rootfs owned by host root that lacks /run, /tmp, /dev, /proc and /sys" {
	rm -rf "$BUNDLE/rootfs/run" "$BUNDLE/rootfs/tmp" "$BUNDLE/rootfs/dev" \
		"$BUNDLE/rootfs/proc" "$BUNDLE/rootfs/sys"
	chown -R 0:0 "$BUNDLE/rootfs"
	chmod 755 "$BUNDLE/rootfs"
	cmd 'echo inside-ran; for d in /run /tmp /dev /proc /sys; do [ -d $d ] && echo $d; done; echo x >/tmp/w && echo tmp-writable; [ "$(stat -c %u /)" = 65534 ] && echo root-unmapped'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$(printf 'inside-ran\n/run\n/tmp\n/dev\n/proc\n/sys\ntmp-writable\nroot-unmapped')"
	assert_no_leftovers
}

@test "strict: no swap beyond the memory limit, whatever the config's own limit and swap say (swap -1 was unlimited)" {
	cfg '.linux.resources.memory = {"limit": 104857600, "swap": -1}
	     | .mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["ro", "nosuid", "noexec", "nodev"]}]'
	cmd 'if [ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	       cat /sys/fs/cgroup/memory/memory.limit_in_bytes
	       cat /sys/fs/cgroup/memory/memory.memsw.limit_in_bytes 2>/dev/null || echo 104857600
	     else cat /sys/fs/cgroup/memory.max; s=$(cat /sys/fs/cgroup/memory.swap.max 2>/dev/null || echo 0); echo $((104857600 + s)); fi'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'104857600\n104857600'
	assert_no_leftovers
}
