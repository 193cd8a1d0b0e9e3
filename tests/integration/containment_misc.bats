#!/usr/bin/env bats
# Containment holes (issue #12): hooks only from files nobody but root can
# change and the container cannot reach, --preserve-fds passing only the
# caller's fds, cgroup mounts read-only, no network namespace refused.
# Seen from inside the container where it applies; refusals name the field,
# the reason and the opt-out, and leave nothing behind.

load ../helpers/common

setup() {
	ward_setup
	POLICY="$TMP/policy.json"
	# Where good hooks live: root's, 0755 (under /tmp, sticky and root's).
	HOOKS="$TMP/hooks"
	mkdir -p "$HOOKS"
	chmod 755 "$HOOKS"
}

teardown() {
	ward_teardown
}



# mkhook PATH WORD: a hook that appends WORD to $TMP/ran.
mkhook() {
	printf '#!/bin/sh\necho %s >>%s\n' "$2" "$TMP/ran" >"$1"
	chmod 755 "$1"
}

prestart() { cfg --arg p "$1" '.hooks = {"prestart": [{"path": $p}]}'; }

nothing_ran() {
	[ ! -e "$TMP/ran" ] || fail "a refused hook ran: $(cat "$TMP/ran")"
}

@test "hooks: baseline refuses a program others could change or the container can reach; nothing runs, nothing is left" {
	cmd 'echo ran-inside'
	# Vouched for (below): these are refused for what they are.
	vouch_hooks "$TMP/*" "$TMP/*/*" "$BUNDLE/*" "$BUNDLE/rootfs/bin/*" "/bin/*"
	# A directory anyone can write: the hook could be replaced by rename.
	mkdir "$TMP/ww"
	chmod 0777 "$TMP/ww"
	mkhook "$TMP/ww/h.sh" ww
	prestart "$TMP/ww/h.sh"
	refused_with "ward: config.json: .hooks.prestart[0].path: $TMP/ww/h.sh could be changed by others than root: $TMP/ww is writable by others (mode 0777) $(optout_tail baseline "hook:$TMP/ww/h.sh")"
	# ... or a link in it to a good hook (the link can be replaced).
	mkhook "$HOOKS/good.sh" good
	ln -s "$HOOKS/good.sh" "$TMP/ww/link"
	prestart "$TMP/ww/link"
	refused_with ".hooks.prestart[0].path: $TMP/ww/link could be changed by others than root: $TMP/ww is writable by others (mode 0777)"
	# A directory its group can write.
	mkdir "$TMP/gw"
	chmod 0775 "$TMP/gw"
	mkhook "$TMP/gw/h.sh" gw
	prestart "$TMP/gw/h.sh"
	refused_with "$TMP/gw is writable by its group (mode 0775)"
	# A file owned by a user, or one others can write.
	mkhook "$HOOKS/user.sh" user
	chown 65534 "$HOOKS/user.sh"
	prestart "$HOOKS/user.sh"
	refused_with ".hooks.prestart[0].path: $HOOKS/user.sh could be changed by others than root: $HOOKS/user.sh is owned by uid 65534"
	mkhook "$HOOKS/w.sh" w
	chmod 0757 "$HOOKS/w.sh"
	cfg --arg p "$HOOKS/w.sh" '.hooks = {"poststop": [{"path": "/bin/true"}, {"path": $p}]}'
	refused_with ".hooks.poststop[1].path: $HOOKS/w.sh could be changed by others than root: $HOOKS/w.sh is writable by others (mode 0757)"
	# Inside the bundle (the rootfs is the container's own files).
	mkhook "$BUNDLE/h.sh" bundle
	prestart "$BUNDLE/h.sh"
	refused_with ".hooks.prestart[0].path: $BUNDLE/h.sh is inside the bundle $(optout_tail baseline "hook:$BUNDLE/h.sh")"
	mkhook "$BUNDLE/rootfs/bin/h.sh" rootfs
	prestart "$BUNDLE/rootfs/bin/h.sh"
	refused_with "$BUNDLE/rootfs/bin/h.sh is inside the bundle"
	# Reached through another name (a link outside into the rootfs).
	ln -s "$BUNDLE/rootfs/bin" "$HOOKS/bin"
	prestart "$HOOKS/bin/h.sh"
	refused_with "$HOOKS/bin/h.sh is inside the bundle"
	# Inside a volume the container can write: the container's root
	# (host root here) could rewrite it before poststop.
	mkdir -m 755 "$TMP/vol"
	mkhook "$TMP/vol/h.sh" vol
	cfg --arg v "$TMP/vol" '.mounts += [{"destination": "/vol", "type": "bind", "source": $v, "options": ["rbind"]}]'
	cfg --arg p "$TMP/vol/h.sh" '.hooks = {"poststop": [{"path": $p}]}'
	refused_with ".hooks.poststop[0].path: $TMP/vol/h.sh is inside $TMP/vol, which mounts[$(($(jq '.mounts | length' "$BUNDLE/config.json") - 1))] lets the container write"
	# startContainer: a path in the container, its own program.
	cfg 'del(.mounts[-1]) | .hooks = {"startContainer": [{"path": "/bin/true"}]}'
	refused_with ".hooks.startContainer[0].path: /bin/true is a startContainer hook: a program of the container's own filesystem, which ward would run before the container's seccomp filter $(optout_tail baseline hook:/bin/true)"
	# One that does not resolve.
	prestart "$HOOKS/missing"
	refused_with ".hooks.prestart[0].path: $HOOKS/missing does not resolve on the host (No such file or directory)"
	nothing_ran
	# The same volume read-only: the container cannot change the hook.
	cfg --arg v "$TMP/vol" '.mounts += [{"destination": "/vol", "type": "bind", "source": $v, "options": ["rbind", "ro"]}]'
	cfg --arg p "$TMP/vol/h.sh" '.hooks = {"prestart": [{"path": $p}]}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ran-inside
	run cat "$TMP/ran"
	assert_output vol
	assert_no_leftovers
}

