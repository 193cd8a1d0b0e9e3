# containerd 1.6 with its CRI plugin on (Kubernetes' path into the
# runtime), on a private socket, root and state, driven by cri_client.py.
# The CRI runtime "runc" is the runc v2 shim with ward (compat profile) as
# its binary; "ward-baseline" is the same shim with ward as it is.

load "${BASH_SOURCE[0]%/*}/../helpers/env"

CRI_IMAGE=localhost/ward-busybox:latest
CRI_PAUSE=localhost/ward-pause:latest
# CRI's own containerd namespace (fixed in 1.6).
CRI_NS=k8s.io

cri_env() {
	CT="$BATS_FILE_TMPDIR/cri"
	: "${BATS_RUN_TMPDIR:?bats 1.4 or later: BATS_RUN_TMPDIR names the run}"
	# The pods' cgroup parent, this run's own: ward makes it under every
	# hierarchy, the containers' cgroups below it.
	CRI_CGROUP="ward-cri-${BATS_RUN_TMPDIR##*-}"
	# ward's --root as the shim passes it: the runtime's Root option, then
	# the namespace.
	CRI_WARD_ROOT="$CT/runc/$CRI_NS"
}

# A python3 with grpcio (Debian's python3-grpcio is for /usr/bin/python3).
cri_python() {
	local p
	for p in /usr/bin/python3 python3; do
		command -v "$p" >/dev/null 2>&1 && "$p" -c 'import grpc' 2>/dev/null &&
			{ echo "$p"; return 0; }
	done
	return 1
}

# The CRI client against the private daemon.
cri() { "$CRI_PY" "$WARD_SRCDIR/tests/engines/cri_client.py" --socket "$CT/containerd.sock" "$@"; }

# ctr against the private daemon, in CRI's namespace.
cctr() { ctr --address "$CT/containerd.sock" --namespace "$CRI_NS" "$@"; }

