#!/usr/bin/env bats
# The engines as they come on a systemd host (issue #15), with ward as their
# runtime: Podman with its stock configuration (the systemd cgroup manager,
# journald events; only --network none, as the VM has no bridge) and
# containerd's runc shim with SystemdCgroup (ctr --runc-systemd-cgroup).
# Run by the systemd VM lane (tests/vm/cgroup2.vm) only: it needs systemd
# as PID 1 and owns the VM's /var/lib/containers.

load ../helpers/common
load containerd

setup_file() {
	[ "$(cat /proc/1/comm)" = systemd ] || return 0
	rootfs_cache
	# Podman's stock storage (overlay) cannot sit on the guest's overlay
	# root: a tmpfs of its own, at the stock path.
	mkdir -p /var/lib/containers
	mountpoint -q /var/lib/containers || mount -t tmpfs -o size=256m tmpfs /var/lib/containers
	tar -C "$ROOTFS_CACHE" -c . | podman import --change 'CMD ["sh"]' - localhost/ward-busybox:latest >/dev/null
	# So does containerd's overlayfs snapshotter.
	ct_env
	mkdir -p "$CT"
	mount -t tmpfs -o size=256m tmpfs "$CT"
	ct_setup_file
}

teardown_file() {
	[ "$(cat /proc/1/comm)" = systemd ] || return 0
	podman rm -af -t 0 >/dev/null 2>&1
	ct_teardown_file
	umount -l "$CT" 2>/dev/null
	true
}

setup() {
	[ "$(cat /proc/1/comm)" = systemd ] || fail "systemd is not PID 1: this file is the systemd VM lane's"
	ct_env
	ID="wt-$BATS_TEST_NUMBER-$$-$RANDOM"
}

unit_state() { systemctl show -P ActiveState "$1"; }

@test "Podman, stock configuration: run, --memory as the scope's MemoryMax, exec, stop and rm; no unit left" {
	run podman --runtime "$WARD" run --rm --network none localhost/ward-busybox:latest \
		sh -c 'echo inside-marker; cat /sys/fs/cgroup/memory.max'
	assert_success
	assert_line inside-marker
	cid=$(podman --runtime "$WARD" run -d --network none --memory 64m --name "$ID" \
		localhost/ward-busybox:latest sleep 1000)
	unit="libpod-$cid.scope"
	[ "$(unit_state "$unit")" = active ] || fail "$unit: $(unit_state "$unit")"
	[ "$(systemctl show -P MemoryMax "$unit")" = 67108864 ]
	[ "$(systemctl show -P Slice "$unit")" = machine.slice ]
	[ "$(cat "/sys/fs/cgroup/machine.slice/$unit/memory.max")" = 67108864 ]
	run podman exec "$ID" sh -c 'echo exec-marker; cat /sys/fs/cgroup/memory.max'
	assert_success
	assert_line exec-marker
	assert_line 67108864
	podman stop -t 2 "$ID" >/dev/null
	podman rm "$ID" >/dev/null
	[ "$(systemctl show -P LoadState "$unit")" = not-found ]
	[ ! -e "/sys/fs/cgroup/machine.slice/$unit" ]
	# The events went to the journal (Podman's stock events backend).
	run journalctl -q --no-pager -t podman -g "$cid"
	assert_success
}

@test "containerd, runc shim with SystemdCgroup: ctr run makes the scope; kill and delete leave no unit" {
	unit="ctr-$ID.scope"
	crun -d --runc-systemd-cgroup --cgroup "system.slice:ctr:$ID" --memory-limit 67108864 \
		"$CT_IMAGE" "$ID" sleep 1000
	for _ in $(seq 100); do [ "$(unit_state "$unit")" = active ] && break; sleep 0.1; done
	[ "$(unit_state "$unit")" = active ] || fail "$unit: $(unit_state "$unit")"
	[ "$(systemctl show -P MemoryMax "$unit")" = 67108864 ]
	run c tasks exec --exec-id e1 "$ID" sh -c 'echo exec-marker'
	assert_success
	assert_output exec-marker
	c tasks kill -s SIGKILL "$ID"
	for _ in $(seq 100); do ct_stopped "$ID" && break; sleep 0.1; done
	c tasks delete "$ID" >/dev/null
	c containers delete "$ID"
	[ "$(systemctl show -P LoadState "$unit")" = not-found ]
}
