#!/usr/bin/env bats
# CVE-2024-45310 (runc GHSA-jfvp-7x6p-h2pv): runc created the mount points of
# a container's mounts (empty directories, empty files for file binds) with
# an os.MkdirAll that followed symlinks; a second container sharing the
# volume swapped a path component for a symlink to a host directory while
# runc was between its check and its mkdir, and runc made empty files and
# directories on the host. Class: every mount point ward creates is created
# inside the container's root (volumes included), whatever the container does
# to the path meanwhile; nothing is made outside.
# Swept: a shared volume at /v with mounts below it (a tmpfs at /v/a/b/c, a
# file bind at /v/a/f, a tmpfs at /v/a/d/e), while its /v/a is exchanged
# (RENAME_EXCHANGE, the other container's move, done here from the host on
# the shared directory) with a symlink to a host directory, absolute and as a
# climb, every profile, as many runs as fit in 0.8 s each. Every run: the host
# directory stays empty and holds no mount.

load escapes

setup() {
	esc_setup
	# The volume: outside $TMP (a writable bind inside the directory holding
	# ward's state root is refused by baseline), writable by strict's
	# container root (an unprivileged host uid).
	SHV=$(mktemp -d /tmp/esc-out.XXXXXX)
	echo "$SHV" >"$TMP/.esc-out"
	chmod 777 "$SHV"
	OUTSIDE="$TMP/outside"
	mkdir -p "$OUTSIDE" "$BUNDLE/rootfs/v"
	chmod 777 "$OUTSIDE"
	echo file-source >"$TMP/srcfile"
	chmod 644 "$TMP/srcfile"
	chmod 755 "$TMP"
}

teardown() {
	unmount_test_mounts
	esc_teardown
}

@test "CVE-2024-45310: mount points under a shared volume whose path is swapped for a symlink to a host dir (absolute, a climb) are never made on the host, every profile" {
	local p target runs end held=0 bad=0
	for target in "$OUTSIDE" "../../../../../../../../../..$OUTSIDE"; do
		for p in "${PROFILES[@]}"; do
			as "$p"
			cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
			rm -rf "${SHV:?}"/*
			mkdir -p "$SHV/a"
			chmod 777 "$SHV/a"
			ln -s "$target" "$SHV/l"
			cfg --arg s "$SHV" --arg f "$TMP/srcfile" '.mounts += [
					{"destination": "/v", "type": "bind", "source": $s, "options": ["rbind", "rw"]},
					{"destination": "/v/a/b/c", "type": "tmpfs", "source": "tmpfs"},
					{"destination": "/v/a/f", "type": "bind", "source": $f, "options": ["bind", "ro"]},
					{"destination": "/v/a/d/e", "type": "tmpfs", "source": "tmpfs"}]
				| .process.args = ["echo", "ran"]'
			swap_start "$SHV/a" "$SHV/l" 1.1
			runs=0 end=$((${EPOCHREALTIME/./} + 800000))
			while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
				wrun run --bundle "$BUNDLE" "$ID"
				runs=$((runs + 1))
				case "$rc:$out" in
				0:ran) held=$((held + 1)) ;;
				1:ward:* | 125:ward:* | 126:ward:*) [[ "$out" != *$'\n'* ]] || { echo "$p run $runs: a refusal of more than one line: $out"; bad=$((bad + 1)); } ;;
				*) echo "$p, link to $target, run $runs: neither a run nor a refusal (rc $rc): $out"; bad=$((bad + 1)) ;;
				esac
				"$WARD" --root "$ROOT" delete --force "$ID" >/dev/null 2>&1 || true
				[ -z "$(ls -A "$OUTSIDE")" ] || { echo "$p, link to $target, run $runs: made on the host: $(cd "$OUTSIDE" && find . -mindepth 1)"; bad=$((bad + 1)); rm -rf "${OUTSIDE:?}"/*; }
				! grep -qF "$OUTSIDE" /proc/self/mountinfo || { echo "$p: a mount landed on the host's $OUTSIDE"; bad=$((bad + 1)); }
			done
			wait "$BGPID" 2>/dev/null || true
			tally "$p, /v/a swapped with a link to ${target//$TMP/\$TMP}: $runs runs ($held ran so far, the rest refused), $bad bad so far"
		done
	done
	[ "$held" -gt 0 ] || fail "no run ever went through (the race test ran nothing)"
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}
