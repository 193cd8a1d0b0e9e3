#!/usr/bin/env bats
# Each namespace seen from inside the container.

load ../helpers/common

ns_of() { readlink "/proc/$1/ns/$2"; }

@test "pid, ipc, uts, net, mount and cgroup namespaces are new" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	pid=$(init_pid "$ID")
	for ns in pid ipc uts net mnt cgroup; do
		[ "$(ns_of "$pid" $ns)" != "$(ns_of $$ $ns)" ] || fail "$ns namespace is shared with the host"
	done
	# Not asked for: the user namespace stays the host's.
	assert_equal "$(ns_of "$pid" user)" "$(ns_of $$ user)"
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "the process is pid 1 and sees only its own processes" {
	cmd 'echo $$; ps -o pid | wc -l'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 1
	# header + sh + ps + wc at most
	[ "${lines[1]}" -le 4 ] || fail "container sees ${lines[1]} ps lines"
}

@test "hostname and domainname are set in the UTS namespace" {
	cfg '.hostname = "box" | .domainname = "example.test"'
	cmd 'hostname; cat /proc/sys/kernel/domainname'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'box\nexample.test'
	[ "$(hostname)" != box ]
}

@test "a new network namespace has only loopback" {
	cmd 'ls /sys/class/net'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output lo
}

@test "without a network namespace entry the host network is shared" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.linux.namespaces |= map(select(.type != "network"))'
	cfg '.mounts |= map(select(.type != "sysfs"))'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	assert_equal "$(ns_of "$(init_pid "$ID")" net)" "$(ns_of $$ net)"
	ward delete --force "$ID"
}

@test "mounts made for the container are invisible on the host" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run grep -c " $BUNDLE/rootfs" /proc/self/mountinfo
	assert_output 0
	pid=$(init_pid "$ID")
	run grep -c " /proc " "/proc/$pid/mountinfo"
	assert_output 1
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "user namespace: mapped by the parent, several ranges" {
	cfg '.linux.namespaces += [{"type": "user"}]
	     | .linux.uidMappings = [{"containerID": 0, "hostID": 200000, "size": 1000}, {"containerID": 1000, "hostID": 300000, "size": 10}]
	     | .linux.gidMappings = [{"containerID": 0, "hostID": 200000, "size": 65536}]
	     | .root.readonly = false'
	chown -R 200000:200000 "$BUNDLE/rootfs"
	cmd 'cat /proc/self/uid_map /proc/self/gid_map; id -u; touch /home/f'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 --regexp '^ +0 +200000 +1000$'
	assert_line --index 1 --regexp '^ +1000 +300000 +10$'
	assert_line --index 2 --regexp '^ +0 +200000 +65536$'
	assert_line --index 3 0
	run stat -c %u "$BUNDLE/rootfs/home/f"
	assert_output 200000
	assert_no_leftovers
}

@test "user namespace: devices are bind-mounted from the host" {
	cfg_userns
	cmd 'echo x >/dev/null && head -c 4 /dev/zero | wc -c && ls -l /dev/null'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 4
	assert_line --index 1 --regexp '^crw-rw-rw- .* 1, +3 .*/dev/null$'
}

@test "overlapping id mappings fail with the field named" {
	cfg '.linux.namespaces += [{"type": "user"}]
	     | .linux.uidMappings = [{"containerID": 0, "hostID": 200000, "size": 100}, {"containerID": 50, "hostID": 300000, "size": 100}]
	     | .linux.gidMappings = [{"containerID": 0, "hostID": 200000, "size": 100}]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --partial 'ward: config.json: .linux.uidMappings: writing uid_map'
	assert_no_leftovers
}

