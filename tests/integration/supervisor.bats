#!/usr/bin/env bats
# The run supervisor (issue #14): the wall-clock limit, denied syscalls
# answered and recorded, the figures of a run, the report after delete, and
# the supervisor's own lifetime (invisible to engines, fail closed).

load ../helpers/common

setup() {
	ward_setup
	POLICY="$TMP/policy.json"
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	REPORTS="$ROOT/.reports"
	cd "$BUNDLE"
}

teardown() {
	ward_teardown
}

# The supervisor of container $1 (pid), from its state dir.
sup_pid() { awk '{print $1}' "$ROOT/$1/supervisor"; }

# Non-zombie ward-supervisor processes of this test's containers (PID 1
# here may be slow to reap what it inherits).
live_supervisors() {
	local p st
	for p in $(id_pids); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q '^ward-supervisor ' || continue
		st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)
		[ -n "$st" ] && [ "$st" != Z ] && echo "$p"
	done
}

validate_report() { # validate_report FILE
	python3 - "$WARD_SRCDIR/config-schema/report.schema.json" "$1" <<'EOF'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
for e in errors:
    print("%s: %s" % ("/".join(str(p) for p in e.path), e.message))
sys.exit(1 if errors else 0)
EOF
}

report_json() { # report_json ID JQ-FILTER
	jq -r "$2" "$REPORTS/$1.json"
}

@test "strict: a sleep past --timeout gets SIGTERM, then the cgroup is killed after the grace period" {
	policy '{"timeoutGrace": "1s"}'
	cmd 'sleep 60'
	SECONDS=0
	run ward --policy "$POLICY" --profile strict run --timeout 2s "$ID"
	assert_failure 124 # timeout(1)'s status, outside compat
	# Said on stderr, not only in the report: a CI log shows why.
	assert_line "ward: container \"$ID\" timed out after 2s (its limit, from --timeout): SIGTERM, then SIGKILL to every process once the 1s grace ran out"
	# Bounded, not timed: the deadline (2 s) and the grace (1 s) ended it,
	# not the sleep.
	[ "$SECONDS" -lt 30 ]
	[ "$(report_json "$ID" .timeout.timedOut)" = true ]
	[ "$(report_json "$ID" .timeout.killedAfterGrace)" = true ]
	[ "$(report_json "$ID" .timeout.limitMs)" = 2000 ]
	[ "$(report_json "$ID" .timeout.from)" = --timeout ]
	[ "$(report_json "$ID" .exit.signalName)" = SIGKILL ]
	run ward report "$ID"
	assert_success
	assert_line --index 0 --partial "killed by SIGKILL"
	assert_line --index 0 --partial "timed out after 2.000s (killed after the grace period)"
	run validate_report "$REPORTS/$ID.json"
	assert_success
}

@test "baseline: org.ward.timeout starts a supervisor; an init that handles SIGTERM exits by itself" {
	cfg '.annotations["org.ward.timeout"] = "1s"'
	cmd 'trap "exit 42" TERM; sleep 30 & wait'
	run ward run "$ID"
	assert_failure 124
	assert_line "ward: container \"$ID\" timed out after 1s (its limit, from annotation): SIGTERM, and it ended within the grace"
	[ "$(report_json "$ID" .profile)" = baseline ]
	[ "$(report_json "$ID" .timeout.timedOut)" = true ]
	[ "$(report_json "$ID" .timeout.killedAfterGrace)" = false ]
	[ "$(report_json "$ID" .timeout.from)" = annotation ]
	[ "$(report_json "$ID" .exit.code)" = 42 ]
	# The audit log of the run is in the report.
	[ "$(report_json "$ID" '[.audit[] | select(.rule == "timeout")] | length')" = 1 ]
}

@test "the limit counts from create: an exec'd process of a container never started is stopped too" {
	policy '{"timeoutGrace": "1s"}'
	cfg '.annotations["org.ward.timeout"] = "2s"'
	cmd 'sleep 60'
	ward --policy "$POLICY" create "$ID"
	ward exec -d "$ID" sleep 60
	wait_for "the deadline to end it" is_stopped "$ID"
	[ -z "$(cat "$(cg_procs_file)" 2>/dev/null)" ]
	ward delete "$ID"
	[ "$(report_json "$ID" .timeout.timedOut)" = true ]
	[ "$(report_json "$ID" .started)" = null ]
}