@test "hooks: the opt-out hook:PATH (policy and annotation) lifts the refusal of that hook only" {
	mkdir "$TMP/ww"
	chmod 0777 "$TMP/ww"
	mkhook "$TMP/ww/h.sh" opted-out
	mkhook "$TMP/ww/other.sh" other
	prestart "$TMP/ww/h.sh"
	cmd 'echo ran-inside'
	jq -n --arg o "hook:$TMP/ww/h.sh" '{allow: [$o]}' >"$POLICY"
	# The policy alone does not loosen anything.
	refused_with ".hooks.prestart[0].path: $TMP/ww/h.sh could be changed by others than root"
	cfg --arg k "org.ward.allow.hook:$TMP/ww/h.sh" '.annotations[$k] = "true"'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ran-inside
	run cat "$TMP/ran"
	assert_output opted-out
	rm "$TMP/ran"
	cfg --arg a "$TMP/ww/h.sh" --arg b "$TMP/ww/other.sh" '.hooks = {"prestart": [{"path": $a}, {"path": $b}]}'
	refused_with ".hooks.prestart[1].path: $TMP/ww/other.sh could be changed by others than root"
	nothing_ran
}

@test "hooks: the program that runs is the file ward checked, not what its path names later" {
	# prestart hook 0 renames another program over hook 1's path after
	# create checked hook 1: by fd, hook 1 is still the checked file.
	vouch_hooks "$HOOKS/*"
	setup_swap() {
		rm -f "$TMP/ran"
		mkhook "$HOOKS/second.sh" checked
		mkhook "$HOOKS/evil.sh" swapped-in
		printf '#!/bin/sh\nmv %s %s\n' "$HOOKS/evil.sh" "$HOOKS/second.sh" >"$HOOKS/swap.sh"
		chmod 755 "$HOOKS/swap.sh"
	}
	cfg --arg a "$HOOKS/swap.sh" --arg b "$HOOKS/second.sh" '.hooks = {"prestart": [{"path": $a}, {"path": $b}]}'
	cmd 'echo ran-inside'
	setup_swap
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ran-inside
	run cat "$TMP/ran"
	assert_output checked
	# compat runs hooks by path, as runc does: the renamed file.
	setup_swap
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	run cat "$TMP/ran"
	assert_output swapped-in
	assert_no_leftovers
}

