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
