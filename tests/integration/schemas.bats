#!/usr/bin/env bats
# What ward writes matches the schemas in config-schema/.

load ../helpers/common

validate() { # validate SCHEMA FILE
	/usr/bin/python3 - "$WARD_SRCDIR/config-schema/$1" "$2" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
for e in errors:
    print("/".join(map(str, e.path)), e.message)
sys.exit(1 if errors else 0)
PY
}

@test "ward spec output matches config.schema.json" {
	run validate config.schema.json "$BUNDLE/config.json"
	assert_success
}

@test "the schema catches what ward refuses" {
	cfg '.process.args = []'
	run validate config.schema.json "$BUNDLE/config.json"
	assert_failure
	assert_output --partial "process/args"
}

@test "ward state output matches state.schema.json" {
	cmd 'sleep 100'
	cfg '.annotations = {"a": "b"}'
	ward create --bundle "$BUNDLE" "$ID"
	ward state "$ID" >"$TMP/state.json"
	run validate state.schema.json "$TMP/state.json"
	assert_success
	ward delete "$ID"
	assert_no_leftovers
}

@test "ward check --format json matches check.schema.json, for every profile" {
	for p in compat baseline strict; do
		"$WARD" check --profile "$p" --format json "$BUNDLE" >"$TMP/check.json"
		run validate check.schema.json "$TMP/check.json"
		assert_success
	done
}

@test "policy.schema.json takes what ward takes, and refuses what ward refuses" {
	cat >"$TMP/policy.json" <<-'JSON'
	{"profile": "strict", "allow": ["cap.SYS_PTRACE", "mount:/var/lib/data", "device.fuse",
	 "hook:/usr/libexec/oci/hooks.d/h"], "hooks": ["/usr/libexec/oci/hooks.d/*"],
	 "missingNetwork": "isolate", "allowAlways": ["host-network"], "pidsLimit": 2048,
	 "strict": {"memoryLimit": 268435456, "cpuQuota": 50000, "cpuPeriod": 100000,
	            "pidsLimit": 128, "tmpfsSize": "32m", "usernsHostID": 200000, "usernsSize": 65536},
	 "secretEnv": ["*TOKEN*"]}
	JSON
	run validate policy.schema.json "$TMP/policy.json"
	assert_success
	"$WARD" --policy "$TMP/policy.json" check "$BUNDLE" >/dev/null
	# strict's id pool (the older usernsHostID/usernsSize above).
	echo '{"strict": {"idPool": {"start": 1879048192, "size": 268304384, "rangeSize": 65536}}}' >"$TMP/pool.json"
	run validate policy.schema.json "$TMP/pool.json"
	assert_success
	"$WARD" --policy "$TMP/pool.json" check "$BUNDLE" >/dev/null
	echo '{"strict": {"idPool": {"start": 0}}}' >"$TMP/bad.json"
	run validate policy.schema.json "$TMP/bad.json"
	assert_failure
	run "$WARD" --policy "$TMP/bad.json" check "$BUNDLE"
	assert_failure 2
	echo '{"profile": "strict", "alow": []}' >"$TMP/bad.json"
	run validate policy.schema.json "$TMP/bad.json"
	assert_failure
	run "$WARD" --policy "$TMP/bad.json" check "$BUNDLE"
	assert_failure 2
}