@test "hooks: baseline runs a sound root program only when the operator vouches for it; a hooks directory's entry vouches for exactly its args and env" {
	cmd 'echo ran-inside'
	# The attack: a sound program (root's /bin/sh), told by the config to
	# do something as host root.
	cfg --arg f "$TMP/pwned" '.hooks = {"createRuntime": [{"path": "/bin/sh", "args": ["sh", "-c", ("id >" + $f)]}]}'
	refused_with "ward: config.json: .hooks.createRuntime[0].path: /bin/sh would run as root doing what the config says, and nobody vouches for it: it is not in the policy's \"hooks\", and no OCI hooks directory (\"hooksDirs\") has it with these args and env $(optout_tail baseline hook:/bin/sh)"
	[ ! -e "$TMP/pwned" ] || fail "the hook ran as host root"
	# Even without args: the state on its stdin is the config's too.
	cfg '.hooks = {"prestart": [{"path": "/bin/sh"}]}'
	refused_with ".hooks.prestart[0].path: /bin/sh would run as root doing what the config says"
	# What the operator installed in a hooks directory (Podman's format).
	mkdir -m 755 "$TMP/hooks.d"
	jq -n --arg f "$TMP/ran" '{version: "1.0.0", hook: {path: "/bin/sh", args: ["sh", "-c", ("echo vouched >>" + $f)], env: ["A=1"]}, when: {always: true}, stages: ["prestart"]}' >"$TMP/hooks.d/h.json"
	policy "$(jq -n --arg d "$TMP/hooks.d" '{hooksDirs: [$d]}')"
	entry() { jq -c '.hook' "$TMP/hooks.d/h.json"; }
	cfg --argjson h "$(entry)" '.hooks = {"prestart": [$h]}'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ran-inside
	run cat "$TMP/ran"
	assert_output vouched
	rm "$TMP/ran"
	# Anything else the config changes is not what was vouched for.
	for change in '.args[2] += "; id >/tmp/x"' '.args |= .[0:2]' '.env += ["LD_PRELOAD=/x"]' \
		'del(.env)' '.path = "/bin/busybox"'; do
		cfg --argjson h "$(entry | jq -c "$change")" '.hooks = {"prestart": [$h]}'
		refused_with "nobody vouches for it"
	done
	# ... nor the same hook at a point the entry does not list.
	cfg --argjson h "$(entry)" '.hooks = {"createRuntime": [$h]}'
	refused_with ".hooks.createRuntime[0].path: /bin/sh would run as root doing what the config says"
	# An entry others could have written vouches for nothing.
	cfg --argjson h "$(entry)" '.hooks = {"prestart": [$h]}'
	chmod 0664 "$TMP/hooks.d/h.json"
	refused_with "nobody vouches for it"
	chmod 0644 "$TMP/hooks.d/h.json"
	chown 65534 "$TMP/hooks.d/h.json"
	refused_with "nobody vouches for it"
	chown 0 "$TMP/hooks.d/h.json"
	chmod 0777 "$TMP/hooks.d"
	refused_with "nobody vouches for it"
	chmod 0755 "$TMP/hooks.d"
	# A file of the same name in a later directory overrides it, as in
	# Podman (an operator's /etc entry withdraws the package's).
	mkdir -m 755 "$TMP/hooks.etc"
	jq '.hook.args[2] = "true"' "$TMP/hooks.d/h.json" >"$TMP/hooks.etc/h.json"
	policy "$(jq -n --arg d "$TMP/hooks.d" --arg e "$TMP/hooks.etc" '{hooksDirs: [$d, $e]}')"
	refused_with "nobody vouches for it"
	mv "$TMP/hooks.etc/h.json" "$TMP/hooks.etc/other.json"
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	run cat "$TMP/ran"
	assert_output vouched
	rm "$TMP/ran"
	# Not the default directories when the policy names its own.
	jq -n --arg d "$TMP/other" '{hooksDirs: [$d]}' >"$POLICY"
	refused_with "nobody vouches for it"
	nothing_ran
	# The policy's "hooks" vouch for a program whatever it is told.
	vouch_hooks /bin/sh
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	run cat "$TMP/ran"
	assert_output vouched
	# compat runs hooks as runc does.
	rm -f "$TMP/ran" "$POLICY"
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	run cat "$TMP/ran"
	assert_output vouched
	assert_no_leftovers
}

