#!/usr/bin/env bats
# Command line: help, version, option forms, spec, list.

load ../helpers/common

@test "--version prints the version and spec" {
	run "$WARD" --version
	assert_success
	assert_line --regexp '^ward version [0-9]+\.[0-9]+\.[0-9]+'
	assert_line 'spec: 1.3.0'
}

@test "--help lists every command; no command is a usage error" {
	run "$WARD" --help
	assert_success
	for c in create start run state kill delete list spec; do
		assert_output --partial "  $c "
	done
	run "$WARD"
	assert_failure 1
	assert_output --partial "usage: ward"
}

@test "the man page documents every command and global option of --help" {
	man="$WARD_SRCDIR/runtime/cli/ward.1"
	run "$WARD" --help
	assert_success
	help=$output
	cmds=$(awk '/^commands:/{f=1;next} f && /^  [a-z]/{print $1}' <<<"$help")
	opts=$(grep -o '^  --[a-z-]*' <<<"$help")
	# (an empty or cut --help would check nothing: these are there)
	for c in create start run exec state kill delete spec check features; do
		grep -qx "$c" <<<"$cmds" || fail "--help lists no command $c"
	done
	for o in --root --log --profile --policy; do
		grep -qx "  $o" <<<"$opts" || fail "--help lists no option $o"
	done
	for c in $cmds; do
		grep -q "^\.B $c\b\|^\.SS $c\b" "$man" || fail "ward.1 lacks command $c"
	done
	for o in $opts; do
		esc=$(printf '%s' "$o" | sed 's/-/\\-/g')
		grep -qF -- "$esc" "$man" || fail "ward.1 lacks option $o"
	done
}

@test "unknown command and unknown option are clear errors" {
	run "$WARD" frobnicate
	assert_failure 1
	assert_output 'ward: unknown command "frobnicate" (see ward --help)'
	run "$WARD" version
	assert_failure 1
	assert_output 'ward: unknown command "version": the version is ward --version'
	# A usage error is ward's (125), not a refused config (126; ward(1),
	# EXIT STATUS); compat keeps runc's 1.
	run ward create --frob "$ID"
	assert_failure 125
	assert_output 'ward: create: unknown option "--frob"'
	run ward create --bundle
	assert_failure 125
	assert_output 'ward: create: option --bundle needs a value'
	run ward --profile compat create --frob "$ID"
	assert_failure 1
}

@test "--opt value, --opt=value and -opt value are the same" {
	cmd 'true'
	run "$WARD" --root="$ROOT" run --bundle="$BUNDLE" "$ID-a"
	assert_success
	run "$WARD" -root "$ROOT" run -bundle "$BUNDLE" "$ID-b"
	assert_success
	run "$WARD" --root "$ROOT" run -b "$BUNDLE" "$ID-c"
	assert_success
	assert_no_leftovers
}

@test "spec: short by default, as runc's (the built-in seccomp profile applies, not written out); baseline adjusts it in nothing else; --full writes it inline" {
	local short="$TMP/short"
	mkdir -p "$short"
	cp -a "$ROOTFS_CACHE" "$short/rootfs"
	run "$WARD" spec --bundle "$short"
	assert_success
	run jq -c '[(.linux.seccomp // "none"), .process.capabilities.bounding, .linux.resources]' "$short/config.json"
	assert_output '["none",["CAP_KILL","CAP_NET_BIND_SERVICE"],{"devices":[{"allow":false,"access":"rwm"}],"pids":{"limit":4096}}]'
	[ "$(wc -c <"$short/config.json")" -lt 8192 ] || fail "$(wc -c <"$short/config.json") bytes"
	# baseline's only adjustment: the seccomp profile it fills in.
	run "$WARD" check --format json "$short"
	assert_success
	run jq -c '[.adjustments[].rule]' <<<"$output"
	assert_output '["seccomp-default"]'
	# It runs, under the built-in filter (TIOCSTI denied, as inline).
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$short/rootfs/bin/"
	jq '.process.args = ["sh", "-c", "grep ^Seccomp: /proc/self/status; sysprobe ioctl 0 0x5412 @x"]' "$short/config.json" >"$TMP/c" && mv "$TMP/c" "$short/config.json"
	run ward run --bundle "$short" "$ID" </dev/null
	assert_success
	assert_line "Seccomp:	2"
	assert_line "errno 1"
	# An exec'd process too, under baseline and strict.
	jq '.process.args = ["sleep", "100"]' "$short/config.json" >"$TMP/c" && mv "$TMP/c" "$short/config.json"
	for p in baseline strict; do
		ward --profile "$p" run -d --bundle "$short" "$ID"
		run ward exec "$ID" sh -c 'grep ^Seccomp: /proc/self/status; sysprobe ioctl 0 0x5412 @x' </dev/null
		assert_success
		assert_line "Seccomp:	2"
		assert_line "errno 1"
		ward delete --force "$ID"
	done
	# --full: runc's process and ward's profile inline; --rootless too.
	run jq -c '[.linux.seccomp.defaultAction, (.process.capabilities.bounding | index("CAP_AUDIT_WRITE") != null)]' "$BUNDLE/config.json"
	assert_output '["SCMP_ACT_ERRNO",true]'
	rm "$short/config.json"
	run "$WARD" spec --rootless --bundle "$short"
	assert_success
	run jq -c '[(.linux.seccomp // "none"), (.linux.resources // "none"), (.linux.namespaces | map(.type) | index("user") != null)]' "$short/config.json"
	assert_output '["none","none",true]'
	assert_no_leftovers
}