@test "joining another container's namespaces by path, as pods do" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID-a"
	pa=$(init_pid "$ID-a")
	cfg --arg n "/proc/$pa/ns/net" --arg i "/proc/$pa/ns/ipc" --arg p "/proc/$pa/ns/pid" \
		'.linux.namespaces |= map(if .type == "network" then .path = $n elif .type == "ipc" then .path = $i elif .type == "pid" then .path = $p else . end)'
	cmd 'readlink /proc/self/ns/net; readlink /proc/self/ns/ipc; readlink /proc/self/ns/pid; readlink /proc/self/ns/uts'
	run ward run --bundle "$BUNDLE" "$ID-b"
	assert_success
	assert_line --index 0 "$(readlink /proc/$pa/ns/net)"
	assert_line --index 1 "$(readlink /proc/$pa/ns/ipc)"
	assert_line --index 2 "$(readlink /proc/$pa/ns/pid)"
	refute_line --index 3 "$(readlink /proc/$pa/ns/uts)"
	ward delete --force "$ID-a"
	assert_no_leftovers
}

@test "a namespace path of the wrong type, or not a namespace, is refused" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID-a"
	pa=$(init_pid "$ID-a")
	cfg --arg n "/proc/$pa/ns/ipc" '.linux.namespaces |= map(if .type == "network" then .path = $n else . end)'
	run ward create --bundle "$BUNDLE" "$ID-b"
	assert_failure 126
	assert_output "ward: config.json: .linux.namespaces[1].path: /proc/$pa/ns/ipc is not a network namespace"
	cfg '.linux.namespaces |= map(if .type == "network" then .path = "/etc/hostname" else . end)'
	run ward create --bundle "$BUNDLE" "$ID-b"
	assert_failure 126
	assert_output "ward: config.json: .linux.namespaces[1].path: /etc/hostname is not a network namespace"
	ward delete --force "$ID-a"
	assert_no_leftovers
}

@test "joining a user namespace by path, with new namespaces owned by it" {
	cfg_userns
	chown -R 200000:200000 "$BUNDLE/rootfs"
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID-a"
	pa=$(init_pid "$ID-a")
	cfg --arg u "/proc/$pa/ns/user" '.linux.namespaces |= map(if .type == "user" then .path = $u else . end) | del(.linux.uidMappings, .linux.gidMappings)'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID-b"
	pb=$(init_pid "$ID-b")
	[ "$(readlink /proc/$pb/ns/user)" = "$(readlink /proc/$pa/ns/user)" ]
	[ "$(readlink /proc/$pb/ns/mnt)" != "$(readlink /proc/$pa/ns/mnt)" ]
	run ward exec "$ID-b" sh -c 'id -u; cat /proc/self/uid_map'
	assert_success
	assert_line --index 0 0
	assert_line --index 1 --regexp '^ +0 +200000 +65536$'
	cfg '.linux.uidMappings = [{"containerID": 0, "hostID": 1, "size": 1}]'
	run ward create --bundle "$BUNDLE" "$ID-c"
	assert_failure 126
	assert_output 'ward: config.json: .linux.uidMappings: a user namespace joined by path has its mappings already'
	ward delete --force "$ID-a"
	ward delete --force "$ID-b"
	assert_no_leftovers
}

@test "time namespace with offsets: seen by the process and by exec" {
	cfg '.linux.namespaces += [{"type": "time"}] | .linux.timeOffsets = {"boottime": {"secs": 864000, "nanosecs": 0}, "monotonic": {"secs": 86400}}'
	cmd 'cut -d. -f1 /proc/uptime; sleep 100'
	host=$(cut -d. -f1 /proc/uptime)
	"$WARD" --root "$ROOT" run -d --bundle "$BUNDLE" "$ID" >"$TMP/out"
	one_line() { [ "$(wc -l <"$TMP/out")" -ge 1 ]; }
	wait_for "the container's uptime line" one_line
	up=$(cat "$TMP/out")
	[ "$up" -ge $((host + 864000 - 5)) ] && [ "$up" -le $((host + 864000 + 60)) ] || fail "uptime $up, host $host"
	run ward exec "$ID" cut -d. -f1 /proc/uptime
	assert_success
	[ "$output" -ge $((host + 864000 - 5)) ] || fail "exec sees uptime $output"
	[ "$(readlink "/proc/$(init_pid "$ID")/ns/time")" != "$(readlink /proc/self/ns/time)" ]
	ward delete --force "$ID"
	cfg '.linux.namespaces |= map(select(.type != "time"))'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: config.json: .linux.timeOffsets: needs a new "time" namespace'
	assert_no_leftovers
}
