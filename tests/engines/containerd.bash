# containerd 1.6 (its runc v2 shim pointed at ward) driven by ctr, on a
# private socket, root and state, with the CRI plugin off.

load "${BASH_SOURCE[0]%/*}/../helpers/env"
load "${BASH_SOURCE[0]%/*}/../helpers/networld"

CT_IMAGE=localhost/ward-busybox:latest

ct_env() {
	CT="$BATS_FILE_TMPDIR/containerd"
	# A namespace of this run's own: the shim keeps ward's state under
	# /run/containerd/runc/NS, and cgroups under /NS, on the host.
	: "${BATS_RUN_TMPDIR:?bats 1.4 or later: BATS_RUN_TMPDIR names the run}"
	CT_NS="ward-test-${BATS_RUN_TMPDIR##*-}"
}

# ctr against the private daemon, in ward's test namespace.
c() { ctr --address "$CT/containerd.sock" --namespace "$CT_NS" "$@"; }

# ctr run (the daemon's PATH makes the shim's runc ward).
crun() { c run "$@"; }

ct_setup_file() {
	ct_env
	mkdir -p "$CT/root" "$CT/state"
	cat >"$CT/config.toml" <<-EOF
	version = 2
	root = "$CT/root"
	state = "$CT/state"
	disabled_plugins = ["io.containerd.grpc.v1.cri"]
	[grpc]
	  address = "$CT/containerd.sock"
	[ttrpc]
	  address = "$CT/containerd.sock.ttrpc"
	[plugins."io.containerd.runtime.v2.task"]
	  platforms = ["linux/amd64"]
	EOF
	# The shim runs "runc": here that is ward, whatever ctr asks for.
	mkdir -p "$CT/bin"
	ln -sf "$WARD" "$CT/bin/runc"
	PATH="$CT/bin:$PATH" containerd --config "$CT/config.toml" </dev/null >"$CT/daemon.log" 2>&1 3>&- &
	echo $! >"$CT/daemon.pid"
	for _ in $(seq 100); do
		[ -S "$CT/containerd.sock" ] && c version >/dev/null 2>&1 && break
		sleep 0.1
	done
	c version >/dev/null || { cat "$CT/daemon.log" >&2; return 1; }
	# The image: an OCI archive of a busybox rootfs, built offline.
	python3 "$WARD_SRCDIR/tests/engines/mkimage.py" "$BUSYBOX" "$WARD_SRCDIR/tests/helpers/mkrootfs.sh" \
		"$CT_IMAGE" "$CT/image.tar"
	c images import --no-unpack=false "$CT/image.tar" >/dev/null
}

ct_teardown_file() {
	ct_env
	local t
	for t in $(c tasks ls -q 2>/dev/null); do c tasks kill -s SIGKILL --all "$t" >/dev/null 2>&1; done
	for t in $(c tasks ls -q 2>/dev/null); do
		for _ in $(seq 30); do ct_stopped "$t" && break; sleep 0.1; done
		c tasks delete -f "$t" >/dev/null 2>&1
	done
	for t in $(c containers ls -q 2>/dev/null); do c containers delete "$t" >/dev/null 2>&1; done
	c namespaces remove "$CT_NS" >/dev/null 2>&1
	if [ -f "$CT/daemon.pid" ]; then
		local d
		d=$(cat "$CT/daemon.pid")
		kill "$d" 2>/dev/null
		# Until the daemon is gone (bounded), then for good.
		for _ in $(seq 50); do kill -0 "$d" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$d" 2>/dev/null
	fi
	grep -F " $CT/" /proc/self/mountinfo | awk '{print $5}' | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null; done
	# The namespace's directories on the host (this run's own name): ward's
	# root for the shim, with its seccomp cache; the cgroup parents.
	rm -rf "/run/containerd/runc/$CT_NS"
	local d
	for d in /sys/fs/cgroup/*/"$CT_NS" /sys/fs/cgroup/"$CT_NS"; do
		[ ! -d "$d" ] || rmdir "$d" 2>/dev/null
	done
	true
}

ct_teardown() {
	local t
	for t in $(c tasks ls -q 2>/dev/null); do c tasks kill -s SIGKILL --all "$t" >/dev/null 2>&1; done
	for t in $(c tasks ls -q 2>/dev/null); do c tasks delete -f "$t" >/dev/null 2>&1; done
	for t in $(c containers ls -q 2>/dev/null); do c containers delete "$t" >/dev/null 2>&1; done
	kill_tracked
	[ -z "${NW:-}" ] || nw_down
}

# Nothing of the test left: tasks, containers, ward state, mounts, cgroups.
ct_no_leftovers() {
	run c tasks ls -q
	assert_output ""
	run c containers ls -q
	assert_output ""
	run ls "/run/containerd/runc/$CT_NS" 2>/dev/null
	assert_output ""
	run grep -F "$CT/state/" /proc/self/mountinfo
	assert_failure
	# ward removes the parent it made too (/ward-test).
	local d
	for d in /sys/fs/cgroup/*/"$CT_NS" /sys/fs/cgroup/"$CT_NS"; do
		[ -e "$d" ] && fail "cgroup left behind: $d"
	done
	true
}

# ct_wait_running ID: until its task runs (bounded; fails the test).
ct_wait_running() {
	ct_wait_status "$1" RUNNING
}

# ct_stopped ID: its task has stopped.
ct_stopped() {
	c tasks ls 2>/dev/null | awk -v id="$1" '$1 == id {print $3}' | grep -qx STOPPED
}

# ct_wait_status ID STATUS: until the task is in STATUS (bounded: 10 s).
ct_wait_status() {
	local i
	for i in $(seq 100); do
		c tasks ls 2>/dev/null | awk -v id="$1" '$1 == id {print $3}' | grep -qx "$2" && return 0
		sleep 0.1
	done
	fail "task $1 never $2: $(c tasks ls 2>&1)"
	return 1
}