@test "spec writes a config ward accepts, and never overwrites one" {
	run jq -r '.ociVersion, .root.path, .process.noNewPrivileges' "$BUNDLE/config.json"
	assert_output $'1.3.0\nrootfs\ntrue'
	run "$WARD" spec --bundle "$BUNDLE"
	assert_failure 1
	assert_output --partial "config.json: File exists"
	cmd 'echo hello'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output hello
}

@test "--log-format json writes errors as runc-style JSON lines" {
	run "$WARD" --root "$ROOT" --log "$TMP/log.json" --log-format json start nosuch
	assert_failure 125
	assert_output 'ward: container "nosuch" does not exist'
	run jq -r '.level + "|" + .msg' "$TMP/log.json"
	assert_output 'error|container "nosuch" does not exist'
	run jq -r '.time' "$TMP/log.json"
	assert_output --regexp '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$'
	run "$WARD" --log-format yaml list
	assert_failure 1
	assert_output --partial 'must be text or json'
}

@test "--debug logs the steps of create" {
	cmd 'true'
	run "$WARD" --root "$ROOT" --debug --log "$TMP/log.txt" run --bundle "$BUNDLE" "$ID"
	assert_success
	run grep -c "init is pid" "$TMP/log.txt"
	assert_output 1
}

@test "--debug, --log and --log-format as runc's tests read them" {
	cmd 'true'
	# stderr: logrus's text lines for debug.
	run "$WARD" --root "$ROOT" --debug run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --regexp '^time="[0-9T:.-]+Z" level=debug msg=".*init is pid [0-9]+"$'
	run "$WARD" --root "$ROOT" --debug --log "$TMP/log.txt" --log-format text run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ''
	run grep -c 'level=debug msg=' "$TMP/log.txt"
	[ "$output" -gt 0 ]
	run "$WARD" --root "$ROOT" --debug --log "$TMP/log.json" --log-format json run --bundle "$BUNDLE" "$ID"
	assert_success
	run jq -r 'select(.level == "debug") | .msg' "$TMP/log.json"
	assert_line --regexp 'init is pid [0-9]+$'
	# An error: one line on stderr in ward's words, and in the log.
	run "$WARD" --root "$ROOT" --log "$TMP/log.json" --log-format json state nosuch
	assert_failure 1
	assert_output 'ward: container "nosuch" does not exist'
	run jq -r 'select(.level == "error") | .msg' "$TMP/log.json"
	assert_output 'container "nosuch" does not exist'
}

@test "-h on every command prints its usage and exits 0; --version as runc lays it out" {
	for c in create start run exec kill delete state list ps pause resume update events spec features check; do
		run "$WARD" "$c" -h
		assert_success
		assert_line --index 0 --regexp "^usage: ward $c( |$)"
	done
	run "$WARD" -v
	assert_success
	assert_line --index 0 --regexp '^ward version [0-9]+\.[0-9]+\.[0-9]+$'
	# The commit the binary was built from, not the one make last compiled
	# main.c at (it was stale once).
	if head=$(git -C "$WARD_SRCDIR" rev-parse --short=12 HEAD 2>/dev/null); then
		assert_line --index 1 --regexp "^commit: $head(-dirty)?\$"
	else
		assert_line --index 1 --regexp '^commit: v[0-9]'
	fi
	assert_line --index 2 --regexp '^spec: [0-9]+\.[0-9]+\.[0-9]+$'
	assert_line --index 3 --regexp '^libseccomp: [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "--help of every command explains each option its usage line names" {
	local c o
	for c in create start run exec kill delete state list ps pause resume update events spec features check report; do
		run "$WARD" "$c" --help
		assert_success
		usage=${lines[0]}
		for o in $(grep -o -- '--[a-z][a-z-]*' <<<"$usage" | sort -u); do
			grep -q -- "^  .*$o\b" <<<"$output" || fail "ward $c --help does not explain $o"
		done
	done
}

