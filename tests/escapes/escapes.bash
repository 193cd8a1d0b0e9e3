# Shared by the runtime-escape catalogue (tests/escapes/*.bats, make
# check-escapes). Each file is one published OCI-runtime escape (or a few of
# one class), replayed black box against the ward binary under every profile:
# the attack runs from inside the container (or through the config/image the
# attacker controls), and the test checks from inside that nothing of the
# host is reachable and from the host that nothing was written or made.
#
# The hostile objects a vulnerable ward could reach live under the test's temp
# dir ($TMP): markers beside the bundle (never inside the rootfs), a copy of
# the ward binary (run instead of the build's own, so a CVE-2019-5736 class
# regression overwrites only the copy).

load "${BASH_SOURCE[0]%/*}/../helpers/common"

PROFILES=(compat baseline strict)
# fd numbers swept: from 3 up to well above what ward holds while it sets a
# process up (the init holds < 16; LISTEN_FDS and --preserve-fds stay 0 here).
FD_MAX=${ESC_FD_MAX:-64}
FDS=$(seq 3 "$FD_MAX")

# as PROFILE: every ward call from now on under that profile.
as() { WARD_GLOBALS=(--profile "$1"); }

esc_setup() {
	ward_setup
	ID="esc-$BATS_TEST_NUMBER-$$-$RANDOM"
	# Files only the host has: a process whose cwd, root or fd is a host
	# directory finds one of them by climbing with "..".
	echo host-only >"$BUNDLE/ESC_MARK"
	echo host-only >"$TMP/ESC_MARK"
	cp -a "$BUNDLE/config.json" "$BUNDLE/config.orig"
}

setup() { esc_setup; }
esc_teardown() {
	ward_teardown
	# probe_install's volume (never anything else: a path it wrote).
	if [ -f "$TMP/.esc-out" ]; then
		case $(cat "$TMP/.esc-out") in /tmp/esc-out.??????) rm -rf "$(cat "$TMP/.esc-out")" ;; esac
	fi
	true
}
teardown() { esc_teardown; }

# The verdict a process prints from inside: whether its cwd climbs, by "..",
# to a host file or to a / that is not the container's; and whether it holds
# any fd beyond 0-2 (the root cause of CVE-2016-9962 and CVE-2024-21626).
# Ends with VERDICT-OK; an escape adds a line starting ESCAPED.
VERDICT='e=; p=.; r=$(stat -c %d:%i /)
for i in $(seq 30); do [ -e "$p/ESC_MARK" ] && e="$e mark-at-depth-$i"; p=$p/..; done
[ "$(stat -c %d:%i "$p")" = "$r" ] || e="$e cwd-climbs-to-a-foreign-root"
[ -z "$e" ] || echo "ESCAPED:$e"
for f in /proc/$$/fd/*; do case ${f##*/} in 0|1|2) ;; *) [ -L "$f" ] && { printf "ESCAPED: fd%s " "${f##*/}"; ls -l "$f"; };; esac; done
echo VERDICT-OK'

# ward_own_rc RC: RC is one of ward's own failure statuses (ward(1), EXIT
# STATUS): 1 under compat, 125 (ward failed) or 126 (refused) outside it.
ward_own_rc() {
	case $1 in 1 | 125 | 126) return 0 ;; esac
	return 1
}