@test "with a limit nothing outlives the init: a process left in a joined pid namespace is killed" {
	cmd 'sleep 100'
	ward run -d "$ID-a"
	pa=$(init_pid "$ID-a")
	cfg --arg p "/proc/$pa/ns/pid" '.linux.namespaces |= map(if .type == "pid" then .path = $p else . end)
	     | .annotations["org.ward.timeout"] = "1m"'
	# The init leaves a child behind: in A's pid namespace it outlives B's
	# init, in B's cgroup.
	cmd 'sleep 77 & echo $!'
	run ward run "$ID-b"
	assert_success
	[ "$(report_json "$ID-b" .exit.code)" = 0 ]
	left() { pgrep -f '^sleep 77$' >/dev/null; }
	! left
	# ward create joined A's pid namespace for its children: the
	# supervisor is still in ward's own, out of the container's sight.
	cmd 'sleep 60'
	ward run -d "$ID-c"
	[ "$(readlink "/proc/$(sup_pid "$ID-c")/ns/pid")" = "$(readlink /proc/self/ns/pid)" ]
	pid_alive "$(sup_pid "$ID-c")"
	ward delete --force "$ID-c"
	ward delete --force "$ID-a"
}

@test "the wall-clock limit may only tighten: a longer annotation leaves strict.timeout" {
	policy '{"strict": {"timeout": "1s"}, "timeoutGrace": "1s"}'
	cfg '.annotations["org.ward.timeout"] = "1h"'
	cmd 'sleep 60'
	run ward --policy "$POLICY" --profile strict run --timeout 2h "$ID"
	assert_failure 124
	[ "$(report_json "$ID" .timeout.limitMs)" = 1000 ]
	[ "$(report_json "$ID" .timeout.from)" = strict.timeout ]
	# Strict's default is 10 minutes.
	cmd 'true'
	run ward --profile strict run "$ID-b"
	assert_success
	[ "$(report_json "$ID-b" .timeout.limitMs)" = 600000 ]
	[ "$(report_json "$ID-b" .timeout.timedOut)" = false ]
}

@test "denied syscalls: keyctl, ptrace and unshare answered with EPERM and counted, each recorded in full" {
	cmd 'sysprobe keyctl 0; sysprobe keyctl 1; sysprobe ptrace 16 1; sysprobe unshare 0x20000; exit 3'
	run ward --profile strict run --report "$TMP/r.json" "$ID"
	# The exit status is the container's, supervisor or not.
	assert_failure 3
	# Never "continue": each call was refused, with the profile's errno.
	assert_output "$(printf 'errno 1\nerrno 1\nerrno 1\nerrno 1')"
	cmp "$TMP/r.json" "$REPORTS/$ID.json"
	[ "$(jq -c .deniedSyscalls.counts "$TMP/r.json")" = '[{"syscall":"keyctl","count":2},{"syscall":"ptrace","count":1},{"syscall":"unshare","count":1}]' ]
	[ "$(jq -r .deniedSyscalls.total "$TMP/r.json")" = 4 ]
	[ "$(jq -r '.deniedSyscalls.first | map(.comm + " " + .syscall + " " + .arch + " " + .args[0]) | join(",")' "$TMP/r.json")" = \
		"sysprobe keyctl x86_64 0x0,sysprobe keyctl x86_64 0x1,sysprobe ptrace x86_64 0x10,sysprobe unshare x86_64 0x20000" ]
	run validate_report "$TMP/r.json"
	assert_success
	run ward report "$ID"
	assert_line --index 0 "exit 3, $(sed -n 's/^exit 3, \([0-9.]*s\),.*/\1/p' <<<"${lines[0]}"), peak memory $(sed -n 's/.*peak memory \([0-9.]* [KM]iB\),.*/\1/p' <<<"${lines[0]}"), 4 denied syscalls: keyctl ×2, ptrace ×1, unshare ×1"
	assert_line "  pid $(jq -r '.deniedSyscalls.first[0].pid' "$TMP/r.json") sysprobe: keyctl(0x0, 0x0, 0x0, ...) [x86_64]"
	# The limits it ran under (strict's), and the figures read from its cgroup.
	assert_line "  limits:   memory 512.0 MiB, pids 256, cpu 100000 us per 100000 us"
	assert_line --regexp '^  cpu:      user [0-9]+\.[0-9]{3}s, system [0-9]+\.[0-9]{3}s$'
}

@test "denied syscalls of exec'd processes are recorded too" {
	cmd 'sleep 60'
	ward --profile strict run -d "$ID"
	run ward exec "$ID" sysprobe keyctl 7
	assert_success
	assert_output "errno 1"
	run ward exec --user 1000:1000 "$ID" sysprobe ptrace 1
	assert_output "errno 1"
	# The supervisor's socket is root's, in the 0700 state dir.
	[ "$(stat -c %U:%a "$ROOT/$ID")" = root:700 ]
	ward delete --force "$ID"
	[ "$(report_json "$ID" '[.deniedSyscalls.first[] | .syscall + " " + .args[0]] | join(",")')" = 'keyctl 0x7,ptrace 0x1' ]
}

