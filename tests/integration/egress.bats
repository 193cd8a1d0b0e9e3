#!/usr/bin/env bats
# Egress control (issue 26): the cgroup programs, from inside a container
# joined to a test world of network namespaces (tests/helpers/networld.bash).
# egprobe prints "errno 1" (EPERM) for the programs' refusal, "ok" or
# "errno 111" (nobody listening) for a destination the network reaches.

load ../helpers/common
load ../helpers/networld

setup() {
	ward_setup
	POLICY="$TMP/policy.json"
	NW="eg$$${RANDOM}"
	NW=${NW:0:11}
	nw_up || fail "the test world could not be made"
	cp "$WARD_BUILDDIR/tests/helpers/egprobe" "$BUNDLE/rootfs/bin/egprobe"
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	nw_join
	cd "$BUNDLE"
}

teardown() {
	ward_teardown
	nw_down
}

# policy with join-network on (the test world is not another container's).
egress_policy() { # egress_policy EGRESS-JSON [ALLOW-JSON]
	policy "{\"allowAlways\": [\"join-network\"${2:+, $2}], \"egress\": $1}"
}

# probe LINE...: run each "egprobe ARGS" line in one container; the output,
# one "ARGS: RESULT" per line.
probes() {
	local s="" l
	for l in "$@"; do
		s="$s echo \"$l: \$(egprobe $l)\";"
	done
	cmd "$s"
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
}

@test "egress: baseline closes the metadata endpoint (TCP, UDP, v4-mapped) and leaves the rest" {
	egress_policy '{}'
	probes "tcp 169.254.169.254 80" "udp 169.254.169.254 80" "udpc 169.254.169.254 80" \
		"tcp ::ffff:169.254.169.254 80" "udp ::ffff:169.254.169.254 80" \
		"tcp 10.213.2.1 80" "tcp fd13::b 80" "udp 10.213.2.1 53" "tcp 127.0.0.1 1"
	assert_success
	assert_line "tcp 169.254.169.254 80: errno 1"
	assert_line "udp 169.254.169.254 80: errno 1"
	assert_line "udpc 169.254.169.254 80: errno 1"
	assert_line "tcp ::ffff:169.254.169.254 80: errno 1"
	assert_line "udp ::ffff:169.254.169.254 80: errno 1"
	assert_line "tcp 10.213.2.1 80: ok"
	assert_line "tcp fd13::b 80: ok"
	assert_line "udp 10.213.2.1 53: ok"
	assert_line "tcp 127.0.0.1 1: errno 111"
}

# A routing header sends a datagram to its segment, not to the address the
# programs judged (an attacker's review reached fd00:ec2::254 this way with
# a sendto to ::1): the option is refused wherever programs are attached.
@test "egress: an IPv6 routing header (the packet would go to its segment) is refused; compat takes it" {
	egress_policy '{}'
	probes "rthdr fd00:ec2::254 80" "rthdr fd13::b 80"
	assert_success
	assert_line "rthdr fd00:ec2::254 80: errno 1"
	assert_line "rthdr fd13::b 80: errno 1"
	WARD_GLOBALS=(--profile compat)
	probes "rthdr fd13::b 80"
	assert_success
	assert_line "rthdr fd13::b 80: ok"
}

@test "egress: compat filters nothing (the metadata address is reachable in this world)" {
	egress_policy '{"baseline": {"allow": ["10.213.1.1:80"]}}'
	WARD_GLOBALS=(--profile compat)
	probes "tcp 169.254.169.254 80" "tcp 10.213.2.1 80" "udp fd13::b 53"
	assert_success
	assert_line "tcp 169.254.169.254 80: ok"
	assert_line "tcp 10.213.2.1 80: ok"
	assert_line "udp fd13::b 53: ok"
}