cri_setup_file() {
	cri_env
	# (bats skips nothing from setup_file: each test's setup skips.)
	if ! command -v containerd >/dev/null || ! command -v containerd-shim-runc-v2 >/dev/null ||
		! command -v ctr >/dev/null; then
		export CRI_SKIP="containerd 1.6 (containerd, containerd-shim-runc-v2, ctr) not found: apt-get install containerd"
		return 0
	fi
	if ! CRI_PY=$(cri_python); then
		export CRI_SKIP="no python3 with grpc (python3-grpcio) found: apt-get install python3-grpcio"
		return 0
	fi
	echo "$CRI_PY" >"$BATS_FILE_TMPDIR/cri-python"
	mkdir -p "$CT/root" "$CT/state" "$CT/runc" "$CT/bin" "$CT/opt" "$CT/pods" "$CT/cni/bin" "$CT/cni/conf"
	# The compat runtime: ward under its compat profile (a host-network pod
	# has no network namespace of its own, which baseline refuses).
	# (Each call logged, for a failure's diagnosis.)
	printf '#!/bin/sh\necho "$*" >>%q\nexec %q --profile compat "$@"\n' \
		"$CT/runtime-calls.log" "$WARD" >"$CT/bin/ward-compat"
	chmod +x "$CT/bin/ward-compat"
	cat >"$CT/config.toml" <<-EOF
	version = 2
	root = "$CT/root"
	state = "$CT/state"
	[grpc]
	  address = "$CT/containerd.sock"
	[ttrpc]
	  address = "$CT/containerd.sock.ttrpc"
	[plugins."io.containerd.internal.v1.opt"]
	  path = "$CT/opt"
	[plugins."io.containerd.runtime.v2.task"]
	  platforms = ["linux/amd64"]
	[plugins."io.containerd.grpc.v1.cri"]
	  sandbox_image = "$CRI_PAUSE"
	  stream_server_address = "127.0.0.1"
	  stream_server_port = "0"
	  disable_apparmor = true
	  enable_selinux = false
	  # No lower than the daemon's own: without CAP_SYS_RESOURCE (as in some
	  # sandboxes) the pause container's -998 cannot be set.
	  restrict_oom_score_adj = true
	  [plugins."io.containerd.grpc.v1.cri".cni]
	    bin_dir = "$CT/cni/bin"
	    conf_dir = "$CT/cni/conf"
	  [plugins."io.containerd.grpc.v1.cri".registry]
	    config_path = "$CT/certs.d"
	  [plugins."io.containerd.grpc.v1.cri".containerd]
	    snapshotter = "overlayfs"
	    default_runtime_name = "runc"
	    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
	      runtime_type = "io.containerd.runc.v2"
	      container_annotations = ["org.ward.*"]
	      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
	        BinaryName = "$CT/bin/ward-compat"
	        Root = "$CT/runc"
	    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.ward-baseline]
	      runtime_type = "io.containerd.runc.v2"
	      container_annotations = ["org.ward.*"]
	      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.ward-baseline.options]
	        BinaryName = "$WARD"
	        Root = "$CT/runc"
	EOF
	containerd --config "$CT/config.toml" </dev/null >"$CT/daemon.log" 2>&1 3>&- &
	echo $! >"$CT/daemon.pid"
	for _ in $(seq 100); do
		[ -S "$CT/containerd.sock" ] && cri version >/dev/null 2>&1 && break
		sleep 0.1
	done
	cri version >/dev/null || { tail -n 40 "$CT/daemon.log" >&2; return 1; }
	# The images, offline: busybox, and the same layer with a command that
	# lasts as the pods' sandbox image.
	python3 "$WARD_SRCDIR/tests/engines/mkimage.py" "$BUSYBOX" "$WARD_SRCDIR/tests/helpers/mkrootfs.sh" \
		"$CRI_IMAGE" "$CT/busybox.tar"
	python3 "$WARD_SRCDIR/tests/engines/mkpause.py" "$CT/busybox.tar" "$CT/images.tar" \
		"$CRI_PAUSE" sleep 2147483647
	cctr images import --no-unpack=false "$CT/images.tar" >/dev/null
	# CRI learns of the images through containerd's events: until it has.
	for _ in $(seq 100); do
		cri image-id "$CRI_PAUSE" >/dev/null 2>&1 && cri image-id "$CRI_IMAGE" >/dev/null 2>&1 && break
		sleep 0.1
	done
	if ! cri image-id "$CRI_PAUSE" >/dev/null || ! cri image-id "$CRI_IMAGE" >/dev/null; then
		tail -n 40 "$CT/daemon.log" >&2
		return 1
	fi
}

cri_setup() {
	[ -z "${CRI_SKIP:-}" ] || skip "$CRI_SKIP"
	cri_env
	CRI_PY=$(cat "$BATS_FILE_TMPDIR/cri-python")
}

# cri_pod_json NAME [NETWORK]: a pod's config for cri_client.py, its path.
cri_pod_json() {
	local f="$CT/pods/$1.json"
	mkdir -p "$CT/pods/$1"
	cat >"$f" <<-EOF
	{"name": "$1", "uid": "uid-$1", "namespace": "ward-test",
	 "log_directory": "$CT/pods/$1", "cgroup_parent": "/$CRI_CGROUP",
	 "network": "${2:-node}"}
	EOF
	echo "$f"
}

# cri_runp POD_JSON [ARGS...]: run the pod, record it; its id in $POD.
cri_runp() {
	run cri runp "$@"
	assert_success
	POD=$output
	echo "$POD" >>"$CT/pods.list"
}

# The daemon's shims (by their command line, which names our socket).
cri_shim_pids() {
	local p
	for p in /proc/[0-9]*; do
		tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF -- "-address $CT/containerd.sock " &&
			echo "${p#/proc/}"
	done
	true
}

# After each test: the daemon's last words when it failed, then its pods.
cri_teardown() {
	[ -n "${BATS_TEST_COMPLETED:-}" ] || [ -z "${CT:-}" ] || [ ! -f "$CT/daemon.log" ] ||
		{ echo "# the daemon's log, its end:"; tail -n 15 "$CT/daemon.log" | cut -c1-400; }
	cri_cleanup_pods
}