# verdict_ok OUTPUT RC REFUSAL-REGEX: the process ran and reported no escape,
# or ward refused with exactly one line matching the regex and one of its own
# statuses (compat's exec exits 255 on its own failures, as runc: REFUSE_RC).
# Prints the reason and fails otherwise.
verdict_ok() {
	local out=${1//$'\r'/} rc=$2 re=$3
	case "$out" in *ESCAPED*) echo "escape: $out"; return 1 ;; esac
	if [ "$rc" -eq 0 ] && [[ "$out" == *VERDICT-OK* ]]; then return 0; fi
	if { if [ -n "${REFUSE_RC:-}" ]; then [ "$rc" -eq "$REFUSE_RC" ]; else ward_own_rc "$rc"; fi; } &&
		[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && [[ "$out" =~ $re ]]; then
		return 0
	fi
	echo "neither a clean run nor the expected refusal (rc $rc): $out"
	return 1
}

# The outcome counters of a sweep, printed to the TAP stream.
tally() { echo "# $*" >&3; }

# A copy of the ward binary for this test (WARD points at it afterwards).
ward_copy() {
	cp "$WARD" "$TMP/ward-copy"
	WARD="$TMP/ward-copy"
	WARD_SUM=$(sha256sum <"$WARD")
}

# gen_configs FILTER [JQ ARGS...]: $TMP/cfg/N, for every N in FDS, is
# config.orig edited by FILTER, which sees the fd number as $n (one jq for
# the whole sweep).
gen_configs() {
	local f=$1 n j
	shift
	rm -rf "$TMP/cfg"
	mkdir -p "$TMP/cfg"
	jq -r "$@" --argjson hi "$FD_MAX" \
		". as \$c | range(3; \$hi + 1) as \$n | \$c | $f | \"\(\$n)\t\(tojson)\"" "$BUNDLE/config.orig" |
		while IFS=$'\t' read -r n j; do printf '%s\n' "$j" >"$TMP/cfg/$n"; done
}

# use_config N: the bundle's config.json is $TMP/cfg/N.
use_config() { cp "$TMP/cfg/$1" "$BUNDLE/config.json"; }

# A run of ward under this test's root and globals, its output (stdout and
# stderr) in $out and its status in $rc; never holding bats' fd 3.
wrun() {
	rc=0
	out=$(timeout -s KILL 20 "$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" "$@" 2>&1 </dev/null 3>&-) || rc=$?
}

# wait_files COUNT GLOB...: wait (20 s at most) until COUNT files match.
wait_files() {
	local want=$1 end=$((SECONDS + 20)) have
	shift
	while :; do
		have=$(compgen -G "$1" | wc -l)
		[ "$have" -ge "$want" ] && return 0
		[ "$SECONDS" -lt "$end" ] || { echo "only $have of $want: $1"; return 1; }
		sleep 0.05
	done
}

# The container has stopped (a grep, not jq: sweeps poll it many times).
stopped_fast() { "$WARD" --root "$ROOT" state "$1" 2>/dev/null | grep -q '"status": *"stopped"'; }

# The prober (probe.c), built static once into the test cache and copied into
# this test's image as /bin/esc-probe; its findings go to /out (a volume:
# $OUT on the host, outside $TMP: baseline refuses a writable bind of
# anything inside the directory holding ward's state root), one file per
# probe. esc_teardown removes it.
probe_install() {
	local bin="$CACHE_DIR/esc-probe" src="$WARD_SRCDIR/tests/escapes/probe.c"
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		(
			flock 9
			if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
				${CC:-cc} -static -O2 -o "$bin.tmp" "$src" && mv "$bin.tmp" "$bin"
			fi
		) 9>"$CACHE_DIR/lock"
	fi
	cp "$bin" "$BUNDLE/rootfs/bin/esc-probe"
	OUT=$(mktemp -d /tmp/esc-out.XXXXXX)
	echo "$OUT" >"$TMP/.esc-out"
	mkdir -p "$BUNDLE/rootfs/out"
	chmod 777 "$OUT"
	cfg --arg o "$OUT" '.mounts += [{"destination": "/out", "type": "bind", "source": $o, "options": ["rbind", "rw"]}]'
	cp "$BUNDLE/config.json" "$BUNDLE/config.orig"
}

# wfile ARGS...: ward as wrun, its output through a file: for create, run -d
# and exec --detach, whose process inherits ward's stdout (a pipe would wait
# for the container's end).
wfile() {
	rc=0
	timeout -s KILL 20 "$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" "$@" >"$TMP/wfile.out" 2>&1 </dev/null 3>&- || rc=$?
	out=$(cat "$TMP/wfile.out")
}

# A RENAME_EXCHANGE loop in the background: swap A B SECONDS.
swap_start() {
	cat >"$TMP/swap.py" <<-'PY'
	import ctypes, sys, time
	libc = ctypes.CDLL(None, use_errno=True)
	a, b = sys.argv[1].encode(), sys.argv[2].encode()
	end = time.time() + float(sys.argv[3])
	while time.time() < end:
	    if libc.renameat2(-100, a, -100, b, 2) != 0:
	        sys.exit("renameat2: errno %d" % ctypes.get_errno())
	PY
	bg_start 30 "$TMP/swap.log" /usr/bin/python3 "$TMP/swap.py" "$@"
}
