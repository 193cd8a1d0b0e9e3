#!/usr/bin/env bats
# The DNS gate (ward-policy(7) EGRESS): names in the egress list become
# addresses only through ward's resolver. The test world of egress.bats
# (tests/helpers/networld.bash) with an "upstream" resolver, dnsmasq on
# 10.213.0.1 in the world's namespace, which the container's resolv.conf
# (an engine's bind of it) names. From inside, dnsprobe asks one query
# ("dnsprobe udp|tcp SERVER NAME [TYPE]", SERVER "-" for the resolv.conf's)
# and egprobe makes one connection ("errno 1": the programs' refusal).

bats_require_minimum_version 1.5.0

load ../helpers/common
load ../helpers/networld

# The world's names (W also serves 10.213.3.1 and 10.213.4.1 here):
#   www.allowed.test   10.213.1.1, fd13::a   allowed (port 80/tcp)
#   other.test         10.213.2.1, fd13::b   not allowed
#   x.sub.test         10.213.3.1            allowed by *.sub.test
#   sub.test           10.213.4.1            not: *.NAME is subdomains only
#   alias.allowed.test CNAME target.elsewhere.test, 10.213.4.1
#   meta.allowed.test  169.254.169.254       (a rebinding answer)
#   big.allowed.test   40 addresses 10.215.0.1-40 (truncated over UDP)
#   N-N-N-N.many.test  that address (dnsmasq's synth-domain, 10.214.0.0/16)
ALLOW='["www.allowed.test:80/tcp", "*.sub.test:80/tcp", "alias.allowed.test:80/tcp",
	"meta.allowed.test:80/tcp", "big.allowed.test:80/tcp", "*.many.test:80/tcp"]'

setup() {
	WARD_ID_PREFIX=dns26 ward_setup
	POLICY="$TMP/policy.json"
	NW="dns26$RANDOM"
	NW=${NW:0:11}
	nw_up || fail "the test world could not be made"
	nw_dns_up || fail "no upstream resolver"
	# The gate's granted addresses of big.allowed.test and *.many.test lie
	# beyond W: unreachable at once in C (EHOSTUNREACH, 113), where through
	# W a connect waits on its rate-limited ICMP answers or SYN retries.
	ip -n "${NW}c" route add unreachable 10.214.0.0/16
	ip -n "${NW}c" route add unreachable 10.215.0.0/16
	cp "$WARD_BUILDDIR/tests/helpers/egprobe" "$BUNDLE/rootfs/bin/egprobe"
	cp "$WARD_BUILDDIR/tests/helpers/dnsprobe" "$BUNDLE/rootfs/bin/dnsprobe"
	nw_join
	# The engine's resolv.conf, bound in as Podman does: the gate's
	# replaces it, and the gate asks the operator's resolver (the policy's
	# dnsUpstreams), never the one the config or the image names.
	echo "nameserver 10.213.0.1" >"$TMP/resolv.conf"
	cfg --arg s "$TMP/resolv.conf" \
		'.mounts += [{"destination": "/etc/resolv.conf", "type": "bind", "source": $s, "options": ["rbind", "ro"]}]'
	policy "{\"allowAlways\": [\"join-network\"], \"dnsUpstreams\": [\"10.213.0.1\"], \"egress\": {\"baseline\": {\"allow\": $ALLOW}}}"
	cd "$BUNDLE"
}

teardown() {
	ward_teardown
	nw_down
}

# in SCRIPT: run SCRIPT in one container (baseline, the policy above).
in_ctr() {
	cmd "$1"
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
}

@test "dns gate: an allowed name resolves (A, AAAA) and its page is fetched; its addresses open only once it has" {
	in_ctr 'cat /etc/resolv.conf; echo "before: $(egprobe tcp 10.213.1.1 80) $(egprobe tcp fd13::a 80)"
		dnsprobe udp - www.allowed.test; dnsprobe udp - www.allowed.test 28
		a=$(dnsprobe udp - www.allowed.test | sed -n "s/^A //p"); wget -q -O - http://$a/
		wget -q -O - "http://[fd13::a]/"
		echo "after: $(egprobe tcp 10.213.1.1 80) $(egprobe tcp fd13::a 80) $(egprobe udp 10.213.1.1 80) $(egprobe tcp 10.213.1.1 81)"'
	assert_success
	assert_line --regexp '^nameserver 127\.53\.[0-9]+\.[0-9]+$'
	assert_line "before: errno 1 errno 1"
	assert_line "rcode 0"
	assert_line "A 10.213.1.1"
	assert_line "AAAA fd13::a"
	assert_equal "$(grep -c "hello from the world" <<<"$output")" 2
	# The name's rule is port 80 over TCP: nothing else of its addresses.
	assert_line "after: ok ok errno 1 errno 1"
}

