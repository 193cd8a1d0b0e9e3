#!/usr/bin/env bats
# Namespaces joined by path (baseline and strict): a mount namespace never;
# the others only when they are another container's (/proc/PID/ns/TYPE of
# a process in a pid namespace of its own) or an engine's (an nsfs bind
# mount, as `ip netns add` makes). A host service's private namespace is
# refused like the host's own. Decided on the opened namespace, which is
# the one joined.

load ../helpers/common

setup() {
	ward_setup
	ID="p25-$BATS_TEST_NUMBER-$$-$RANDOM"
	NETNS="p25-$$-$RANDOM"
	cmd 'readlink /proc/self/ns/net'
}

teardown() {
	ward_teardown
	ip netns delete "$NETNS" 2>/dev/null || true
}

# join TYPE PATH: the config's namespace of that type is PATH; its index in NSI.
join() {
	cfg --arg t "$1" --arg p "$2" '.linux.namespaces |= map(if .type == $t then .path = $p else . end)'
	NSI=$(jq --arg t "$1" '.linux.namespaces | map(.type) | index($t)' "$BUNDLE/config.json")
}

# A host process started in the background with namespaces of its own
# (unshare's options); its pid in HOLDER.
host_holder() {
	bg_start 60 "$TMP/holder.log" unshare "$@" sleep 1000
	wait_for "the holder" pgrep -P "$BGPID"
	HOLDER=$(pgrep -P "$BGPID")
	wait_for "the holder's namespaces" holder_ready
}

# unshare has made the namespaces and run sleep.
holder_ready() { [[ "$(readlink "/proc/$HOLDER/exe")" == *sleep ]]; }

@test "a root service's private mount namespace is never joined (baseline, strict)" {
	host_holder -m --propagation private
	join mount "/proc/$HOLDER/ns/mnt"
	for p in baseline strict; do
		run ward --profile $p create --bundle "$BUNDLE" "$ID"
		assert_failure 126
		assert_output "ward: config.json: .linux.namespaces[$NSI].path: /proc/$HOLDER/ns/mnt: a mount namespace is never joined outside compat: it is another process's whole view of the filesystem, mounts and all (refused by the $p profile)"
		assert_no_leftovers
	done
}

@test "baseline: a host process's network namespace by /proc/PID/ns/net is refused, naming the opt-out" {
	host_holder -n
	join network "/proc/$HOLDER/ns/net"
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: config.json: .linux.namespaces[$NSI].path: /proc/$HOLDER/ns/net is the network namespace of a host process (one in the host's pid namespace), not another container's $(optout_tail baseline host-network)"
	assert_no_leftovers
}

@test "baseline: an engine's network namespace (ip netns add) is joined" {
	ip netns add "$NETNS"
	join network "/run/netns/$NETNS"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "net:[$(stat -L -c %i "/run/netns/$NETNS")]"
	assert_no_leftovers
}

@test "baseline: another container's network namespace by /proc/PID/ns/net is joined" {
	local other="$ID-other" pid
	cfg '.process.args = ["sleep", "100"]'
	ward run -d --bundle "$BUNDLE" "$other"
	pid=$(init_pid "$other")
	cmd 'readlink /proc/self/ns/net'
	join network "/proc/$pid/ns/net"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$(readlink "/proc/$pid/ns/net")"
	ward delete --force "$other"
	assert_no_leftovers
}
