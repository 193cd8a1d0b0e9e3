#!/usr/bin/env bats
# Each strict container gets a host id range of its own (issue #25): from
# the id pool the operator policy names (default 0x70000000-0x7FFDFFFF in
# ranges of 65536), never another live container's and never an
# /etc/subuid or /etc/subgid range; leased race-free in the host's
# /run/ward-idpool (one pool for every state root),
# recorded in the state, released at delete, taken over after a crash.
# Without it every strict container was host 100000-165535: one strict
# container's root could read and write another's files as the same host
# uid.

load ../helpers/common

# The pool's first two ranges (no other strict container lives meanwhile).
R1=1879048192
R2=$((R1 + 65536))

setup() {
	ward_setup
	ID="pool-$BATS_TEST_NUMBER-$$-$RANDOM"
	IDS=("$ID-a" "$ID-b" "$ID-c")
	POLICY="$TMP/policy.json"
}

teardown() {
	local i
	for i in "${IDS[@]}"; do
		"$WARD" --root "$ROOT" delete --force "$i" >/dev/null 2>&1 || true
		[ ! -d "$TMP/root2" ] || "$WARD" --root "$TMP/root2" delete --force "$i" >/dev/null 2>&1 || true
	done
	ward_teardown
}

# The first host uid of a container's init's uid_map.
host_uid() {
	awk '$1 == 0 {print $2}' "/proc/$(init_pid "$1")/uid_map"
}

# The host's pool directory: one for every state root.
POOL=/run/ward-idpool

# This test's leases in the pool's directory, "<start> <id>" sorted.
leases() {
	local f id
	for f in "$POOL"/[0-9]*; do
		[ -e "$f" ] || continue
		id=$(cut -d' ' -f1 "$f")
		case " ${IDS[*]} " in *" $id "*) echo "${f##*/} $id" ;; esac
	done | sort
}

@test "pool: two concurrent strict creates get disjoint ranges; ward state shows each; a third reuses the range freed by delete" {
	cmd 'sleep 100'
	"$WARD" --root "$ROOT" --profile strict create --bundle "$BUNDLE" "${IDS[0]}" >"$TMP/a.out" 2>&1 &
	a=$!
	"$WARD" --root "$ROOT" --profile strict create --bundle "$BUNDLE" "${IDS[1]}" >"$TMP/b.out" 2>&1 &
	b=$!
	wait "$a" || fail "create a: $(cat "$TMP/a.out")"
	wait "$b" || fail "create b: $(cat "$TMP/b.out")"
	ua=$(host_uid "${IDS[0]}")
	ub=$(host_uid "${IDS[1]}")
	[ "$ua" != "$ub" ] || fail "both containers map to host $ua"
	# The first two ranges of the pool, one each, 65536 ids long.
	assert_equal "$(printf '%s\n' "$ua" "$ub" | sort | tr '\n' ' ')" "$R1 $R2 "
	run cat "/proc/$(init_pid "${IDS[0]}")/uid_map"
	assert_output --regexp "^ +0 +$ua +65536$"
	run cat "/proc/$(init_pid "${IDS[1]}")/gid_map"
	assert_output --regexp "^ +0 +$ub +65536$"
	# ward state says which.
	assert_equal "$(ward state "${IDS[0]}" | jq -r '.annotations["org.ward.userns.range"]')" "$ua-$((ua + 65535))"
	assert_equal "$(ward state "${IDS[1]}" | jq -r '.annotations["org.ward.userns.range"]')" "$ub-$((ub + 65535))"
	# One lease per container, no more.
	run leases
	assert_output "$(printf '%s\n' "$ua ${IDS[0]}" "$ub ${IDS[1]}" | sort)"
	# exec applies create's record: the same range (joined, not remade).
	run ward exec "${IDS[1]}" cat /proc/self/uid_map
	assert_success
	assert_output --regexp "^ +0 +$ub +65536$"
	# A create the policy refuses gives its lease back at once.
	cfg '.process.env += ["API_TOKEN=x"]'
	run ward --profile strict create --bundle "$BUNDLE" "${IDS[2]}"
	assert_failure 126
	cfg '.process.env -= ["API_TOKEN=x"]'
	run leases
	assert_output "$(printf '%s\n' "$ua ${IDS[0]}" "$ub ${IDS[1]}" | sort)"
	# Deleted: its range is free again and the next create takes it.
	ward delete --force "${IDS[0]}"
	run leases
	assert_output "$ub ${IDS[1]}"
	ward --profile strict create --bundle "$BUNDLE" "${IDS[2]}"
	assert_equal "$(host_uid "${IDS[2]}")" "$ua"
	ward delete --force "${IDS[1]}"
	ward delete --force "${IDS[2]}"
	run leases
	assert_output ""
	assert_no_leftovers
}

@test "pool: a file container root writes into a shared volume is a different host uid in two strict containers" {
	mkdir -m 777 "$TMP/vol"
	cfg --arg s "$TMP/vol" '.mounts += [{"destination": "/vol", "type": "bind", "source": $s, "options": ["rbind", "rw"]}]'
	for i in 0 1; do
		cmd "echo secret >/vol/f$i && sleep 100"
		ward --profile strict run -d --bundle "$BUNDLE" "${IDS[$i]}"
	done
	wait_for "both files" test -e "$TMP/vol/f0" -a -e "$TMP/vol/f1"
	u0=$(stat -c %u "$TMP/vol/f0")
	u1=$(stat -c %u "$TMP/vol/f1")
	# Were they equal, either container's root would own the other's
	# files (and could read a 0600 one, or replace it).
	[ "$u0" != "$u1" ] || fail "both containers wrote as host uid $u0"
	[ "$u0" -ne 0 ] && [ "$u1" -ne 0 ] || fail "container root is host root"
}