@test "dns gate: another name is refused, its addresses stay closed (TCP, UDP, v4, v6), and the report names it" {
	in_ctr 'dnsprobe udp - other.test; dnsprobe udp - other.test 28; dnsprobe tcp - other.test
		for p in "tcp 10.213.2.1 80" "udp 10.213.2.1 53" "tcp fd13::b 80" "udp fd13::b 53" "tcp ::ffff:10.213.2.1 80"; do
			echo "$p: $(egprobe $p)"; done'
	assert_success
	assert_equal "$(grep -c "^rcode 5$" <<<"$output")" 3
	refute_line --partial "A "
	assert_line "tcp 10.213.2.1 80: errno 1"
	assert_line "udp 10.213.2.1 53: errno 1"
	assert_line "tcp fd13::b 80: errno 1"
	assert_line "udp fd13::b 53: errno 1"
	assert_line "tcp ::ffff:10.213.2.1 80: errno 1"
	run ! grep -q "other.test" "$TMP/dnsmasq.log"
	run ward report --format json "$ID"
	assert_success
	report=$output
	run jq -c '.dns | {gate, refused, allowed, counts}' <<<"$report"
	assert_output '{"gate":true,"refused":3,"allowed":0,"counts":[{"name":"other.test","count":3}]}'
	run jq -c '[.dns.first[] | {what, name, type, why}] | .[0:2]' <<<"$report"
	assert_output '[{"what":"refused","name":"other.test","type":1,"why":"no egress rule names it"},{"what":"refused","name":"other.test","type":28,"why":"no egress rule names it"}]'
	run ward report "$ID"
	assert_success
	assert_line --partial "3 refused names: other.test ×3"
	printf '%s\n' "$report" >"$TMP/report.json"
	run python3 -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
		"$WARD_SRCDIR/config-schema/report.schema.json" "$TMP/report.json"
	assert_success
}

@test "dns gate: *.NAME admits strict subdomains only, for its own ports" {
	in_ctr 'for n in x.sub.test sub.test xsub.test x.sub.test.evil; do echo "$n: $(dnsprobe udp - $n | tr "\n" " ")"; done
		echo "ports: $(egprobe tcp 10.213.3.1 80) $(egprobe tcp 10.213.3.1 81) $(egprobe udp 10.213.3.1 80)"
		echo "sub.test: $(egprobe tcp 10.213.4.1 80)"'
	assert_success
	assert_line "x.sub.test: rcode 0 A 10.213.3.1 "
	assert_line "sub.test: rcode 5 "
	assert_line "xsub.test: rcode 5 "
	assert_line "x.sub.test.evil: rcode 5 "
	assert_line "ports: ok errno 1 errno 1"
	assert_line "sub.test: errno 1"
}

@test "dns gate: queries over TCP; a truncated answer is asked again over TCP and all its addresses open" {
	in_ctr 'dnsprobe tcp - www.allowed.test; echo "tcp: $(egprobe tcp 10.213.1.1 80)"
		echo "udp big: $(dnsprobe udp - big.allowed.test | tr "\n" " ")"
		echo "tcp big: $(dnsprobe tcp - big.allowed.test | grep -c "^A 10.215.0.")"
		echo "big: $(egprobe tcp 10.215.0.1 80) $(egprobe tcp 10.215.0.40 80) $(egprobe tcp 10.215.0.41 80)"'
	assert_success
	assert_line "A 10.213.1.1"
	assert_line "tcp: ok"
	# Over UDP: the client is told to ask over TCP (no record), and the
	# gate took the whole answer upstream over TCP meanwhile.
	assert_line "udp big: rcode 0 tc "
	assert_line "tcp big: 40"
	# Let through by the programs (then no route: 113); the 41st refused.
	assert_line "big: errno 113 errno 113 errno 1"
	grep -q "query\[A\] big.allowed.test from 10.213.0.2" "$TMP/dnsmasq.log"
}

