# Shared setup for ward's bats tests.
#
# Every test gets its own state root ($ROOT), bundle ($BUNDLE, with a fresh
# copy of a busybox rootfs) and container id ($ID), all under the per-test
# temp dir, and teardown removes whatever is left, even after a failure.

load "${BASH_SOURCE[0]%/*}/../helpers/env"

# The VM lane keeps its own cache (WARD_CACHE_DIR): it runs beside the
# host's tests and sees the host's tree through a 9p overlay, where a cache
# the host makes mid-run could land inside the guest's half-made one.
CACHE_DIR="${WARD_CACHE_DIR:-$WARD_BUILDDIR/tests/.cache}"
ROOTFS_CACHE="$CACHE_DIR/rootfs"

rootfs_cache() {
	if [ ! -x "$ROOTFS_CACHE/bin/busybox" ]; then
		mkdir -p "$CACHE_DIR"
		(
			flock 9
			if [ ! -x "$ROOTFS_CACHE/bin/busybox" ]; then
				rm -rf "$ROOTFS_CACHE.tmp"
				"$WARD_SRCDIR/tests/helpers/mkrootfs.sh" "$BUSYBOX" "$ROOTFS_CACHE.tmp"
				mv "$ROOTFS_CACHE.tmp" "$ROOTFS_CACHE"
			fi
		) 9>"$CACHE_DIR/lock"
	fi
}

ward_setup() {
	# Global options for every ward call of the test: a test of the
	# runtime-spec's own semantics says WARD_GLOBALS=(--profile compat).
	WARD_GLOBALS=()
	rootfs_cache
	TMP="$BATS_TEST_TMPDIR"
	ROOT="$TMP/state"
	BUNDLE="$TMP/bundle"
	# WARD_ID_PREFIX: one's own ids on a machine others test on too.
	ID="${WARD_ID_PREFIX:-wt}-$BATS_TEST_NUMBER-$$-$RANDOM"
	mkdir -p "$BUNDLE"
	cp -a "$ROOTFS_CACHE" "$BUNDLE/rootfs"
	"$WARD" spec --full --bundle "$BUNDLE"
}

# Run ward against this test's state root. Its output goes through a file:
# a container's init inherits ward's stdout, and were that bats' pipe,
# `run ward create` would wait for the container to end, forever if the
# create unexpectedly succeeded. A test that wants a detached container's
# later output calls "$WARD" itself.
ward() {
	local out rc
	out=$(mktemp "$BATS_TEST_TMPDIR/ward-out.XXXXXX")
	"$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" "$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	return $rc
}

# Edit config.json with a jq filter: cfg '.process.args = ["true"]'
# Plain jq, as users edit config.json: ward spec's numbers all survive
# jq 1.6's doubles (tested in seccomp.bats).
cfg() {
	jq "$@" "$BUNDLE/config.json" >"$BUNDLE/config.json.new"
	mv "$BUNDLE/config.json.new" "$BUNDLE/config.json"
}

# Whether this kernel has the i386 entry (int 0x80). Some kernels fault
# instead (ia32_emulation=0, some hypervisors): then no container can use
# that ABI either, and there is nothing for a filter to hold. Asked on the
# host, outside any container.
host_has_i386() { "$WARD_BUILDDIR/tests/helpers/sysprobe" i386 getpid >/dev/null 2>&1; }
need_i386() {
	host_has_i386 ||
		skip "this kernel has no i386 entry: int 0x80 faults on the host itself"
}

# A user namespace mapping container ids 0-65535 to host 200000+. devpts'
# gid=5 is dropped: it need not be mapped.
cfg_userns() {
	cfg '.linux.namespaces += [{"type": "user"}]
	     | .linux.uidMappings = [{"containerID": 0, "hostID": 200000, "size": 65536}]
	     | .linux.gidMappings = [{"containerID": 0, "hostID": 200000, "size": 65536}]
	     | .mounts |= map(if .type == "devpts" then .options -= ["gid=5"] else . end)'
}

