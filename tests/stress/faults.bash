#!/bin/bash
# Faults and load (issue #13): ward killed with SIGKILL at a random point of
# create, start and delete, then `delete --force` of each id; and many
# containers started at once. Nothing may be left: no state dir, cgroup,
# mount or process. Run by tests/integration/faults.bats with small counts;
# run it long by hand:
#
#   WARD=./ward BUSYBOX=/bin/busybox tests/stress/faults.bash 200 32 4
#
# Arguments: kills per phase (create, start, delete), containers per round,
# rounds. Prints one line per finding and a summary; exit 1 on any finding.
set -u
KILLS=${1:-20}
PAR=${2:-8}
ROUNDS=${3:-2}
WARD=${WARD:?WARD: the ward binary}
BUSYBOX=${BUSYBOX:-/bin/busybox}
HERE=$(cd "$(dirname "$0")" && pwd)

TAG="wf$$x$RANDOM"
WORK=$(mktemp -d "/tmp/ward-faults.XXXXXX")
ROOT="$WORK/state"
BUNDLE="$WORK/bundle"
findings=0
trap 'cleanup_all; rm -rf "$WORK"' EXIT

finding() {
	echo "LEAK: $*"
	findings=$((findings + 1))
}

. "$HERE/common.bash"

cleanup_all() {
	local c
	[ -d "$ROOT" ] || return 0
	for c in $(ls "$ROOT" 2>/dev/null); do w delete --force "$c" >/dev/null 2>&1; done
}

make_bundle

# Kill ward at a random point of COMMAND, then delete --force the id.
kill_during() { # kill_during ID COMMAND...
	local id=$1
	shift
	kill_ward_during "$@"
	w delete --force "$id" >/dev/null 2>&1 || finding "delete --force $id after a kill: $(w delete --force "$id" 2>&1)"
}

check_clean() { # check_clean WHEN
	local d p
	if [ -n "$(ls "$ROOT" 2>/dev/null)" ]; then
		finding "$1: state dirs left: $(ls "$ROOT" | tr '\n' ' ')"
	fi
	for d in /sys/fs/cgroup/*/ward/"$TAG"* /sys/fs/cgroup/ward/"$TAG"*; do
		[ -e "$d" ] && finding "$1: cgroup left: $d"
	done
	if grep -qF "$WORK" /proc/self/mountinfo; then
		finding "$1: mounts left: $(grep -cF "$WORK" /proc/self/mountinfo)"
	fi
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = "$$" ] && continue
		if tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF "$TAG" &&
			[ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" != Z ]; then
			finding "$1: process ${p#/proc/} left: $(tr '\0' ' ' <"$p/cmdline")"
		fi
	done
}

for i in $(seq "$KILLS"); do
	kill_during "$TAG-c$i" create --bundle "$BUNDLE" "$TAG-c$i"
done
check_clean "kills during create"

for i in $(seq "$KILLS"); do
	w create --bundle "$BUNDLE" "$TAG-s$i" >/dev/null 2>&1 || finding "create $TAG-s$i failed"
	kill_during "$TAG-s$i" start "$TAG-s$i"
done
check_clean "kills during start"

for i in $(seq "$KILLS"); do
	w run -d --bundle "$BUNDLE" "$TAG-d$i" >/dev/null 2>&1 || finding "run -d $TAG-d$i failed"
	kill_during "$TAG-d$i" delete --force "$TAG-d$i"
done
check_clean "kills during delete"

failed=0
for r in $(seq "$ROUNDS"); do
	pids=()
	for i in $(seq "$PAR"); do
		w run -d --bundle "$BUNDLE" "$TAG-p$r-$i" >"$WORK/par-$i.log" 2>&1 &
		pids+=($!)
	done
	for i in $(seq "$PAR"); do
		wait "${pids[$((i - 1))]}" || {
			failed=$((failed + 1))
			echo "FAIL: parallel run $TAG-p$r-$i: $(cat "$WORK/par-$i.log")"
		}
	done
	for i in $(seq "$PAR"); do
		[ "$(w state "$TAG-p$r-$i" 2>/dev/null | jq -r .status)" = running ] ||
			{ failed=$((failed + 1)); echo "FAIL: $TAG-p$r-$i is not running"; }
	done
	for i in $(seq "$PAR"); do w delete --force "$TAG-p$r-$i" >/dev/null 2>&1 & done
	wait
	check_clean "parallel round $r"
done

echo "faults: $KILLS kills each at create, start and delete; $ROUNDS rounds of $PAR in parallel:" \
	"$findings leaks, $failed failures"
[ "$findings" -eq 0 ] && [ "$failed" -eq 0 ]
