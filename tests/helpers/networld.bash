# A test world in network namespaces (issue 26's egress tests): the
# container's namespace ("C") joined by a veth pair to a "world" namespace
# ("W") that holds every server address. Nothing on the host's own network
# is touched. The caller sets NW (a short unique name prefix, "eg...").
#
#   C: 10.213.0.2/24, fd13::2/64, default routes to W
#   W: 10.213.0.1/24, fd13::1/64 and, on the same veth, the servers'
#      addresses 10.213.1.1, 10.213.2.1, fd13::a, fd13::b and the cloud
#      metadata endpoint 169.254.169.254; busybox httpd on port 80 of all
#      of them.

nw_up() {
	local bb=${BUSYBOX:-/bin/busybox}
	ip netns add "${NW}c" || return 1
	ip netns add "${NW}w" || return 1
	ip link add "${NW}c0" netns "${NW}c" type veth peer name "${NW}w0" netns "${NW}w" || return 1
	ip -n "${NW}c" link set lo up
	ip -n "${NW}w" link set lo up
	ip -n "${NW}c" addr add 10.213.0.2/24 dev "${NW}c0"
	ip -n "${NW}c" addr add fd13::2/64 dev "${NW}c0" nodad
	ip -n "${NW}w" addr add 10.213.0.1/24 dev "${NW}w0"
	ip -n "${NW}w" addr add fd13::1/64 dev "${NW}w0" nodad
	local a
	for a in 10.213.1.1/32 10.213.2.1/32 169.254.169.254/32; do
		ip -n "${NW}w" addr add "$a" dev "${NW}w0"
	done
	for a in fd13::a/128 fd13::b/128; do
		ip -n "${NW}w" addr add "$a" dev "${NW}w0" nodad
	done
	ip -n "${NW}c" link set "${NW}c0" up
	ip -n "${NW}w" link set "${NW}w0" up
	# ICMP "ping" sockets for every group (IPv6's too: this one sysctl).
	ip netns exec "${NW}c" sysctl -qw net.ipv4.ping_group_range="0 2147483647"
	ip -n "${NW}c" route add default via 10.213.0.1
	ip -n "${NW}c" -6 route add default via fd13::1
	mkdir -p "$TMP/www"
	echo "hello from the world" >"$TMP/www/index.html"
	# Foreground (-f) under timeout: ward_teardown kills what bg_start made.
	bg_start 300 "$TMP/httpd.log" ip netns exec "${NW}w" "$bb" httpd -f -p 80 -h "$TMP/www"
	local i
	for i in $(seq 50); do
		ip netns exec "${NW}w" "$bb" netstat -ltn 2>/dev/null | grep -q ':80 ' && return 0
		sleep 0.1
	done
	echo "networld: httpd did not start" >&2
	return 1
}

nw_down() {
	ip netns del "${NW}c" 2>/dev/null
	ip netns del "${NW}w" 2>/dev/null
	true
}

# The container joins C.
nw_join() {
	cfg --arg p "/var/run/netns/${NW}c" \
		'.linux.namespaces |= map(if .type == "network" then .path = $p else . end)'
}

# The world's resolver: dnsmasq on 10.213.0.1 and fd13::1 in W, its names
# (egress_dns.bats lists them) and, for them, 10.213.3.1 and 10.213.4.1.
nw_dns_up() {
	local i
	: >"$TMP/hosts"
	for i in $(seq 40); do echo "10.215.0.$i big.allowed.test" >>"$TMP/hosts"; done
	ip -n "${NW}w" addr add 10.213.3.1/32 dev "${NW}w0"
	ip -n "${NW}w" addr add 10.213.4.1/32 dev "${NW}w0"
	bg_start 300 "$TMP/dnsmasq.log" ip netns exec "${NW}w" dnsmasq --no-daemon --no-resolv \
		--no-hosts --bind-interfaces --listen-address=10.213.0.1 --listen-address=fd13::1 \
		--port=53 --pid-file= \
		--user=root --log-queries --log-facility=- --local-ttl=5 \
		--host-record=www.allowed.test,10.213.1.1,fd13::a \
		--host-record=other.test,10.213.2.1,fd13::b \
		--host-record=x.sub.test,10.213.3.1 --host-record=sub.test,10.213.4.1 \
		--host-record=target.elsewhere.test,10.213.4.1 \
		--cname=alias.allowed.test,target.elsewhere.test \
		--host-record=meta.allowed.test,169.254.169.254 \
		--addn-hosts="$TMP/hosts" --synth-domain=many.test,10.214.0.0/16
	for i in $(seq 50); do
		ip netns exec "${NW}w" "$BUSYBOX" netstat -lun 2>/dev/null | grep -q '10.213.0.1:53 ' &&
			return 0
		sleep 0.1
	done
	echo "dnsmasq did not start: $(cat "$TMP/dnsmasq.log")" >&2
	return 1
}

# The egress programs attached to the cgroup2 node CG, and their maps.
egress_objects_at() { # egress_objects_at CGDIR
	local p
	for p in $(bpftool -j cgroup show "$1" | jq -r '.[] | select(.name | startswith("egress_")) | .id'); do
		echo "prog $p"
		bpftool -j prog show id "$p" | jq -r '.map_ids[]? | "map \(.)"'
	done | sort -u
}

# Each object gone (cgroup programs are released a moment after rmdir).
assert_objects_gone() { # assert_objects_gone "prog N\nmap M..."
	local kind id left
	for _ in $(seq 50); do
		left=""
		while read -r kind id; do
			[ -n "$id" ] && bpftool "$kind" show id "$id" >/dev/null 2>&1 && left="$left $kind $id"
		done <<<"$1"
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	fail "left after delete:$left"
}

# The cgroup2 node process PID is in (hybrid: under /sys/fs/cgroup/unified).
cgroup2_dir_of() { # cgroup2_dir_of PID
	local rel
	rel=$(awk -F: '$1 == "0" {print $3}' "/proc/$1/cgroup")
	if [ -d /sys/fs/cgroup/unified ]; then
		echo "/sys/fs/cgroup/unified$rel"
	else
		echo "/sys/fs/cgroup$rel"
	fi
}

# What a container in C sees of the egress plan egress_engine_policy
# writes: an allowed name resolved by the gate and its page fetched, a
# name and an address outside the list and the metadata endpoint refused.
EGRESS_ENGINE_PROBES='wget -q -O - http://www.allowed.test/
echo "other: $(egprobe tcp 10.213.2.1 80)"; echo "meta: $(egprobe tcp 169.254.169.254 80)"
nslookup other.test >/dev/null 2>&1 && echo other-resolves || echo other-refused'

egress_engine_policy() { # egress_engine_policy FILE
	echo '{"allowAlways": ["join-network"], "dnsUpstreams": ["10.213.0.1"],
	       "egress": {"baseline": {"allow": ["www.allowed.test:80/tcp"]}}}' >"$1"
}

assert_egress_engine_probes() {
	assert_line "hello from the world"
	assert_line "other: errno 1"
	assert_line "meta: errno 1"
	assert_line other-refused
}