@test "pool: a create killed after leasing leaves a lease the next create takes over; a recorded one it does not" {
	command -v strace >/dev/null || skip "strace is not installed"
	cmd 'sleep 100'
	# Hold the create between its lease and its state dir: every mkdirat
	# after its first (the pool's directory, made just before the lease)
	# waits, the next being the seccomp cache's or <root>/<id>.
	strace -f -qq -o "$TMP/strace.log" -e trace=mkdirat -e inject=mkdirat:delay_enter=30000000:when=2+ \
		"$WARD" --root "$ROOT" --profile strict create --bundle "$BUNDLE" "${IDS[0]}" >"$TMP/a.out" 2>&1 &
	tracer=$!
	track_pid "$tracer"
	wait_for "the lease" test -s "$POOL/$R1"
	sleep 1
	[ ! -e "$ROOT/${IDS[0]}" ] || fail "the create was not held before its state dir"
	pkill -9 -P "$tracer" || true
	kill -9 "$tracer" 2>/dev/null || true
	wait "$tracer" 2>/dev/null || true
	# What the killed create left: its lease, and no state dir.
	run leases
	assert_output "$R1 ${IDS[0]}"
	[ ! -e "$ROOT/${IDS[0]}" ] || fail "the killed create made its state dir"
	# The next create takes that range over (the lease is not live: no
	# create holds it and no state dir records it).
	ward --profile strict create --bundle "$BUNDLE" "${IDS[1]}"
	assert_equal "$(host_uid "${IDS[1]}")" "$R1"
	run leases
	assert_output "$R1 ${IDS[1]}"
	# A lease of a state dir that records another range is stale too; one
	# whose state dir records it is live, and the next create passes it.
	printf '%s 0123456789abcdef 65536 %s\n' "${IDS[1]}" "$(readlink -f "$ROOT")" >"$POOL/$R2"
	ward --profile strict create --bundle "$BUNDLE" "${IDS[2]}"
	assert_equal "$(host_uid "${IDS[2]}")" "$R2"
	run leases
	assert_output "$(printf '%s\n' "$R1 ${IDS[1]}" "$R2 ${IDS[2]}")"
}

@test "pool: the policy's idPool, /etc/subuid entries inside it skipped, exhaustion refused naming the pool; ward check shows the range" {
	cmd 'sleep 100'
	# The host's first /etc/subuid entry S:C (a real user's ids): a pool
	# of two ranges of 1000, the second at S, has only the first to give.
	entry=$(grep -m1 -E '^[^#:]+:[0-9]+:[0-9]+$' /etc/subuid 2>/dev/null) || skip "no /etc/subuid entry"
	s=$(echo "$entry" | cut -d: -f2)
	c=$(echo "$entry" | cut -d: -f3)
	[ "$s" -gt 1000 ] && [ "$c" -ge 1000 ] || skip "the /etc/subuid entry $entry is too small"
	p=$((s - 1000))
	policy '{"strict": {"idPool": {"start": '"$p"', "size": 2000, "rangeSize": 1000}}}'
	WARD_GLOBALS=(--policy "$POLICY")
	run ward --profile strict check "$BUNDLE"
	assert_success
	assert_output --partial "container 0-999 = host $p-$((s - 1)): the next free range of the id pool, leased at create"
	ward --profile strict create --bundle "$BUNDLE" "${IDS[0]}"
	assert_equal "$(host_uid "${IDS[0]}")" "$p"
	run ward --profile strict create --bundle "$BUNDLE" "${IDS[1]}"
	assert_failure 125
	assert_output "ward: strict: no free host id range in the pool $p-$((s + 999)) (strict.idPool: 2 ranges of 1000 ids; 1 leased to live containers, 1000 ids of it are /etc/subuid or /etc/subgid ranges): delete a strict container, or give the pool more ids"
	[ ! -e "$ROOT/${IDS[1]}" ] || fail "the refused create left its state dir"
	run leases
	assert_output "$p ${IDS[0]}"
	# And `ward check` says so too.
	run ward --profile strict check "$BUNDLE"
	assert_failure 1
	assert_output --partial "refused"
	assert_output --partial "no free host id range in the pool $p-$((s + 999))"
}

@test "pool: two strict containers under two state roots (two engines, two tenants) never share a range" {
	# An attacker's review: each --root had a pool of its own, and both
	# handed out the first range; one root then owned the other's files.
	cmd 'sleep 100'
	mkdir -p "$TMP/root2"
	ward --profile strict create --bundle "$BUNDLE" "${IDS[0]}"
	"$WARD" --root "$TMP/root2" --profile strict create --bundle "$BUNDLE" "${IDS[1]}" >"$TMP/b.out" 2>&1 ||
		fail "$(cat "$TMP/b.out")"
	u0=$(host_uid "${IDS[0]}")
	u1=$(awk '$1 == 0 {print $2}' "/proc/$("$WARD" --root "$TMP/root2" state "${IDS[1]}" | jq .pid)/uid_map")
	[ "$u0" != "$u1" ] || fail "both state roots' containers map to host $u0"
	run leases
	assert_output "$(printf '%s\n' "$u0 ${IDS[0]}" "$u1 ${IDS[1]}" | sort)"
	"$WARD" --root "$TMP/root2" delete --force "${IDS[1]}"
	ward delete --force "${IDS[0]}"
	run leases
	assert_output ""
}
