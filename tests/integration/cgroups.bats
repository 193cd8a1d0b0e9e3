#!/usr/bin/env bats
# cgroups on this host's layout (v1, v2 or hybrid): placement, limits read
# back and enforced, pause/resume, ps, kill --all, cleanup.

load ../helpers/common

# The directory of a container's cgroup in the hierarchy of a controller.
cgdir() { # cgdir CONTROLLER [PATH]
	local p=${2:-/ward/$ID}
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		echo "/sys/fs/cgroup$p"
	else
		echo "/sys/fs/cgroup/$1$p"
	fi
}
is_v2() { [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; }

# n_sleeps N: the container's cgroup holds exactly N processes, all sleep.
n_sleeps() {
	local p n=0
	for p in $(ward ps --format json "$ID" | tr -d '[]' | tr , ' '); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] || return 1
		n=$((n + 1))
	done
	[ "$n" -eq "$1" ]
}

@test "the init is in the container's cgroup in every hierarchy, removed on delete" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	n=0
	while IFS=: read -r _ ctl path; do
		[ "$path" = "/ward/$ID" ] || fail "$ctl: init in $path"
		n=$((n + 1))
	done <"/proc/$pid/cgroup"
	[ "$n" -ge 1 ]
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "limits are written to the cgroup files" {
	cfg '.linux.resources = {"pids": {"limit": 20}, "memory": {"limit": 67108864}, "cpu": {"shares": 512, "quota": 50000, "period": 100000}}'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	if is_v2; then
		assert_equal "$(cat "$(cgdir pids)/pids.max")" 20
		assert_equal "$(cat "$(cgdir memory)/memory.max")" 67108864
		assert_equal "$(cat "$(cgdir cpu)/cpu.max")" "50000 100000"
		# shares 512 → weight 1 + (510 * 9999) / 262142 = 20
		assert_equal "$(cat "$(cgdir cpu)/cpu.weight")" 20
	else
		assert_equal "$(cat "$(cgdir pids)/pids.max")" 20
		assert_equal "$(cat "$(cgdir memory)/memory.limit_in_bytes")" 67108864
		assert_equal "$(cat "$(cgdir cpu)/cpu.shares")" 512
		assert_equal "$(cat "$(cgdir cpu)/cpu.cfs_quota_us")" 50000
	fi
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "the pids limit is enforced: a fork loop stops at pids.max" {
	cfg '.linux.resources = {"pids": {"limit": 8}}'
	cmd '(i=0; while [ $i -lt 20 ]; do sleep 1000 & i=$((i + 1)); done) 2>/dev/null; exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	# The init execs sleep once the loop is over.
	loop_done() { [ "$(cat "/proc/$pid/comm")" = sleep ]; }
	wait_for "the fork loop to end" loop_done
	n=$(ward ps --format json "$ID" | tr ',' '\n' | wc -l)
	[ "$n" -le 8 ] || fail "pids.max not enforced: $n processes"
	[ "$n" -ge 7 ] || fail "only $n processes: the loop did not run"
	# The kernel counted the refused forks.
	run cat "$(cgdir pids)/pids.events"
	assert_output --regexp 'max [1-9][0-9]*'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "the memory limit is enforced: a hog is OOM-killed" {
	cfg '.linux.resources = {"memory": {"limit": 33554432, "swap": 33554432}}'
	is_v2 && cfg '.linux.resources.memory.swap = 33554432'
	# 64 MiB in a 32 MiB cgroup. The hog volunteers as the OOM killer's
	# victim (oom_score_adj 1000): otherwise the kernel may pick the shell,
	# and nothing reports rc= (a flake: 1 run in 15).
	cmd 'head -c 67108864 /dev/zero | (echo 1000 >/proc/self/oom_score_adj && exec tail) >/dev/null; echo rc=$?'
	# Not through bats' `run`: about 1 run in 10 under make check, that
	# `run` was interrupted here (cause not found; see the session-2 note).
	rc=0
	"$WARD" --root "$ROOT" run --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1 || rc=$?
	run cat "$TMP/out"
	# The hog killed (rc= from the shell), or, when the cgroup filled up
	# before the hog volunteered, the shell itself (ward's exit 137).
	if [ "$rc" -ne 137 ]; then
		assert_line --regexp '^rc=(137|1)$'
	fi
	assert_no_leftovers
}

@test "device rules: denied by default, the standard nodes still work" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	[ -b /dev/loop0 ] || skip "no /dev/loop0 to bind"
	# A host block device bound in: denied without rules too (runc's
	# defaults: only the standard nodes), and with a deny-all.
	cfg '.mounts += [{"destination": "/dev/x", "type": "bind", "source": "/dev/loop0", "options": ["bind"]}]'
	cmd '(: </dev/x) 2>/dev/null && echo x-open || echo x-denied'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_output x-denied
	cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"}]} | .linux.devices = [{"type": "c", "path": "/dev/mem2", "major": 1, "minor": 1}]'
	cmd 'echo x >/dev/null && echo null-ok; head -c 1 /dev/zero | wc -c; (: </dev/x) 2>/dev/null && echo x-open || echo x-denied; sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	# Wherever there is a cgroup2 hierarchy (pure v2, or the unified one
	# here) the rules are also an eBPF device program on the cgroup.
	if [ -d /sys/fs/cgroup/unified ] || is_v2; then
		u=/sys/fs/cgroup; is_v2 || u=/sys/fs/cgroup/unified
		assert_equal "$("$BATS_TEST_DIRNAME/../helpers/cgbpf" "$u/ward/$ID")" 1
	fi
	# The linux.devices node is made (runc's "c *:* m") but not allowed:
	# runc allows no listed node implicitly.
	if ! is_v2; then
		run grep -c '^c 1:1 rwm$' "$(cgdir devices)/devices.list"
		assert_output 0
		run grep -c '^c \*:\* m$' "$(cgdir devices)/devices.list"
		assert_output 1
	fi
	ward delete --force "$ID"
	cmd 'echo x >/dev/null && echo null-ok; head -c 1 /dev/zero | wc -c; (: </dev/x) 2>/dev/null && echo x-open || echo x-denied'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line null-ok
	assert_line 1
	assert_line x-denied
	assert_no_leftovers
}

@test "device access letters other than r, w and m count for nothing, as runc reads them (its tests deny \"rwa\")" {
	WARD_GLOBALS=(--profile compat)
	[ -b /dev/loop0 ] || skip "no /dev/loop0 to bind"
	cfg '.mounts += [{"destination": "/dev/x", "type": "bind", "source": "/dev/loop0", "options": ["bind"]}]'
	cmd '(: </dev/x) 2>/dev/null && echo x-open || echo x-denied'
	cfg '.linux.resources = {"devices": [{"allow": true, "access": "rwm"}, {"allow": false, "type": "b", "major": 7, "minor": 0, "access": "rwa"}]}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output x-denied
	cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"}, {"allow": true, "type": "b", "major": 7, "minor": 0, "access": "rwa"}]}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output x-open
	# "a" alone grants nothing (it is not "all").
	cfg '.linux.resources = {"devices": [{"allow": false, "access": "rwm"}, {"allow": true, "type": "b", "major": 7, "minor": 0, "access": "a"}]}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output x-denied
	assert_no_leftovers
}

@test "pause freezes every process, resume thaws them; status says so" {
	cmd 'sleep 1000 & sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	wait_for "two sleeps in the container" n_sleeps 2
	ward pause "$ID"
	assert_equal "$(status_of "$ID")" paused
	for p in $(ward ps --format json "$ID" | tr -d '[]' | tr , ' '); do
		st=$(awk '{print $3}' /proc/$p/stat)
		[ "$st" = D ] || [ "$st" = S ] || fail "$p in state $st"
	done
	if ! is_v2; then
		assert_equal "$(cat "$(cgdir freezer)/freezer.state")" FROZEN
	else
		assert_equal "$(cat "$(cgdir x)/cgroup.freeze")" 1
	fi
	run ward pause "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is paused: only a running container can be paused"
	ward resume "$ID"
	assert_equal "$(status_of "$ID")" running
	run ward delete "$ID"
	assert_failure 1
	ward pause "$ID"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "ps lists the container's processes, exec'd ones included" {
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	ward exec -d "$ID" sleep 999 >/dev/null 2>&1
	run ward ps --format json "$ID"
	assert_success
	[ "$(echo "$output" | tr ',' '\n' | wc -l)" -eq 2 ] || fail "ps: $output"
	# The table is ps's own (-ef by default), cut to the container's pids.
	run ward ps "$ID"
	assert_success
	assert_line --index 0 --regexp '^UID +PID +PPID'
	assert_line --regexp ' sleep 1000$'
	assert_line --regexp ' sleep 999$'
	[ "${#lines[@]}" -eq 3 ] || fail "ps: $output"
	run ward ps "$ID" -o pid,comm
	assert_line --index 0 --regexp '^ *PID +COMMAND$'
	[ "${#lines[@]}" -eq 3 ] || fail "ps -o: $output"
	run ward ps "$ID" --frobnicate
	assert_failure 1
	assert_output --partial 'ward: ps: ps with these options failed'
	# Stopped: nothing to list, the header alone, as runc's.
	ward kill "$ID" KILL
	wait_for "the container to stop" is_stopped "$ID"
	run ward ps "$ID"
	assert_success
	assert_output --regexp '^UID +PID +PPID'
	[ "${#lines[@]}" -eq 1 ] || fail "ps of a stopped container: $output"
	run ward ps --format json "$ID"
	assert_success
	assert_output '[]'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "kill --all reaches processes outside the init's pid namespace too" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.linux.namespaces |= map(select(.type != "pid"))'
	cfg '.mounts |= map(select(.type != "proc"))'
	cmd 'sleep 1000 & sleep 1001'
	ward run -d --bundle "$BUNDLE" "$ID"
	wait_for "two sleeps in the container" n_sleeps 2
	pids=$(ward ps --format json "$ID" | tr -d '[]' | tr , ' ')
	[ "$(echo $pids | wc -w)" -eq 2 ]
	ward kill --all "$ID" KILL
	for p in $pids; do wait_dead "$p" || fail "$p survived"; done
	ward delete "$ID"
	assert_no_leftovers
}

@test "cgroupsPath: absolute and relative, and cleaned up" {
	# (a parent of this test's own: teardown removes ward-test-*ID*)
	abs=/ward-test-abs-$ID
	cfg --arg p "$abs/$ID" '.linux.cgroupsPath = $p'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	grep -q ":$abs/$ID$" "/proc/$(init_pid "$ID")/cgroup" || fail "init not in $abs/$ID"
	ward delete --force "$ID"
	[ ! -e "$(cgdir pids "$abs/$ID")" ] || fail "$abs/$ID left behind"
	for d in /sys/fs/cgroup/*"$abs" /sys/fs/cgroup"$abs"; do [ ! -d "$d" ] || rmdir "$d"; done
	cfg --arg p "rel/$ID" '.linux.cgroupsPath = $p'
	ward run -d --bundle "$BUNDLE" "$ID"
	grep -q ":/ward/rel/$ID$" "/proc/$(init_pid "$ID")/cgroup" || fail "init not in /ward/rel/$ID"
	ward delete --force "$ID"
	for d in /sys/fs/cgroup/*/ward/rel /sys/fs/cgroup/ward/rel; do [ ! -d "$d" ] || rmdir "$d"; done
	assert_no_leftovers
}

@test "cgroupsPath errors: systemd form, .., a cgroup with processes" {
	cfg '.linux.cgroupsPath = "machine.slice:ward:x"'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial "systemd's slice:prefix:name form needs the systemd cgroup manager"
	cfg '.linux.cgroupsPath = "/a/../b"'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'no "." or ".."'
	cmd 'sleep 100'
	cfg --arg p "/ward/$ID-a" '.linux.cgroupsPath = $p'
	ward run -d --bundle "$BUNDLE" "$ID-a"
	run ward create --bundle "$BUNDLE" "$ID-b"
	assert_failure 125
	assert_output --partial "already has processes"
	# compat joins it with a warning, as runc does; deleting the joiner
	# leaves the other container and the cgroup alone.
	WARD_GLOBALS=(--profile compat)
	run ward run -d --bundle "$BUNDLE" "$ID-b"
	assert_success
	assert_output --partial "already has processes: the container shares it"
	pid_a=$(init_pid "$ID-a")
	ward delete --force "$ID-b"
	pid_alive "$pid_a" || fail "deleting the joiner killed the other container"
	[ "$(status_of "$ID-a")" = running ] || fail "$ID-a is not running"
	WARD_GLOBALS=()
	ward delete --force "$ID-a"
	assert_no_leftovers
}

@test "blockIO, hugetlb and unified are written where their controller lives; network fails by name" {
	# Throttles on the first loop device, read back from the container's cgroup.
	dev=$(stat -c '%t %T' /dev/loop0 2>/dev/null | while read -r a b; do echo "$((0x$a)):$((0x$b))"; done)
	[ -n "$dev" ] || skip "no /dev/loop0"
	maj=${dev%:*} min=${dev#*:}
	cfg --argjson M "$maj" --argjson m "$min" '.linux.resources = {"blockIO": {"throttleReadBpsDevice": [{"major": $M, "minor": $m, "rate": 1048576}], "throttleWriteIOPSDevice": [{"major": $M, "minor": $m, "rate": 50}]}}'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	if is_v2; then
		run cat "$(cgdir io)/io.max"
		assert_output --partial "$dev rbps=1048576 wbps=max riops=max wiops=50"
	else
		assert_equal "$(cat "$(cgdir blkio)/blkio.throttle.read_bps_device")" "$dev 1048576"
		assert_equal "$(cat "$(cgdir blkio)/blkio.throttle.write_iops_device")" "$dev 50"
	fi
	ward delete --force "$ID"
	# hugetlb runs on the unified hierarchy of this hybrid host: v2 files there.
	cfg '.linux.resources = {"hugepageLimits": [{"pageSize": "2MB", "limit": 4194304}], "unified": {}}'
	ward run -d --bundle "$BUNDLE" "$ID"
	if ! is_v2 && [ -d "$(cgdir hugetlb)" ]; then
		assert_equal "$(cat "$(cgdir hugetlb)/hugetlb.2MB.limit_in_bytes")" 4194304
	else
		h=/sys/fs/cgroup/unified/ward/$ID; is_v2 && h=/sys/fs/cgroup/ward/$ID
		assert_equal "$(cat "$h/hugetlb.2MB.max")" 4194304
	fi
	ward delete --force "$ID"
	# unified: raw cgroup2 files, into the cgroup2 hierarchy.
	cfg '.linux.resources = {"unified": {"hugetlb.2MB.max": "8388608"}}'
	ward run -d --bundle "$BUNDLE" "$ID"
	h=/sys/fs/cgroup/unified/ward/$ID; is_v2 && h=/sys/fs/cgroup/ward/$ID
	assert_equal "$(cat "$h/hugetlb.2MB.max")" 8388608
	ward delete --force "$ID"
	# Weights: CFQ's blkio.weight or, on kernels without CFQ, BFQ's file.
	if ! is_v2; then
		cfg '.linux.resources = {"blockIO": {"weight": 500}}'
		b=/sys/fs/cgroup/blkio
		if [ -e $b/blkio.weight ] || [ -e $b/blkio.bfq.weight ]; then
			ward run -d --bundle "$BUNDLE" "$ID"
			d=$(cgdir blkio)
			if [ -e "$d/blkio.weight" ]; then
				assert_equal "$(cat "$d/blkio.weight")" 500
			else
				assert_equal "$(cat "$d/blkio.bfq.weight")" 500
			fi
			ward delete --force "$ID"
		else
			# No CFQ and no BFQ in use (runc fails here too, on ENOENT).
			run ward create --bundle "$BUNDLE" "$ID"
			assert_failure 125
			assert_output "ward: linux.resources.blockIO.weight: the host's block I/O scheduler takes no weights (neither blkio.weight nor blkio.bfq.weight: BFQ is not in use)"
			assert_no_leftovers
			cfg '.linux.resources = {"blockIO": {"weightDevice": [{"major": 8, "minor": 0, "weight": 500}]}}'
			run ward create --bundle "$BUNDLE" "$ID"
			assert_failure 125
			assert_output "ward: linux.resources.blockIO.weightDevice[0]: the host's block I/O scheduler takes no weights (neither blkio.weight_device nor blkio.bfq.weight_device: BFQ is not in use)"
			assert_no_leftovers
		fi
	fi
	if ! [ -d /sys/fs/cgroup/net_cls ]; then
		cfg '.linux.resources = {"network": {"classID": 1048577}}'
		run ward create --bundle "$BUNDLE" "$ID"
		assert_failure 125
		if is_v2; then
			assert_output 'ward: linux.resources.network.classID: cgroup2 has no net_cls controller'
		else
			assert_output 'ward: linux.resources.network.classID: the net_cls cgroup controller is not available: No such file or directory'
		fi
	fi
	assert_no_leftovers
}

@test "unified keys and hugetlb page sizes cannot name files outside the cgroup" {
	for k in '../../cgroup.procs' 'cgroup.procs' 'cgroup.subtree_control' 'memory.max/../x' 'memory' '.max'; do
		cfg --arg k "$k" '.linux.resources = {"unified": {($k): "1"}}'
		run ward create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output --partial "config.json: .linux.resources.unified.$k: "
	done
	cfg '.linux.resources = {"hugepageLimits": [{"pageSize": "../2MB", "limit": 1}]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'config.json: .linux.resources.hugepageLimits[0].pageSize: must be a size like 2MB or 1GB (got "../2MB")'
	cfg '.linux.resources = {"rdma": {"mlx4_0 hca_handle=1\nx": {"hcaHandles": 1}}}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'is not an RDMA device name'
	assert_no_leftovers
}

@test "a limit the kernel refuses fails the create: file, errno, nothing left" {
	cfg '.linux.resources = {"cpu": {"cpus": "0-1023"}}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --regexp 'linux.resources.cpu.cpus: writing "0-1023" to /sys/fs/cgroup/.*cpuset.cpus: '
	assert_no_leftovers
}

@test "update changes live limits, from flags and from a resources file" {
	cfg '.linux.resources = {"pids": {"limit": 4}}'
	cmd 'exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" sh -c 'sleep 100 & sleep 100 & sleep 100 & sleep 100 & wait' 2>&1
	assert_output --partial "can't fork"
	ward update --pids-limit 50 --memory 64m "$ID"
	if is_v2; then
		assert_equal "$(cat "$(cgdir pids)/pids.max")" 50
		assert_equal "$(cat "$(cgdir memory)/memory.max")" 67108864
	else
		assert_equal "$(cat "$(cgdir pids)/pids.max")" 50
		assert_equal "$(cat "$(cgdir memory)/memory.limit_in_bytes")" 67108864
	fi
	run ward exec -d "$ID" sh -c 'sleep 100 & sleep 100 & sleep 100 & sleep 100 & wait'
	assert_success
	# As Podman and containerd call it: a LinuxResources object on stdin.
	echo '{"pids": {"limit": 30}, "cpu": {"shares": 256}}' | ward update --resources - "$ID"
	assert_equal "$(cat "$(cgdir pids)/pids.max")" 30
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "update: runc's flag names; memory -1 (unlimited) and limits raised and lowered in an order the kernel takes" {
	cfg '.linux.resources = {"memory": {"limit": 67108864, "swap": 134217728}, "cpu": {"shares": 1024}}'
	cmd 'exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	ward update --cpu-share 512 --cpu-period 100000 --cpu-quota 50000 "$ID"
	if is_v2; then
		assert_equal "$(cat "$(cgdir cpu)/cpu.max")" "50000 100000"
		[ "$(cat "$(cgdir cpu)/cpu.weight")" -lt 100 ] || fail "cpu.weight not lowered"
	else
		assert_equal "$(cat "$(cgdir cpu)/cpu.shares")" 512
		assert_equal "$(cat "$(cgdir cpu)/cpu.cfs_quota_us")" 50000
	fi
	# Unlimited: on v1 memory.limit_in_bytes must go up before memsw may.
	ward update --memory -1 --memory-swap -1 "$ID"
	if is_v2; then
		assert_equal "$(cat "$(cgdir memory)/memory.max")" max
	else
		[ "$(cat "$(cgdir memory)/memory.limit_in_bytes")" -gt 1000000000000 ] || fail "memory limit not lifted"
		if [ -e "$(cgdir memory)/memory.memsw.limit_in_bytes" ]; then
			[ "$(cat "$(cgdir memory)/memory.memsw.limit_in_bytes")" -gt 1000000000000 ] || fail "memsw not lifted"
		fi
	fi
	# And down again: now the limit must come down first.
	ward update --memory 32m --memory-swap 48m "$ID"
	if is_v2; then
		assert_equal "$(cat "$(cgdir memory)/memory.max")" 33554432
	else
		assert_equal "$(cat "$(cgdir memory)/memory.limit_in_bytes")" 33554432
	fi
	# As runc: --memory -1 alone with swap limited lifts memory+swap too.
	if ! is_v2 && [ -e "$(cgdir memory)/memory.memsw.limit_in_bytes" ]; then
		ward update --memory -1 "$ID"
		[ "$(cat "$(cgdir memory)/memory.limit_in_bytes")" -gt 1000000000000 ] || fail "memory limit not lifted alone"
		[ "$(cat "$(cgdir memory)/memory.memsw.limit_in_bytes")" -gt 1000000000000 ] || fail "memsw not lifted with it"
		ward update --memory 32m --memory-swap 48m "$ID"
	fi
	run ward update --blkio-weight 5 "$ID"
	assert_failure 1
	assert_output 'ward: update: --blkio-weight 5: must be 10 to 1000'
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "exec --cgroup puts the process in a sub-cgroup; delete --force removes sub-cgroups; paths out are refused" {
	cmd 'exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	# A sub-cgroup in every hierarchy the container has one in (runc's tests
	# make them so).
	for d in /sys/fs/cgroup/ward/"$ID" /sys/fs/cgroup/*/ward/"$ID"; do
		[ -d "$d" ] || continue
		mkdir "$d/sub"
		# v1 cpuset: a new cgroup has no cpus or mems until given some.
		if [ -e "$d/sub/cpuset.cpus" ] && [ -z "$(cat "$d/sub/cpuset.cpus")" ]; then
			cat "$d/cpuset.cpus" >"$d/sub/cpuset.cpus"
			cat "$d/cpuset.mems" >"$d/sub/cpuset.mems"
		fi
	done
	run ward exec --cgroup sub "$ID" cat /proc/self/cgroup
	assert_success
	# Inside the container's cgroup namespace: its own cgroup is "/".
	assert_line --regexp '^0::/sub$'
	# runc's forms: a leading '/' is the container's cgroup, "/" itself.
	run ward exec --cgroup /sub "$ID" cat /proc/self/cgroup
	assert_line --regexp '^0::/sub$'
	run ward exec --cgroup / "$ID" cat /proc/self/cgroup
	assert_success
	assert_line '0::/'
	for bad in ../x sub/../.. sub/. a//b sub/; do
		run ward exec --cgroup "$bad" "$ID" true
		assert_failure 126
		assert_output --partial "ward: exec --cgroup $bad: "
	done
	run ward exec --cgroup ../x "$ID" true
	assert_output "ward: exec --cgroup ../x: ../x is not a sub cgroup path (plain names below the container's cgroup)"
	run ward exec --cgroup whaaat:/ "$ID" true
	assert_failure 126
	assert_output --partial 'ward: exec --cgroup whaaat:/: unknown controller whaaat ('
	run ward exec --cgroup a --cgroup b "$ID" true
	assert_failure 126
	assert_output 'ward: exec --cgroup: a path without a controller given twice'
	run ward exec --cgroup pids:a --cgroup memory,pids:b "$ID" true
	assert_failure 126
	assert_output 'ward: exec --cgroup: controller pids given twice'
	run ward exec --cgroup ,pids:a "$ID" true
	assert_output 'ward: exec --cgroup ,pids:a: an empty controller name'
	run ward exec --cgroup nosuch "$ID" true
	assert_failure 126
	assert_output --regexp '^ward: exec --cgroup nosuch: adding pid [0-9]+ to /sys/fs/cgroup/.*/nosuch/cgroup.procs: no such file or directory \(no such sub-cgroup\)$'
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		# One tree: a controller's own sub-cgroup is no v2 thing.
		run ward exec --cgroup memory:sub "$ID" true
		assert_failure 126
		assert_output 'ward: exec --cgroup memory:sub: unknown controller memory (cgroup v2 has one tree: give the path alone)'
	else
		# v1: per controller (runc's own test): memory in sub, cpu and
		# cpuacct (mounted together or apart) in sub2, the rest at the top.
		for d in /sys/fs/cgroup/cpu,cpuacct/ward/"$ID" /sys/fs/cgroup/cpu/ward/"$ID" /sys/fs/cgroup/cpuacct/ward/"$ID"; do
			[ -d "$d" ] && mkdir -p "$d/sub2"
		done
		run ward exec --cgroup memory:sub --cgroup cpu,cpuacct:sub2 "$ID" cat /proc/self/cgroup
		assert_success
		assert_line --regexp '^[0-9]+:memory:/sub$'
		assert_line --regexp '^[0-9]+:(cpu|cpu,cpuacct|cpuacct,cpu):/sub2$'
		assert_line --regexp '^[0-9]+:(cpuacct|cpu,cpuacct|cpuacct,cpu):/sub2$'
		assert_line --regexp '^[0-9]+:pids:/$'
		assert_line '0::/'
		if grep -q '^[0-9]*:cpu:' /proc/self/cgroup; then
			# Apart: each its own.
			run ward exec --cgroup cpu:sub --cgroup cpuacct:sub2 "$ID" cat /proc/self/cgroup
			assert_success
			assert_line --regexp '^[0-9]+:cpu:/sub$'
			assert_line --regexp '^[0-9]+:cpuacct:/sub2$'
		else
			# Together: two paths for one hierarchy cannot be had.
			run ward exec --cgroup cpu:sub --cgroup cpuacct:sub2 "$ID" true
			assert_failure 126
			assert_output --partial 'ward: exec --cgroup cpu:sub and cpuacct:sub2: one hierarchy ('
		fi
	fi
	# The refused exec left no process: only the init is in the cgroup.
	run ward ps --format json "$ID"
	assert_output "[$(init_pid "$ID")]"
	# A process in a sub-cgroup is the container's: ps lists it, kill
	# --all and delete --force reach it.
	ward exec -d --pid-file "$TMP/sub.pid" --cgroup sub "$ID" sleep 1000
	run ward ps --format json "$ID"
	assert_output --regexp "^\[($(init_pid "$ID"),$(cat "$TMP/sub.pid")|$(cat "$TMP/sub.pid"),$(init_pid "$ID"))\]$"
	ward kill --all "$ID" STOP
	wait_for "the sub-cgroup's process to stop" sh -c '[ "$(cut -d" " -f3 "/proc/$0/stat")" = T ]' "$(cat "$TMP/sub.pid")"
	ward kill --all "$ID" CONT
	ward delete --force "$ID"
	assert_no_leftovers
	for d in /sys/fs/cgroup/ward/"$ID" /sys/fs/cgroup/*/ward/"$ID"; do
		[ ! -e "$d" ] || fail "left: $d"
	done
}

@test "exec on cgroup2 where the container's cgroup takes no process (a domain controller on): into the init's sub-cgroup, as runc; --cgroup / then fails" {
	[ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] ||
		skip "needs pure cgroup2 (no controller is on in a hybrid host's cgroup2; the v2 VM lane runs this)"
	cmd 'exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	d=/sys/fs/cgroup/ward/$ID
	grep -qw memory "$d/cgroup.controllers" || fail "memory is not delegated to $d"
	mkdir "$d/foobar"
	echo "$(init_pid "$ID")" >"$d/foobar/cgroup.procs"
	echo +memory >"$d/cgroup.subtree_control"
	run ward exec "$ID" cat /proc/self/cgroup
	assert_success
	assert_line '0::/foobar'
	run ward exec --cgroup / "$ID" true
	assert_failure 125
	assert_output --regexp "^ward: exec --cgroup /: writing \"[0-9]+\" to /sys/fs/cgroup/ward/$ID/cgroup.procs: Device or resource busy\$"
	run ward ps --format json "$ID"
	assert_output "[$(init_pid "$ID")]"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "exec --ignore-paused: into a paused container, the process runs once resumed" {
	cmd 'exec sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	ward pause "$ID"
	run ward exec "$ID" true
	assert_failure 125
	assert_output "ward: container \"$ID\" is paused: cannot exec in a paused container (without --ignore-paused)"
	bg_start 30 "$TMP/exec.log" "$WARD" --root "$ROOT" exec --ignore-paused "$ID" echo ran-after-resume
	ward resume "$ID"
	wait "$BGPID"
	run cat "$TMP/exec.log"
	assert_output ran-after-resume
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "memory.kernelTCP is written on v1 (runtime-tools checks it); on cgroup2 both kernel limits are a warning" {
	cfg '.linux.resources = {"memory": {"limit": 67108864, "kernel": 33554432, "kernelTCP": 16777216}}'
	cmd 'exec sleep 1000'
	run ward run -d --bundle "$BUNDLE" "$ID"
	assert_success
	if [ -e "$(cgdir memory)/memory.kmem.tcp.limit_in_bytes" ]; then
		tcp=$(cat "$(cgdir memory)/memory.kmem.tcp.limit_in_bytes")
		# (the kernel rounds down to whole pages)
		[ "$tcp" -le 16777216 ] && [ "$tcp" -gt 16000000 ] || fail "kmem.tcp: $tcp"
	else
		assert_output --partial 'linux.resources.memory.kernel/kernelTCP ignored: cgroup2 accounts kernel memory with memory'
	fi
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "a cgroup mount without a cgroup namespace shows the container's own cgroup, not the hierarchy's root (as runc)" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.linux.namespaces |= map(select(.type != "cgroup"))
	     | .mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["ro", "nosuid", "noexec", "nodev"]}]
	     | .linux.resources = {"memory": {"limit": 67108864}, "pids": {"limit": 99}}'
	if is_v2; then
		cmd 'cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max; ls /sys/fs/cgroup | grep -cx ward; cat /proc/self/cgroup'
	else
		cmd 'cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/pids/pids.max; ls /sys/fs/cgroup/memory | grep -cx ward; grep -c . /proc/self/cgroup'
	fi
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 67108864
	assert_line --index 1 99
	assert_line --index 2 0 # no hierarchy root: ward's own /ward dir is not there
	assert_no_leftovers
}

@test "a config that lists the cgroup mount twice runs (a refused second cgroup2 mount falls back to a bind, as runc)" {
	cfg '.mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["ro", "nosuid", "noexec", "nodev"]},
	                 {"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["ro", "nosuid", "noexec", "nodev"]}]
	     | .linux.resources = {"pids": {"limit": 98}}'
	if is_v2; then
		cmd 'cat /sys/fs/cgroup/pids.max'
	else
		cmd 'cat /sys/fs/cgroup/pids/pids.max'
	fi
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output 98
	assert_no_leftovers
}

@test "update errors: bad JSON, bad size, stopped container" {
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	echo '{"pids": {"limit": "many"}}' >"$TMP/res.json"
	run ward update --resources "$TMP/res.json" "$ID"
	assert_failure 1
	assert_output "ward: $TMP/res.json: .pids.limit: must be an integer"
	run ward update --memory lots "$ID"
	assert_failure 1
	assert_output 'ward: update: --memory "lots" is not a size'
	run ward update --pids-limit abc "$ID"
	assert_failure 1
	assert_output 'ward: update: --pids-limit "abc" is not a number'
	# cgroup v1 refuses a limit below the current usage (EBUSY): said so.
	if [ "$(stat -fc %T /sys/fs/cgroup)" != cgroup2fs ] && [ -d /sys/fs/cgroup/memory ]; then
		run ward update --memory 1k "$ID"
		assert_failure 1
		assert_output --partial "ward: update: the memory limit is below the container's current usage: "
	fi
	pid=$(init_pid "$ID")
	ward kill "$ID" KILL
	wait_dead "$pid"
	run ward update --pids-limit 5 "$ID"
	assert_failure 1
	assert_output "ward: container \"$ID\" is stopped: only a live container can be updated"
	ward delete "$ID"
	assert_no_leftovers
}

@test "events --stats prints runc's stats event" {
	cfg '.linux.resources = {"pids": {"limit": 20}, "memory": {"limit": 33554432}}'
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward events --stats "$ID"
	assert_success
	run jq -r '[.type, .id, (.data.pids.current | tostring), (.data.pids.limit | tostring), (.data.memory.usage.limit | tostring), (.data.memory.usage.usage > 0 | tostring), (.data.cpu.usage.total > 0 | tostring)] | join(" ")' <<<"$output"
	assert_output "stats $ID 1 20 33554432 true true"
	# blkio and hugetlb as runc has them (hugetlb: one entry per page size).
	run ward events --stats "$ID"
	assert_success
	run jq -r '[(.data.blkio.ioServiceBytesRecursive | type), (.data.blkio.ioServicedRecursive | type), (.data.hugetlb | keys | join(","))] | join(" ")' <<<"$output"
	sizes=$(ls /sys/kernel/mm/hugepages 2>/dev/null | sed 's/hugepages-//; s/2048kB/2MB/; s/1048576kB/1GB/' | sort | paste -sd,)
	assert_output "array array $sizes"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "a memory hog is OOM-killed and events reports it" {
	cfg '.linux.resources = {"memory": {"limit": 33554432, "swap": 33554432}}'
	cmd 'sleep 1000'
	ward run -d --bundle "$BUNDLE" "$ID"
	bg_start 60 "$TMP/events" "$WARD" --root "$ROOT" events --interval 200ms "$ID"
	evpid=$BGPID
	wait_for "the first events line" grep -q '"type":"stats"' "$TMP/events"
	run ward exec "$ID" sh -c 'head -c 67108864 /dev/zero | tail >/dev/null'
	assert_failure 137
	wait_for "the oom event" grep -q '"type":"oom"' "$TMP/events"
	ward delete --force "$ID"
	# events ends when the container goes.
	rc=0
	wait "$evpid" || rc=$?
	assert_equal "$rc" 0
	run jq -r .type "$TMP/events"
	assert_line oom
	assert_line stats
	run ward events --interval 1fortnight "$ID"
	assert_failure 1
	assert_output 'ward: --interval: "1fortnight" is not a duration'
	run ward events --interval 0.1ms "$ID"
	assert_failure 1
	assert_output 'ward: --interval: "0.1ms" is too short'
	assert_no_leftovers
}

@test "a failed cgroup create removes what it made, and only that" {
	is_v2 && skip "needs several hierarchies (v1 or hybrid)"
	p=/ward-test-part-$ID
	mkdir /sys/fs/cgroup/pids$p
	# Someone else's process lives there, in the pids hierarchy only.
	sleep 100 </dev/null >/dev/null 2>&1 3>&- &
	other=$!
	track_pid "$other"
	echo "$other" >/sys/fs/cgroup/pids$p/cgroup.procs
	cfg --arg p "$p" '.linux.cgroupsPath = $p'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: cgroup /sys/fs/cgroup/pids$p already has processes: Device or resource busy"
	left=$(ls -d /sys/fs/cgroup/*$p 2>/dev/null | grep -v "/pids$p" || true)
	pid_alive "$other" || fail "ward touched a process that was not its own"
	[ -d /sys/fs/cgroup/pids$p ] || fail "ward removed a cgroup it did not make"
	kill "$other"
	wait "$other" 2>/dev/null || true
	rmdir /sys/fs/cgroup/pids$p
	[ -z "$left" ] || fail "cgroups left behind: $left"
	assert_no_leftovers
}

@test "a cgroupsPath inside another container's cgroup, or above it, is refused: its kill and delete would reach the other (compat warns, as runc runs it)" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID-a"
	# Inside: ID-a's init has its own cgroup's processes.
	cfg --arg p "/ward/$ID-a/evil" '.linux.cgroupsPath = $p'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --regexp "^ward: cgroup /sys/fs/cgroup(/[^ ]*)?/ward/$ID-a/evil: /sys/fs/cgroup(/[^ ]*)?/ward/$ID-a above it has processes of its own \(another container's or a service's cgroup\): Device or resource busy\$"
	# Above: /ward holds every container, ID-a's among them.
	cfg '.linux.cgroupsPath = "/ward"'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --regexp "^ward: cgroup /sys/fs/cgroup(/[^ ]*)?/ward already has processes: Device or resource busy\$"
	[ "$(status_of "$ID-a")" = running ] || fail "the other container was touched"
	[ ! -d "$ROOT/$ID" ] || fail "state left"
	# compat runs the nested one with a warning; ID-a's delete then
	# reaches it, as runc's would.
	cfg --arg p "/ward/$ID-a/nested" '.linux.cgroupsPath = $p'
	run ward --profile compat run -d --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output --partial "above it has processes of its own"
	ward delete --force "$ID"
	ward delete --force "$ID-a"
	assert_no_leftovers
}

@test "delete removes the parents create made, and a create killed midway" {
	# An absolute path under a parent that did not exist: both go on delete.
	cfg --arg p "/ward-test-$ID/c" '.linux.cgroupsPath = $p'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	[ -d "$(cgdir memory "/ward-test-$ID/c")" ]
	ward delete --force "$ID"
	for d in /sys/fs/cgroup/*/ward-test-"$ID" /sys/fs/cgroup/ward-test-"$ID"; do
		[ ! -e "$d" ] || fail "$d left behind"
	done
	# A parent that was there stays.
	mkdir -p "$(cgdir memory "/ward-test-$ID")"
	ward run -d --bundle "$BUNDLE" "$ID"
	ward delete --force "$ID"
	[ -d "$(cgdir memory "/ward-test-$ID")" ]
	[ ! -e "$(cgdir memory "/ward-test-$ID/c")" ]
	# Killed while its createRuntime hook runs: no state.json yet, but a
	# cgroup with the init in it. delete --force removes everything. The
	# hook (the test's own) records its pid: killed with ward, bounded.
	printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 60\n' "$TMP/hook.pid" >"$TMP/slow.sh"
	chmod +x "$TMP/slow.sh"
	cfg --arg p "$TMP/slow.sh" 'del(.linux.cgroupsPath) | .hooks = {"createRuntime": [{"path": $p}]}'
	vouch_hooks "$TMP/slow.sh"
	"$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" create --bundle "$BUNDLE" "$ID" </dev/null >"$TMP/create.out" 2>&1 3>&- &
	w=$!
	track_pid "$w"
	in_hook() { [ -s "$TMP/hook.pid" ] && [ -n "$(cat "$(cgdir pids)/cgroup.procs" 2>/dev/null)" ]; }
	wait_for "the createRuntime hook, with the init in its cgroup" in_hook
	kill -9 "$w"
	wait "$w" || true # (137: the kill)
	kill -9 "$(cat "$TMP/hook.pid")"
	run ward delete --force "$ID"
	assert_success
	[ ! -e "$(cgdir pids)" ] || fail "cgroup left behind"
	assert_no_leftovers
}

@test "a recorded cgroup that is now another one (removed and made again) is left alone by delete --force" {
	cmd 'sleep 100'
	cfg --arg p "/ward-test-$ID" '.linux.cgroupsPath = $p'
	ward run -d --bundle "$BUNDLE" "$ID"
	ward kill "$ID" KILL
	wait_for "the container to stop" is_stopped "$ID"
	# Someone else's cgroup of that name now, with a process of theirs.
	local d dirs=()
	for d in /sys/fs/cgroup/*/ward-test-"$ID" /sys/fs/cgroup/ward-test-"$ID"; do
		[ -d "$d" ] || continue
		rmdir "$d"
		mkdir "$d"
		if [ -f "$d/cpuset.cpus" ] && [ ! -f "$d/cgroup.controllers" ]; then
			cat "${d%/*}/cpuset.cpus" >"$d/cpuset.cpus"
			cat "${d%/*}/cpuset.mems" >"$d/cpuset.mems"
		fi
		dirs+=("$d")
	done
	[ "${#dirs[@]}" -ge 1 ]
	sleep 1000 &
	other=$!
	track_pid "$other"
	for d in "${dirs[@]}"; do echo "$other" >"$d/cgroup.procs"; done
	ward delete --force "$ID"
	pid_alive "$other" || fail "delete --force killed a process of another cgroup of that name"
	for d in "${dirs[@]}"; do [ -d "$d" ] || fail "$d was removed"; done
	kill -9 "$other"
}

# refused_as_too_long ID MESSAGE: the bundle's cgroupsPath is refused
# under every profile (runc's 1 in compat, 126 otherwise), nothing made.
refused_as_too_long() {
	for profile in compat baseline strict; do
		WARD_GLOBALS=(--profile "$profile")
		run ward run -d --bundle "$BUNDLE" "$1"
		[ "$profile" = compat ] && assert_failure 1 || assert_failure 126
		assert_output --partial "$2"
		refute_output --partial "shares it"
		[ ! -d "$ROOT/$1" ] || fail "$profile: a state dir was left"
	done
	WARD_GLOBALS=()
}

@test "cgroupsPath longer than a path: refused, never cut short to another container's cgroup" {
	# Cut to its first PATH_MAX bytes, this path is /ward/$ID-a (the empty
	# levels drop): compat would join container a's cgroup with a warning.
	cmd 'sleep 100'
	cfg --arg p "/ward/$ID-a" '.linux.cgroupsPath = $p'
	ward run -d --bundle "$BUNDLE" "$ID-a"
	long="/ward/$ID-a$(printf '/%.0s' $(seq 5000))b"
	cfg --arg p "$long" '.linux.cgroupsPath = $p'
	refused_as_too_long "$ID-b" ".linux.cgroupsPath: longer than a path can be"
	# One that fits PATH_MAX alone but not below a mount point (the
	# shortest, a pure v2 host's /sys/fs/cgroup, is 14 bytes): made by fd,
	# it could be opened by name by nothing after (delete failed with
	# ENAMETOOLONG, and a compat fork outside the pid namespace survived).
	long="/ward-test-$ID"
	while [ ${#long} -lt 4090 ]; do long="$long/$(printf 'c%.0s' $(seq 1 150))"; done
	long=${long:0:4090}
	cfg --arg p "$long" '.linux.cgroupsPath = $p'
	refused_as_too_long "$ID-c" ".linux.cgroupsPath: longer than a path can be below /sys/fs/cgroup"
	[ -z "$(ls -d /sys/fs/cgroup/*/ward-test-"$ID" /sys/fs/cgroup/ward-test-"$ID" 2>/dev/null)" ] || fail "a cgroup was made"
	[ "$(wc -l <"$(cgdir pids "/ward/$ID-a")/cgroup.procs")" -eq 1 ] || fail "something joined $ID-a's cgroup"
	ward delete --force "$ID-a"
	assert_no_leftovers
}

@test "an init that cannot enter a v1 hierarchy itself (an empty cpuset) fails the create, naming it; nothing is left (every profile)" {
	[ -d /sys/fs/cgroup/cpuset ] || skip "no cgroup v1 cpuset hierarchy"
	cfg '.linux.resources.cpu.cpus = " "'
	for p in compat baseline strict; do
		run ward --profile "$p" run --bundle "$BUNDLE" "$ID"
		assert_failure
		assert_output "ward: entering /sys/fs/cgroup/cpuset/ward/$ID (its tasks file): No space left on device"
		assert_no_leftovers
	done
}
