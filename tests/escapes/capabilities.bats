#!/usr/bin/env bats
# Inheritable and ambient capabilities (every profile):
#   CVE-2022-29162 (runc GHSA-f3fp-gc8g-vw66) and crun's CVE-2022-27650
#     (GHSA-66vq-54fq-6jvv): `runc exec --cap` / crun set the inheritable set
#     (crun: for every process) from the bounding set, so a non-root process
#     executing a file with inheritable file capabilities gained them, and
#     the ambient set could carry them on. Class: CapInh and CapAmb are 0 for
#     every process unless config.json (or exec's --process) asks, and then
#     never more than asked; a non-root process holds no capability.
# Swept: run (with and without a terminal, root and uid 1000), every exec
# (plain, --tty, --cap, --cap --tty, --user 1000, --user 1000 --cap, --process
# with capabilities and no inheritable/ambient), every process the container
# holds afterwards (the init, a detached exec), and a config that asks for
# CAP_KILL in both sets (never more than that).

load escapes

# CAPS [ASKED-HEX]: the process's own check; ESCAPED on a set beyond ASKED.
CAPS='asked=${1:-0000000000000000}
for s in /proc/[0-9]*/status; do
	[ -r "$s" ] || continue
	n=${s#/proc/}; n=${n%/status}; [ "$n" = $$ ] && s=/proc/self/status
	u=$(awk "/^Uid:/{print \$2}" "$s"); i=$(awk "/^CapInh:/{print \$2}" "$s"); a=$(awk "/^CapAmb:/{print \$2}" "$s"); e=$(awk "/^CapEff:/{print \$2}" "$s")
	[ -n "$i" ] || continue
	for v in $i $a; do [ "$v" = 0000000000000000 ] || [ "$v" = "$asked" ] || echo "ESCAPED: pid $n ($(cat /proc/$n/comm 2>/dev/null)) CapInh $i CapAmb $a (asked $asked)"; done
	[ "$u" = 0 ] || [ "$a" != 0000000000000000 ] || [ "$e" = 0000000000000000 ] || echo "ESCAPED: pid $n uid $u CapEff $e"
done
echo VERDICT-OK'

caps_ok() {
	local why
	why=$(verdict_ok "$out" "$rc" '^$') || { echo "$1: $why"; bad=$((bad + 1)); return 0; }
	n=$((n + 1))
}

@test "CVE-2022-29162 / CVE-2022-27650: CapInh and CapAmb are 0 for every process of run and exec (terminal, --cap, --user, --process), every profile; never more than config.json asks" {
	local p u t n=0 bad=0
	for p in "${PROFILES[@]}"; do
		as "$p"
		for u in 0 1000; do
			for t in false true; do
				cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
				cfg --arg c "$CAPS" --argjson u "$u" --argjson t "$t" \
					'.process.args = ["sh", "-c", $c] | .process.user = {"uid": $u, "gid": $u} | .process.terminal = $t'
				wrun run --bundle "$BUNDLE" "$ID"
				caps_ok "$p run uid $u terminal $t"
			done
		done
		cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
		cmd 'exec sleep 1000'
		wfile run -d --bundle "$BUNDLE" "$ID"
		[ "$rc" -eq 0 ] || { echo "$p run -d: $out"; return 1; }
		wfile exec --detach "$ID" sleep 1000
		wrun exec "$ID" sh -c "$CAPS"
		caps_ok "$p exec"
		wrun exec --tty "$ID" sh -c "$CAPS"
		caps_ok "$p exec --tty"
		wrun exec --cap CAP_NET_RAW --cap CAP_SYS_ADMIN "$ID" sh -c "$CAPS"
		[ "$rc" -ne 0 ] && [ "$p" != compat ] && [[ "$out" != *ESCAPED* ]] || caps_ok "$p exec --cap"
		wrun exec --tty --cap CAP_NET_RAW "$ID" sh -c "$CAPS"
		caps_ok "$p exec --tty --cap"
		wrun exec --user 1000:1000 "$ID" sh -c "$CAPS"
		caps_ok "$p exec --user 1000"
		wrun exec --user 1000:1000 --cap CAP_NET_RAW "$ID" sh -c "$CAPS"
		caps_ok "$p exec --user 1000 --cap"
		jq -n --arg c "$CAPS" '{"user": {"uid": 1000, "gid": 1000}, "args": ["sh", "-c", $c], "cwd": "/", "env": ["PATH=/bin"],
			"capabilities": {"bounding": ["CAP_KILL", "CAP_NET_RAW"], "effective": ["CAP_KILL", "CAP_NET_RAW"], "permitted": ["CAP_KILL", "CAP_NET_RAW"]}}' >"$TMP/p.json"
		wrun exec --process "$TMP/p.json" "$ID"
		caps_ok "$p exec --process"
		wrun delete --force "$ID"
		# Asked for: CAP_KILL (bit 5) inheritable and ambient, no more.
		cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
		cfg --arg c "$CAPS" '.process.args = ["sh", "-c", $c, "-", "0000000000000020"] | .process.user = {"uid": 1000, "gid": 1000}
			| .process.capabilities.inheritable = ["CAP_KILL"] | .process.capabilities.ambient = ["CAP_KILL"]'
		wrun run --bundle "$BUNDLE" "$ID"
		if [ "$rc" -eq 0 ]; then caps_ok "$p run asking CAP_KILL"; else verdict_ok "$out" "$rc" 'process\.capabilities' || bad=$((bad + 1)); fi
	done
	tally "$n processes checked, $bad with capabilities not asked for"
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}