@test "every option the parser takes is explained in its command's --help, and -h works anywhere among the options" {
	local c o f names
	# From the code: each option literal of a command's file is in the
	# --help of one of the commands that file serves.
	for f in create_cli.h:create,run cmd_create.c:create cmd_run.c:run cmd_exec.c:exec \
		cmd_update.c:update cmd_events.c:events cmd_spec.c:spec cmd_check.c:check \
		cmd_query.c:list,report cmd_lifecycle.c:kill,delete cmd_cgroup.c:ps; do
		names=$(grep -o '{"[a-z][a-z-]*", \(0\|'"'"'.'"'"'\), OPT_' "$WARD_SRCDIR/runtime/cli/${f%%:*}" |
			sed 's/{"\([a-z-]*\)".*/\1/' | sort -u)
		[ -n "$names" ] || [ "${f%%:*}" = cmd_create.c ] || fail "no options found in ${f%%:*}"
		for o in $names; do
			found=
			for c in $(tr , ' ' <<<"${f#*:}"); do
				"$WARD" $c --help | grep -q -- "^  --$o\b" && found=1
			done
			[ -n "$found" ] || fail "--$o (${f%%:*}) is in no --help of ${f#*:}"
		done
	done
	# From the table: every option the command takes is in its --help and
	# the parser knows it (no "unknown option" for it).
	for c in $("$WARD" __complete commands); do
		run "$WARD" $c --help
		assert_success
		help=$output
		for o in $("$WARD" __complete flags $c | sed 's/=.*//'); do
			case $o in
			--*) grep -q -- "^  $o\b" <<<"$help" || fail "ward $c --help does not explain $o" ;;
			*) grep -q -- "^  --.*, $o\b" <<<"$help" || fail "ward $c --help lacks $o" ;;
			esac
			[ "$o" = --help ] || [ "$o" = -h ] && continue
			run bash -c 'cd "$1" && "$WARD" --root "$2" "${@:3}"' _ "$TMP" "$ROOT" $c "$o=1" nosuch-id
			refute_output --partial 'unknown option'
		done
	done
	run "$WARD" --help
	for o in $(grep -o '{"[a-z][a-z-]*", \(0\|'"'"'.'"'"'\), OPT_' "$WARD_SRCDIR/runtime/main.c" | sed 's/{"\([a-z-]*\)".*/\1/'); do
		assert_line --regexp "^  --$o\b"
	done
	# -h/--help anywhere among a command's options: its usage, exit 0.
	run "$WARD" --root "$ROOT" run -b "$BUNDLE" --help
	assert_success
	assert_line --index 0 'usage: ward run [OPTIONS] ID'
	run "$WARD" --root "$ROOT" delete --force "$ID" -h
	assert_success
	assert_line --index 0 'usage: ward delete [--force] ID'
	# ... but not after exec's command: that is the process's.
	run "$WARD" --root "$ROOT" exec nosuch sh --help
	assert_failure
	assert_output --partial 'does not exist'
	# The texts say what the options do.
	run "$WARD" exec --help
	assert_output --partial "write the exec'd process's pid"
	run "$WARD" --help
	assert_line --regexp '^ +usage: ward check .*--bundle DIR'
	run "$WARD" check --help
	assert_line --index 0 --regexp '^usage: ward check .*--bundle DIR'
	assert_no_leftovers
}

@test "bash completion: commands, each command's options and container ids, from ward itself; make install puts it where bash-completion looks" {
	mkdir -p "$TMP/bin"
	ln -s "$WARD" "$TMP/bin/ward"
	complete_at() { # complete_at WORD... : what completing the last word offers
		PATH="$TMP/bin:$PATH" bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ward; printf "%s\n" "${COMPREPLY[@]}"' \
			"$WARD_SRCDIR/runtime/cli/completion/ward.bash" "$@"
	}
	run complete_at ward ru
	assert_output run
	run complete_at ward --pro
	assert_output --profile
	run complete_at ward --profile strict run --ti
	assert_output --timeout
	run complete_at ward exec --pre
	assert_output --preserve-fds
	# A global's value, and an option's value that is one of some words.
	run complete_at ward --profile ""
	assert_output $'compat\nbaseline\nstrict'
	run complete_at ward --root "$ROOT" ps --format j
	assert_output json
	# Every option the parser takes, also those no usage line names.
	run complete_at ward check --b
	assert_output --bundle
	run complete_at ward exec --ig
	assert_output --ignore-paused
	run complete_at ward update --cpu-rt
	assert_output $'--cpu-rt-period\n--cpu-rt-runtime'
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	# Container ids under the --root of the command line, either spelling.
	run complete_at ward --root "$ROOT" kill "${ID:0:3}"
	assert_output "$ID"
	run complete_at ward --root="$ROOT" --debug kill "${ID:0:3}"
	assert_output "$ID"
	# A TAB makes nothing: no --log file, no state root that is not there.
	run complete_at ward --root "$ROOT" --log "$TMP/tab.log" kill "${ID:0:3}"
	assert_output "$ID"
	[ ! -e "$TMP/tab.log" ] || fail "completion created the --log file"
	run complete_at ward --root "$TMP/no-root" kill x
	[ ! -e "$TMP/no-root" ] || fail "completion created a state root"
	ward delete --force "$ID"
	make -s -C "$WARD_BUILDDIR" install-data-local DESTDIR="$TMP/dest" >/dev/null
	[ -n "$(find "$TMP/dest" -path '*/share/bash-completion/completions/ward')" ] ||
		fail "make install put no completion file"
	assert_no_leftovers
}

