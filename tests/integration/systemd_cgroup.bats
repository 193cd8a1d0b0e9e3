#!/usr/bin/env bats
# The systemd cgroup driver (issue #15): --systemd-cgroup, or the policy's
# "cgroupManager": "systemd", and runc's "slice:prefix:name" cgroupsPath.
# The container's cgroup is a transient scope with Delegate=yes; its limits
# are unit properties (seen by systemctl show, and kept across a
# daemon-reload) and in the cgroup files; update sets both; delete leaves no
# unit. Where systemd is not PID 1 (these build hosts) only the refusals
# run; the VM lane boots systemd and runs all of it (WARD_VM_INIT=systemd:
# there a missing systemd is a failure, not a skip).

load ../helpers/common

setup() {
	ward_setup
	POLICY="$TMP/policy.json"
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	SLICE=machine.slice
	UNIT="wardtest-$ID.scope"
	cfg --arg p "$SLICE:wardtest:$ID" '.linux.cgroupsPath = $p'
}

teardown() {
	ward_teardown
	if have_systemd; then
		if [ -d "/run/systemd/system/$UNIT.d" ]; then
			rm -rf "/run/systemd/system/$UNIT.d"
			systemctl daemon-reload
		fi
		systemctl stop "$UNIT" >/dev/null 2>&1
		systemctl reset-failed "$UNIT" >/dev/null 2>&1
	fi
	true
}

