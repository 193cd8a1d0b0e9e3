#!/usr/bin/env bats
# Bad input: one clear line, a distinct status (126: the config is invalid;
# 125: ward or the host cannot do it), nothing left behind.

load ../helpers/common

# create_fails_with MESSAGE [STATUS]: create must fail with exactly this
# message and status (default 126) and leave nothing.
create_fails_with() {
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure "${2:-126}"
	assert_output "$1"
	assert_no_leftovers
}

@test "malformed JSON: the message says where, as editors count (line and column)" {
	echo '{"ociVersion": "1.2.0",' >"$BUNDLE/config.json"
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --regexp "^ward: bundle $BUNDLE: config.json: line 2, column 1: invalid JSON: "
	printf '{\n  "ociVersion": "1.2.0",\n  "process": {"args": ["sh",]}\n}\n' >"$BUNDLE/config.json"
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --regexp "^ward: bundle $BUNDLE: config.json: line 3, column (29|30): invalid JSON: parse error: "
	assert_no_leftovers
}

@test "missing config.json" {
	rm "$BUNDLE/config.json"
	create_fails_with "ward: bundle $BUNDLE: cannot open $BUNDLE/config.json: No such file or directory"
}

@test "missing bundle directory" {
	run ward create --bundle "$TMP/nope" "$ID"
	assert_failure 126
	assert_output "ward: bundle $TMP/nope: No such file or directory"
	assert_no_leftovers
}

@test "wrong type names the JSON path" {
	cfg '.process.args = "sh"'
	create_fails_with "ward: bundle $BUNDLE: config.json: .process.args: must be a non-empty array of strings"
}

@test "missing required field names the JSON path" {
	cfg 'del(.process.cwd)'
	create_fails_with "ward: bundle $BUNDLE: config.json: .process.cwd: required field is missing"
}

@test "unknown capability, rlimit and namespace are refused" {
	cfg '.process.capabilities.bounding += ["CAP_TELEPORT"]'
	create_fails_with "ward: bundle $BUNDLE: config.json: .process.capabilities.bounding[3]: unknown capability \"CAP_TELEPORT\""
	cfg '.process.capabilities.bounding |= .[0:3] | .process.rlimits[0].type = "RLIMIT_BOGUS"'
	create_fails_with "ward: bundle $BUNDLE: config.json: .process.rlimits[0].type: unknown rlimit \"RLIMIT_BOGUS\""
	cfg '.process.rlimits[0].type = "RLIMIT_NOFILE" | .linux.namespaces += [{"type": "chroot"}]'
	create_fails_with "ward: bundle $BUNDLE: config.json: .linux.namespaces[6].type: unknown namespace type \"chroot\""
}

@test "out-of-range number and unknown ociVersion major" {
	cfg '.process.user.uid = 4294967296'
	create_fails_with "ward: bundle $BUNDLE: config.json: .process.user.uid: out of range (got 4294967296, maximum 4294967295)"
	cfg '.process.user.uid = 0 | .ociVersion = "2.0.0"'
	create_fails_with "ward: bundle $BUNDLE: config.json: .ociVersion: unsupported version \"2.0.0\": ward implements runtime-spec 1.x"
}

@test "blkio weights outside 10..1000 are refused with their path" {
	cfg '.linux.resources.blockIO = {"weight": 5}'
	create_fails_with "ward: bundle $BUNDLE: config.json: .linux.resources.blockIO: weights must be between 10 and 1000"
	cfg '.linux.resources.blockIO = {"weightDevice": [{"major": 8, "minor": 0, "leafWeight": 1001}]}'
	create_fails_with "ward: bundle $BUNDLE: config.json: .linux.resources.blockIO.weightDevice[0]: weights must be between 10 and 1000"
}

@test "unknown properties are ignored as the spec requires" {
	cfg '.futureThing = {"a": [1, 2]} | .process.futureFlag = true'
	cmd 'echo ok'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ok
	assert_no_leftovers
}

@test "features not implemented yet are refused, never ignored" {
	cfg '.linux.intelRdt = {"closID": "x"}'
	create_fails_with "ward: config.json: .linux.intelRdt: Intel RDT needs the resctrl filesystem, and none is mounted (mount -t resctrl resctrl /sys/fs/resctrl, on a CPU with RDT)" 125
	cfg 'del(.linux.intelRdt)'
	cfg 'del(.linux.resources) | .process.terminal = true'
	create_fails_with "ward: config.json: .process.terminal needs --console-socket when the container is detached (only a foreground run relays the terminal)"
	cfg '.process.terminal = false | .mounts += [{"destination": "/m", "source": "x"}]'
	create_fails_with "ward: config.json: .mounts[7].type: required unless binding"
	cfg 'del(.mounts[7])'
}

