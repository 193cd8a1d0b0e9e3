#!/usr/bin/env bats
# CVE-2023-25809 (runc GHSA-m8cg-xc2p-r3fc): rootless runc left
# /sys/fs/cgroup writable (1) inside a user namespace when config.json does
# not unshare the cgroup namespace, and (2) when /sys is a "rbind,ro" bind of
# the host's (runc spec --rootless: "ro" did not reach the submounts). The
# container's root, which is the user, could then write the user's own
# (delegated) cgroup files on the host: lift the limits the host set there,
# make cgroups. Class: whatever config.json asks ("rw" included), a rootless
# container without a cgroup namespace of its own cannot write any host
# cgroup file.
# Swept: a user made for the test (tests/helpers/rootless.bash) owns cgroups
# the host made for it (v1 pids and memory, the hybrid's cgroup2, or the
# cgroup2 root's; what a delegation gives) with limits set, and runs ward from
# inside them, every profile: /sys/fs/cgroup mounted "rw" without a cgroup
# namespace, and /sys a "rbind,ro" bind of the host's. From inside: every
# cgroup file the container sees is opened for writing (nothing written) and
# a directory made in every cgroup directory; from the host: the limits and
# the cgroups unchanged.

# HOLE 3 (found by this test, open on the code it was written on): compat
# mounts the container's own cgroups read-write when config.json asks "rw"
# in a user namespace without a cgroup namespace, and does not make a
# "rbind,ro" bind of /sys read-only below it: the container's root writes the
# user's cgroup files the host made (pids.max "1000" -> "max") and makes
# cgroups there. runc forces both read-only since 1.1.5; baseline and strict
# refuse both configs.

load escapes
load ../helpers/rootless

setup_file() {
	rootless_users
}

setup() {
	esc_setup
	U=$RL
	UTMP=$(mktemp -d /tmp/ward-rl.XXXXXX)
	rootless_binary "$UTMP"
	UXDG="$UTMP/xdg"
	UB="$UTMP/bundle"
	mkdir -p "$UB" "$UXDG"
	cp -a "$ROOTFS_CACHE" "$UB/rootfs"
	"$WARD" spec --full --bundle "$UB"
	chmod 700 "$UXDG"
	chown -R "$U:" "$UXDG" "$UB"
	# The cgroups the host made for the user, and their limits.
	CGS=()
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		CGS+=("/sys/fs/cgroup/ward-test-rl-$ID")
	else
		for h in pids memory unified; do
			[ -d "/sys/fs/cgroup/$h" ] && CGS+=("/sys/fs/cgroup/$h/ward-test-rl-$ID")
		done
	fi
	for d in "${CGS[@]}"; do
		mkdir "$d"
		[ -e "$d/pids.max" ] && echo 1000 >"$d/pids.max"
		[ -e "$d/memory.limit_in_bytes" ] && echo 268435456 >"$d/memory.limit_in_bytes"
		chown -R "$U" "$d"
		(cd "$d" && for f in *; do [ -f "$f" ] && printf '%s %s\n' "$f" "$(head -c 200 "$f" 2>/dev/null | md5sum)"; done) >"$TMP/cg.${d//\//_}"
	done
}

teardown() {
	local c d p
	for c in $(ls "$UXDG/ward" 2>/dev/null); do
		as_user -- "$UBIN" delete --force "$c" >/dev/null 2>&1 || true
	done
	for d in "${CGS[@]}"; do
		[ -d "$d" ] || continue
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null || true
	done
	rm -rf "$UTMP"
	esc_teardown
}

# From inside: every cgroup file opened for writing (O_APPEND, nothing
# written), a directory tried in every cgroup directory (not in the tmpfs
# that holds v1's hierarchies).
PROBE='n=0
for f in $(find /sys/fs/cgroup -maxdepth 6 -type f 2>/dev/null | head -4000); do
	n=$((n + 1))
	if (: >>"$f") 2>/dev/null; then echo "ESCAPED: $f opened for writing"; fi