@test "egress: a policy list allows only its destinations (TCP, UDP, v4, v6, v4-mapped, ports, protocols)" {
	egress_policy '{"baseline": {"allow": ["10.213.1.1:80/tcp", "10.213.1.1:50-60/udp", "[fd13::a]:80"]}}'
	probes "tcp 10.213.1.1 80" "tcp ::ffff:10.213.1.1 80" "tcp fd13::a 80" "udp 10.213.1.1 53" \
		"udpc 10.213.1.1 53" "udp fd13::a 80" \
		"tcp 10.213.2.1 80" "tcp ::ffff:10.213.2.1 80" "tcp fd13::b 80" "tcp 10.213.1.1 81" \
		"udp 10.213.1.1 80" "tcp 10.213.1.1 53" "udp 10.213.2.1 53" "udpc 10.213.2.1 53" \
		"udp fd13::b 53" "udp ::ffff:10.213.2.1 53" "tcp 169.254.169.254 80" "tcp 127.0.0.1 1"
	assert_success
	assert_line "tcp 10.213.1.1 80: ok"
	assert_line "tcp ::ffff:10.213.1.1 80: ok"
	assert_line "tcp fd13::a 80: ok"
	assert_line "udp 10.213.1.1 53: ok"
	assert_line "udpc 10.213.1.1 53: ok"
	assert_line "udp fd13::a 80: ok"
	assert_line "tcp 10.213.2.1 80: errno 1"
	assert_line "tcp ::ffff:10.213.2.1 80: errno 1"
	assert_line "tcp fd13::b 80: errno 1"
	assert_line "tcp 10.213.1.1 81: errno 1"
	assert_line "udp 10.213.1.1 80: errno 1"
	assert_line "tcp 10.213.1.1 53: errno 1"
	assert_line "udp 10.213.2.1 53: errno 1"
	assert_line "udpc 10.213.2.1 53: errno 1"
	assert_line "udp fd13::b 53: errno 1"
	assert_line "udp ::ffff:10.213.2.1 53: errno 1"
	assert_line "tcp 169.254.169.254 80: errno 1"
	assert_line "tcp 127.0.0.1 1: errno 111"
}

@test "egress: the annotation only narrows the policy's list (a wider entry is ignored, with a note)" {
	egress_policy '{"baseline": {"allow": ["10.213.1.1:80/tcp", "[fd13::a]:80"]}}'
	cfg '.annotations["org.ward.egress"] = "10.213.1.1:80/tcp, 10.213.2.1:80/tcp"'
	probes "tcp 10.213.1.1 80" "tcp fd13::a 80" "tcp 10.213.2.1 80"
	assert_success
	assert_line "tcp 10.213.1.1 80: ok"
	assert_line "tcp fd13::a 80: errno 1"
	assert_line "tcp 10.213.2.1 80: errno 1"
	run ward --policy "$POLICY" check --format json "$BUNDLE"
	assert_success
	run jq -r '.notes[].reason' <<<"$output"
	assert_output --partial '"10.213.2.1:80/tcp" ignored'
}

@test "egress: a malformed annotation is refused; under compat it is ignored" {
	egress_policy '{}'
	cfg '.annotations["org.ward.egress"] = "10.213.1.1"'
	refused_with 'org.ward.egress"]: "10.213.1.1": a destination is HOST:PORTS'
	WARD_GLOBALS=(--profile compat)
	probes "tcp 10.213.2.1 80"
	assert_success
	assert_line "tcp 10.213.2.1 80: ok"
}

@test "egress: the metadata opt-out takes the policy's allow and the container's annotation" {
	egress_policy '{}' '' 
	policy '{"allowAlways": ["join-network"], "allow": ["egress-metadata"]}'
	probes "tcp 169.254.169.254 80"
	assert_success
	assert_line "tcp 169.254.169.254 80: errno 1"
	cfg '.annotations["org.ward.allow.egress-metadata"] = "true"'
	probes "tcp 169.254.169.254 80"
	assert_success
	assert_line "tcp 169.254.169.254 80: ok"
	# The annotation alone opens nothing.
	policy '{"allowAlways": ["join-network"]}'
	probes "tcp 169.254.169.254 80"
	assert_success
	assert_line "tcp 169.254.169.254 80: errno 1"
}

