#!/usr/bin/env bats
# Containment: mounts (issue #12). Host paths are opened once and decided on
# that fd, which is what gets mounted; filesystem types are an allow-list;
# options acting on existing mounts are refused. Each attack under baseline
# and strict: the container runs (a marker from inside) and the host stays
# out of reach, or create refuses naming the field, the reason and the
# opt-out, and leaves nothing behind.

load ../helpers/common

PROFILES=(baseline strict)

setup() {
	ward_setup
	MARK="inside-$RANDOM$RANDOM"
	# A second state root for containers the attack targets (the test's own
	# $ROOT must be empty after a refusal).
	ROOT2="$TMP/state2"
	ID2="wto-$$-$RANDOM"
}

teardown() {
	local l
	"$WARD" --root "$ROOT2" delete --force "$ID2" >/dev/null 2>&1 || true
	ward_teardown
	# Mounts a test made on the host, innermost first.
	unmount_test_mounts
	for l in $(cat "$TMP/.loops" 2>/dev/null); do
		losetup -d "$l" 2>/dev/null || true
	done
	[ -n "${RACE_MARK:-}" ] && rm -f "$RACE_MARK"
	true
}

# as PROFILE: every ward call of the test from now on under that profile.
as() { WARD_GLOBALS=(--profile "$1"); }

# The index the next mount gets.
next_mount() { jq '.mounts | length' "$BUNDLE/config.json"; }

add_mount() { cfg --argjson m "$1" '.mounts += [$m]'; }
drop_mount() { cfg 'del(.mounts[-1])'; }
bind() { # bind SOURCE [OPTION...]: a bind mount of SOURCE at /mnt
	local src=$1 opts
	shift
	opts=$(printf '%s\n' rbind "$@" | jq -R . | jq -sc .)
	cfg --arg s "$src" --argjson o "$opts" \
		'.mounts += [{"destination": "/mnt", "type": "bind", "source": $s, "options": $o}]'
}

# runs PROFILE: the config as it stands (without the attack) runs under
# PROFILE: its marker comes back from inside.
runs() {
	as "$1"
	cmd "echo $MARK"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$MARK"
	assert_no_leftovers
}

# refused PROFILE FIELD WHY [OPTOUT]: create fails with exactly that line,
# nothing ran, and nothing is left.
refused() {
	local want="ward: config.json: $2: $3 (refused by the $1 profile)"
	[ -z "${4:-}" ] || want="ward: config.json: $2: $3 $(optout_tail "$1" "$4")"
	as "$1"
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "$want"
	assert_no_leftovers
}

# ---- filesystem types and options ----

@test "mounts: a disk's ext4, devtmpfs, a second proc, debugfs, binfmt_misc, an overlay of /etc, remount: refused" {
	local n dev fs shm_before types
	types='(tmpfs, proc, sysfs, devpts, mqueue, cgroup, cgroup2, overlay, bind)'
	truncate -s 16M "$TMP/disk.img"
	mkfs.ext4 -q -F "$TMP/disk.img"
	dev=$(losetup -f --show "$TMP/disk.img")
	echo "$dev" >>"$TMP/.loops"
	shm_before=$(findmnt -n -o OPTIONS /dev/shm)
	for p in "${PROFILES[@]}"; do
		runs "$p"
		n=$(next_mount)
		add_mount "{\"destination\": \"/mnt\", \"type\": \"ext4\", \"source\": \"$dev\"}"
		refused "$p" ".mounts[$n].type" "/mnt: filesystem type \"ext4\" is not one a container needs $types" mount-type.ext4
		drop_mount
		# The host's own disk, as findmnt names it.
		fs=$(findmnt -n -o FSTYPE /)
		case " tmpfs overlay " in
		*" $fs "*) ;;
		*)
			add_mount "{\"destination\": \"/mnt\", \"type\": \"$fs\", \"source\": \"$(findmnt -n -o SOURCE /)\"}"
			refused "$p" ".mounts[$n].type" "/mnt: filesystem type \"$fs\" is not one a container needs $types" "mount-type.$fs"
			drop_mount
			;;
		esac
		for t in devtmpfs debugfs binfmt_misc; do
			add_mount "{\"destination\": \"/mnt\", \"type\": \"$t\", \"source\": \"$t\"}"
			refused "$p" ".mounts[$n].type" "/mnt: filesystem type \"$t\" is not one a container needs $types" "mount-type.$t"
			drop_mount
		done
		add_mount '{"destination": "/mnt/proc", "type": "proc", "source": "proc"}'
		refused "$p" ".mounts[$n].type" "proc goes only at /proc (here: /mnt/proc)" mount-type.proc
		drop_mount
		add_mount '{"destination": "/mnt", "type": "overlay", "source": "overlay", "options": ["lowerdir=/etc"]}'
		refused "$p" ".mounts[$n].options" "/etc is the host's /etc" mount:/etc
		drop_mount
		add_mount '{"destination": "/dev/shm", "type": "tmpfs", "source": "shm", "options": ["remount", "size=1g"]}'
		refused "$p" ".mounts[$n].options" '"remount" acts on an existing mount, not a new one'
		drop_mount
	done
	# The loop device was never mounted; the host's /dev/shm is as it was.
	run grep -F "$dev " /proc/self/mountinfo
	assert_failure
	assert_equal "$(findmnt -n -o OPTIONS /dev/shm)" "$shm_before"
}