# Set process.args to sh -c SCRIPT.
cmd() {
	cfg --arg s "$1" '.process.args = ["sh", "-c", $s]'
}

# A --console-socket peer in the background: SOCK, OUT and RECV (its pid).
# It gives up after 30 s (never holding bats' output), and teardown kills it.
start_receiver() { # start_receiver NAME [INPUT]
	SOCK="$TMP/$1.sock"
	OUT="$TMP/$1.out"
	bg_start 30 "$TMP/$1.log" "$WARD_SRCDIR/tests/helpers/console-receiver" "$SOCK" "$OUT" "${2:-}"
	RECV=$BGPID
	wait_for "the console receiver's socket" test -S "$SOCK"
}

# Wait for the receiver: it must have ended by itself, with status 0.
wait_receiver() {
	local rc=0
	wait "$RECV" || rc=$?
	[ "$rc" -eq 0 ] || fail "console receiver exited $rc: $(cat "$TMP"/*.log 2>/dev/null)"
}

# The init pid of a container (from ward state).
init_pid() {
	ward state "$1" | jq -r .pid
}

# status of a container from ward state
status_of() {
	ward state "$1" | jq -r .status
}

# The container has stopped (for wait_for).
is_stopped() { [ "$(status_of "$1")" = stopped ]; }