@test "egress: the container cannot reach the programs (no bpf(2), no CAP_BPF or CAP_SYS_ADMIN)" {
	egress_policy '{}'
	# BPF_PROG_QUERY (16) would list the programs; BPF_PROG_DETACH (9)
	# would take them off.
	cmd 'sysprobe bpf 16 0 0; sysprobe bpf 9 0 0
	     eff=$(awk "/^CapEff/ {print \$2}" /proc/self/status)
	     echo "sysadmin=$(( (0x$eff >> 21) & 1 )) bpf=$(( (0x$eff >> 39) & 1 ))"
	     echo "after: $(egprobe tcp 169.254.169.254 80)"'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_equal "${lines[0]}" "errno 1"
	assert_equal "${lines[1]}" "errno 1"
	assert_line "sysadmin=0 bpf=0"
	assert_line "after: errno 1"
}

@test "egress: where a list is in force, raw and ICMP sockets are refused at socket(2) (their sends pass no address program)" {
	# CAP_NET_RAW for raw sockets: baseline caps it unless the operator's
	# opt-out keeps it.
	cfg '.process.capabilities |= with_entries(.value += ["CAP_NET_RAW"])'
	# baseline's default list (everything but the metadata endpoints)
	# gates no socket: ping works, as in any container.
	egress_policy '{}' '"cap.NET_RAW"'
	probes "icmp 10.213.2.1 0" "icmp fd13::b 0" "raw 10.213.2.1 0" "raw fd13::b 0"
	assert_success
	assert_line "icmp 10.213.2.1 0: ok"
	assert_line "icmp fd13::b 0: ok"
	assert_line "raw 10.213.2.1 0: ok"
	assert_line "raw fd13::b 0: ok"
	egress_policy '{"baseline": {"allow": ["10.213.1.1:80/tcp", "10.213.1.1:53/udp"]}}' '"cap.NET_RAW"'
	policy "$(jq -c '.supervise = "always"' "$POLICY")"
	probes "icmp 10.213.1.1 0" "icmp 10.213.2.1 0" "icmp fd13::b 0" "raw 10.213.1.1 0" "raw fd13::b 0" \
		"tcp 10.213.1.1 80" "udp 10.213.1.1 53"
	assert_success
	assert_line "icmp 10.213.1.1 0: errno 1"
	assert_line "icmp 10.213.2.1 0: errno 1"
	assert_line "icmp fd13::b 0: errno 1"
	assert_line "raw 10.213.1.1 0: errno 1"
	assert_line "raw fd13::b 0: errno 1"
	assert_line "tcp 10.213.1.1 80: ok"
	assert_line "udp 10.213.1.1 53: ok"
	run ward report --format json "$ID"
	assert_success
	[ "$(jq .egress.socketsRefused <<<"$output")" = 5 ] || fail "$(jq -c .egress <<<"$output")"
	run ward --policy "$POLICY" check --format json "$BUNDLE"
	[ "$(jq -c .reach.egress.tcpUdpOnly <<<"$output")" = true ] || fail "$(jq -c .reach.egress <<<"$output")"
	# Packet sockets are no program's: the kept CAP_NET_RAW is said.
	run jq -r '.notes[].reason' <<<"$output"
	assert_output --partial 'packet sockets (AF_PACKET) bypass the egress allow-list'
	# strict gates sockets even without a list (it allows loopback only).
	egress_policy '{}'
	run ward --profile strict --policy "$POLICY" check --format json "$BUNDLE"
	[ "$(jq -c .reach.egress.tcpUdpOnly <<<"$output")" = true ] || fail "$(jq -c .reach.egress <<<"$output")"
}

# The programs attached to container $1's cgroup2 node, and their maps.
egress_objects() {
	local cg=/sys/fs/cgroup/unified/ward/$1
	[ -d "$cg" ] || cg=/sys/fs/cgroup/ward/$1
	egress_objects_at "$cg"
}

# The distinct types of the maps among objects ("prog N\nmap M...").
map_types() {
	local id
	for id in $(awk '/^map/ {print $2}' <<<"$1"); do
		bpftool -j map show id "$id" | jq -r .type
	done | sort -u | xargs
}

