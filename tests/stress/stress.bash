#!/bin/bash
# Stress (issue #32), on top of faults.bash: ward killed with SIGKILL at a
# random point of create, start, exec and delete; parallel workers on
# distinct ids and racers on one id; a full state root (a small tmpfs as
# --root). Then leak accounting, which fails on any leak: cgroup
# directories in every hierarchy (/sys/fs/cgroup/*/ward*, and the unified
# one), mounts, state dirs, processes of the run, and fds of the ward
# processes still alive (supervisors) beyond stdio.
#
#   WARD=./ward BUSYBOX=/bin/busybox tests/stress/stress.bash TRIALS [WORKERS]
#
# TRIALS: kills per command (create, start, exec, delete), racing rounds and
# parallel rounds each scale with it. `make stress` runs it at full size.
set -u
TRIALS=${1:-10}
WORKERS=${2:-4}
WARD=${WARD:?WARD: the ward binary}
BUSYBOX=${BUSYBOX:-/bin/busybox}
HERE=$(cd "$(dirname "$0")" && pwd)

TAG="ws$$x$RANDOM"
WORK=$(mktemp -d "/tmp/ward-stress.XXXXXX")
ROOT="$WORK/state"
FULL="$WORK/full"
BUNDLE="$WORK/bundle"
findings=0 failures=0 trials=0
trap 'cleanup_all; umount "$FULL" 2>/dev/null; rm -rf "$WORK"' EXIT

finding() {
	echo "LEAK: $*"
	findings=$((findings + 1))
}
failure() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

. "$HERE/common.bash"

cleanup_all() {
	local r c
	for r in "$ROOT" "$FULL"; do
		[ -d "$r" ] || continue
		for c in $(ls "$r" 2>/dev/null); do "$WARD" --root "$r" delete --force "$c" >/dev/null 2>&1; done
	done
}

mkdir -p "$FULL"
make_bundle

# Kill ward at a random point of COMMAND, then delete --force the id, which
# must always succeed.
kill_during() { # kill_during ID COMMAND...
	local id=$1
	shift
	kill_ward_during "$@"
	trials=$((trials + 1))
	w delete --force "$id" >/dev/null 2>&1 ||
		failure "delete --force $id after a kill during $1: $(w delete --force "$id" 2>&1)"
}

check_clean() { # check_clean WHEN
	local d p f n
	for d in "$ROOT" "$FULL"; do
		[ -n "$(ls -A "$d" 2>/dev/null | grep -v '^\.')" ] &&
			finding "$1: state dirs left in $d: $(ls "$d" | tr '\n' ' ')"
	done
	for d in /sys/fs/cgroup/*/ward*/"$TAG"* /sys/fs/cgroup/ward*/"$TAG"* \
		/sys/fs/cgroup/*/ward*/*/"$TAG"*; do
		[ -e "$d" ] && finding "$1: cgroup left: $d"
	done
	n=$(grep -cF "$WORK/" /proc/self/mountinfo)
	# The full state root's own tmpfs is ours, not a leak.
	[ "$n" -gt 1 ] && finding "$1: mounts left: $(grep -F "$WORK/" /proc/self/mountinfo | awk '{print $5}' | tr '\n' ' ')"
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = "$$" ] && continue
		if tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF -e "$TAG" -e "$WORK/"; then
			[ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" = Z ] && continue
			# A ward still running (a supervisor): stdio and nothing else
			# of its caller's; any process at all of a deleted container
			# is a leak.
			f=$(ls "$p/fd" 2>/dev/null | wc -l)
			finding "$1: process ${p#/proc/} left ($f fds): $(tr '\0' ' ' <"$p/cmdline" | cut -c1-120)"
		fi
	done
}

# 1. kill -9 at random points of create, start, exec and delete.
for i in $(seq "$TRIALS"); do
	kill_during "$TAG-c$i" create --bundle "$BUNDLE" "$TAG-c$i"
done
check_clean "kills during create"
for i in $(seq "$TRIALS"); do
	w create --bundle "$BUNDLE" "$TAG-s$i" >/dev/null 2>&1 || failure "create $TAG-s$i"
	kill_during "$TAG-s$i" start "$TAG-s$i"
