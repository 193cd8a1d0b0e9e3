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

make -j1 check >make-check.out 2>&1
check_rc=$?
grep -E '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR):' make-check.out
p=$(grep -cE '^(PASS|XFAIL):' make-check.out)
f=$(grep -cE '^(FAIL|XPASS|ERROR):' make-check.out)
s=$(grep -cE '^SKIP:' make-check.out)
passed=$((passed + p))
failed=$((failed + f))
if [ "$check_rc" -ne 0 ] && [ "$f" -eq 0 ]; then
	echo "FAIL: make check exited $check_rc"
	tail -30 make-check.out
	failed=$((failed + 1))
fi
[ "$f" -eq 0 ] || cat test-suite.log 2>/dev/null | tail -200

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
# The runtime-escape catalogue (tests/escapes).
tap_target check-escapes escapes.out

step "unit tests under ASan/UBSan" make -s check-asan
step "fuzz the config, policy and read-back state parsers (${FUZZ_SECONDS:-15}s each)" make -s fuzz-run FUZZ_SECONDS="${FUZZ_SECONDS:-15}"
step "clang-format" sh -c 'clang-format --dry-run -Werror oci/*.[ch] hooks/*.[ch] runtime/*.c runtime/*/*.[ch] runtime/*/*/*.c runtime/container/*/*.h tests/unit/*.[ch] tests/helpers/*.c tests/fuzz/*.c'
step "cppcheck" cppcheck -q --error-exitcode=1 --enable=warning,portability \
	--inline-suppr -D__linux__ -Ulinux -I. -Iruntime -iruntime/net/bpf oci runtime hooks

echo "skipped: $s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
