#!/usr/bin/env bats
# What ward binds over paths in /dev and over masked paths (every profile):
#   CVE-2025-31133 (runc GHSA-9493-h29p-rfm2): runc masked maskedPaths by
#     bind-mounting the container's /dev/null over them; a container that
#     made its /dev/null a symlink (to /proc/sys/kernel/core_pattern,
#     /proc/sysrq-trigger) had that bound writable over the masked path, and
#     one that deleted it went unmasked. Class: the mask source is the null
#     device, verified, whatever the container's /dev holds; a masked file
#     reads empty and keeps nothing written to it; the host's /dev/null and
#     the targets stay untouched.
#   CVE-2025-52565 (runc GHSA-qw9x-cqr3-wc7r): with a terminal, runc bound the
#     pty over the container's /dev/console without checking what that was:
#     a symlink to a host path or to /proc/sys/kernel/core_pattern had the
#     pty bound there. Class: /dev/console is made by ward inside the
#     container's /dev, never followed; nothing outside the container is
#     bound or written.
# The container's /dev is ward's tmpfs unless config.json mounts one: the
# image's /dev/null and /dev/console are swept through a /dev volume (a host
# directory the container shares, read-only and writable) and through binds
# at /dev/null and /dev/console; the masked paths include image symlinks to
# core_pattern and to a host file.

load escapes

setup() {
	esc_setup
	TGT="$TMP/host-target"
	echo host-target >"$TGT"
	CORE=$(cat /proc/sys/kernel/core_pattern)
	# The shared /dev (outside $TMP: baseline refuses a writable bind inside
	# the directory holding ward's state root).
	VOL=$(mktemp -d /tmp/esc-out.XXXXXX)
	chmod 755 "$VOL"
	echo "$VOL" >"$TMP/.esc-out"
	echo secret >"$BUNDLE/rootfs/etc/secret"
	mkdir -p "$BUNDLE/rootfs/mnt/mdir"
	echo secret >"$BUNDLE/rootfs/mnt/mdir/f"
	ln -s /proc/sys/kernel/core_pattern "$BUNDLE/rootfs/mnt/ml"
	ln -s "$TGT" "$BUNDLE/rootfs/mnt/mh"
	echo bind-source >"$TMP/bind-src"
}

teardown() {
	# (a failed mask could have reached the host's core_pattern)
	[ -z "${CORE:-}" ] || [ "$(cat /proc/sys/kernel/core_pattern)" = "$CORE" ] || echo "$CORE" >/proc/sys/kernel/core_pattern
	unmount_test_mounts
	esc_teardown
}

