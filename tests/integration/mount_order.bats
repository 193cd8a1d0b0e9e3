#!/usr/bin/env bats
# runtime-spec config.md, "mounts": the runtime MUST mount the entries in
# the listed order. Since Linux 6.8 /proc/self/mountinfo lists a namespace's
# mounts by their unique id, that is in the order they were made, so a tree
# cloned ahead of time (a bind source) shows up before the mounts listed
# above it, as the runtime-tools validation sees.

load ../helpers/common

setup() {
	ward_setup
	mkdir -p "$TMP/b1" "$TMP/b2"
	echo f >"$TMP/b3"
	# Binds and tmpfs interleaved with /proc, /dev and the rest; a bind
	# inside the /dev tmpfs, and one listed before /sys.
	cfg --arg b1 "$TMP/b1" --arg b2 "$TMP/b2" --arg b3 "$TMP/b3" '.mounts = [
	  {"destination": "/proc", "type": "proc", "source": "proc"},
	  {"destination": "/b1", "type": "bind", "source": $b1, "options": ["rbind"]},
	  {"destination": "/dev", "type": "tmpfs", "source": "tmpfs",
	   "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
	  {"destination": "/t1", "type": "tmpfs", "source": "tmpfs"},
	  {"destination": "/dev/pts", "type": "devpts", "source": "devpts",
	   "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"]},
	  {"destination": "/dev/b2", "type": "bind", "source": $b2, "options": ["bind", "ro"]},
	  {"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["ro", "nosuid"]},
	  {"destination": "/etc/b3", "type": "bind", "source": $b3, "options": ["bind"]},
	  {"destination": "/t2", "type": "tmpfs", "source": "tmpfs"},
	  {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs"}]'
	# The configured destinations, in the order mountinfo lists them.
	cmd 'awk "\$5 ~ /^\/(proc|b1|dev|t1|dev\/pts|dev\/b2|sys|etc\/b3|t2|tmp)$/ {print \$5}" /proc/self/mountinfo | tr "\n" " "'
}

teardown() { ward_teardown; }

order='/proc /b1 /dev /t1 /dev/pts /dev/b2 /sys /etc/b3 /t2 /tmp '

@test "mountinfo lists the mounts in config.json's order" {
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$order"
}

@test "mountinfo lists the mounts in config.json's order (compat)" {
	WARD_GLOBALS=(--profile compat)
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$order"
}

@test "mountinfo lists the mounts in config.json's order (user namespace)" {
	cfg_userns
	chmod 755 "$TMP" "$TMP/b1" "$TMP/b2"
	chmod 644 "$TMP/b3"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$order"
}
