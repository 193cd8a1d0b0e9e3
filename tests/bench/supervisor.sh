#!/bin/bash
# Benchmark: what the run supervisor costs (issue #14). Prints, for the
# same baseline container with and without a supervisor ("supervise":
# "always"), interleaved round by round: the time of `run true` (start-up,
# the supervisor's start and its report included), and the time of 100000
# denied keyctl calls (answered by the kernel, or by the supervisor through
# SECCOMP_RET_USER_NOTIF and recorded). Timings are reported, never asserted.
#   usage: supervisor.sh WARD SYSPROBE [ROUNDS]
set -euo pipefail
ward=$(readlink -f "$1")
probe=$(readlink -f "$2")
rounds=${3:-30}
calls=100000
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/ward-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
# (in a directory of its own: ward's binary's directory is the host's to
# ward, and the bundles are made beside it)
mkdir "$work/bin"
strip -o "$work/bin/ward" "$ward" 2>/dev/null && ward="$work/bin/ward"
sh "$here/tests/helpers/mkrootfs.sh" "${BUSYBOX:-/bin/busybox}" "$work/bundle/rootfs" >/dev/null
cp "$probe" "$work/bundle/rootfs/bin/sysprobe"
"$ward" spec --full --bundle "$work/bundle"
echo '{}' >"$work/plain.json"
echo '{"supervise": "always"}' >"$work/supervised.json"

set_args() { # set_args ARG...: process.args of the bundle
	jq --args '.process.args = $ARGS.positional' "$@" <"$work/bundle/config.json" >"$work/c"
	mv "$work/c" "$work/bundle/config.json"
}

now_ns() { date +%s%N; }
declare -A total
time_one() { # time_one KEY POLICY: one run, its time added to total[KEY]
	local t0 t1
	t0=$(now_ns)
	(cd "$work/bundle" && "$ward" --root "$work/root" --policy "$work/$2.json" run "b$RANDOM$RANDOM" >/dev/null)
	t1=$(now_ns)
	total[$1]=$((${total[$1]:-0} + t1 - t0))
}

set_args /bin/true
for _ in $(seq "$rounds"); do
	time_one start-plain plain
	time_one start-supervised supervised
done
set_args /bin/sysprobe repeat "$calls" keyctl 0
for _ in $(seq 3); do
	time_one denied-plain plain
	time_one denied-supervised supervised
done
ms() { echo "scale=2; $1 / $2 / 1000000" | bc; }
printf 'run true, no supervisor:   %s ms\n' "$(ms "${total[start-plain]}" "$rounds")"
printf 'run true, supervised:      %s ms\n' "$(ms "${total[start-supervised]}" "$rounds")"
printf '  ratio: %s\n' "$(echo "scale=2; ${total[start-supervised]} / ${total[start-plain]}" | bc)"
printf '%d denied calls, kernel answers:     %s ms (%s us/call)\n' "$calls" \
	"$(ms "${total[denied-plain]}" 3)" "$(echo "scale=2; ${total[denied-plain]} / 3 / $calls / 1000" | bc)"
printf '%d denied calls, supervisor answers: %s ms (%s us/call)\n' "$calls" \
	"$(ms "${total[denied-supervised]}" 3)" "$(echo "scale=2; ${total[denied-supervised]} / 3 / $calls / 1000" | bc)"