@test "denied syscalls past the first 100 are only counted; a hostile command name is printed escaped" {
	# A name with a terminal escape: the report shows it as \x1b (baseline,
	# a writable rootfs: strict has nowhere to run a program written now).
	policy '{"supervise": "always"}'
	cfg '.root.readonly = false'
	cmd 'cp /bin/sysprobe "/bin/$(printf "\033[31mx")"; i=0; while [ $i -lt 120 ]; do "/bin/$(printf "\033[31mx")" keyctl 0 >/dev/null; i=$((i+1)); done'
	run ward --policy "$POLICY" run "$ID"
	assert_success
	[ "$(report_json "$ID" .deniedSyscalls.total)" = 120 ]
	[ "$(report_json "$ID" '.deniedSyscalls.first | length')" = 100 ]
	[ "$(report_json "$ID" '.deniedSyscalls.counts[0].count')" = 120 ]
	run ward --policy "$POLICY" report "$ID"
	assert_success
	assert_output --partial '\x1b[31mx: keyctl('
	refute_output --partial $'\033'
}

@test "baseline with \"supervise\": \"always\" records denials; a config's own listener turns recording off" {
	policy '{"supervise": "always"}'
	cmd 'sysprobe keyctl 0'
	run ward --policy "$POLICY" run "$ID"
	assert_success
	[ "$(report_json "$ID" .deniedSyscalls.recorded)" = true ]
	[ "$(report_json "$ID" '.deniedSyscalls.counts[0].syscall')" = keyctl ]
	[ "$(report_json "$ID" .timeout.limitMs)" = null ]
	# A filter that kills by default has nothing to answer.
	cfg '.linux.seccomp.defaultAction = "SCMP_ACT_KILL"'
	cmd 'true'
	run ward --policy "$POLICY" run "$ID-b"
	assert_success
	[ "$(report_json "$ID-b" .deniedSyscalls.recorded)" = false ]
	[ "$(report_json "$ID-b" .deniedSyscalls.why)" = "the filter's default action is SCMP_ACT_KILL, not SCMP_ACT_ERRNO" ]
}

@test "figures: an OOM kill and a fork bomb under a pids limit" {
	cfg '.linux.resources.memory = {"limit": 33554432, "swap": 33554432} | .linux.resources.pids = {"limit": 16}'
	# The hog marks itself the OOM killer's first choice: were the init
	# taken instead (its pick is by size, and under load not always the
	# hog's), there would be no fork loop to count.
	cmd 'sh -c "echo 1000 >/proc/self/oom_score_adj; x=\$(head -c 100000000 /dev/zero | tr \"\\\\0\" a); echo \${#x}"; i=0; while [ $i -lt 40 ]; do sleep 5 & i=$((i+1)); done 2>/dev/null; true'
	run ward --profile strict run "$ID"
	[ "$(report_json "$ID" '.figures.oomKills >= 1')" = true ]
	[ "$(report_json "$ID" '.figures.pidsLimitHits >= 1')" = true ]
	[ "$(report_json "$ID" '.figures.memoryPeakBytes > 1000000')" = true ]
	[ "$(report_json "$ID" .limits.memoryBytes)" = 33554432 ]
	[ "$(report_json "$ID" .limits.pids)" = 16 ]
	run ward report "$ID"
	assert_line --index 0 --partial "OOM kill(s), pids limit hit"
}