done
for d in $(find /sys/fs/cgroup -maxdepth 5 -type d 2>/dev/null | head -500); do
	case $(stat -f -c %t "$d") in 27e0eb|63677270) ;; *) continue ;; esac
	if mkdir "$d/esc-probe" 2>/dev/null; then echo "ESCAPED: made $d/esc-probe"; rmdir "$d/esc-probe"; fi
done
echo "cgroup files seen: $n"
echo VERDICT-OK'

# The host side: each cgroup's files as they were, no cgroup made in it.
host_cgroups_unchanged() {
	local d now
	for d in "${CGS[@]}"; do
		now=$(cd "$d" && for f in *; do [ -f "$f" ] && printf '%s %s\n' "$f" "$(head -c 200 "$f" 2>/dev/null | md5sum)"; done)
		# (what the kernel counts changes with use: only the limits and the
		# controls are compared)
		diff <(grep -E '^(pids\.max|memory\.limit_in_bytes|memory\.max|cgroup\.subtree_control|notify_on_release|cgroup\.type|cgroup\.max\.[a-z]*) ' "$TMP/cg.${d//\//_}") \
			<(printf '%s\n' "$now" | grep -E '^(pids\.max|memory\.limit_in_bytes|memory\.max|cgroup\.subtree_control|notify_on_release|cgroup\.type|cgroup\.max\.[a-z]*) ') >/dev/null ||
			{ echo "$d changed: $(diff <(cat "$TMP/cg.${d//\//_}") <(printf '%s\n' "$now"))"; return 1; }
		[ -z "$(find "$d" -mindepth 1 -type d)" ] || { echo "cgroups made in $d: $(find "$d" -mindepth 1 -type d)"; return 1; }
	done
}

@test "CVE-2023-25809: a rootless container without a cgroup namespace cannot write the host's cgroup files (/sys/fs/cgroup asked rw; /sys a rbind,ro bind), every profile" {
	local p v why bad=0 ran=0 procs
	[ "${#CGS[@]}" -gt 0 ] || skip "no cgroup hierarchy to delegate here"
	procs=$(printf '%s/cgroup.procs ' "${CGS[@]}")
	for p in "${PROFILES[@]}"; do
		for v in cgroup-rw sys-rbind-ro; do
			cp "$UB/config.json" "$TMP/u.orig" 2>/dev/null
			jq --arg s "$PROBE" --arg v "$v" '.process.args = ["sh", "-c", $s]
				| .linux.namespaces -= [{"type": "cgroup"}]
				| if $v == "cgroup-rw" then
					.mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["nosuid", "noexec", "nodev", "relatime", "rw"]}]
				  else
					.mounts |= map(if .destination == "/sys" then {"destination": "/sys", "type": "none", "source": "/sys", "options": ["rbind", "nosuid", "noexec", "nodev", "ro"]} else . end)
				  end' "$TMP/u.orig" >"$UB/config.json"
			chown "$U:" "$UB/config.json"
			# ward started inside the user's cgroups, as from its session.
			rc=0
			out=$(sh -c 'for f in $1; do echo $$ >$f; done; shift; exec setpriv --reuid "$1" --regid "$1" --clear-groups env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$2" "$3" --profile "$4" run --bundle "$5" "$6"' \
				_ "$procs" "$U" "$UXDG" "$UBIN" "$p" "$UB" "$ID" 2>&1 </dev/null 3>&-) || rc=$?
			cp "$TMP/u.orig" "$UB/config.json"
			if why=$(verdict_ok "$(printf '%s\n' "$out" | grep -v '^cgroup files seen' | grep -v 'not enforced')" "$rc" '^ward: '); then
				[ "$rc" -eq 0 ] && ran=$((ran + 1))
				tally "$p $v: rc $rc: $(printf '%s\n' "$out" | grep -E '^(cgroup files seen|ward:)' | head -2 | tr '\n' ' ')"
			else
				echo "$p $v: $why"
				bad=$((bad + 1))
			fi
			why=$(host_cgroups_unchanged) || { echo "$p $v: $why"; bad=$((bad + 1)); }
			as_user -- "$UBIN" delete --force "$ID" >/dev/null 2>&1 || true
		done
	done
	tally "$ran ran contained, $bad escaped"
	[ "$ran" -gt 0 ]
	[ "$bad" -eq 0 ]
}