@test "list shows containers as table, quiet and json" {
	cmd 'sleep 100'
	ward create --bundle "$BUNDLE" "$ID"
	run ward list
	assert_success
	assert_line --index 0 --regexp '^ID +PID +STATUS +BUNDLE'
	assert_line --index 1 --regexp "^$ID +[0-9]+ +created +$BUNDLE"
	run ward list -q
	assert_output "$ID"
	run ward list --format json
	assert_success
	run jq -r '.[0].id + " " + .[0].status' <<<"$output"
	assert_output "$ID created"
	run ward list --format xml
	assert_failure 1
	assert_output --partial 'must be table or json'
	# Sorted by id, as runc lists them (not in directory order).
	for s in c a d b; do
		ward create --bundle "$BUNDLE" "$ID-$s"
	done
	run ward list -q
	assert_output "$(printf '%s\n' "$ID" "$ID-a" "$ID-b" "$ID-c" "$ID-d")"
	run ward list --format json
	[ "$(jq -r 'map(.id) | join(" ")' <<<"$output")" = "$ID $ID-a $ID-b $ID-c $ID-d" ]
	# runc's key order (its own list test matches the text).
	assert_output --regexp '^\[\{"ociVersion":"[^"]+","id":"[^"]+","pid":[0-9]+,"status":"created","bundle":'
	for s in "" -a -b -c -d; do
		ward delete --force "$ID$s"
	done
	assert_no_leftovers
}

@test "the quick-start demo runs and leaves nothing" {
	run env DEMO_BUNDLE="$TMP/demo" sh "$WARD_SRCDIR/runtime/setup/demo.sh" "$WARD" "$BUSYBOX"
	assert_success
	assert_line "pid: 1 (own pid namespace); hostname: ward"
	assert_line "Seccomp:	2"
	assert_line "root filesystem: read-only"
	assert_line "== container exited with status 0; containers left behind: 0 =="
}

@test "a missing or an extra container id is a clear error for every command" {
	for c in start state delete kill pause resume ps update events exec; do
		run ward $c
		assert_failure "$(case $c in start | exec) echo 125 ;; *) echo 1 ;; esac)" # ward(1), EXIT STATUS
		assert_output "ward: $c: expects a container id (see ward $c --help)"
	done
	for c in create run; do
		run ward $c --bundle "$BUNDLE"
		assert_failure 125
		assert_output "ward: $c: expects exactly one container id (see ward $c --help)"
	done
	for c in start state delete pause resume update events; do
		run ward $c one two
		assert_failure "$(case $c in start) echo 125 ;; *) echo 1 ;; esac)" # ward(1), EXIT STATUS
		assert_output "ward: $c: unexpected argument \"two\""
	done
	# ps, as runc: what follows the id is for ps itself.
	run ward ps one -o pid
	assert_failure 1
	assert_output 'ward: container "one" does not exist'
	assert_no_leftovers
}

@test "the README's \"Using it\" block runs as written, line by line, and leaves nothing" {
	# The block between the sh fences under "## Using it", every line a
	# command that must succeed (bash -e), with ward on the PATH as a
	# wrapper that keeps this test's state root.
	awk '/^## Using it/ { f = 1; next } f && /^```sh/ { b = 1; next } b && /^```/ { exit } b' \
		"$WARD_SRCDIR/README.md" >"$TMP/using.sh"
	[ "$(grep -c . "$TMP/using.sh")" -ge 8 ] || fail "no block found: $(cat "$TMP/using.sh")"
	mkdir -p "$TMP/bin" "$TMP/using"
	printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$WARD" "$ROOT" >"$TMP/bin/ward"
	chmod 755 "$TMP/bin/ward"
	run env PATH="$TMP/bin:$PATH" bash -e -c "cd '$TMP/using' && set -x && . '$TMP/using.sh'" </dev/null
	assert_success
	# What the lines say they do: ps listed the sleep; state said running.
	assert_output --regexp 'sleep 300'
	assert_output --partial '"status": "running"'
	assert_no_leftovers
}