# vol_dev KIND: the shared /dev's content: null and console as KIND says.
vol_dev() {
	rm -rf "${VOL:?}"/*
	mkdir -p "$VOL/pts" "$VOL/shm" "$VOL/mqueue"
	case $1 in
	null-core) ln -s /proc/sys/kernel/core_pattern "$VOL/null" ;;
	null-host) ln -s "$TGT" "$VOL/null" ;;
	null-file) echo planted >"$VOL/null" ;;
	null-zero) mknod "$VOL/null" c 1 5 ;;
	null-none) ;;
	console-host) ln -s "$TGT" "$VOL/console" ;;
	console-climb) ln -s "../../../../../../../..$TGT" "$VOL/console" ;;
	console-core) ln -s /proc/sys/kernel/core_pattern "$VOL/console" ;;
	console-dangling) ln -s /nonexistent/x "$VOL/console" ;;
	esac
}

# The host's side, after every run: nothing written, bound or replaced.
host_untouched() {
	[ "$(stat -c '%F %t:%T' /dev/null)" = "character special file 1:3" ] || { echo "the host's /dev/null: $(stat -c '%F %t:%T' /dev/null)"; return 1; }
	[ "$(cat /proc/sys/kernel/core_pattern)" = "$CORE" ] || { echo "the host's core_pattern: $(cat /proc/sys/kernel/core_pattern)"; return 1; }
	[ "$(cat "$TGT")" = host-target ] || { echo "the host's $TGT: $(cat "$TGT")"; return 1; }
	! grep -qE " ($TGT|/proc/sys/kernel/core_pattern|/dev/null) " /proc/self/mountinfo || { echo "a mount on the host: $(grep -E " ($TGT|/proc/sys/kernel/core_pattern|/dev/null) " /proc/self/mountinfo)"; return 1; }
}

# judge_dev WHAT: a clean run (VERDICT-OK, no ESCAPED) or a one-line refusal;
# and the host untouched.
judge_dev() {
	local why
	why=$(verdict_ok "$out" "$rc" '^ward: ') || { echo "$1: $why"; bad=$((bad + 1)); }
	[ "$rc" -eq 0 ] && ran=$((ran + 1))
	[ "$rc" -eq 0 ] || echo "$1: $out" >>"$TMP/refusals"
	why=$(host_untouched) || { echo "$1: $why"; bad=$((bad + 1)); }
	"$WARD" --root "$ROOT" delete --force "$ID" >/dev/null 2>&1 || true
}

# The masked paths' check from inside: each reads empty, keeps nothing
# written (what is written is the host's own core_pattern: harmless should a
# failed mask bind that file anywhere), a masked directory lists empty.
MASKED='for f in /proc/kcore /proc/keys /proc/timer_list /proc/sys/kernel/core_pattern /etc/secret /mnt/ml /mnt/mh; do
	[ -e "$f" ] || continue
	[ -z "$(head -c 64 "$f" 2>/dev/null)" ] || echo "ESCAPED: masked $f reads $(head -c 64 "$f")"
	case $f in /proc/kcore|/proc/keys|/proc/timer_list) ;; *) printf "%s\n" "$1" 2>/dev/null >"$f" ;; esac
	[ -z "$(head -c 64 "$f" 2>/dev/null)" ] || echo "ESCAPED: masked $f kept a write: $(head -c 64 "$f")"
done
[ -z "$(ls -A /mnt/mdir)" ] || echo "ESCAPED: masked /mnt/mdir lists $(ls -A /mnt/mdir)"
echo VERDICT-OK'

@test "CVE-2025-31133: masked paths are masked with the verified null device whatever the container's /dev/null is (symlink to core_pattern or a host file, a file, /dev/zero, missing, a bind); they read empty and keep nothing; the host untouched, every profile" {
	local p v ro ran=0 bad=0 n=0
	for p in "${PROFILES[@]}"; do
		as "$p"
		for v in tmpfs null-core null-host null-file null-zero null-none bind-null; do
			for ro in ro rw; do
				[ "$v" = tmpfs ] && [ "$ro" = ro ] && continue
				cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
				cfg --arg m "$MASKED" --arg c "$CORE" '.process.args = ["sh", "-c", $m, "-", $c] | .root.readonly = false
					| .linux.maskedPaths += ["/proc/sys/kernel/core_pattern", "/etc/secret", "/mnt/ml", "/mnt/mh", "/mnt/mdir"]
					| .linux.readonlyPaths -= ["/proc/sys"]'
				case $v in
				null-*)
					vol_dev "$v"
					cfg --arg v "$VOL" --arg o "$ro" '.mounts |= map(if .destination == "/dev" then {"destination": "/dev", "type": "bind", "source": $v, "options": ["rbind", $o]} else . end)'
					;;
				# (a bind the config makes writable is the container's to write)
				bind-null) cfg --arg s "$TMP/bind-src" --arg o "$ro" '.mounts += [{"destination": "/dev/null", "type": "bind", "source": $s, "options": ["bind", $o]}]' ;;
				esac
				wrun run --bundle "$BUNDLE" "$ID"
				n=$((n + 1))
				judge_dev "$p /dev: $v ($ro)"
			done
		done
	done
	tally "$n configs: $ran ran with every mask holding, the rest refused; $bad escaped"
	[ ! -e "$TMP/refusals" ] || sed 's/^/# refused: /' "$TMP/refusals" | sed "s|$TMP|\$TMP|g; s|$VOL|\$VOL|g" >&3
	[ "$ran" -gt 0 ]
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}

# From inside: /dev/console is the container's pty, core_pattern is no pty
# and holds no mount.
CONSOLE='[ "$(stat -c %t /dev/console)" = 88 ] || echo "ESCAPED: /dev/console is $(stat -c "%F %t:%T" /dev/console)"
[ -f /proc/sys/kernel/core_pattern ] && [ ! -c /proc/sys/kernel/core_pattern ] || echo "ESCAPED: core_pattern is $(stat -c %F /proc/sys/kernel/core_pattern)"
! grep -q " /proc/sys/kernel/core_pattern " /proc/self/mountinfo || echo "ESCAPED: a mount on core_pattern"
echo VERDICT-OK'

@test "CVE-2025-52565: with a terminal (run, create --console-socket) /dev/console is never followed: a symlink to a host file, a climb to it, core_pattern or nowhere, a bind at /dev/console; nothing outside bound or written, every profile" {
	local p v ro mode ran=0 bad=0 n=0 k=0
	mkdir -p "$TMP/sink"
	bg_start 60 "$TMP/sink.log" "$BATS_TEST_DIRNAME/console-sink" "$TMP/sink.sock" "$TMP/sink"
	wait_for "the console sink" test -S "$TMP/sink.sock"
	for p in "${PROFILES[@]}"; do
		as "$p"
		for v in tmpfs console-host console-climb console-core console-dangling bind-console; do
			for ro in ro rw; do
				[ "$v" = tmpfs ] && [ "$ro" = ro ] && continue
				for mode in run create; do
					cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
					cfg --arg s "$CONSOLE" '.process.args = ["sh", "-c", $s] | .process.terminal = true'
					case $v in
					console-*)
						vol_dev "$v"
						cfg --arg v "$VOL" --arg o "$ro" '.mounts |= map(if .destination == "/dev" then {"destination": "/dev", "type": "bind", "source": $v, "options": ["rbind", $o]} else . end)'
						;;
					bind-console) cfg --arg s "$TMP/bind-src" --arg o "$ro" '.mounts += [{"destination": "/dev/console", "type": "bind", "source": $s, "options": ["bind", $o]}]' ;;
					esac
					n=$((n + 1))
					if [ "$mode" = run ]; then
						wrun run --bundle "$BUNDLE" "$ID"
					else
						k=$(ls "$TMP/sink" | grep -c '^[0-9]*$') || true
						wfile create --console-socket "$TMP/sink.sock" --bundle "$BUNDLE" "$ID"
						# (a refused create may have connected too: its pty closes empty)
						k=$((k + 1))
						if [ "$rc" -eq 0 ]; then
							wait_files 1 "$TMP/sink/$k" || true
							wrun start "$ID"
							wait_files 1 "$TMP/sink/$k.done" || true
							out=$(tr -d '\r' <"$TMP/sink/$k")
							rc=0
						fi
					fi
					judge_dev "$p /dev: $v ($ro) $mode"
				done
			done
		done
	done
	tally "$n configs: $ran ran with /dev/console the pty, the rest refused; $bad escaped"
	[ ! -e "$TMP/refusals" ] || sed 's/^/# refused: /' "$TMP/refusals" | sed "s|$TMP|\$TMP|g; s|$VOL|\$VOL|g" >&3
	[ "$ran" -gt 0 ]
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}