@test "egress: five programs (connect, sendmsg, setsockopt) and their maps live exactly as long as the container; nothing pinned" {
	egress_policy '{}'
	cmd 'sleep 100'
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_success
	objs=$(egress_objects "$ID")
	echo "$objs"
	[ "$(grep -c '^prog' <<<"$objs")" -eq 5 ] || fail "expected 5 programs: $objs"
	[ "$(grep -c '^map' <<<"$objs")" -ge 3 ] || fail "expected the 3 maps: $objs"
	# Not pinned anywhere: no bpffs entry holds them.
	run bpftool -j prog show id "$(awk '/^prog/ {print $2; exit}' <<<"$objs")"
	assert_success
	[ "$(jq '.pinned // [] | length' <<<"$output")" -eq 0 ] || fail "pinned: $output"
	# Without a supervisor nobody reads counters or refusals: no ring
	# buffer is made (egress.bpf.c, recording); with one, it is.
	[ "$(map_types "$objs")" = "array lpm_trie" ] || fail "maps: $(map_types "$objs")"
	run ward delete --force "$ID"
	assert_success
	assert_objects_gone "$objs"
	policy "$(jq -c '.supervise = "always"' "$POLICY")"
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_success
	objs=$(egress_objects "$ID")
	[ "$(map_types "$objs")" = "array lpm_trie ringbuf" ] || fail "maps: $(map_types "$objs")"
	run ward delete --force "$ID"
	assert_success
	assert_objects_gone "$objs"
}

@test "egress: ward killed mid-create (programs attached, hook running): delete --force leaves nothing" {
	egress_policy '{}'
	# (the test's hook: the operator vouches for it)
	policy "$(jq -c '.hooks = ["/bin/sh"]' "$POLICY")"
	cmd 'sleep 100'
	# The hook says its pid (written to a temporary name, then renamed:
	# never read half-written), then waits.
	cfg --arg t "$TMP/inhook" '.hooks.createRuntime = [{"path": "/bin/sh", "args": ["sh", "-c", "echo $$ >\($t).tmp; mv \($t).tmp \($t); exec sleep 100"]}]'
	bg_start 120 "$TMP/create.log" "$WARD" --root "$ROOT" --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	for _ in $(seq 100); do [ -s "$TMP/inhook" ] && break; sleep 0.1; done
	[ -s "$TMP/inhook" ] || fail "the hook did not run: $(cat "$TMP/create.log")"
	objs=$(egress_objects "$ID")
	[ "$(grep -c '^prog' <<<"$objs")" -eq 5 ] || fail "expected 5 programs: $objs"
	pkill -9 -P "$BGPID" # ward itself (bg_start's pid is timeout's)
	kill -9 "$(cat "$TMP/inhook")"
	run ward delete --force "$ID"
	assert_objects_gone "$objs"
	assert_no_leftovers
}

@test "egress: ward check shows the plan" {
	egress_policy '{"baseline": {"allow": ["10.213.1.0/24:80-90/tcp", "registry.example:443", "*.example.org:443"]}}'
	run ward --policy "$POLICY" check --format json "$BUNDLE"
	assert_success
	run jq -c '.reach.egress' <<<"$output"
	assert_output --partial '"enforced":true'
	assert_output --partial '"10.213.1.0/24:80-90/tcp"'
	assert_output --partial '"127.0.0.0/8:*"'
	assert_output --partial '"169.254.169.254:*"'
	assert_output --partial '"[fd00:ec2::254]:*"'
	assert_output --partial '"pasta":false,"dnsGate":true,"names":["registry.example:443","*.example.org:443"]'
	WARD_GLOBALS=(--profile compat)
	run ward --policy "$POLICY" check --format json "$BUNDLE"
	run jq -c '.reach.egress' <<<"$output"
	assert_output '{"enforced":false,"tcpUdpOnly":false,"allow":[],"deny":[],"pasta":false,"dnsGate":false,"names":[]}'
}