@test "dns gate: queries sent straight to the upstream resolver, or any other, are refused by the programs" {
	in_ctr 'for s in "udp 10.213.0.1" "tcp 10.213.0.1" "udp 10.213.2.1" "udp fd13::1" "tcp fd13::1"; do
			echo "$s: $(dnsprobe $s www.allowed.test)"; done
		echo "sendto: $(egprobe udp 10.213.0.1 53) $(egprobe udpc ::ffff:10.213.0.1 53)"'
	assert_success
	assert_line "udp 10.213.0.1: errno 1"
	assert_line "tcp 10.213.0.1: errno 1"
	assert_line "udp 10.213.2.1: errno 1"
	assert_line "udp fd13::1: errno 1"
	assert_line "tcp fd13::1: errno 1"
	assert_line "sendto: errno 1 errno 1"
	run ward report --format json "$ID"
	run jq -c '[.egress.counts[] | select(.port == 53) | .destination] | unique' <<<"$output"
	assert_output '["10.213.0.1","10.213.2.1","fd13::1"]'
}

@test "dns gate: a CNAME's target opens for the asked name only; asked itself it is refused; a rebinding answer to the metadata endpoint stays closed" {
	in_ctr 'echo "before: $(egprobe tcp 10.213.4.1 80)"
		echo "target: $(dnsprobe udp - target.elsewhere.test | tr "\n" " ")"
		echo "still: $(egprobe tcp 10.213.4.1 80)"
		echo "alias: $(dnsprobe udp - alias.allowed.test | tr "\n" " ")"
		echo "after: $(egprobe tcp 10.213.4.1 80)"
		echo "meta: $(dnsprobe udp - meta.allowed.test | tr "\n" " ")"
		echo "metadata: $(egprobe tcp 169.254.169.254 80)"'
	assert_success
	assert_line "before: errno 1"
	assert_line "target: rcode 5 "
	assert_line "still: errno 1"
	assert_line "alias: rcode 0 CNAME A 10.213.4.1 "
	assert_line "after: ok"
	assert_line "meta: rcode 0 A 169.254.169.254 "
	assert_line "metadata: errno 1"
	run ward report --format json "$ID"
	run jq -c '.dns | {deniedAnswers, d: [.first[] | select(.what == "denied") | .name]}' <<<"$output"
	assert_output '{"deniedAnswers":1,"d":["meta.allowed.test"]}'
}

@test "dns gate: other types for an allowed name are answered empty and never forwarded; for other names refused" {
	in_ctr 'for t in 16 15 65 255 12; do echo "$t: $(dnsprobe udp - www.allowed.test $t | tr "\n" " ")"; done
		echo "txt other: $(dnsprobe udp - other.test 16 | tr "\n" " ")"'
	assert_success
	for t in 16 15 65 255 12; do assert_line "$t: rcode 0 "; done
	assert_line "txt other: rcode 5 "
	run grep -E "query\[(TXT|MX|type=65|ANY|PTR)\]" "$TMP/dnsmasq.log"
	assert_failure
	run ward report --format json "$ID"
	run jq -c '.dns | {answeredEmpty, refused}' <<<"$output"
	assert_output '{"answeredEmpty":5,"refused":1}'
}

@test "dns gate: many names exhaust the gate's room: a refusal, never an opening" {
	# 1030 distinct addresses of *.many.test: the gate grants 1024.
	in_ctr 'i=0; n=0; while [ $i -lt 1030 ]; do
			r=$(dnsprobe udp - "10-214-$((i / 200))-$((i % 200 + 1)).many.test" | head -1)
			[ "$r" = "rcode 0" ] && n=$((n + 1)); i=$((i + 1)); done
		echo "granted: $n"
		echo "last: $(dnsprobe udp - 10-214-9-1.many.test | tr "\n" " ")"
		echo "first: $(egprobe tcp 10.214.0.1 80 | sed "s/errno 1$/refused/")"
		echo "over: $(egprobe tcp 10.214.5.30 80) $(egprobe tcp 10.214.9.1 80)"'
	assert_success
	assert_line "granted: 1024"
	assert_line "last: rcode 5 "
	refute_line "first: refused"
	assert_line "over: errno 1 errno 1"
	run ward report --format json "$ID"
	run jq -r '[.dns.first[] | select(.what == "failed") | .why] | unique[]' <<<"$output"
	assert_output "the allow map is full (1024 addresses granted)"
}