@test "the report survives delete, validates, and is kept for the last reportKeep runs in reportDir" {
	policy "{\"reportDir\": \"$TMP/reports\", \"reportKeep\": 2}"
	cmd 'exit 0'
	# Pruning takes only ward's own reports: another user's .json stays,
	# however old.
	mkdir -p "$TMP/reports"
	echo '{}' >"$TMP/reports/not-wards.json"
	chown 65534 "$TMP/reports/not-wards.json"
	touch -d '-1 day' "$TMP/reports/not-wards.json"
	for n in 1 2 3; do
		ward --policy "$POLICY" --profile strict create "$ID-$n"
		ward start "$ID-$n"
		wait_for "container $n to stop" is_stopped "$ID-$n"
		ward delete "$ID-$n"
		touch -d "-$((10 - n)) seconds" "$TMP/reports/$ID-$n.json"
	done
	[ ! -d "$ROOT/$ID-3" ]
	run ls "$TMP/reports"
	assert_output "$(printf '%s\n' not-wards.json "$ID-2.json" "$ID-3.json")"
	run ward --policy "$POLICY" report --format json "$ID-3"
	assert_success
	cmp <(echo "$output") <(cat "$TMP/reports/$ID-3.json")
	[ "$(jq -r .exit.code <<<"$output")" = 0 ]
	run validate_report "$TMP/reports/$ID-3.json"
	assert_success
	# A damaged report is an error naming it, not a garbled summary.
	echo '{"id": ' >"$TMP/reports/$ID-9.json"
	run ward --policy "$POLICY" report "$ID-9"
	assert_failure 1
	assert_output --partial "ward: the run report"
	run ward --policy "$POLICY" report --format json "$ID-9"
	assert_failure 1
	assert_output "ward: the run report: line 2, column 1: invalid JSON: parse error: premature EOF"
	rm "$TMP/reports/$ID-9.json"
	run ward --policy "$POLICY" report "$ID-1"
	assert_failure 1
	assert_output "ward: no run report for \"$ID-1\" (only supervised containers have one: strict, or a time limit)"
}

# The container's cgroup.procs in the pids hierarchy (v1) or cgroup2.
cg_procs_file() {
	local d
	for d in /sys/fs/cgroup/pids/ward/"$ID" /sys/fs/cgroup/ward/"$ID"; do
		[ -d "$d" ] && echo "$d/cgroup.procs" && return
	done
}
gone() { ! pid_alive "$1"; }
no_supervisor() { [ -z "$(live_supervisors)" ]; }

@test "the supervisor is invisible: not the init's parent, own session, stdio on /dev/null, no caller fd, outside the cgroup" {
	cmd 'sleep 60'
	exec 7>"$TMP/caller-fd"
	ward --profile strict create "$ID"
	exec 7>&-
	ward start "$ID"
	sp=$(sup_pid "$ID")
	init=$(init_pid "$ID")
	pid_alive "$sp"
	[ "$(awk '{print $4}' "/proc/$init/stat")" != "$sp" ]
	[ "$(tr '\0' ' ' <"/proc/$sp/cmdline")" = "ward-supervisor $ID " ]
	# Its own session (sid = its parent's pid: the middle fork's setsid).
	[ "$(awk '{print $6}' "/proc/$sp/stat")" != "$(awk '{print $6}' /proc/$$/stat)" ]
	for fd in 0 1 2; do [ "$(readlink "/proc/$sp/fd/$fd")" = /dev/null ]; done
	run ls -l "/proc/$sp/fd/"
	refute_output --partial caller-fd
	refute_output --partial "$BUNDLE"
	# Not in the container's cgroup: its limits and cgroup.kill are not its.
	! grep -qF "$(awk -F: '$1 == "0" || $2 ~ /pids/ {print $3}' "/proc/$init/cgroup" | head -1)" "/proc/$sp/cgroup"
	ward delete --force "$ID"
	wait_for "no supervisor after delete" no_supervisor
	[ -f "$REPORTS/$ID.json" ]
}

@test "killing the supervisor kills the container, and state and report say why" {
	cmd 'sleep 60'
	ward --profile strict create "$ID"
	ward start "$ID"
	init=$(init_pid "$ID")
	kill -9 "$(sup_pid "$ID")"
	wait_for "the container to be killed" gone "$init"
	[ "$(status_of "$ID")" = stopped ]
	run ward state "$ID"
	assert_output --partial '"org.ward.supervisor": "the run supervisor died: the container was killed"'
	wait_for "the guard's report" test -f "$REPORTS/$ID.json"
	[ "$(report_json "$ID" .supervisor.ended)" = "the run supervisor died: the container was killed" ]
	[ "$(report_json "$ID" .exit.signalName)" = SIGKILL ]
	ward delete "$ID"
	wait_for "no supervisor after delete" no_supervisor
}