@test "mounts: a sysfs the config asks to be writable cannot change the host's kernel settings" {
	# Under baseline the container's root is the host's root (it owns
	# /sys/power/state, 0644): only a read-only mount keeps it from
	# suspending the host or retuning its kernel (EROFS); under strict the
	# user namespace does as well (EACCES). access(W_OK) asks without
	# writing (busybox's test -w says yes to root, always).
	local bad=""
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	cfg '.mounts |= map(if .type == "sysfs" then .options = ["nosuid", "noexec", "nodev", "rw"] else . end)
	     | .mounts += [{"destination": "/mnt/sys", "type": "sysfs", "source": "sysfs", "options": ["rw"]}]'
	for p in "${PROFILES[@]}"; do
		as "$p"
		cmd "echo $MARK
		     grep -E ' /(mnt/)?sys ' /proc/self/mountinfo | cut -d' ' -f5,6
		     for f in /sys/power/state /mnt/sys/power/state /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/profiling; do
		       [ -e \$f ] || continue
		       echo \"\$f: \$(sysprobe access @\$f 2)\"
		     done"
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_line "$MARK"
		assert_line --regexp '^/sys ro,'
		assert_line --regexp '^/mnt/sys ro,'
		assert_line --regexp '^/sys/power/state: errno (30|13)$'
		assert_line --regexp '^/mnt/sys/power/state: errno (30|13)$'
		if [[ "$output" == *": ok 0"* ]]; then bad+="$p: $output"$'\n'; fi
		assert_no_leftovers
	done
	[ -z "$bad" ] || fail "the host's sysfs is writable from inside: $bad"
}

@test "mounts: a flag option given a value (rw=, remount=) is an error, never the flag" {
	# libmount would read "rw=" as rw (after the policy's forced ro: a
	# writable sysfs) and "remount=" as MS_REMOUNT (the rootfs's host
	# filesystem reconfigured).
	for p in "${PROFILES[@]}"; do
		as "$p"
		cfg '.mounts |= map(if .type == "sysfs" then .options = ["nosuid", "noexec", "nodev", "ro", "rw="] else . end)'
		run ward run --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output --regexp '^ward: mounts\[[0-9]+\] \(/sys\): option "rw=": rw takes no value$'
		assert_no_leftovers
		cfg '.mounts |= map(if .type == "sysfs" then .options = ["nosuid", "noexec", "nodev", "ro"] else . end)
		     | .mounts += [{"destination": "/", "type": "tmpfs", "source": "tmpfs", "options": ["remount=", "size=1m"]}]'
		run ward run --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output --partial 'option "remount=": remount takes no value'
		assert_no_leftovers
		cfg 'del(.mounts[-1])'
	done
}

# ---- bind sources and root.path ----