@test "dns gate: the gate is confined; nothing is left after delete, nor when the supervisor is killed (no gate process, no listener)" {
	cmd 'sleep 300'
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_success
	read -r sup _ <"$ROOT/$ID/supervisor"
	gate=$(pgrep -P "$sup" -x ward-dns-gate)
	[ -n "$gate" ]
	run ip netns exec "${NW}c" "$BUSYBOX" netstat -lnu
	assert_output --regexp "127\.53\.[0-9]+\.[0-9]+:53 "
	# The gate gave up root: nobody, no capability, no_new_privs, a seccomp
	# filter; in the supervisor's cgroup, not the container's.
	run grep -E "^(Uid|Gid|CapEff|CapPrm|NoNewPrivs|Seccomp):" "/proc/$gate/status"
	assert_line --regexp "^Uid:\s+65534\s+65534\s+65534\s+65534$"
	assert_line --regexp "^Gid:\s+65534\s+65534\s+65534\s+65534$"
	assert_line --regexp "^CapEff:\s+0+$"
	assert_line --regexp "^CapPrm:\s+0+$"
	assert_line --regexp "^NoNewPrivs:\s+1$"
	assert_line --regexp "^Seccomp:\s+2$"
	[ "$(cat "/proc/$gate/cgroup")" = "$(cat "/proc/$sup/cgroup")" ]
	run ward delete --force "$ID"
	assert_success
	run kill -0 "$gate"
	assert_failure
	run ip netns exec "${NW}c" "$BUSYBOX" netstat -lnut
	refute_output --partial ":53 "
	# The supervisor killed: its gate dies with it (and the guard kills
	# the container).
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_success
	read -r sup _ <"$ROOT/$ID/supervisor"
	gate=$(pgrep -P "$sup" -x ward-dns-gate)
	[ -n "$gate" ]
	kill -9 "$sup"
	for _ in $(seq 50); do kill -0 "$gate" 2>/dev/null || break; sleep 0.1; done
	run kill -0 "$gate"
	assert_failure
	run ward delete --force "$ID"
	assert_no_leftovers
	run ip netns exec "${NW}c" "$BUSYBOX" netstat -lnut
	refute_output --partial ":53 "
}


@test "dns gate: strict, in a network namespace of its own: an image without resolv.conf gets the gate's, readable through Landlock" {
	cfg '.linux.namespaces |= map(del(.path))'
	cfg '.mounts |= map(select(.destination != "/etc/resolv.conf"))'
	rm -f "$BUNDLE/rootfs/etc/resolv.conf"
	WARD_GLOBALS=(--profile strict)
	policy "{\"egress\": {\"strict\": {\"allow\": $ALLOW}}}"
	in_ctr 'cat /etc/resolv.conf; echo "write: $(echo x 2>&1 >/etc/resolv.conf)"'
	assert_success
	assert_line --regexp '^nameserver 127\.53\.[0-9]+\.[0-9]+$'
	assert_line --regexp '^write: .*(Read-only|Permission denied)'
	run ward --policy "$POLICY" check --format json "$BUNDLE"
	run jq -c '.reach.egress | {dnsGate, names: (.names | length)}' <<<"$output"
	assert_output '{"dnsGate":true,"names":6}'
}

@test "dns gate: the gate killed while the container runs: the container is killed (its grants would outlive their time)" {
	cmd 'sleep 300'
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_success
	run ward start "$ID"
	assert_success
	read -r sup _ <"$ROOT/$ID/supervisor"
	gate=$(pgrep -P "$sup" -x ward-dns-gate)
	[ -n "$gate" ]
	kill -9 "$gate"
	for _ in $(seq 50); do is_stopped "$ID" && break; sleep 0.1; done
	run is_stopped "$ID"
	assert_success
	for _ in $(seq 50); do pid_alive "$sup" || break; sleep 0.1; done
	run ward report --format json "$ID"
	assert_success
	run jq -r '.supervisor.ended' <<<"$output"
	assert_output "the DNS gate died: the container was killed"
	run ward delete --force "$ID"
	assert_no_leftovers
}


