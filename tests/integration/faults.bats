#!/usr/bin/env bats
# Faults and load (issue #13): ward killed with SIGKILL at random points of
# create, start and delete, and containers started in parallel; nothing may
# be left behind. A small count here; tests/stress/faults.bash runs long
# (its header says how).

load ../helpers/common

@test "SIGKILL of ward at random points of create, start and delete, and 16 parallel runs x2: nothing left" {
	run env WARD="$WARD" BUSYBOX="$BUSYBOX" timeout -s KILL 300 \
		"$WARD_SRCDIR/tests/stress/faults.bash" "${WARD_FAULT_KILLS:-10}" 16 2
	echo "$output"
	assert_success
	assert_line --regexp '^faults: [0-9]+ kills each at create, start and delete; 2 rounds of 16 in parallel: 0 leaks, 0 failures$'
}