have_systemd() { [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ]; }
need_systemd() {
	have_systemd && return 0
	[ "${WARD_VM_INIT:-}" != systemd ] || fail "the systemd VM lane runs without systemd as PID 1"
	skip "systemd is not PID 1 on this host (the VM lane's systemd boot runs this)"
}
prop() { systemctl show -P "$2" "$1"; }
# What systemd and ward say of the unit, when a test fails on it.
unit_diag() {
	echo "# unit: $(systemctl show -p LoadState,ActiveState,SubState,Result,Job,ControlGroup "$UNIT" | tr '\n' ' ')"
	echo "# processes: $(cat "$(scope_dir)/cgroup.procs" 2>&1 | tr '\n' ' ')"
	echo "# create said: $(cat "$TMP/create.out" 2>/dev/null)"
	systemctl status --no-pager -l "$UNIT" 2>&1 | sed 's/^/# /'
	journalctl --no-pager -n 30 -u "$UNIT" 2>&1 | sed 's/^/# /'
}
is_v2() { [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; }
scope_dir() { echo "/sys/fs/cgroup/$SLICE/$UNIT"; }
# No unit of that name, loaded or failed, and no cgroup left.
assert_no_unit() {
	run systemctl show -P LoadState "$1"
	assert_output not-found
	run systemctl is-failed "$1"
	refute_output failed
	[ ! -e "/sys/fs/cgroup/$SLICE/$1" ] || fail "the scope's cgroup stayed"
}

@test "--systemd-cgroup takes runc's slice:prefix:name only: a cgroupfs path is refused, naming the field" {
	cfg '.linux.cgroupsPath = "/ward/plain"'
	WARD_GLOBALS=(--systemd-cgroup)
	refused_with '.linux.cgroupsPath "/ward/plain": the systemd cgroup manager takes "slice:prefix:name"'
	cfg '.linux.cgroupsPath = "machine-.slice:p:x"'
	refused_with 'empty level'
}

@test "the slice form without the systemd driver is refused, naming --systemd-cgroup" {
	refused_with "needs the systemd cgroup manager: ward's global --systemd-cgroup"
}

@test "where systemd cannot be reached, --systemd-cgroup (or the policy's) fails closed and leaves nothing" {
	have_systemd && skip "systemd is PID 1 here: the driver works (the tests below)"
	WARD_GLOBALS=(--systemd-cgroup)
	refused_with "cannot reach systemd" 125
	WARD_GLOBALS=()
	policy '{"cgroupManager": "systemd"}'
	refused_with "cannot reach systemd" 125
	run "$WARD" features
	[ "$(echo "$output" | jq .linux.cgroup.systemd)" = true ]
}

@test "systemd: the container is a delegated scope in its slice, its limits are unit properties and cgroup files, kept across a daemon-reload; delete leaves no unit" {
	need_systemd
	v2=false
	is_v2 && v2=true
	cfg --argjson v2 "$v2" '.linux.resources.memory = {"limit": 67108864, "swap": 100663296}
	     | if $v2 then .linux.resources.unified = {"memory.high": "50331648"} else . end
	     | .linux.resources.pids = {"limit": 50}
	     | .linux.resources.cpu = {"shares": 512, "quota": 50000, "period": 100000}'
	cmd 'cat /proc/self/cgroup; echo inside-marker; sleep 100'
	WARD_GLOBALS=(--systemd-cgroup)
	ward create --bundle "$BUNDLE" "$ID"
	ward start "$ID"
	pid=$(init_pid "$ID")
	[ "$(prop "$UNIT" ActiveState)" = active ]
	[ "$(prop "$UNIT" Delegate)" = yes ]
	[ "$(prop "$UNIT" Slice)" = "$SLICE" ]
	[ "$(prop "$UNIT" TasksMax)" = 50 ]
	[ "$(prop "$UNIT" CPUQuotaPerSecUSec)" = 500ms ]
	if is_v2; then
		run cat "/proc/$pid/cgroup"
		assert_output "0::/$SLICE/$UNIT"
		[ "$(prop "$UNIT" MemoryMax)" = 67108864 ]
		[ "$(prop "$UNIT" MemorySwapMax)" = 33554432 ]
		# cgroup2's weight for shares 512: 1 + (512 - 2) * 9999 / 262142.
		[ "$(prop "$UNIT" CPUWeight)" = 20 ]
		[ "$(prop "$UNIT" MemoryHigh)" = 50331648 ]
	else
		# Hybrid (systemd.unified_cgroup_hierarchy=0): the scope in every
		# hierarchy, systemd's and the rest; the legacy properties.
		while IFS=: read -r _ ctl path; do
			[ "$path" = "/$SLICE/$UNIT" ] || fail "$ctl: the init is in $path"
		done <"/proc/$pid/cgroup"
		[ "$(prop "$UNIT" MemoryLimit)" = 67108864 ]
		[ "$(prop "$UNIT" CPUShares)" = 512 ]
	fi
	for round in before after; do
		if is_v2; then
			d=$(scope_dir)
			[ "$(cat "$d/memory.max")" = 67108864 ] || fail "memory.max $round: $(cat "$d/memory.max")"
			[ "$(cat "$d/memory.swap.max")" = 33554432 ] || fail "memory.swap.max $round"
			[ "$(cat "$d/pids.max")" = 50 ] || fail "pids.max $round"
			[ "$(cat "$d/cpu.max")" = "50000 100000" ] || fail "cpu.max $round: $(cat "$d/cpu.max")"
			[ "$(cat "$d/cpu.weight")" = 20 ] || fail "cpu.weight $round"
			[ "$(cat "$d/memory.high")" = 50331648 ] || fail "memory.high $round"
		else
			d=/sys/fs/cgroup
			[ "$(cat "$d/memory/$SLICE/$UNIT/memory.limit_in_bytes")" = 67108864 ] || fail "memory $round"
			[ "$(cat "$d/pids/$SLICE/$UNIT/pids.max")" = 50 ] || fail "pids.max $round"
			[ "$(cat "$d/cpu,cpuacct/$SLICE/$UNIT/cpu.cfs_quota_us")" = 50000 ] || fail "quota $round"
			[ "$(cat "$d/cpu,cpuacct/$SLICE/$UNIT/cpu.shares")" = 512 ] || fail "shares $round"
		fi
		systemctl daemon-reload
	done
	ward delete --force "$ID"
	assert_no_unit "$UNIT"
	assert_no_leftovers
}

@test "systemd: update sets the unit's properties and the files; pause, resume, exec and kill --all work in the scope" {
	need_systemd
	cfg '.linux.resources.memory = {"limit": 67108864}'
	cmd 'echo inside-marker; sleep 100'
	WARD_GLOBALS=(--systemd-cgroup)
	ward run -d --bundle "$BUNDLE" "$ID"
	ward update --memory 134217728 --pids-limit 77 --cpu-quota 20000 --cpu-period 100000 "$ID"
	[ "$(prop "$UNIT" MemoryMax)" = 134217728 ]
	[ "$(prop "$UNIT" TasksMax)" = 77 ]
	[ "$(prop "$UNIT" CPUQuotaPerSecUSec)" = 200ms ]
	systemctl daemon-reload
	d=$(scope_dir)
	[ "$(cat "$d/memory.max")" = 134217728 ]
	[ "$(cat "$d/pids.max")" = 77 ]
	[ "$(cat "$d/cpu.max")" = "20000 100000" ]
	ward pause "$ID"
	[ "$(status_of "$ID")" = paused ]
	[ "$(cat "$d/cgroup.freeze")" = 1 ]
	ward resume "$ID"
	[ "$(status_of "$ID")" = running ]
	run ward exec "$ID" sh -c 'cat /proc/self/cgroup'
	assert_success
	assert_output "0::/"
	ward exec -d "$ID" sleep 100
	[ "$(wc -l <"$d/cgroup.procs")" -eq 2 ]
	ward kill --all "$ID" KILL
	wait_for "the scope to empty" sh -c "[ ! -s '$d/cgroup.procs' ]"
	ward delete "$ID"
	assert_no_unit "$UNIT"
	assert_no_leftovers
}

@test "systemd: the default unit is system.slice's ward-ID.scope; a container that ends leaves no failed unit, and delete still succeeds" {
	need_systemd
	# pids.limit 1: the scope's holder process must not take the init's
	# place while it is made.
	cfg 'del(.linux.cgroupsPath) | .linux.resources.pids = {"limit": 1}'
	cmd 'cat /proc/self/cgroup >/dev/null; echo inside-marker; exit 3'
	WARD_GLOBALS=(--systemd-cgroup)
	ward create --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	run cat "/proc/$pid/cgroup"
	assert_output "0::/system.slice/ward-$ID.scope"
	[ "$(prop "ward-$ID.scope" TasksMax)" = 1 ]
	[ "$(cat "/sys/fs/cgroup/system.slice/ward-$ID.scope/pids.max")" = 1 ]
	run ward start "$ID"
	wait_for "the container to stop" is_stopped "$ID"
	ward delete "$ID"
	SLICE=system.slice assert_no_unit "ward-$ID.scope"
	# Killed by a signal: the scope may end "failed" in systemd's eyes;
	# delete resets it.
	cmd 'echo inside-marker; sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	ward kill "$ID" KILL
	wait_for "the container to stop" is_stopped "$ID"
	ward delete "$ID"
	SLICE=system.slice assert_no_unit "ward-$ID.scope"
	assert_no_leftovers
}

@test "systemd: a scope of that name that already exists is not taken over (and is left alone)" {
	need_systemd
	systemd-run --quiet --scope --unit="$UNIT" --slice="$SLICE" sleep 100 </dev/null >/dev/null 2>&1 &
	track_pid $!
	wait_for "the other scope" sh -c "[ \"\$(systemctl show -P ActiveState '$UNIT')\" = active ]"
	WARD_GLOBALS=(--systemd-cgroup)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure
	assert_output --partial "$UNIT: the unit already exists"
	[ "$(prop "$UNIT" ActiveState)" = active ]
	[ "$(wc -l <"$(scope_dir)/cgroup.procs")" -eq 1 ]
	run ls "$ROOT"
	assert_output ""
}

@test "systemd: the device policy holds beside systemd's own: a node the image ships stays denied after a daemon-reload" {
	need_systemd
	mkdir -p "$BUNDLE/rootfs/mnt"
	mknod "$BUNDLE/rootfs/mnt/kvm" c 10 232
	mknod "$BUNDLE/rootfs/mnt/zero" c 1 5
	chmod 666 "$BUNDLE/rootfs/mnt"/*
	cfg 'del(.linux.resources)'
	cmd 'sleep 100'
	WARD_GLOBALS=(--systemd-cgroup)
	ward run -d --bundle "$BUNDLE" "$ID"
	for round in before after; do
		run ward exec "$ID" sh -c 'sysprobe open @/mnt/kvm 2; sysprobe open @/mnt/zero 2'
		assert_line "errno 1"
		assert_line "ok 3"
		systemctl daemon-reload
		systemctl set-property --runtime "$UNIT" DevicePolicy=auto
	done
	ward delete --force "$ID"
	assert_no_unit "$UNIT"
}

@test "systemd: ward killed while the scope holds only its holder, or in a prestart hook: delete --force leaves no unit, cgroup or process" {
	need_systemd
	cmd 'sleep 100'
	printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 60\n' "$TMP/hook.pid" >"$TMP/hold.sh"
	chmod +x "$TMP/hold.sh"
	for at in scope prestart; do
		rm -f "$TMP/hook.pid"
		if [ "$at" = prestart ]; then
			cfg --arg p "$TMP/hold.sh" '.hooks = {"prestart": [{"path": $p}]}'
			vouch_hooks "$TMP/hold.sh"
		fi
		"$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" --systemd-cgroup create --bundle "$BUNDLE" "$ID" </dev/null >"$TMP/create.out" 2>&1 3>&- &
		w=$!
		track_pid "$w"
		end=$((SECONDS + 30))
		if [ "$at" = scope ]; then
			until [ -d "$(scope_dir)" ]; do
				[ "$SECONDS" -lt "$end" ] && [ -e "/proc/$w" ] || fail "create never made the scope: $(cat "$TMP/create.out")"
			done
		else
			until [ -s "$TMP/hook.pid" ]; do
				[ "$SECONDS" -lt "$end" ] && [ -e "/proc/$w" ] || fail "create never ran the hook: $(cat "$TMP/create.out")"
				sleep 0.05
			done
		fi
		kill -9 "$w"
		wait "$w" 2>/dev/null || true
		[ ! -s "$TMP/hook.pid" ] || kill -9 "$(cat "$TMP/hook.pid")" 2>/dev/null
		run ward delete --force "$ID"
		assert_success
		wait_for "systemd to let $UNIT go ($at)" sh -c "[ \"\$(systemctl show -P LoadState '$UNIT')\" = not-found ]" ||
			{ unit_diag; return 1; }
		assert_no_unit "$UNIT"
		assert_no_leftovers
	done
}

@test "systemd: a scope systemd puts elsewhere than ward computed (a drop-in's Slice=) is refused and stopped; nothing left" {
	need_systemd
	mkdir -p "/run/systemd/system/$UNIT.d"
	printf '[Scope]\nSlice=system.slice\n' >"/run/systemd/system/$UNIT.d/10-slice.conf"
	systemctl daemon-reload
	WARD_GLOBALS=(--systemd-cgroup)
	refused_with "systemd put $UNIT elsewhere than /$SLICE/$UNIT: refused" 125
	wait_for "systemd to let $UNIT go" sh -c "[ \"\$(systemctl show -P ActiveState '$UNIT')\" != active ]"
	[ ! -e "/sys/fs/cgroup/system.slice/$UNIT" ] || fail "the misplaced scope stayed"
}