@test "dns gate: the container cannot choose the gate's upstream: not by its image's resolv.conf, nor a config's naming a loopback resolver, nor its own address; a resolver it runs and lies from opens nothing" {
	# 1. The image names the container's loopback; no operator resolver
	# the container's namespace can reach (the host's resolv.conf).
	cfg '.mounts |= map(select(.destination != "/etc/resolv.conf"))'
	echo "nameserver 127.0.0.1" >"$BUNDLE/rootfs/etc/resolv.conf"
	policy "{\"allowAlways\": [\"join-network\"], \"egress\": {\"baseline\": {\"allow\": $ALLOW}}}"
	lie='dnsprobe serve 127.0.0.1 10.213.2.1 >/dev/null & sleep 0.3
		echo "lie: $(dnsprobe udp - www.allowed.test | tr "\n" " ")"
		echo "after: $(egprobe tcp 10.213.2.1 80)"'
	in_ctr "$lie"
	assert_success
	refute_line --partial "A 10.213.2.1"
	assert_line "after: errno 1"
	# 2. A config bind naming a loopback resolver (systemd-resolved's, an
	# honest engine's): in the container's namespace only the container
	# can answer there.
	echo "nameserver 127.0.0.53" >"$TMP/resolv.conf"
	cfg --arg s "$TMP/resolv.conf" \
		'.mounts += [{"destination": "/etc/resolv.conf", "type": "bind", "source": $s, "options": ["rbind", "ro"]}]'
	in_ctr "${lie//127.0.0.1/127.0.0.53}"
	assert_success
	refute_line --partial "A 10.213.2.1"
	assert_line "after: errno 1"
	# 3. The policy's upstream is one the container's namespace answers:
	# its own address (with an allow rule that lets the container's
	# replies out), unspecified, loopback: dropped, nothing is asked.
	for up in 10.213.0.2:10.213.0.2 0.0.0.0:127.0.0.1 127.0.0.1:127.0.0.1; do
		policy "{\"allowAlways\": [\"join-network\"], \"dnsUpstreams\": [\"${up%%:*}\"], \"egress\": {\"baseline\": {\"allow\": ${ALLOW%]}, \"10.213.0.0/24:1024-65535/udp\"]}}}"
		in_ctr "${lie//127.0.0.1/${up#*:}}"
		assert_success
		refute_line --partial "A 10.213.2.1"
		assert_line "after: errno 1"
	done
	# The operator's resolver, with the same image and config: the name
	# resolves to its real address, and that address opens.
	policy "{\"allowAlways\": [\"join-network\"], \"dnsUpstreams\": [\"10.213.0.1\"], \"egress\": {\"baseline\": {\"allow\": $ALLOW}}}"
	in_ctr 'echo "real: $(dnsprobe udp - www.allowed.test | tr "\n" " ")"; echo "open: $(egprobe tcp 10.213.1.1 80)"'
	assert_success
	assert_line --regexp "^real: .*A 10\.213\.1\.1"
	assert_line "open: ok"
}

@test "dns gate: an IPv6 upstream; hostile bytes (a datagram too short, garbage over TCP) are recorded and the gate serves on" {
	policy "{\"allowAlways\": [\"join-network\"], \"dnsUpstreams\": [\"fd13::1\"], \"egress\": {\"baseline\": {\"allow\": $ALLOW}}}"
	in_ctr 'g=$(sed -n "s/^nameserver //p" /etc/resolv.conf)
		echo "short: $(egprobe udp $g 53)"
		printf "\000\003abc" | nc -w 1 $g 53 >/dev/null; echo "tcp garbage sent"
		dnsprobe tcp - www.allowed.test; dnsprobe udp - www.allowed.test 28'
	assert_success
	assert_line "short: ok"
	assert_line "A 10.213.1.1"
	assert_line "AAAA fd13::a"
	grep -q "query\[A\] www.allowed.test from fd13::2" "$TMP/dnsmasq.log"
	run ward report --format json "$ID"
	report=$output
	run jq -r '.dns.first[] | select(.name == "") | .why' <<<"$report"
	assert_line "a malformed query: shorter than a DNS header"
	run jq -r '.dns.allowed' <<<"$report"
	assert_output 2
}