@test "hooks: a path through a symlink the container can replace is refused (delete would run what it names then)" {
	# The hook's file is root's and out of reach, but the way to it passes
	# through $TMP/h/current, a symlink in a directory the container may
	# write: swapped before delete, delete (which runs poststop by path)
	# would run the container's script as root (attacker review 3).
	mkdir -m 755 "$TMP/h"
	mkhook "$HOOKS/hook.sh" hook
	ln -s "$HOOKS" "$TMP/h/current"
	vouch_hooks "$TMP/h/current/hook.sh"
	cmd 'echo ran-inside'
	cfg --arg h "$TMP/h" '.hooks = {"poststop": [{"path": ($h + "/current/hook.sh")}]} | .mounts += [{"destination": "/mnt/h", "type": "bind", "source": $h, "options": ["rbind", "rw"]}]'
	refused_with ".hooks.poststop[0].path: $TMP/h/current/hook.sh is inside $TMP/h, which mounts[$(($(jq '.mounts | length' "$BUNDLE/config.json") - 1))] lets the container write"
	nothing_ran
	# Read-only, the symlink stays as it is: it runs.
	cfg '.mounts[-1].options = ["rbind", "ro"]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	run cat "$TMP/ran"
	assert_output hook
	assert_no_leftovers
}

@test "hooks: strict runs only the hooks its policy lists" {
	WARD_GLOBALS=(--profile strict)
	mkhook "$HOOKS/h.sh" listed
	prestart "$HOOKS/h.sh"
	cmd 'echo ran-inside'
	refused_with "ward: config.json: .hooks.prestart[0].path: $HOOKS/h.sh is not in the policy's \"hooks\" (strict runs only those) $(optout_tail strict "hook:$HOOKS/h.sh")"
	nothing_ran
	jq -n --arg p "$HOOKS/*" '{hooks: [$p]}' >"$POLICY"
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ran-inside
	run cat "$TMP/ran"
	assert_output listed
	rm "$TMP/ran"
	# "*" is one component: not a subdirectory, not "..".
	mkdir -m 755 "$HOOKS/sub"
	mkhook "$HOOKS/sub/h.sh" sub
	prestart "$HOOKS/sub/h.sh"
	refused_with ".hooks.prestart[0].path: $HOOKS/sub/h.sh is not in the policy's \"hooks\""
	prestart "$HOOKS/../hooks/h.sh"
	refused_with ".hooks.prestart[0].path: $HOOKS/../hooks/h.sh is not in the policy's \"hooks\""
	# Listed, it must still pass baseline's checks.
	chmod 0777 "$HOOKS"
	prestart "$HOOKS/h.sh"
	refused_with "$HOOKS/h.sh could be changed by others than root: $HOOKS is writable by others (mode 0777)"
	nothing_ran
}

# The fds 3..5 the container's sh (pid 1 or not) has, by content or link.
FDS_PROBE='for f in 3 4 5; do
	if [ -e /proc/$$/fd/$f ]; then echo "fd $f: $(cat /proc/$$/fd/$f 2>/dev/null || readlink /proc/$$/fd/$f)"; fi
done
cat /proc/$$/fd/3/../../../etc/hostname 2>/dev/null && echo reached-3
ls /proc/$$/fd/4/ /proc/$$/fd/5/ >/dev/null 2>&1 && echo reached-4-5
echo ran-inside'