# cri_shim_socket ID: the socket the shim of the pod (or container) ID
# keeps in the host's /run/containerd/s, named by a hash of the daemon's
# address, the namespace and the ID.
cri_shim_socket() {
	echo "/run/containerd/s/$(printf '%s' "$CT/containerd.sock/$CRI_NS/$1" | sha256sum | cut -d' ' -f1)"
}

# Every pod a test ran (cri_runp lists them): stopped and removed.
cri_cleanup_pods() {
	local p
	[ -n "${CT:-}" ] && [ -f "$CT/pods.list" ] || return 0
	while read -r p; do
		[ -n "$p" ] || continue
		cri --deadline 20 stopp "$p" >/dev/null 2>&1
		cri --deadline 20 rmp "$p" >/dev/null 2>&1
	done <"$CT/pods.list"
	rm -f "$CT/pods.list"
}

cri_teardown_file() {
	cri_env
	[ -f "$BATS_FILE_TMPDIR/cri-python" ] || return 0
	CRI_PY=$(cat "$BATS_FILE_TMPDIR/cri-python")
	cri_cleanup_pods
	# Whatever CRI did not remove: containerd's tasks and containers.
	local t d
	for t in $(cctr tasks ls -q 2>/dev/null); do cctr tasks kill -s SIGKILL --all "$t" >/dev/null 2>&1; done
	for t in $(cctr tasks ls -q 2>/dev/null); do cctr tasks delete -f "$t" >/dev/null 2>&1; done
	for t in $(cctr containers ls -q 2>/dev/null); do cctr containers delete "$t" >/dev/null 2>&1; done
	if [ -f "$CT/daemon.pid" ]; then
		d=$(cat "$CT/daemon.pid")
		kill "$d" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$d" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$d" 2>/dev/null
	fi
	# A shim left (its task could not be deleted), with its socket, then the
	# processes left in the pods' cgroups.
	local id p
	for t in $(cri_shim_pids); do
		id=$(tr '\0' '\n' <"/proc/$t/cmdline" | sed -n '/^-id$/{n;p;q}')
		kill -9 "$t" 2>/dev/null
		[ -z "$id" ] || rm -f "$(cri_shim_socket "$id")"
	done
	for _ in $(seq 30); do
		t=$(cat /sys/fs/cgroup/*/"$CRI_CGROUP"/*/cgroup.procs \
			/sys/fs/cgroup/"$CRI_CGROUP"/*/cgroup.procs 2>/dev/null | sort -u)
		[ -n "$t" ] || break
		for p in $t; do kill -9 "$p" 2>/dev/null; done
		sleep 0.1
	done
	grep -F " $CT/" /proc/self/mountinfo | awk '{print $5}' | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null; done
	for d in /sys/fs/cgroup/*/"$CRI_CGROUP"/* /sys/fs/cgroup/"$CRI_CGROUP"/*; do
		[ ! -d "$d" ] || rmdir "$d" 2>/dev/null
	done
	for d in /sys/fs/cgroup/*/"$CRI_CGROUP" /sys/fs/cgroup/"$CRI_CGROUP"; do
		[ ! -d "$d" ] || rmdir "$d" 2>/dev/null
	done
	true
}

# Nothing of the pods left: containerd's tasks and containers, ward's
# state, the shims, mounts, cgroups.
cri_no_leftovers() {
	run cctr tasks ls -q
	assert_output ""
	run cctr containers ls -q
	assert_output ""
	run ls -A "$CRI_WARD_ROOT"
	refute_output --regexp '[0-9a-f]{64}'
	# The shim exits once its last task is deleted: until it has.
	no_shims() { [ -z "$(cri_shim_pids)" ]; }
	wait_for "the shims to exit" no_shims
	local p
	if [ -f "$CT/pods.list" ]; then
		while read -r p; do
			[ ! -e "$(cri_shim_socket "$p")" ] || fail "the shim's socket left: $(cri_shim_socket "$p")"
		done <"$CT/pods.list"
	fi
	run grep -F "$CT/" /proc/self/mountinfo
	assert_failure
	local d
	for d in /sys/fs/cgroup/*/"$CRI_CGROUP" /sys/fs/cgroup/"$CRI_CGROUP"; do
		[ -e "$d" ] && fail "cgroup left behind: $d"
	done
	true
}
