#!/usr/bin/env bats
# The field table (issue 25, "The policy is total"): ward check shows each
# field's class and the fields ward does not know; strict refuses unknown
# fields in process, linux, mounts and root, and what the table refuses.

load ../helpers/common

setup() {
	ward_setup
}

teardown() {
	ward_teardown
}

validate_check() {
	python3 - "$WARD_SRCDIR/config-schema/check.schema.json" "$1" <<-'PY'
	import json, sys, jsonschema
	jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
	PY
}

@test "ward check lists a misspelt root.readOnly: ignored by baseline, refused by strict" {
	cfg '.root.readOnly = true'
	run "$WARD" check "$BUNDLE"
	assert_success
	assert_line --partial 'unknown field .root.readOnly (ignored)'
	run "$WARD" check --profile strict --format json "$BUNDLE"
	assert_failure 1
	echo "$output" >"$TMP/check.json"
	validate_check "$TMP/check.json"
	run jq -r '.unknownFields[0], (.refusals[] | select(.field == ".root.readOnly") | .reason)' "$TMP/check.json"
	assert_line --index 0 'unknown field .root.readOnly (refused)'
	assert_line --index 1 --partial 'unknown field: ward does not read it'
}

@test "strict refuses an unknown field in root, naming its path" {
	cfg '.root.readOnly = true'
	WARD_GLOBALS=(--profile strict)
	refused_with 'config.json: .root.readOnly: unknown field: ward does not read it'
}

@test "baseline runs a config with an unknown field (the rootfs stays writable)" {
	cfg '.root.readonly = false | .root.readOnly = true | .linux.extra = 1'
	cmd 'touch /written && echo writable'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line 'writable'
}

@test "strict refuses linux.intelRdt through the field table's own rule" {
	cfg '.linux.intelRdt = {"closID": "x"}'
	run "$WARD" check --profile strict --format json "$BUNDLE"
	assert_failure 1
	echo "$output" >"$TMP/check.json"
	validate_check "$TMP/check.json"
	run jq -r '.refusals[] | select(.field == ".linux.intelRdt") | .reason' "$TMP/check.json"
	assert_output --partial 'Intel RDT is not supported by ward'
	run jq -r '.fields[] | select(.field == ".linux.intelRdt") | .class' "$TMP/check.json"
	assert_output 'refuse'
	WARD_GLOBALS=(--profile strict)
	refused_with 'config.json: .linux.intelRdt: Intel RDT is not supported by ward (container/support.c refuses it at create, naming the missing resctrl mount where there is none) (refused by the strict profile)'
}

@test "ward check shows the class of each field the config sets, per profile" {
	run "$WARD" check --format json "$BUNDLE"
	assert_success
	echo "$output" >"$TMP/check.json"
	validate_check "$TMP/check.json"
	run jq -r '.fields[] | select(.field == ".root.path" or .field == ".process.args" or .field == ".process.noNewPrivileges") | "\(.field) \(.class)"' "$TMP/check.json"
	run sort <<<"$output"
	assert_output $'.process.args accept\n.process.noNewPrivileges adjust\n.root.path host'
	run "$WARD" check --profile compat --format json "$BUNDLE"
	run jq -r '[.fields[].class] | unique | join(",")' <<<"$output"
	assert_output 'accept'
	cfg '.linux.resources.unified = {"pids.max": "max"}'
	run "$WARD" check --profile strict --format json "$BUNDLE"
	assert_failure 1
	# Refused by unified's own rule, naming the key (refuse_devices.c).
	run jq -r '.refusals[] | select(.field | startswith(".linux.resources.unified")) | .field' <<<"$output"
	assert_output '.linux.resources.unified["pids.max"]'
}
