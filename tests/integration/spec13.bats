#!/usr/bin/env bats
# runtime-spec 1.3's Linux fields: linux.memoryPolicy applied (and the
# kernel's refusals explained), linux.netDevices moved (veth pairs, as this
# kernel has no dummy driver; names s31...), Intel RDT's schemata and
# enableMonitoring refused for want of resctrl, and features saying so.

load ../helpers/common

setup() {
	ward_setup
	HOSTEND= DEV=
}

teardown() {
	ward_teardown
	# A veth end this test made and that is still there (the namespace
	# going destroys both ends).
	[ -z "$HOSTEND" ] || ip link del "$HOSTEND" 2>/dev/null || true
	[ -z "$DEV" ] || ip link del "$DEV" 2>/dev/null || true
}

# A veth pair on the host: $DEV (to be moved, with an IPv4 and an IPv6
# address, up) and its peer $HOSTEND (stays).
veth_pair() {
	local n=$((RANDOM % 100000))
	HOSTEND=s31h$n DEV=s31c$n
	NET4=10.231.$((n % 250)).2
	ip link add "$HOSTEND" type veth peer name "$DEV"
	ip addr add "$NET4/24" dev "$DEV"
	ip -6 addr add "fd31::$(printf %x "$n")/64" dev "$DEV" nodad
	ip link set "$DEV" up
}

on_host() { ip link show "$1" >/dev/null 2>&1; }
gone_from_host() { ! on_host "$1"; }

heap_policy() { # the policy of the heap of `cat`, as numa_maps shows it
	sed -n 's/^[0-9a-f]* \(.*\) heap .*/\1/p'
}

# --- memoryPolicy -----------------------------------------------------------

@test "memoryPolicy: each mode is the process's policy (numa_maps), also an exec'd one's" {
	cmd 'cat /proc/self/numa_maps'
	run ward run --bundle "$BUNDLE" "$ID-0"
	assert_success
	assert_equal "$(heap_policy <<<"$output")" default
	local mode want
	for mode in 'MPOL_BIND|0|bind:0' 'MPOL_LOCAL||local' 'MPOL_INTERLEAVE|0|interleave:0' \
		'MPOL_WEIGHTED_INTERLEAVE|0|weighted interleave:0' 'MPOL_PREFERRED|0|prefer:0' \
		'MPOL_PREFERRED_MANY|0|prefer (many):0'; do
		IFS='|' read -r m nodes want <<<"$mode"
		cfg --arg m "$m" --arg n "$nodes" '.linux.memoryPolicy = ({mode: $m} + (if $n == "" then {} else {nodes: $n} end))'
		run ward run --bundle "$BUNDLE" "$ID-$m"
		assert_success
		assert_equal "$(heap_policy <<<"$output")" "$want"
	done
	# Flags reach the kernel too; and an exec'd process gets the policy.
	cfg '.linux.memoryPolicy = {mode: "MPOL_BIND", nodes: "0", flags: ["MPOL_F_STATIC_NODES"]}'
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	ward start "$ID"
	run ward exec "$ID" cat /proc/self/numa_maps
	assert_success
	assert_equal "$(heap_policy <<<"$output")" 'bind=static:0'
	run ward exec "$ID" sh -c 'grep Mems_allowed_list /proc/self/status'
	assert_line --regexp '^Mems_allowed_list:.*0'
	ward delete --force "$ID"
}

@test "memoryPolicy under strict: applied (nothing of the host's is handed over)" {
	WARD_GLOBALS=(--profile strict)
	cfg '.linux.memoryPolicy = {mode: "MPOL_BIND", nodes: "0"}'
	cmd 'cat /proc/self/numa_maps'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_equal "$(heap_policy <<<"$output")" 'bind:0'
}

@test "memoryPolicy: the kernel's refusals, explained and naming the field; nothing left" {
	[ ! -e /sys/devices/system/node/node7 ] || skip "this host has a NUMA node 7"
	cfg '.linux.memoryPolicy = {mode: "MPOL_BIND", nodes: "7"}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output --regexp '^ward: config.json: .linux.memoryPolicy.nodes: the kernel refused MPOL_BIND on nodes "7": node 7 is not among the container.s memory nodes \([0-9,-]+\): Invalid argument$'
	assert_no_leftovers
	# MPOL_F_NUMA_BALANCING goes with MPOL_BIND (and newer kernels'
	# MPOL_PREFERRED_MANY), never with MPOL_INTERLEAVE.
	cfg '.linux.memoryPolicy = {mode: "MPOL_INTERLEAVE", nodes: "0", flags: ["MPOL_F_NUMA_BALANCING"]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: config.json: .linux.memoryPolicy: the kernel refused MPOL_INTERLEAVE with MPOL_F_NUMA_BALANCING: this kernel does not take that mode with those flags (set_mempolicy(2)): Invalid argument"
	assert_no_leftovers
}