@test "missing rootfs" {
	rm -rf "$BUNDLE/rootfs"
	create_fails_with "ward: config.json: .root.path: $BUNDLE/rootfs: No such file or directory"
}

@test "rootfs that is a file" {
	rm -rf "$BUNDLE/rootfs"
	touch "$BUNDLE/rootfs"
	create_fails_with "ward: config.json: .root.path: $BUNDLE/rootfs: Not a directory"
}

@test "hostname without a UTS namespace is refused" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.linux.namespaces |= map(select(.type != "uts"))'
	create_fails_with "ward: config.json: .hostname: setting a hostname needs a \"uts\" namespace" 1
}

@test "user namespace without mappings is refused" {
	cfg '.linux.namespaces += [{"type": "user"}]'
	create_fails_with "ward: config.json: .linux.uidMappings: a user namespace needs uid and gid mappings"
}

@test "invalid container ids are refused" {
	for bad in "../x" "a/b" ".hidden" "-x" ""; do
		run ward create --bundle "$BUNDLE" -- "$bad"
		assert_failure 125 # a usage error (ward(1), EXIT STATUS)
		assert_output --partial "container id"
	done
	assert_no_leftovers
}

@test "text that is not UTF-8 is refused, in config.json (a lone surrogate escape) or the bundle's path; nothing is left, and ward can still read its state" {
	cmd 'sleep 100'
	cp "$BUNDLE/config.json" "$TMP/good.json"
	# yajl would decode \udc00 into bytes that are not UTF-8.
	cfg '.hostname = "LONE-SURROGATE"'
	sed -i 's/LONE-SURROGATE/\\udc00/' "$BUNDLE/config.json"
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --regexp "^ward: bundle $BUNDLE: config.json: line [0-9]+, column [0-9]+: a lone UTF-16 surrogate \\(.udc00\\)\$"
	assert_no_leftovers
	cp "$TMP/good.json" "$BUNDLE/config.json"
	bad="$TMP/b$(printf '\377')"
	mv "$BUNDLE" "$bad"
	run ward create --bundle "$bad" "$ID"
	assert_failure 126
	assert_output --partial "is not UTF-8, which JSON must be"
	mv "$bad" "$BUNDLE"
	assert_no_leftovers
	# A good one still works beside it.
	ward run -d --bundle "$BUNDLE" "$ID"
	assert_equal "$(status_of "$ID")" running
	ward delete --force "$ID"
	assert_no_leftovers
}

@test "a failing mount in the container is reported by the parent" {
	cfg '.mounts += [{"destination": "/data", "type": "bind", "source": "/nonexistent-ward-src"}]'
	create_fails_with "ward: mounts[7] (/data): source /nonexistent-ward-src: No such file or directory"
}

@test "an unknown filesystem option fails with the mount's index and the filesystem's own words" {
	cfg '.mounts += [{"destination": "/data", "type": "tmpfs", "source": "tmpfs", "options": ["nosuchopt=1"]}]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: mounts[7] (/data): mounting tmpfs on /data (tmpfs: Unknown parameter 'nosuchopt'): Invalid argument"
	assert_no_leftovers
}

@test "as runc: mountLabel without SELinux and data options on a bind mount are warnings, and the container runs" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	[ ! -e /sys/fs/selinux/enforce ] || skip "SELinux is enabled here: the label would be applied"
	mkdir -p "$TMP/src" && echo bound >"$TMP/src/f"
	cfg --arg s "$TMP/src" '.linux.mountLabel = "system_u:object_r:container_file_t:s0"
	    | .mounts += [{"destination": "/mnt", "type": "bind", "source": $s, "options": ["bind", "mode=755", "size=1k"]}]
	    | .process.args = ["cat", "/mnt/f"]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --partial '.linux.mountLabel: SELinux is not enabled on this host; ignored'
	assert_line --partial 'mounts (/mnt): a bind mount ignores the option(s) "mode=755,size=1k"'
	assert_line bound
	assert_no_leftovers
}
