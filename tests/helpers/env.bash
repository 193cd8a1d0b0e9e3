# What every bats file of ward needs first: bats-support/bats-assert and
# the paths make check (or make check-engines) exports.

load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

: "${WARD:?WARD must point at the ward binary (run through make check)}"
: "${WARD_BUILDDIR:=$(dirname "$WARD")}"
: "${WARD_SRCDIR:=$WARD_BUILDDIR}"
: "${BUSYBOX:=/bin/busybox}"

# Poll for an event, bounded: wait_for WHAT COMMAND... fails the test with
# WHAT when COMMAND has not succeeded within WAIT_FOR_SECS (10) seconds.
wait_for() {
	local what=$1 end=$((SECONDS + ${WAIT_FOR_SECS:-10}))
	shift
	until "$@"; do
		# (return too: inside `f || ...` bash ignores fail's status)
		[ "$SECONDS" -lt "$end" ] || { fail "timed out waiting for: $what"; return 1; }
		sleep 0.05
	done
}

# Whatever a test starts in the background: bounded by `timeout`, its
# output away from bats' (fd 3 is bats' TAP pipe: a child holding it keeps
# bats waiting), and killed in teardown. Sets BGPID.
# bg_start SECONDS LOGFILE COMMAND...
bg_start() {
	local secs=$1 log=$2
	shift 2
	timeout -s KILL "$secs" "$@" </dev/null >"$log" 2>&1 3>&- &
	BGPID=$!
	track_pid "$BGPID"
}

# Kill this pid in teardown (if it still runs then).
track_pid() {
	echo "$1" >>"$BATS_TEST_TMPDIR/.teardown-pids"
}

# Teardown: kill what bg_start and track_pid recorded.
kill_tracked() {
	local p
	[ -f "$BATS_TEST_TMPDIR/.teardown-pids" ] || return 0
	for p in $(cat "$BATS_TEST_TMPDIR/.teardown-pids"); do
		# Only while it is still this shell's child (a pid that ended
		# may have been given to someone else's process since); its
		# children first: bg_start's pid is timeout's.
		[ "$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null)" = "$BASHPID" ] || continue
		pkill -9 -P "$p" 2>/dev/null
		kill -9 "$p" 2>/dev/null
	done
	true
}
