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