@test "memoryPolicy: bad values name their JSON path, before anything is made" {
	cfg '.linux.memoryPolicy = {mode: "MPOL_LOCAL", nodes: "0"}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: bundle $BUNDLE: config.json: .linux.memoryPolicy.nodes: MPOL_LOCAL takes no nodes (got \"0\")"
	assert_no_leftovers
	cfg '.linux.memoryPolicy = {mode: "MPOL_BIND", nodes: "0-a"}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: bundle $BUNDLE: config.json: .linux.memoryPolicy.nodes: must be a list of node numbers and ranges such as \"0-3,7\" (got \"0-a\")"
	cfg '.linux.memoryPolicy = {mode: "MPOL_BIND", nodes: "0", flags: ["MPOL_F_LAZY"]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: bundle $BUNDLE: config.json: .linux.memoryPolicy.flags[0]: unknown flag \"MPOL_F_LAZY\""
	assert_no_leftovers
}

# --- netDevices -------------------------------------------------------------

@test "netDevices: moved in, renamed, up, addresses kept; left to the kernel at delete" {
	veth_pair
	WARD_GLOBALS=(--profile compat)
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {name: "eth7"}}'
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	gone_from_host "$DEV" || fail "$DEV is still on the host"
	ward start "$ID"
	run ward exec "$ID" ip -o addr show dev eth7
	assert_success
	assert_output --partial "inet $NET4/24 scope global eth7"
	assert_output --regexp 'inet6 fd31::[0-9a-f]+/64 scope global'
	run ward exec "$ID" ip -o link show eth7
	assert_output --regexp '<[A-Z,_-]*UP[A-Z,_-]*>'
	run ward exec "$ID" ip -o link show "$DEV"
	assert_failure
	# config-linux.md: the runtime MUST NOT move it out before deletion;
	# the namespace going destroys a veth, and its peer with it.
	ward delete --force "$ID"
	wait_for "the veth pair gone with the container's namespace" gone_from_host "$HOSTEND"
	gone_from_host "$DEV"
	gone_from_host eth7
	assert_no_leftovers
}

@test "netDevices: kill -9 of the init, then delete: the namespace and the veth go" {
	veth_pair
	WARD_GLOBALS=(--profile compat)
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {}}'
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	ward start "$ID"
	run ward exec "$ID" ip -o link show "$DEV"
	assert_success
	local pid
	pid=$(init_pid "$ID")
	kill -9 "$pid"
	wait_dead "$pid"
	# Nothing of ward's keeps the namespace: it goes with the init.
	wait_for "the veth pair gone with the init" gone_from_host "$HOSTEND"
	gone_from_host "$DEV"
	ward delete "$ID"
	assert_no_leftovers
}

@test "netDevices: a create that fails gives the device back, under its name, up, with its addresses" {
	veth_pair
	WARD_GLOBALS=(--profile compat)
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {name: "eth7"}} | .process.args = ["/s31-missing"]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: exec: "/s31-missing": stat /s31-missing: No such file or directory'
	assert_no_leftovers
	run ip -o addr show dev "$DEV"
	assert_success
	assert_output --partial "inet $NET4/24 scope global $DEV"
	assert_output --regexp 'inet6 fd31::[0-9a-f]+/64 scope global'
	run ip -o link show "$DEV"
	assert_output --regexp "^[0-9]+: $DEV@$HOSTEND: <[A-Z,_-]*UP"
	# A name taken inside: the kernel's EEXIST, explained; given back too.
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {name: "lo"}} | .process.args = ["true"]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: config.json: .linux.netDevices[\"$DEV\"]: the container's network namespace has a device \"lo\" already (a name with \"%d\" lets the kernel number it): File exists"
	assert_no_leftovers
	run ip -o addr show dev "$DEV"
	assert_output --partial "inet $NET4/24 scope global $DEV"
}

@test "netDevices: a name with %d is numbered by the kernel" {
	veth_pair
	WARD_GLOBALS=(--profile compat)
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {name: "s31e%d"}}'
	cmd 'ip -o link show s31e0'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output --regexp '^[0-9]+: s31e0@'
}

@test "netDevices: no new network namespace, or no such device: refused, the device untouched" {
	veth_pair
	WARD_GLOBALS=(--profile compat)
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {}} | .linux.namespaces |= map(select(.type != "network"))'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: config.json: .linux.netDevices: moving network devices needs a "network" namespace in .linux.namespaces'
	assert_no_leftovers
	on_host "$DEV"
	cfg '.linux.namespaces += [{type: "network", path: "/proc/1/ns/net"}]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: config.json: .linux.netDevices: moving network devices needs a new network namespace, not one joined by path (/proc/1/ns/net)'
	on_host "$DEV"
	cfg '.linux.namespaces |= map(select(.type != "network")) + [{type: "network"}] | .linux.netDevices = {"s31nosuch": {}}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output 'ward: config.json: .linux.netDevices["s31nosuch"]: no such network device on the host: No such device'
	assert_no_leftovers
}

