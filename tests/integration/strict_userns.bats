#!/usr/bin/env bats
# strict promises that container root is not host root: a config that
# lists its own user namespace keeps its mappings, so they must lie inside
# the container's own range of strict's id pool (in this test's fresh state
# root: the pool's first, host 1879048192-1879113727; idpool.bats tests the
# pool);
# a user namespace joined by path has maps strict cannot judge on the
# opened namespace, and is refused. Seen from the host: what container
# root writes into a volume is never host root's.

load ../helpers/common

setup() {
	ward_setup
	ID="p25-$BATS_TEST_NUMBER-$$-$RANDOM"
	# Writable by anyone: only the mapping decides whose the files are.
	mkdir -m 777 "$TMP/vol"
	chown 1879048192:1879048192 "$TMP/vol"
	cfg --arg s "$TMP/vol" '.mounts += [{"destination": "/vol", "type": "bind", "source": $s, "options": ["rbind", "rw"]}]'
	# A setuid-root program as container root would leave it for the host.
	cmd 'cp /bin/busybox /vol/suid && chmod 4755 /vol/suid && echo wrote'
}

teardown() {
	ward_teardown
}

# The config's own user namespace with these uid and gid mappings (JSON).
own_userns() {
	cfg --argjson u "$1" --argjson g "$2" '.linux.namespaces |= map(select(.type != "user")) + [{"type": "user"}]
	     | .linux.uidMappings = $u | .linux.gidMappings = $g
	     | .mounts |= map(if .type == "devpts" then .options -= ["gid=5"] else . end)'
}

@test "strict: container root mapped to host root (0 -> 0) is refused, naming the mapping; nothing is written" {
	own_userns '[{"containerID": 0, "hostID": 0, "size": 65536}]' '[{"containerID": 0, "hostID": 0, "size": 65536}]'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'ward: config.json: .linux.uidMappings[0]: maps container uids 0-65535 to host 0-65535, outside this container'\''s own host range (1879048192-1879113727, of strict'\''s id pool): container root must be an unprivileged host id no one else has, never host root (refused by the strict profile) [and 1 more: ward --profile strict check --bundle '"$BUNDLE"']'
	[ ! -e "$TMP/vol/suid" ] || fail "the container ran: $(stat -c '%u:%g %A' "$TMP/vol/suid")"
	assert_no_leftovers
	# A host user's uid is no better.
	own_userns '[{"containerID": 0, "hostID": 1879048192, "size": 1000}, {"containerID": 1000, "hostID": 1000, "size": 1}]' '[{"containerID": 0, "hostID": 1879048192, "size": 65536}]'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --partial 'config.json: .linux.uidMappings[1]: maps container uids 1000-1000 to host 1000-1000'
	assert_no_leftovers
}

@test "strict: a setuid-root file container root writes into a volume is not host root's" {
	for how in default own; do
		rm -f "$TMP/vol/suid"
		[ "$how" = own ] && own_userns '[{"containerID": 0, "hostID": 1879048192, "size": 65536}]' '[{"containerID": 0, "hostID": 1879048192, "size": 65536}]'
		run ward --profile strict run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_output wrote
		# Seen from the host: owned by the container's range, never uid 0.
		assert_equal "$(stat -c %u:%g "$TMP/vol/suid")" 1879048192:1879048192
		assert_no_leftovers
	done
}

@test "strict: a user namespace joined by path is refused, saying why" {
	local holder
	bg_start 60 "$TMP/holder.log" unshare -U --map-root-user sleep 1000
	wait_for "the holder" pgrep -P "$BGPID"
	holder=$(pgrep -P "$BGPID")
	cfg --arg u "/proc/$holder/ns/user" '.linux.namespaces += [{"type": "user", "path": $u}]'
	run ward --profile strict run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --regexp '^ward: config.json: \.linux\.namespaces\[[0-9]+\]\.path: strict joins no user namespace by path: its uid and gid maps can only be read from a process holding it, not judged on the opened namespace, so container root could be any host id \(refused by the strict profile\)'
	[ ! -e "$TMP/vol/suid" ] || fail "the container ran"
	assert_no_leftovers
}