@test "no supervisor under compat, and run --timeout is refused there; bad durations are refused" {
	cmd 'true'
	ward --profile compat create "$ID"
	[ ! -e "$ROOT/$ID/supervisor" ]
	[ -z "$(live_supervisors)" ]
	ward delete "$ID"
	run ward --profile compat run --timeout 1s "$ID"
	assert_failure 1
	assert_output "ward: --timeout: a wall-clock limit needs the run supervisor, which the compat profile never runs"
	run ward run --timeout soon "$ID"
	assert_failure 125 # usage errors are ward's (ward(1), EXIT STATUS)
	assert_output 'ward: --timeout: "soon" is not a duration'
	run ward run -d --report "$TMP/r" "$ID"
	assert_failure 125
	assert_output --partial "--report: the report is written when the run ends"
	cfg '.annotations["org.ward.timeout"] = "soon"'
	refused_with 'config.json: .annotations["org.ward.timeout"]: "soon" is not a duration (such as 90s, 10m or 1h)'
	policy '{"supervise": "sometimes"}'
	run ward --policy "$POLICY" run "$ID"
	assert_failure 126
	assert_output --partial '.supervise: must be auto or always (got "sometimes")'
	policy '{"strict": {"timeout": "eventually"}}'
	run ward --policy "$POLICY" run "$ID"
	assert_failure 126
	assert_output --partial '.strict.timeout: must be a duration such as 90s, 10m or 1h (got "eventually")'
	[ ! -d "$ROOT/$ID" ]
}

@test "report --list: every kept report, the newest first (when it ended, id, profile, exit, summary); a damaged one is named, not skipped" {
	policy '{}'
	cmd 'exit 3'
	ward --policy "$POLICY" --profile strict run "$ID-a" || true
	sleep 1 # (the end times are to the second)
	cmd 'true'
	ward --policy "$POLICY" --profile strict run "$ID-b"
	echo '{"id": ' >"$REPORTS/$ID-c.json"
	run ward --policy "$POLICY" report --list
	assert_success
	assert_line --index 0 $'ENDED\tID\tPROFILE\tEXIT\tSUMMARY'
	assert_line --index 1 --regexp $'^[0-9T:.Z-]+\t'"$ID-b"$'\tstrict\t0\texit 0, '
	assert_line --index 2 --regexp $'^[0-9T:.Z-]+\t'"$ID-a"$'\tstrict\t3\texit 3, '
	assert_line --index 3 --regexp $'^-\t'"$ID-c"$'\t-\t-\t\\(unreadable: the run report: line 2, column 1: invalid JSON'
	# --list takes no id.
	run ward --policy "$POLICY" report --list "$ID-a"
	assert_failure 1
	assert_output "ward: report: needs a container id (or --list, alone)"
	# The listing is a table: a JSON request is refused, not answered with it.
	run ward --policy "$POLICY" report --list --format json
	assert_failure 1
	assert_output --partial "ward: report --list: --format json: the listing is only a table"
	rm "$REPORTS/$ID-c.json"
}

@test "run --report writes a report when the job never ran: a refusal, an invalid config, ward's own failure (baseline and strict)" {
	for p in baseline strict; do
		rm -f "$TMP/r.json"
		# Refused by the policy: every refusal, with its opt-out.
		cfg '.process.env = ["PATH=/bin", "API_TOKEN=x"] | .process.capabilities.bounding += ["CAP_SYS_PTRACE"]'
		run ward --profile "$p" run --report "$TMP/r.json" --bundle "$BUNDLE" "$ID"
		assert_failure 126
		local line=$output
		run jq -c '{refused, kind, profile, n: (.refusals | length), first: .refusals[0].optOut}' "$TMP/r.json"
		assert_output --regexp '^\{"refused":true,"kind":"refused","profile":"'"$p"'","n":[12],"first":"[a-zA-Z.:_]+"\}$'
		assert_equal "ward: $(jq -r .error "$TMP/r.json")" "$line"
		assert_no_leftovers
		# Invalid: the JSON path and the reason.
		rm -f "$TMP/r.json"
		cfg '.process.env = ["PATH=/bin"] | .process.capabilities.bounding -= ["CAP_SYS_PTRACE"] | .process.args = 7'
		run ward --profile "$p" run --report "$TMP/r.json" --bundle "$BUNDLE" "$ID"
		assert_failure 126
		run jq -c '{refused, kind}' "$TMP/r.json"
		assert_output '{"refused":true,"kind":"invalid"}'
		assert_no_leftovers
		# ward failed: the program is not in the image. Still a report,
		# with the line ward printed.
		rm -f "$TMP/r.json"
		cfg '.process.args = ["/no/such/program"]'
		run ward --profile "$p" run --report "$TMP/r.json" --bundle "$BUNDLE" "$ID"
		assert_failure 125
		line=$output
		run jq -r '"\(.refused) \(.kind) ward: \(.error)"' "$TMP/r.json"
		assert_output "false $(jq -r .kind "$TMP/r.json") $line"
		[[ "$line" == *'"/no/such/program"'* ]] || fail "the line does not name the program: $line"
		assert_no_leftovers
		cfg '.process.args = ["true"]'
	done
}