@test "--preserve-fds 3 with nothing passed: nothing at 3..5 inside, the host out of reach (run and create)" {
	cmd "$FDS_PROBE"
	run ward run --preserve-fds 3 --bundle "$BUNDLE" "$ID" 3>&- 4>&- 5>&-
	assert_success
	assert_output ran-inside
	# create, then start: ward's state root, the container's directory
	# and its cgroup were these fds once.
	"$WARD" --root "$ROOT" create --preserve-fds 3 --bundle "$BUNDLE" "$ID" >"$TMP/out" 2>&1 3>&- 4>&- 5>&-
	ward start "$ID"
	done_out() { grep -q ran-inside "$TMP/out"; }
	wait_for "the container's output" done_out
	run cat "$TMP/out"
	assert_output ran-inside
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "--preserve-fds and LISTEN_FDS: exactly the fds the caller passed arrive, at their numbers" {
	echo passed-4 >"$TMP/f4"
	echo listen-3 >"$TMP/f3"
	cmd "$FDS_PROBE"
	run ward run --preserve-fds 3 --bundle "$BUNDLE" "$ID" 3>&- 4<"$TMP/f4" 5>&-
	assert_success
	assert_output $'fd 4: passed-4\nran-inside'
	# systemd's socket activation: LISTEN_FDS come first, then the
	# preserved ones; the process is told how many (it is pid 1).
	cmd 'echo "LISTEN_FDS=$LISTEN_FDS LISTEN_PID=$LISTEN_PID"; '"$FDS_PROBE"
	LISTEN_FDS=1 run ward run --preserve-fds 1 --bundle "$BUNDLE" "$ID" 3<"$TMP/f3" 4>&- 5>&-
	assert_success
	assert_output $'LISTEN_FDS=1 LISTEN_PID=1\nfd 3: listen-3\nran-inside'
	LISTEN_FDS=2 run ward run --bundle "$BUNDLE" "$ID" 3>&- 4<"$TMP/f4" 5>&-
	assert_success
	assert_output $'LISTEN_FDS=2 LISTEN_PID=1\nfd 4: passed-4\nran-inside'
	# More than ward records is refused, not guessed at.
	run ward run --preserve-fds 70000 --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: --preserve-fds: ward passes at most 65536 fds (70000 asked for)'
	assert_no_leftovers
}

@test "--preserve-fds: the fds passed are the container's, not its hooks'" {
	vouch_hooks "$HOOKS/*"
	echo passed-4 >"$TMP/f4"
	printf '#!/bin/sh\nls -l /proc/$$/fd/ >%s\n' "$TMP/hook-fds" >"$HOOKS/fds.sh"
	chmod 755 "$HOOKS/fds.sh"
	cfg --arg p "$HOOKS/fds.sh" '.hooks = {"prestart": [{"path": $p}], "poststop": [{"path": $p}]}'
	cmd "$FDS_PROBE"
	run ward run --preserve-fds 3 --bundle "$BUNDLE" "$ID" 3>&- 4<"$TMP/f4" 5>&-
	assert_success
	assert_output $'fd 4: passed-4\nran-inside'
	run cat "$TMP/hook-fds"
	assert_success
	refute_output --partial "$TMP/f4"
	assert_no_leftovers
}

@test "exec --preserve-fds: only the fds the caller passed reach the exec'd process" {
	echo passed-4 >"$TMP/f4"
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec --preserve-fds 3 "$ID" sh -c "$FDS_PROBE" 3>&- 4>&- 5>&-
	assert_success
	assert_output ran-inside
	run ward exec --preserve-fds 2 "$ID" sh -c "$FDS_PROBE" 3>&- 4<"$TMP/f4" 5>&-
	assert_success
	assert_output $'fd 4: passed-4\nran-inside'
	ward delete --force "$ID"
	assert_no_leftovers
}

# What a cgroup mount at /sys/fs/cgroup lets the process do: "writable: D"
# for each directory it can make a cgroup in, "erofs N" for the refusals
# that said "Read-only file system".
CGROUP_PROBE='n=0
for d in /sys/fs/cgroup /sys/fs/cgroup/*/; do
	d=${d%/}
	if e=$(mkdir "$d/ward-probe" 2>&1); then
		echo "writable: $d"
		rmdir "$d/ward-probe"
	else
		case $e in *"Read-only file system"*) n=$((n + 1)) ;; *) echo "$d: $e" ;; esac
	fi
done
echo "erofs $n"
echo ran-inside'

@test "baseline: cgroup and cgroup2 mounts are read-only inside whatever their options (audited); cgroup-rw opts out" {
	cmd "$CGROUP_PROBE"
	for t in cgroup cgroup2; do
		cfg --arg t "$t" '.mounts += [{"destination": "/sys/fs/cgroup", "type": $t, "source": $t, "options": ["nosuid", "noexec", "nodev"]}]'
		n=$(jq '.mounts | length - 1' "$BUNDLE/config.json")
		run ward run --keep --bundle "$BUNDLE" "$ID"
		assert_success
		assert_line ran-inside
		refute_output --partial writable
		assert_line --regexp '^erofs [1-9]'
		run cat "$ROOT/$ID/audit.log"
		assert_line --partial "\"field\":\".mounts[$n].options\",\"old\":\"(writable)\",\"new\":\"ro\",\"rule\":\"cgroup-ro\""
		ward delete "$ID"
		cfg 'del(.mounts[-1])'
	done
	# "rw" asked for: refused where the host has cgroup v1 hierarchies
	# (release_agent), made read-only on a pure cgroup-v2 host.
	cfg '.mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup2", "source": "cgroup2", "options": ["rw"]}]'
	if grep -q ' - cgroup ' /proc/self/mountinfo; then
		refused_with "(release_agent runs host programs) $(optout_tail baseline cgroup-rw)"
	else
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		refute_output --partial writable
		assert_line --regexp '^erofs [1-9]'
	fi
	# The opt-out: the mount is as the config says (writable: the
	# container makes a cgroup below its own, and removes it).
	cfg 'del(.mounts[-1]) | .mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup2", "source": "cgroup2", "options": ["nosuid", "noexec", "nodev"]}]'
	cfg '.annotations["org.ward.allow.cgroup-rw"] = "true"'
	policy '{"allow": ["cgroup-rw"]}'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line 'writable: /sys/fs/cgroup'
	assert_line ran-inside
	assert_no_leftovers
}

@test "no network namespace: baseline refuses it (opt-out named); isolate gives a fresh one with only lo; the opt-out shares the host's" {
	host_net=$(readlink /proc/self/ns/net)
	host_ifs=$(grep -c : /proc/net/dev)
	cfg '.linux.namespaces |= map(select(.type != "network")) | .mounts |= map(select(.type != "sysfs"))'
	cmd 'readlink /proc/self/ns/net; grep -c : /proc/net/dev'
	refused_with "ward: config.json: .linux.namespaces: no network namespace: the container would share the host's network $(optout_tail baseline host-network)"
	policy '{"missingNetwork": "refuse"}'
	refused_with ".linux.namespaces: no network namespace: the container would share the host's network $(optout_tail baseline host-network)"
	# "isolate": the old behaviour, a fresh namespace, recorded.
	policy '{"missingNetwork": "isolate"}'
	run ward --policy "$POLICY" run --keep --bundle "$BUNDLE" "$ID"
	assert_success
	[ "${lines[0]}" != "$host_net" ] || fail "the container has the host's network namespace"
	assert_line --index 1 1
	run grep -c '"rule":"new-netns"' "$ROOT/$ID/audit.log"
	assert_output 1
	ward delete "$ID"
	# The opt-out: the host's network, as the config says.
	policy '{"allow": ["host-network"]}'
	cfg '.annotations["org.ward.allow.host-network"] = "true"'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 "$host_net"
	assert_line --index 1 "$host_ifs"
	# strict adds a fresh one (egress is strict's to allow).
	rm "$POLICY"
	cfg 'del(.annotations["org.ward.allow.host-network"])'
	WARD_GLOBALS=(--profile strict)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	[ "${lines[0]}" != "$host_net" ] || fail "strict: the container has the host's network namespace"
	assert_line --index 1 1
	assert_no_leftovers
}

# The container may mount (compat: CAP_SYS_ADMIN, no seccomp filter).
cfg_mounter() {
	cfg '.process.capabilities.bounding += ["CAP_SYS_ADMIN"]
	     | .process.capabilities.effective += ["CAP_SYS_ADMIN"]
	     | .process.capabilities.permitted += ["CAP_SYS_ADMIN"] | del(.linux.seccomp)'
}

# In a mount namespace of the test's own where every mount is shared (as
# under systemd): run the container (compat) until it says "mounted", then
# no mount under $TMP may show in that namespace.
run_in_shared_ns() {
	export WARD ROOT BUNDLE ID TMP
	run unshare -m --propagation unchanged sh -c '
		mount --make-rshared / || exit 1
		"$WARD" --root "$ROOT" --profile compat run -d --bundle "$BUNDLE" "$ID" >"$TMP/log" 2>&1 || exit 1
		for i in $(seq 100); do grep -q mounted "$TMP/log" && break; sleep 0.1; done
		sleep 0.5
		echo "mounts:"
		grep -F "$TMP" /proc/self/mountinfo
		"$WARD" --root "$ROOT" delete --force "$ID"'
	assert_success
	assert_line "mounts:"
	grep -q mounted "$TMP/log" || fail "the container did not mount: $(cat "$TMP/log")"
	[ "$(tail -n +2 <<<"$output" | grep -c "$TMP")" -eq 0 ] || fail "mounts reached the host: $output"
}

@test "a host whose mounts are shared (systemd's default): the container starts, and nothing it or ward mounts reaches the host" {
	# A clone of a shared mount is its peer: ward's trees (the rootfs, each
	# volume) were, so the init's proc and /dev appeared in the host's
	# bundle and pivot_root failed (EINVAL) on every systemd host.
	mkdir -p "$TMP/vol"
	cfg --arg v "$TMP/vol" '.mounts += [{"destination": "/vol", "type": "bind", "source": $v, "options": ["rbind"]}]'
	cfg_mounter
	cmd 'mount -t tmpfs t /vol && mount -t tmpfs u /mnt && echo mounted; echo inside >/mnt/x; sleep 100'
	run_in_shared_ns
	assert_no_leftovers
}

@test "a bind that asks for rshared (CRI's Bidirectional) carries mounts both ways; a plain bind only from the host" {
	mkdir -p "$TMP/both/in" "$TMP/both/out" "$TMP/plain/in" "$TMP/plain/out"
	cfg --arg b "$TMP/both" --arg p "$TMP/plain" '.mounts += [
	       {"destination": "/both", "type": "bind", "source": $b, "options": ["rbind", "rshared"]},
	       {"destination": "/plain", "type": "bind", "source": $p, "options": ["rbind"]}]
	     | .linux.rootfsPropagation = "rshared"'
	cfg_mounter
	# From inside: a tmpfs on each volume's "out"; then, once the host has
	# mounted on each "in", what the container sees there.
	cmd 'mount -t tmpfs c /both/out && mount -t tmpfs c /plain/out && touch /both/out/from-c /plain/out/from-c
	     echo >/both/ready
	     for i in $(seq 100); do [ -e /both/go ] && break; sleep 0.1; done
	     ls /both/in /plain/in'
	export WARD ROOT BUNDLE ID TMP
	run unshare -m --propagation unchanged sh -c '
		mount --make-rshared / || exit 1
		"$WARD" --root "$ROOT" --profile compat run -d --bundle "$BUNDLE" "$ID" >"$TMP/log" 2>&1 || exit 1
		for i in $(seq 100); do [ -e "$TMP/both/ready" ] && break; sleep 0.1; done
		mount -t tmpfs h "$TMP/both/in" && touch "$TMP/both/in/from-host"
		mount -t tmpfs h "$TMP/plain/in" && touch "$TMP/plain/in/from-host"
		ls "$TMP/both/out" "$TMP/plain/out" | sed "s/^/host: /"
		touch "$TMP/both/go"
		for i in $(seq 100); do [ "$("$WARD" --root "$ROOT" state "$ID" | jq -r .status)" = stopped ] && break; sleep 0.1; done
		"$WARD" --root "$ROOT" delete "$ID"
		umount "$TMP/both/in" "$TMP/plain/in" "$TMP/both/out" 2>/dev/null; true'
	assert_success
	# container → host: the shared volume only.
	assert_line "host: from-c"
	[ "$(grep -c "host: from-c" <<<"$output")" -eq 1 ] || fail "the plain volume sent its mount back: $output"
	[ ! -e "$TMP/plain/out/from-c" ]
	# host → container: both (a slave still receives).
	run cat "$TMP/log"
	[ "$(grep -c '^from-host$' <<<"$output")" -eq 2 ] || fail "host mounts did not reach the container: $output"
	assert_no_leftovers
}

@test "rshared from a user namespace's container (or outside compat) sends no mount back to the host" {
	mkdir -p "$TMP/both/out"
	chmod 777 "$TMP/both" "$TMP/both/out"
	cfg_userns
	cfg --arg b "$TMP/both" '.mounts += [{"destination": "/both", "type": "bind", "source": $b, "options": ["rbind", "rshared"]}]
	     | .linux.rootfsPropagation = "rshared"'
	cfg_mounter
	cmd 'mount -t tmpfs c /both/out && echo mounted; sleep 100'
	run_in_shared_ns
	assert_no_leftovers
}
