# Podman driving ward, on private storage: never a real user's containers.
#
# PM holds containers.conf, storage, runroot and tmpdir; the image is a
# busybox rootfs imported offline. Every podman call goes through pm().

load "${BASH_SOURCE[0]%/*}/../helpers/env"
load "${BASH_SOURCE[0]%/*}/../helpers/networld"

IMAGE=localhost/ward-busybox:latest
PAUSE_IMAGE=localhost/ward-pause:latest

pm_env() {
	PM="$BATS_FILE_TMPDIR/podman"
	export CONTAINERS_CONF="$PM/containers.conf"
	export CONTAINERS_STORAGE_CONF="$PM/storage.conf"
	export CONTAINERS_REGISTRIES_CONF="$PM/registries.conf"
}

pm() {
	podman --root "$PM/root" --runroot "$PM/runroot" --tmpdir "$PM/tmp" \
		--runtime "$WARD" --cgroup-manager cgroupfs --events-backend file "$@"
}

# containers.conf for a test's Podman: default ulimits within this host's
# hard limits (it lacks CAP_SYS_RESOURCE), cgroupfs and file events (no
# systemd here), ward named in runtime_supports_json so that Podman passes
# --log-format=json --log; then LINE... (more [engine] keys, sections).
pm_conf() { # pm_conf FILE [LINE...]
	local f=$1
	shift
	cat >"$f" <<-EOF
	[containers]
	default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
	[engine]
	cgroup_manager = "cgroupfs"
	events_logger = "file"
	runtime_supports_json = ["crun", "runc", "ward"]
	init_path = "/usr/bin/catatonit"
	EOF
	[ $# -eq 0 ] || printf '%s\n' "$@" >>"$f"
}

pm_storage_conf() { # pm_storage_conf FILE GRAPHROOT RUNROOT
	cat >"$1" <<-EOF
	[storage]
	driver = "overlay"
	graphroot = "$2"
	runroot = "$3"
	EOF
}

pm_setup_file() {
	pm_env
	mkdir -p "$PM/net" "$PM/tmp" "$PM/hooks"
	# This host lacks CAP_SYS_RESOURCE: Podman's default nofile/nproc
	# ulimits (above the hard limits) could not be applied; ward is named
	# in runtime_supports_json so Podman passes --log-format=json --log.
	pm_conf "$CONTAINERS_CONF" "hooks_dir = [\"$PM/hooks\"]" \
		"[network]" "network_config_dir = \"$PM/net\""
	pm_storage_conf "$CONTAINERS_STORAGE_CONF" "$PM/root" "$PM/runroot"
	: >"$CONTAINERS_REGISTRIES_CONF"
	rm -rf "$PM/rootfs"
	"$WARD_SRCDIR/tests/helpers/mkrootfs.sh" "$BUSYBOX" "$PM/rootfs"
	tar -C "$PM/rootfs" -c . | pm import --change 'CMD ["sh"]' - "$IMAGE" >/dev/null
	# A pod's infra container: it only has to stay alive.
	tar -C "$PM/rootfs" -c . |
		pm import --change 'CMD ["sleep", "100000"]' - "$PAUSE_IMAGE" >/dev/null
}

pm_teardown_file() {
	pm_env
	pm_plain_cgroup_files
	pm pod rm -af -t 0 >/dev/null 2>&1 || true
	pm rm -af -t 0 >/dev/null 2>&1 || true
	pm rmi -af >/dev/null 2>&1 || true
	# Whatever podman leaves mounted under its private storage.
	grep -F " $PM/" /proc/self/mountinfo | awk '{print $5}' | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null; done
	true
}

# Podman 4's cgroupfs manager, on a hybrid host, also makes its cgroups for
# the controllers /proc/cgroups lists but no v1 hierarchy is mounted for
# (here hugetlb, net_cls, net_prio and perf_event, on the unified one): as
# plain directories on the tmpfs /sys/fs/cgroup, where writing a pid to
# "tasks" makes a regular file. No process is in such a directory (it is not
# a cgroup), but a pod's conmon directory there cannot be rmdir'ed and
# `pod rm` fails "conmon cgroup: ... directory not empty". Those files are
# removed (only in directories that are not a cgroup filesystem).
pm_plain_cgroup_files() {
	local d
	for d in /sys/fs/cgroup/*/libpod_parent; do
		[ -d "$d" ] && [ "$(stat -f -c %T "$d")" = tmpfs ] || continue
		find "$d" -xdev -type f -delete 2>/dev/null
	done
	true
}

pm_teardown() {
	pm_plain_cgroup_files
	pm pod rm -af -t 0 >/dev/null 2>&1 || true
	pm rm -af -t 0 >/dev/null 2>&1 || true
	kill_tracked
	[ -z "${NW:-}" ] || nw_down
}

# No container process, mount or cgroup left of this file's containers.
pm_no_leftovers() {
	run pm ps -aq
	assert_output ""
	run grep -F "$PM/root/overlay/" /proc/self/mountinfo
	assert_failure
	local d
	for d in /sys/fs/cgroup/*/libpod_parent/libpod-* /sys/fs/cgroup/libpod_parent/libpod-*; do
		[ -e "$d" ] && fail "cgroup left behind: $d"
	done
	# No container state left in ward's root under Podman's runroot
	# (dot-entries are ward's caches).
	if [ -d "$PM/runroot/ward" ]; then
		run ls "$PM/runroot/ward"
		assert_success
		assert_output ""
	fi
}

# pm_wait_log NAME LINE: until the container's log has LINE (bounded).
pm_wait_log() {
	local name=$1 line=$2
	has_line() { pm logs "$name" 2>/dev/null | grep -qx "$line"; }
	wait_for "\"$line\" in the log of $name" has_line
}


# pm_cgroup NAME CONTROLLER: the container's cgroup directory.
pm_cgroup() {
	local id
	id=$(pm inspect -f '{{.Id}}' "$1")
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		echo "/sys/fs/cgroup/libpod_parent/libpod-$id"
	else
		echo "/sys/fs/cgroup/$2/libpod_parent/libpod-$id"
	fi
}
