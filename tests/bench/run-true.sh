#!/bin/bash
# Benchmark: `run true` for ward against crun and runc (if installed), on the
# same busybox bundle, interleaved round by round so that machine noise hits
# all runtimes alike. Prints mean/median per runtime and the ratios.
#
# crun refuses hybrid cgroup hosts ("cgroups in hybrid mode not supported"):
# there it runs in a private mount namespace with /sys/fs/cgroup/unified
# hidden, which is how it would see a pure-v1 host.
#
# Not part of `make check`: timings are reported, never asserted.
#   usage: run-true.sh WARD [ROUNDS]
set -euo pipefail
ward=$(readlink -f "$1")
rounds=${2:-200}
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/ward-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
# ward as installed (make install-strip), as crun and runc come from Debian:
# stripped. Each create re-executes ward from a sealed memfd copy of its
# binary (CVE-2019-5736), so debug sections cost a copy per container.
# (in a directory of its own: ward's binary's directory is the host's to
# ward, and the bundles are made beside it)
mkdir "$work/bin"
strip -o "$work/bin/ward" "$ward" 2>/dev/null && ward="$work/bin/ward"

sh "$here/tests/helpers/mkrootfs.sh" "${BUSYBOX:-/bin/busybox}" "$work/bundle/rootfs" >/dev/null
"$ward" spec --bundle "$work/bundle"
# The same container for everyone: `true`, no terminal, read-only root.
# ociVersion 1.0.2: the newest every runtime here accepts (crun 1.8 refuses 1.2).
# (python3, not jq: jq 1.6 rounds the seccomp profile's 64-bit masks)
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["/bin/true"]
c["ociVersion"] = "1.0.2"
json.dump(c, open(sys.argv[1], "w"))' "$work/bundle/config.json"

hybrid=0
[ -d /sys/fs/cgroup/unified ] && [ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ] && hybrid=1

runtimes=(ward)
command -v crun >/dev/null && runtimes+=(crun)
command -v runc >/dev/null && runtimes+=(runc)

run_one() { # run_one RUNTIME ID
	case $1 in
	ward) "$ward" --root "$work/state-ward" run --bundle "$work/bundle" "$2" ;;
	runc) runc --root "$work/state-runc" run --bundle "$work/bundle" "$2" ;;
	crun)
		if [ $hybrid = 1 ]; then
			unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs none /sys/fs/cgroup/unified &&
				exec crun --root "$1" run --bundle "$2" "$3"' _ "$work/state-crun" "$work/bundle" "$2"
		else
			crun --root "$work/state-crun" run --bundle "$work/bundle" "$2"
		fi
		;;
	esac
}

# Warm-up, and a check that each runtime can run the bundle at all.
for rt in "${runtimes[@]}"; do
	if ! run_one "$rt" "warm-$rt" >/dev/null 2>"$work/err-$rt"; then
		echo "$rt cannot run the bundle here: $(head -1 "$work/err-$rt"); skipped"
		runtimes=("${runtimes[@]/$rt/}")
	fi
done

declare -A times
for ((i = 0; i < rounds; i++)); do
	for rt in "${runtimes[@]}"; do
		[ -n "$rt" ] || continue
		t0=${EPOCHREALTIME/./} # µs, read by bash itself: no fork
		run_one "$rt" "b$i" >/dev/null 2>&1 || { echo "$rt failed in round $i"; exit 1; }
		t1=${EPOCHREALTIME/./}
		times[$rt]+="$((t1 - t0)) "
	done
done

stats() { # mean and median in ms of a list of µs values
	tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1; s+=$1} END {printf "%.2f %.2f", s/NR/1000, a[int((NR+1)/2)]/1000}'
}
# The unshare+mount wrapper has a cost of its own: measure it to subtract.
wrap=0
if [ $hybrid = 1 ] && [[ " ${runtimes[*]} " == *" crun "* ]]; then
	w=""
	for ((i = 0; i < rounds; i++)); do
		t0=${EPOCHREALTIME/./} # µs, read by bash itself: no fork
		unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs none /sys/fs/cgroup/unified && exec true'
		t1=${EPOCHREALTIME/./}
		w+="$((t1 - t0)) "
	done
	wrap=$(stats "$w" | cut -d' ' -f2)
fi

echo "run true, $rounds interleaved rounds (ms)"
printf '%-6s %8s %8s\n' runtime mean median
declare -A med
for rt in "${runtimes[@]}"; do
	[ -n "$rt" ] || continue
	read -r mean median <<<"$(stats "${times[$rt]}")"
	if [ "$rt" = crun ] && [ "$wrap" != 0 ]; then
		mean=$(awk -v a="$mean" -v w="$wrap" 'BEGIN{printf "%.2f", a-w}')
		median=$(awk -v a="$median" -v w="$wrap" 'BEGIN{printf "%.2f", a-w}')
		note=" (minus ${wrap} ms for the unshare wrapper)"
	else
		note=""
	fi
	med[$rt]=$median
	printf '%-6s %8s %8s%s\n' "$rt" "$mean" "$median" "$note"
done
for rt in crun runc; do
	[ -n "${med[$rt]:-}" ] || continue
	awk -v w="${med[ward]}" -v o="${med[$rt]}" -v n="$rt" \
		'BEGIN{printf "ward vs %s: %.2fx faster (median)\n", n, o / w}'
done

# Peak resident memory of the runtime process (GNU time's %M, KiB) over a
# `run true`; the container's own process is the same for everyone.
if [ -x /usr/bin/time ]; then
	echo "peak RSS of the runtime (KiB, max of 10 runs):"
	for rt in "${runtimes[@]}"; do
		[ -n "$rt" ] || continue
		max=0
		for ((i = 0; i < 10; i++)); do
			if [ "$rt" = crun ] && [ $hybrid = 1 ]; then
				# The largest process of the wrapper's tree (sh, unshare,
				# mount, crun): an upper bound for crun.
				kb=$(/usr/bin/time -f %M unshare -m sh -c 'mount --make-rprivate / &&
					mount -t tmpfs none /sys/fs/cgroup/unified &&
					exec crun --root "$1" run --bundle "$2" "$3"' _ "$work/state-crun" \
					"$work/bundle" "m$i" 2>&1 >/dev/null | tail -1)
			else
				[ "$rt" = ward ] && bin=$ward || bin=$rt
				kb=$(/usr/bin/time -f %M "$bin" --root "$work/state-$rt" run \
					--bundle "$work/bundle" "m$i" 2>&1 >/dev/null | tail -1)
			fi
			[ "$kb" -gt "$max" ] && max=$kb
		done
		printf '  %-6s %6s\n' "$rt" "$max"
	done
fi