done
check_clean "kills during start"
for i in $(seq "$TRIALS"); do
	w run -d --bundle "$BUNDLE" "$TAG-e$i" >/dev/null 2>&1 || failure "run -d $TAG-e$i"
	kill_during "$TAG-e$i" exec "$TAG-e$i" /bin/sh -c "sleep 1000; true $TAG"
done
check_clean "kills during exec"
for i in $(seq "$TRIALS"); do
	w run -d --bundle "$BUNDLE" "$TAG-d$i" >/dev/null 2>&1 || failure "run -d $TAG-d$i"
	kill_during "$TAG-d$i" delete --force "$TAG-d$i"
done
check_clean "kills during delete"

# 2. Racers on one id: create, start, delete --force at once; whoever wins,
# the id ends removable and nothing is left.
for i in $(seq "$TRIALS"); do
	id="$TAG-r"
	pids=()
	w create --bundle "$BUNDLE" "$id" >/dev/null 2>"$WORK/race.err" &
	pids+=($!)
	w start "$id" >/dev/null 2>&1 &
	pids+=($!)
	w delete --force "$id" >/dev/null 2>>"$WORK/race.err" &
	pids+=($!)
	w delete --force "$id" >/dev/null 2>>"$WORK/race.err" &
	pids+=($!)
	wait "${pids[@]}"
	trials=$((trials + 1))
	grep -v -e 'already exists' -e 'does not exist' -e 'was deleted while it was being created' \
		-e 'locked by another' "$WORK/race.err" | grep -q . &&
		failure "racers on one id: $(cat "$WORK/race.err")"
	w delete --force "$id" >/dev/null 2>&1 || failure "delete --force $id after racing"
done
check_clean "racers on one id"

# 3. Parallel workers, each on its own ids: run -d, exec, kill, delete.
worker() { # worker N
	local k id
	for k in $(seq "$TRIALS"); do
		id="$TAG-w$1-$k"
		w run -d --bundle "$BUNDLE" "$id" >/dev/null 2>&1 || { echo "run -d $id"; continue; }
		w exec "$id" /bin/true >/dev/null 2>&1 || echo "exec $id"
		w kill "$id" KILL >/dev/null 2>&1 || echo "kill $id"
		w delete --force "$id" >/dev/null 2>&1 || echo "delete --force $id"
	done
}
pids=()
for n in $(seq "$WORKERS"); do
	worker "$n" >"$WORK/worker-$n.log" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
for n in $(seq "$WORKERS"); do
	trials=$((trials + TRIALS))
	while read -r l; do failure "worker $n: $l"; done <"$WORK/worker-$n.log"
done
check_clean "parallel workers"

# 4. A full state root: a 256 KiB tmpfs filled up by creates (with 100 KiB
# of annotations each); the creates that fail must fail cleanly, and every
# container made must still be removable.
mount -t tmpfs -o size=256k,mode=0700 tmpfs "$FULL"
jq '.annotations = ([range(100)] | map({key: "stress.a\(.)", value: ("x" * 1000)}) | from_entries)' \
	"$BUNDLE/config.json" >"$WORK/big.json"
mkdir -p "$WORK/bigbundle"
ln -s "$BUNDLE/rootfs" "$WORK/bigbundle/rootfs"
cp "$WORK/big.json" "$WORK/bigbundle/config.json"
made=0
for i in $(seq "$TRIALS"); do
	if "$WARD" --root "$FULL" create --bundle "$WORK/bigbundle" "$TAG-f$i" >/dev/null 2>"$WORK/full.err"; then
		made=$((made + 1))
	elif ! grep -q -e 'No space left' -e 'larger than' "$WORK/full.err"; then
		failure "create on a full root: $(cat "$WORK/full.err")"
	fi
	trials=$((trials + 1))
done
for c in $(ls "$FULL"); do
	"$WARD" --root "$FULL" delete --force "$c" >/dev/null 2>"$WORK/full.err" ||
		failure "delete --force $c on a full root: $(cat "$WORK/full.err")"
done
check_clean "full state root ($made made)"
umount "$FULL"

echo "stress: $trials trials ($TRIALS kills each at create, start, exec and delete;" \
	"$TRIALS racing rounds; $WORKERS workers x $TRIALS; $TRIALS creates on a full root):" \
	"$findings leaks, $failures failures"
[ "$findings" -eq 0 ] && [ "$failures" -eq 0 ]