@test "egress: a malformed destination in the policy file is an error naming it" {
	egress_policy '{"strict": {"allow": ["10.0.0.1/8:443"]}}'
	refused_with '.egress.strict.allow[0]: 10.0.0.1 has bits set past its /8 prefix'
	egress_policy '{"compat": {"allow": []}}'
	refused_with 'compat'
}

@test "egress: strict allows nothing but loopback without a list, and the list when the policy gives one" {
	# strict's user namespace cannot join the world's namespace (the host's
	# user namespace owns it): its own has loopback only. The programs act
	# before the route lookup, so they still tell apart: EPERM (1) from
	# them, ENETUNREACH (101) from a destination they let through.
	cfg '.linux.namespaces |= map(del(.path))'
	WARD_GLOBALS=(--profile strict)
	egress_policy '{}'
	probes "tcp 10.213.1.1 80" "udp fd13::a 53" "tcp 127.0.0.1 1" "udp ::1 1"
	assert_success
	assert_line "tcp 10.213.1.1 80: errno 1"
	assert_line "udp fd13::a 53: errno 1"
	# Loopback passes the programs (lo is down in a fresh namespace).
	assert_line "tcp 127.0.0.1 1: errno 101"
	assert_line "udp ::1 1: errno 99"
	# With a list, pasta connects the namespace (egress_pasta.bats): the
	# listed destination passes the programs, whatever the host's network
	# then does with it.
	egress_policy '{"strict": {"allow": ["10.213.1.1:80/tcp"]}, "baseline": {"allow": ["10.213.2.1:80"]}}'
	probes "tcp 10.213.1.1 80" "tcp 10.213.2.1 80" "tcp 169.254.169.254 80"
	assert_success
	assert_line --regexp "^tcp 10.213.1.1 80: "
	refute_line "tcp 10.213.1.1 80: errno 1"
	assert_line "tcp 10.213.2.1 80: errno 1"
	assert_line "tcp 169.254.169.254 80: errno 1"
}

@test "egress: the report names every refused connection (destination, port, protocol, pid, command) and counts the allowed" {
	egress_policy '{"baseline": {"allow": ["10.213.1.1:80/tcp"]}}'
	policy "$(jq -c '.supervise = "always"' "$POLICY")"
	probes "tcp 10.213.2.1 80" "tcp 10.213.2.1 80" "udp fd13::b 53" "tcp 10.213.1.1 80" \
		"tcp ::ffff:169.254.169.254 80"
	assert_success
	assert_line "tcp 10.213.2.1 80: errno 1"
	assert_line "tcp 10.213.1.1 80: ok"
	run ward report --format json "$ID"
	assert_success
	report=$output
	run jq -c '.egress | {recorded, refused, lost, uncounted, allowedSome: (.allowed >= 1)}' <<<"$report"
	assert_output '{"recorded":true,"refused":4,"lost":0,"uncounted":0,"allowedSome":true}'
	run jq -c '.egress.counts' <<<"$report"
	assert_output '[{"destination":"10.213.2.1","port":80,"protocol":"tcp","count":2},{"destination":"fd13::b","port":53,"protocol":"udp","count":1},{"destination":"169.254.169.254","port":80,"protocol":"tcp","count":1}]'
	run jq -r '.egress.first[] | "\(.comm) \(.pid > 1) \(.destination):\(.port)/\(.protocol)"' <<<"$report"
	assert_output "$(printf '%s\n' 'egprobe true 10.213.2.1:80/tcp' 'egprobe true 10.213.2.1:80/tcp' \
		'egprobe true fd13::b:53/udp' 'egprobe true 169.254.169.254:80/tcp')"
	run ward report "$ID"
	assert_success
	assert_line --partial "4 refused connections: 10.213.2.1:80/tcp ×2, [fd13::b]:53/udp ×1, 169.254.169.254:80/tcp ×1"
	printf '%s\n' "$report" >"$TMP/report.json"
	run python3 -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
		"$WARD_SRCDIR/config-schema/report.schema.json" "$TMP/report.json"
	assert_success
}
