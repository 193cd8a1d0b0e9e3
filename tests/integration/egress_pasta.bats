#!/usr/bin/env bats
# pasta for a strict container run by hand (ward-policy(7) EGRESS): with an
# egress allow-list and a network namespace of its own, the supervisor
# connects it to the host's network with pasta, which the egress programs
# then filter. The world: a namespace "W" joined to the host by a veth
# (10.217.0.1 host side; 10.217.0.2 and 10.217.0.3 in W, each with busybox
# httpd on port 80, dnsmasq on 10.217.0.2 answering www.allowed.test and
# other.test), and a listener on the host's loopback (127.0.0.1:18026),
# which the container must not reach.

bats_require_minimum_version 1.5.0

load ../helpers/common

pw_up() {
	local bb=$BUSYBOX i
	ip netns add "${NW}w" || return 1
	ip link add "${NW}h" type veth peer name "${NW}w0" netns "${NW}w" || return 1
	ip addr add 10.217.0.1/24 dev "${NW}h"
	ip link set "${NW}h" up
	ip -n "${NW}w" link set lo up
	ip -n "${NW}w" addr add 10.217.0.2/24 dev "${NW}w0"
	ip -n "${NW}w" addr add 10.217.0.3/24 dev "${NW}w0"
	ip -n "${NW}w" link set "${NW}w0" up
	ip -n "${NW}w" route add default via 10.217.0.1
	mkdir -p "$TMP/www"
	echo "hello through pasta" >"$TMP/www/index.html"
	bg_start 300 "$TMP/httpd.log" ip netns exec "${NW}w" "$bb" httpd -f -p 80 -h "$TMP/www"
	bg_start 300 "$TMP/lo-httpd.log" "$bb" httpd -f -p 127.0.0.1:18026 -h "$TMP/www"
	bg_start 300 "$TMP/dnsmasq.log" ip netns exec "${NW}w" dnsmasq --no-daemon --no-resolv \
		--no-hosts --bind-interfaces --listen-address=10.217.0.2 --port=53 --pid-file= \
		--user=root --log-queries --log-facility=- \
		--host-record=www.allowed.test,10.217.0.2 --host-record=other.test,10.217.0.3
	for i in $(seq 50); do
		ip netns exec "${NW}w" "$bb" netstat -lun 2>/dev/null | grep -q '10.217.0.2:53 ' &&
			"$bb" netstat -ltn 2>/dev/null | grep -q '127.0.0.1:18026 ' && return 0
		sleep 0.1
	done
	echo "the world did not start" >&2
	return 1
}

pw_down() {
	ip link del "${NW}h" 2>/dev/null
	ip netns del "${NW}w" 2>/dev/null
	true
}

setup() {
	WARD_ID_PREFIX=dns26 ward_setup
	POLICY="$TMP/policy.json"
	NW="dns26p$RANDOM"
	NW=${NW:0:11}
	pw_up || fail "the test world could not be made"
	cp "$WARD_BUILDDIR/tests/helpers/egprobe" "$BUNDLE/rootfs/bin/egprobe"
	cp "$WARD_BUILDDIR/tests/helpers/dnsprobe" "$BUNDLE/rootfs/bin/dnsprobe"
	echo "nameserver 10.217.0.2" >"$TMP/resolv.conf"
	cfg --arg s "$TMP/resolv.conf" \
		'.mounts += [{"destination": "/etc/resolv.conf", "type": "bind", "source": $s, "options": ["rbind", "ro"]}]'
	WARD_GLOBALS=(--profile strict)
	policy '{"dnsUpstreams": ["10.217.0.2"], "egress": {"strict": {"allow": ["www.allowed.test:80/tcp", "10.217.0.2:81/tcp"]}}}'
	cd "$BUNDLE"
}

teardown() {
	ward_teardown
	pw_down
}

# pasta processes whose parent is the supervisor sup.
pasta_of() {
	pgrep -P "$1" -f "pasta .*--netns /proc/self/fd/3"
}

in_ctr() {
	cmd "$1"
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID"
}

@test "pasta: a strict container with an allow-list is connected; an allowed name's page is fetched, nothing else is reached" {
	run ward --policy "$POLICY" check --format json "$BUNDLE"
	run jq -c '.reach.egress | {pasta, dnsGate}' <<<"$output"
	assert_output '{"pasta":true,"dnsGate":true}'
	in_ctr 'ip route; a=$(dnsprobe udp - www.allowed.test | sed -n "s/^A //p"); echo "a=$a"
		wget -q -O - "http://$a/"
		echo "other: $(dnsprobe udp - other.test | head -1)"
		echo "direct: $(egprobe tcp 10.217.0.3 80) $(egprobe udp 10.217.0.3 53) $(egprobe tcp 10.217.0.1 80)"
		echo "dns: $(dnsprobe udp 169.254.1.1 www.allowed.test) $(dnsprobe udp 10.217.0.2 www.allowed.test)"
		echo "host loopback: $(egprobe tcp 127.0.0.1 18026)"'
	assert_success
	assert_line --regexp "^default via "
	assert_line "a=10.217.0.2"
	assert_line "hello through pasta"
	assert_line "other: rcode 5"
	assert_line "direct: errno 1 errno 1 errno 1"
	assert_line "dns: errno 1 errno 1"
	# The container's loopback is its own: pasta forwards none of its
	# ports to the host's (-T none).
	assert_line "host loopback: errno 111"
}

@test "pasta: without an allow-list, strict keeps loopback only (no pasta)" {
	policy '{}'
	run ward --policy "$POLICY" check --format json "$BUNDLE"
	run jq -c '.reach.egress.pasta' <<<"$output"
	assert_output false
	in_ctr 'cat /proc/net/dev | sed -n "3,\$p" | cut -d: -f1 | tr -d " "; ip route'
	assert_success
	assert_output "lo"
}

@test "pasta: started with the container, gone after delete, and when the supervisor is killed" {
	cmd 'sleep 300'
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_success
	read -r sup _ <"$ROOT/$ID/supervisor"
	p=$(pasta_of "$sup")
	[ -n "$p" ]
	run ward delete --force "$ID"
	assert_success
	run kill -0 "$p"
	assert_failure
	run ward --policy "$POLICY" create --bundle "$BUNDLE" "$ID"
	assert_success
	read -r sup _ <"$ROOT/$ID/supervisor"
	p=$(pasta_of "$sup")
	[ -n "$p" ]
	kill -9 "$sup"
	for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
	run kill -0 "$p"
	assert_failure
	run ward delete --force "$ID"
	assert_no_leftovers
	run pgrep -f "pasta .*--netns /proc/self/fd/3"
	assert_failure
}