# A pid counts as alive unless gone or a zombie (PID 1 here may not reap).
pid_alive() {
	local st
	st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

wait_dead() {
	local i
	for i in $(seq 1 100); do
		pid_alive "$1" || return 0
		sleep 0.05
	done
	return 1
}

# The pids whose command line holds this test's id, in one grep over every
# process (a grep per process cost about a second a test here, ten times
# that under the VM's TCG). The id comes from a file: grep's own command
# line must not hold it.
id_pids() {
	local f pat="$BATS_TEST_TMPDIR/.id-pattern"
	printf '%s\n' "$ID" >"$pat"
	for f in $(grep -lFf "$pat" /proc/[0-9]*/cmdline 2>/dev/null); do
		f=${f#/proc/}
		echo "${f%/cmdline}"
	done
}

# Nothing of this test may remain: no state dir, no mount under the temp dir
# in any mount namespace we can see, no process started for this id.
assert_no_leftovers() {
	if [ -d "$ROOT" ]; then
		# Dot-entries are ward's caches (container ids never start with '.').
		run ls "$ROOT"
		assert_output ""
	fi
	run grep -F "$TMP" /proc/self/mountinfo
	assert_failure
	local d
	for d in /sys/fs/cgroup/*/ward/"$ID"* /sys/fs/cgroup/ward/"$ID"*; do
		[ -e "$d" ] && fail "cgroup left behind: $d"
	done
	local p
	for p in $(id_pids); do
		if pid_alive "$p"; then
			fail "process $p still runs for $ID: $(tr '\0' ' ' <"/proc/$p/cmdline")"
		fi
	done
}

ward_teardown() {
	local c p
	kill_tracked
	if [ -d "$ROOT" ]; then
		for c in $(ls "$ROOT"); do
			"$WARD" --root "$ROOT" delete --force "$c" >/dev/null 2>&1 || true
		done
	fi
	# Last resort: kill anything still running for this test.
	local d
	for p in $(id_pids); do
		kill -9 "$p" 2>/dev/null
	done
	# Cgroups a test made by hand (ward-test-*ID*), with what runs in them.
	for d in /sys/fs/cgroup/*/ward-test-*"$ID"* /sys/fs/cgroup/ward-test-*"$ID"*; do
		[ -d "$d" ] || continue
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$d" 2>/dev/null && break; sleep 0.1; done
	done
	true
}

setup() {
	ward_setup
}

teardown() {
	ward_teardown
}

# policy JSON: write the operator policy file ($POLICY), as an operator
# would: root's, 0644 (ward reads no policy others could have written).
policy() {
	printf '%s\n' "$1" >"$POLICY"
	chmod 644 "$POLICY"
}

# unmount_test_mounts: whatever is mounted below this test's $TMP (a
# test's own mounts, or what a failing run left), innermost first.
unmount_test_mounts() {
	local m
	for m in $(awk -v t="$TMP" 'index($5, t) == 1 {print $5}' /proc/self/mountinfo | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}

# vouch_hooks PATTERN...: the operator's policy ($POLICY, default
# $TMP/policy.json) lists these hooks, for every ward call of the test:
# outside compat a hook runs only when the operator vouches for it
# (ward-policy(7), "hooks").
vouch_hooks() {
	POLICY=${POLICY:-$TMP/policy.json}
	policy "$(jq -n '{hooks: $ARGS.positional}' --args "$@")"
	WARD_GLOBALS+=(--policy "$POLICY")
}

# assert_ward_failed: the last `run` ended with one of ward's own failure
# statuses outside compat (ward(1), EXIT STATUS): 125 (ward failed) or 126
# (refused or invalid), never the job's.
assert_ward_failed() {
	case $status in 125 | 126) ;; *) fail "status $status, not ward's own failure (125 or 126): $output" ;; esac
}

# optout_tail PROFILE NAME [POLICY]: how a refusal whose opt-out is NAME
# ends when the policy does not allow it (runtime/policy/refusal_text.c):
# the engine flag that writes such a field, the JSON to add to the policy
# file and the annotation. POLICY: the file ward was given (default: the
# --policy of WARD_GLOBALS, else $POLICY when it exists, as refused_with
# passes it, else ward's default path).
optout_tail() {
	local pol=${3:-} asks="" i
	if [ -z "$pol" ]; then
		for ((i = 0; i < ${#WARD_GLOBALS[@]}; i++)); do
			[ "${WARD_GLOBALS[i]}" = --policy ] && pol=${WARD_GLOBALS[i + 1]}
		done
	fi
	if [ -z "$pol" ]; then
		pol=/etc/ward/policy.json
		[ -n "${POLICY:-}" ] && [ -e "$POLICY" ] && pol=$POLICY
	fi
	case $2 in
	host-network) asks='`--network host` (Kubernetes: hostNetwork: true)' ;;
	join-network) asks="\`--network container:ID\` of a host process's namespace" ;;
	host-pid) asks='`--pid host` (Kubernetes: hostPID: true)' ;;
	host-ipc) asks='`--ipc host` (Kubernetes: hostIPC: true)' ;;
	host-uts) asks='`--uts host`' ;;
	host-cgroup) asks='`--cgroupns host`' ;;
	host-user) asks='`--userns host` with a user namespace path' ;;
	devices-all) asks="\`--privileged\` or \`--device-cgroup-rule 'a *:* rwm'\`" ;;
	cgroup-rw) asks='`--privileged` (a writable cgroup mount)' ;;
	cap.*) asks='`--cap-add` (Kubernetes: securityContext.capabilities.add)' ;;
	device.*) asks='`--device` (or `--privileged`)' ;;
	mount:*) asks='`-v HOSTPATH:...` (Kubernetes: a hostPath volume)' ;;
	mount-type.*) asks='`--mount type=...`' ;;
	env.*) asks='`-e` / `--env` (Kubernetes: env)' ;;
	esac
	printf '(refused by the %s profile%s; opt-out: add "%s" to "allow" in %s ({"allow": ["%s"]}) and set the annotation org.ward.allow.%s=true)' \
		"$1" "${asks:+; engines write it for $asks}" "$2" "$pol" "$2" "$2"
}

# refused_with TEXT [STATUS]: create fails with one line containing TEXT,
# nothing left; its status is ward's for a refused or invalid config (126,
# ward(1) EXIT STATUS) unless STATUS says otherwise (125: ward failed).
refused_with() {
	local p=()
	[ -e "$POLICY" ] && p=(--policy "$POLICY")
	run ward "${p[@]}" create --bundle "$BUNDLE" "$ID"
	assert_failure "${2:-126}"
	assert_output --partial "$1"
	[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
	assert_no_leftovers
}
