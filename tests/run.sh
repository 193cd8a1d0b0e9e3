#!/bin/sh
# Quick start, step 2 (and CI): the whole test suite.
#   unit tests + bats integration tests (make check), the unit tests again
#   under ASan/UBSan, bounded libFuzzer runs of the config and policy parsers (15 s each), and
#   clang-format / cppcheck over the sources. Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
sh runtime/setup/install-deps.sh || exit 1
sh runtime/setup/build.sh >/dev/null || { echo "build failed"; exit 1; }

passed=0
failed=0
t0=$(date +%s)
times=""
took() { # took NAME: the seconds since the last mark, kept for the summary
	t1=$(date +%s)
	times="$times $1=$((t1 - t0))s"
	t0=$t1
}
step() { # step NAME COMMAND...: a check outside make check counts as one test
	name=$1
	shift
	if "$@"; then
		echo "PASS: $name"
		passed=$((passed + 1))
	else
		echo "FAIL: $name"
		failed=$((failed + 1))
	fi
}

# Every test, the QEMU lanes (tests/vm) included, one file at a time: the
# lanes under TCG need both CPUs to themselves (beside the host's tests, a
# descheduled vCPU stalls the other and a lane ran out of its time).
make -j1 check >make-check.out 2>&1
check_rc=$?
took "make-check"
grep -E '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR):' make-check.out
p=$(grep -cE '^(PASS|XFAIL):' make-check.out)
f=$(grep -cE '^(FAIL|XPASS|ERROR):' make-check.out)
s=$(grep -cE '^SKIP:' make-check.out)
passed=$((passed + p))
failed=$((failed + f))
# A failing make with no failing test, one that passed nothing, or a QEMU
# lane skipped whole counts as one failure: here the lanes must run, and one
# that cannot boot says "1..0 # SKIP", reported as "SKIP: FILE - REASON" (a
# test skipped inside a lane has its number: "SKIP: FILE N ...").
if [ "$check_rc" -ne 0 ] && [ "$f" -eq 0 ]; then
	echo "FAIL: make check exited $check_rc"
	tail -30 make-check.out
	failed=$((failed + 1))
elif [ "$p" -eq 0 ] || grep -qE '^SKIP: tests/vm/[^ ]+( - |$)' make-check.out; then
	echo "FAIL: make check: $p passed, or a QEMU lane skipped whole"
	tail -30 make-check.out
	failed=$((failed + 1))
fi
[ "$f" -eq 0 ] || tail -200 test-suite.log 2>/dev/null

# A make target whose output is bats' TAP: each test counts; a target that
# fails without a failing test, or runs none, counts as one failure.
tap_target() { # tap_target TARGET OUTFILE
	make -s "$1" >"$2" 2>&1
	rc=$?
	grep -E '^(ok|not ok) ' "$2"
	p=$(grep -cE '^ok ' "$2")
	f=$(grep -cE '^not ok ' "$2")
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -gt 0 ]; then
		grep -vE '^ok ' "$2" | tail -120
	elif [ "$rc" -ne 0 ] || [ "$p" -eq 0 ]; then
		echo "FAIL: make $1 exited $rc"
		tail -40 "$2"
		failed=$((failed + 1))
	fi
}

# Podman and containerd driving ward end to end.
tap_target check-engines engines.out
took "engines"
# The runtime-escape catalogue (tests/escapes).
tap_target check-escapes escapes.out
took "escapes"

step "unit tests under ASan/UBSan" make -s check-asan
took "asan"
step "fuzz the config, policy and read-back state parsers (${FUZZ_SECONDS:-15}s each)" make -s -j2 fuzz-run FUZZ_SECONDS="${FUZZ_SECONDS:-15}"
took "fuzz"
step "clang-format" sh -c 'clang-format --dry-run -Werror oci/*.[ch] hooks/*.[ch] runtime/*.c runtime/*/*.[ch] runtime/*/*/*.c runtime/container/*/*.h tests/unit/*.[ch] tests/helpers/*.c tests/fuzz/*.c'
step "cppcheck" cppcheck -q --error-exitcode=1 --enable=warning,portability \
	--inline-suppr -D__linux__ -Ulinux -I. -Iruntime -iruntime/net/bpf oci runtime hooks

took "lint"
# Where the time went (the suite must stay well under CI's 30 minutes):
# each part, make check's slowest files (-j1: a log's age after the one
# before it), and the lanes' own figures.
echo "time:$times"
ls -trl --time-style=+%s tests/unit/*.log tests/arch/*.log tests/integration/*.log tests/vm/*.log 2>/dev/null |
	awk '$6 ~ /^[0-9]+$/ && $7 !~ /test-suite/ { if (prev) printf "%d %s\n", $6 - prev, $7; prev = $6 }' |
	sort -rn | head -12 | awk '{ printf "  %4ds %s\n", $1, $2 }'
grep -h '^# .* s in the guest$\|^# the VM ran' tests/vm/*.log 2>/dev/null
echo "skipped: $s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