@test "netDevices: bad names name their JSON path; the device stays on the host" {
	veth_pair
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {name: "much-too-long-name"}}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: bundle $BUNDLE: config.json: .linux.netDevices[\"$DEV\"].name: a network device name is 1 to 15 bytes (got \"much-too-long-name\")"
	assert_no_leftovers
	on_host "$DEV"
}

@test "netDevices: baseline and strict move only what the operator's policy lists" {
	veth_pair
	POLICY=$TMP/policy.json
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {name: "eth7"}}'
	refused_with "config.json: .linux.netDevices[\"$DEV\"]: moves the host's network device into the container; only devices the operator's policy lists in \"netDevices\" are moved outside compat (refused by the baseline profile)"
	on_host "$DEV"
	WARD_GLOBALS=(--profile strict)
	refused_with "(refused by the strict profile)"
	on_host "$DEV"
	# Another device listed changes nothing; nor does an annotation.
	policy '{"netDevices": ["s31other"]}'
	cfg --arg d "$DEV" '.annotations["org.ward.allow." + $d] = "true"'
	WARD_GLOBALS=()
	refused_with "config.json: .linux.netDevices[\"$DEV\"]: moves the host's network device"
	on_host "$DEV"
	# Listed: baseline moves it; so does strict (its user namespace's
	# network namespace, entered by ward as the host's root).
	policy "$(jq -n --arg d "$DEV" '{netDevices: [$d]}')"
	cmd 'ip -o addr show dev eth7'
	run ward --policy "$POLICY" run --bundle "$BUNDLE" "$ID-b"
	assert_success
	assert_output --partial "inet $NET4/24 scope global eth7"
	veth_pair
	policy "$(jq -n --arg d "$DEV" '{netDevices: [$d]}')"
	cfg --arg d "$DEV" '.linux.netDevices = {($d): {name: "eth7"}}'
	run ward --policy "$POLICY" --profile strict run --bundle "$BUNDLE" "$ID-s"
	assert_success
	assert_output --partial "inet $NET4/24 scope global eth7"
}

# --- Intel RDT ----------------------------------------------------------------

@test "intelRdt schemata and enableMonitoring: refused, naming the missing resctrl mount" {
	! grep -q ' - resctrl ' /proc/self/mountinfo || skip "resctrl is mounted here"
	local why='Intel RDT needs the resctrl filesystem, and none is mounted (mount -t resctrl resctrl /sys/fs/resctrl, on a CPU with RDT)'
	cfg '.linux.intelRdt = {closID: "s31", schemata: ["L3:0=7f0;1=1f", "MB:0=20;1=70"]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: config.json: .linux.intelRdt.schemata: $why"
	assert_no_leftovers
	cfg '.linux.intelRdt = {enableMonitoring: true}'
	run ward --profile compat create --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: config.json: .linux.intelRdt.enableMonitoring: $why"
	assert_no_leftovers
	# Malformed first: a newline would be a schemata line of its own.
	cfg '.linux.intelRdt = {schemata: ["L3:0=7f0", "MB:0=20\nL3:0=1"]}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output "ward: bundle $BUNDLE: config.json: .linux.intelRdt.schemata[1]: must not contain a newline (one line each)"
	assert_no_leftovers
}

# --- features -----------------------------------------------------------------

@test "features: runtime-spec 1.3.0, memoryPolicy's modes and flags, netDevices, no Intel RDT" {
	run "$WARD" features
	assert_success
	features=$output
	run jq -r '.ociVersionMax' <<<"$features"
	assert_output 1.3.0
	run jq -r '.linux.memoryPolicy.modes | sort | join(" ")' <<<"$features"
	assert_output 'MPOL_BIND MPOL_DEFAULT MPOL_INTERLEAVE MPOL_LOCAL MPOL_PREFERRED MPOL_PREFERRED_MANY MPOL_WEIGHTED_INTERLEAVE'
	run jq -r '.linux.memoryPolicy.flags | sort | join(" ")' <<<"$features"
	assert_output 'MPOL_F_NUMA_BALANCING MPOL_F_RELATIVE_NODES MPOL_F_STATIC_NODES'
	run jq -c '[.linux.netDevices.enabled, .linux.intelRdt]' <<<"$features"
	assert_output '[true,{"enabled":false,"schemata":false,"monitoring":false}]'
}