@test "binds: system, kernel, state and engine paths, /etc and its files, spellings and links: refused; data works" {
	local n p src real why lib
	mkdir -p "$TMP/sockdir/a" "$TMP/data"
	python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$TMP/sockdir/a/containerd.sock"
	ln -s / "$TMP/rootlink"
	mkdir -p "$ROOT"
	local wardbin
	wardbin=$(dirname "$(readlink -f "$WARD")")
	# source|what it resolves to|the reason after the source
	local cases=(
		"/usr|/usr|is the host's /usr"
		"/run|/run|is the host's /run"
		"/var/run|/run|is the host's /run"
		"/etc|/etc|is the host's /etc"
		"/etc/shadow|/etc/shadow|is inside the host's /etc"
		"/etc/ssh|/etc/ssh|is inside the host's /etc"
		"/var/..|/|is the host's root filesystem"
		"/var/../etc|/etc|is the host's /etc"
		"//etc/./|/etc|is the host's /etc"
		"$TMP/rootlink|/|is the host's root filesystem"
		"$TMP/rootlink/etc|/etc|is the host's /etc"
		"$ROOT|$ROOT|is the host's $ROOT"
		"$TMP/sockdir|$TMP/sockdir|holds a container engine socket (./a/containerd.sock)"
	)
	# The directory ward runs from (which may hold this test's state root).
	case "$ROOT/" in
	"$wardbin"/*) cases+=("$wardbin|$wardbin|contains the host's $ROOT") ;;
	*) cases+=("$wardbin|$wardbin|is the host's $wardbin") ;;
	esac
	# /lib, and on a merged-/usr host what it is an alias of.
	lib=$(readlink -f /lib)
	cases+=("/lib|$lib|is the host's /lib")
	[ "$lib" = /lib ] || cases+=("$lib|$lib|is the host's /lib")
	n=$(next_mount)
	for p in "${PROFILES[@]}"; do
		runs "$p"
		for c in "${cases[@]}"; do
			IFS='|' read -r src real why <<<"$c"
			[ -e "$src" ] || [ -L "$src" ] || continue
			bind "$src" ro
			refused "$p" ".mounts[$n].source" "$src $why" "mount:$real"
			drop_mount
		done
		# root.path: the same rules.
		cfg '.root.path = "/etc"'
		refused "$p" ".root.path" "/etc is the host's /etc" mount:/etc
		# The host's own root as the container's (the host's files,
		# programs and /etc, writable where the config says so).
		cfg '.root.path = "/"'
		refused "$p" ".root.path" "/ is the host's root filesystem" mount:/
		cfg --arg l "$TMP/rootlink" '.root.path = $l'
		refused "$p" ".root.path" "$TMP/rootlink is the host's root filesystem" mount:/
		cfg '.root.path = "rootfs"'
	done
	# What is allowed works: /etc/hosts (a file engines give containers),
	# and a data directory the container writes (strict's root is host
	# uid 1879048192, the id pool's first range: it owns the directory).
	chown 1879048192:1879048192 "$TMP/data"
	chmod 777 "$TMP/data"
	for p in "${PROFILES[@]}"; do
		as "$p"
		cfg --arg d "$TMP/data" '.mounts += [{"destination": "/hosts", "type": "bind", "source": "/etc/hosts", "options": ["bind", "ro"]},
		                                     {"destination": "/data", "type": "bind", "source": $d, "options": ["rbind", "rw"]}]'
		cmd "echo $MARK; [ -s /hosts ] && echo hosts-read; echo $p >/data/written-$p"
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_line "$MARK"
		assert_line hosts-read
		assert_equal "$(cat "$TMP/data/written-$p")" "$p"
		assert_no_leftovers
		cfg 'del(.mounts[-1]) | del(.mounts[-1])'
	done
}

@test "binds: another container's state directory is refused, the container's own cannot be bound (their config.json)" {
	local n
	mkdir -p "$ROOT"
	n=$(next_mount)
	for p in "${PROFILES[@]}"; do
		runs "$p"
		# Another container of this state root, running.
		cmd 'sleep 100'
		as "$p"
		"$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" run -d --bundle "$BUNDLE" "$ID2" </dev/null >"$TMP/other.log" 2>&1
		[ -f "$ROOT/$ID2/config.json" ] || fail "no state of $ID2: $(cat "$TMP/other.log")"
		bind "$ROOT/$ID2" rw
		as "$p"
		cmd "echo $MARK"
		run ward create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output "ward: config.json: .mounts[$n].source: $ROOT/$ID2 is inside the host's $ROOT $(optout_tail "$p" "mount:$ROOT/$ID2")"
		[ ! -e "$ROOT/$ID" ] || fail "state of the refused container left behind"
		drop_mount
		"$WARD" --root "$ROOT" delete --force "$ID2" >/dev/null 2>&1
		# Its own: the state directory create makes for it (not there
		# when the source is opened: create's error, nothing mounted).
		bind "$ROOT/$ID" rw
		run ward create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
		assert_output --partial "$ROOT/$ID"
		assert_no_leftovers
		drop_mount
	done
}

@test "binds: /proc/<pid>/root of another container and of PID 1 (magic links) are refused, never mounted" {
	local n pid
	echo "secret-$RANDOM" >"$BUNDLE/rootfs/secret"
	n=$(next_mount)
	for p in "${PROFILES[@]}"; do
		runs "$p"
		as "$p"
		cmd 'sleep 100'
		"$WARD" --root "$ROOT2" "${WARD_GLOBALS[@]}" run -d --bundle "$BUNDLE" "$ID2" </dev/null >"$TMP/other.log" 2>&1
		pid=$("$WARD" --root "$ROOT2" state "$ID2" | jq -r .pid)
		[ -e "/proc/$pid/root/secret" ] || fail "the other container does not run: $(cat "$TMP/other.log")"
		for src in "/proc/$pid/root/secret" "/proc/$pid/root" "/proc/self/root" "/proc/1/root/etc"; do
			bind "$src" ro
			as "$p"
			run ward create --bundle "$BUNDLE" "$ID"
			assert_failure 126
			# (PID 1's: ward may not even look: EACCES)
			assert_output --regexp "^ward: config\.json: \.mounts\[$n\]\.source: $src cannot be opened \((Too many levels of symbolic links|Permission denied)\): a path ward cannot decide on is refused \(refused by the $p profile\)\$"
			assert_no_leftovers
			drop_mount
		done
		"$WARD" --root "$ROOT2" delete --force "$ID2"
	done
}

@test "binds: a bind-mount alias of /etc is /etc (by identity, not by name)" {
	local n
	mkdir -p "$TMP/alias"
	n=$(next_mount)
	bind "$TMP/alias" ro
	for p in "${PROFILES[@]}"; do
		runs "$p"
		# (runs added its command: keep the alias mount last)
		as "$p"
		cmd "echo $MARK; ls /mnt"
		# In a mount namespace of its own, which dies with it.
		run unshare -m --propagation private sh -c 'mount --bind /etc "$1" && shift && exec "$@"' sh \
			"$TMP/alias" "$WARD" --root "$ROOT" --profile "$p" create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output "ward: config.json: .mounts[$n].source: $TMP/alias is the host's /etc $(optout_tail "$p" "mount:$TMP/alias")"
		assert_no_leftovers
	done
}

@test "binds: a tree holding a mount of /etc (rbind copies submounts) does not hand the container /etc" {
	# The source and the rootfs are cloned with their submounts: what is
	# mounted inside them is a host path too. The mounts are made in a
	# mount namespace of ward's own (unshare), which dies with it.
	local n out bad=""
	mkdir -p "$TMP/data/x" "$BUNDLE/rootfs/hostetc"
	n=$(next_mount)
	for p in "${PROFILES[@]}"; do
		runs "$p"
		bind "$TMP/data" ro
		as "$p"
		cmd "echo $MARK; [ -s /mnt/x/passwd ] && echo HOST-ETC-IN-SOURCE; [ -s /hostetc/passwd ] && echo HOST-ETC-IN-ROOTFS; true"
		for where in "$TMP/data/x" "$BUNDLE/rootfs/hostetc"; do
			run unshare -m --propagation private sh -c 'mount --bind /etc "$1" && shift && exec "$@"' sh \
				"$where" "$WARD" --root "$ROOT" --profile "$p" run --bundle "$BUNDLE" "$ID"
			if [ "$status" -eq 0 ]; then
				assert_line "$MARK"
				if [[ "$output" == *HOST-ETC* ]]; then bad+=" $p:$where"; fi
			else
				[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
				assert_output --regexp "^ward: config\\.json: \\.(mounts\\[$n\\]\\.source|root\\.path): "
			fi
			assert_no_leftovers
		done
		drop_mount
	done
	[ -z "$bad" ] || fail "the host's /etc was mounted in the container through a submount of:$bad"
}

@test "binds: ward's binary itself is not handed to the container writable" {
	# The directory it runs from is refused (above); a bind of the file
	# would let the container's root replace the program every later
	# create runs as root.
	local bin n
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	bin=$(readlink -f "$WARD")
	n=$(next_mount)
	cfg --arg s "$bin" '.mounts += [{"destination": "/ward", "type": "bind", "source": $s, "options": ["bind", "rw"]}]'
	local bad=""
	for p in "${PROFILES[@]}"; do
		as "$p"
		cmd "echo $MARK; sysprobe access @/ward 2"
		run ward run --bundle "$BUNDLE" "$ID"
		if [ "$status" -eq 0 ]; then
			assert_line "$MARK"
			assert_line --regexp '^(ok 0|errno [0-9]+)$'
			if [[ "$output" == *"ok 0"* ]]; then bad+=" $p"; fi
		else
			assert_output --partial "config.json: .mounts[$n].source: $bin "
		fi
		assert_no_leftovers
	done
	[ -z "$bad" ] || fail "ward's binary $bin was bound writable into the container under:$bad"
}

@test "binds: strict refuses idmapped binds, the idmap option or a mount's own uidMappings" {
	local n
	mkdir -m 755 "$TMP/rootowned"
	echo host-owned >"$TMP/rootowned/file"
	chmod 644 "$TMP/rootowned/file"
	n=$(next_mount)
	runs strict
	# Files of host uid 0 shown as the container root's own (host uid
	# 1879048192, the pool's first range, in strict's user namespace).
	cfg --arg s "$TMP/rootowned" '.mounts += [{"destination": "/mnt", "type": "bind", "source": $s, "options": ["rbind", "idmap"]}]'
	refused strict ".mounts[$n].options" "an idmapped mount makes host files the container's own" idmap
	cfg --arg s "$TMP/rootowned" '.mounts[-1] = {"destination": "/mnt", "type": "bind", "source": $s, "options": ["rbind"],
	        "uidMappings": [{"containerID": 0, "hostID": 1879048192, "size": 1}],
	        "gidMappings": [{"containerID": 0, "hostID": 1879048192, "size": 1}]}'
	as strict
	cmd "echo $MARK; echo changed >>/mnt/file 2>/dev/null && echo wrote-host-file"
	run ward run --bundle "$BUNDLE" "$ID"
	if [ "$status" -eq 0 ]; then
		fail "strict ran an idmapped bind (uidMappings, no idmap option): $output; the host's file now: $(cat "$TMP/rootowned/file")"
	fi
	assert_output --partial ".mounts[$n].options: "
	assert_output --partial "opt-out: add \"idmap\" "
	assert_equal "$(cat "$TMP/rootowned/file")" host-owned
	assert_no_leftovers
}

# ---- the race: the path is decided on and mounted as one object ----

@test "binds: a source swapped for a symlink to / (RENAME_EXCHANGE) while ward runs never mounts the host's /" {
	local end runs harmless refusedn out rc n
	# A file only the host's / has (the harmless directory has another).
	RACE_MARK="/ward-race-$$-$RANDOM"
	echo host-root >"$RACE_MARK"
	mkdir -p "$TMP/race/src"
	echo harmless >"$TMP/race/src/harmless-marker"
	ln -s / "$TMP/race/alt"
	cat >"$TMP/swap.py" <<-'EOF'
	import ctypes, sys, time
	libc = ctypes.CDLL(None, use_errno=True)
	a, b = sys.argv[1].encode(), sys.argv[2].encode()
	if len(sys.argv) == 3:
	    sys.exit(libc.renameat2(-100, a, -100, b, 2) != 0)
	end = time.time() + float(sys.argv[3])
	while time.time() < end:
	    if libc.renameat2(-100, a, -100, b, 2) != 0:
	        sys.exit("renameat2: errno %d" % ctypes.get_errno())
	EOF
	n=$(next_mount)
	bind "$TMP/race/src" ro
	for p in "${PROFILES[@]}"; do
		runs=0 harmless=0 refusedn=0
		as "$p"
		cmd "if [ -e /mnt/${RACE_MARK#/} ]; then echo ESCAPED; elif [ -e /mnt/harmless-marker ]; then echo harmless; else echo other; ls /mnt; fi"
		/usr/bin/python3 "$TMP/swap.py" "$TMP/race/src" "$TMP/race/alt" 8 </dev/null >"$TMP/swap.log" 2>&1 3>&- &
		BGPID=$!
		track_pid "$BGPID"
		# At most 20 runs or 5 seconds per profile.
		end=$((SECONDS + 5))
		while [ "$SECONDS" -lt "$end" ] && [ "$runs" -lt 20 ]; do
			rc=0
			out=$(timeout 10 "$WARD" --root "$ROOT" "${WARD_GLOBALS[@]}" run --bundle "$BUNDLE" "$ID" 2>&1 </dev/null) || rc=$?
			runs=$((runs + 1))
			case "$rc:$out" in
			*ESCAPED*) fail "run $runs ($p): the host's / was mounted: $out" ;;
			"0:harmless") harmless=$((harmless + 1)) ;;
			"126:ward: config.json: .mounts[$n].source: $TMP/race/src is the host's root filesystem $(optout_tail "$p" mount:/)")
				refusedn=$((refusedn + 1)) ;;
			*) fail "run $runs ($p): neither the harmless directory nor a refusal (rc $rc): $out" ;;
			esac
			"$WARD" --root "$ROOT" delete --force "$ID" >/dev/null 2>&1 || true
		done
		kill -9 "$BGPID" 2>/dev/null || true
		wait "$BGPID" 2>/dev/null || true
		if grep -q renameat2 "$TMP/swap.log"; then fail "the swapper failed: $(cat "$TMP/swap.log")"; fi
		echo "# $p: $runs runs, $harmless with the harmless directory, $refusedn refused" >&3
		[ "$harmless" -gt 0 ] || fail "$p: no run got the harmless directory ($runs runs, $refusedn refused)"
		[ "$refusedn" -gt 0 ] || echo "# $p: the swap never showed ward the symlink" >&3
		# src back to the directory for the next profile.
		if [ -L "$TMP/race/src" ]; then /usr/bin/python3 "$TMP/swap.py" "$TMP/race/src" "$TMP/race/alt"; fi
		[ -d "$TMP/race/src" ] && [ ! -L "$TMP/race/src" ]
		assert_no_leftovers
	done
}

@test "a bind whose tree holds a unix socket is refused, read-only or not (a root service's socket would take the container's root as its client)" {
	# A stand-in for /run/systemd or /run/dbus: a directory with a
	# root-only socket two levels down (an attacker's review reached a
	# root service through a read-only bind of such a directory).
	mkdir -p "$TMP/svc/private"
	python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$TMP/svc/private/sock"
	chmod 600 "$TMP/svc/private/sock"
	cmd 'echo ran'
	for opts in '["rbind", "ro"]' '["rbind"]'; do
		cfg --arg s "$TMP/svc" --argjson o "$opts" '.mounts += [{"destination": "/svc", "type": "bind", "source": $s, "options": $o}]'
		refused_with "holds a unix socket (./private/sock): the service behind it would take the container's root as its client, read-only or not"
		cfg 'del(.mounts[-1])'
	done
	# The socket itself.
	cfg --arg s "$TMP/svc/private/sock" '.mounts += [{"destination": "/sock", "type": "bind", "source": $s, "options": ["bind"]}]'
	refused_with "is a unix socket: the service behind it would take the container's root as its client"
	# compat binds it, as runc.
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ran
	assert_no_leftovers
}
