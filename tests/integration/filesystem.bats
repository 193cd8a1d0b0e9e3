#!/usr/bin/env bats
# The root filesystem and mounts, checked from inside the container.

load ../helpers/common

@test "root.readonly makes / read-only but not the tmpfs mounts" {
	cmd 'touch /x 2>&1; touch /tmp/y && echo tmp-ok'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --partial "Read-only file system"
	assert_line tmp-ok
}

@test "a writable root when readonly is false" {
	cfg '.root.readonly = false'
	cmd 'echo data >/root/file'
	ward run --bundle "$BUNDLE" "$ID"
	run cat "$BUNDLE/rootfs/root/file"
	assert_output data
}

@test "absolute root.path" {
	mv "$BUNDLE/rootfs" "$TMP/elsewhere"
	cfg --arg p "$TMP/elsewhere" '.root.path = $p'
	cmd 'echo ok'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ok
}

@test "bind mounts: directory, file, relative source, read-only" {
	mkdir -p "$TMP/data" && echo hello >"$TMP/data/f"
	echo single >"$BUNDLE/single.txt"
	cfg --arg d "$TMP/data" '.mounts += [
	  {"destination": "/data", "type": "bind", "source": $d, "options": ["rbind", "ro"]},
	  {"destination": "/etc/single.txt", "type": "bind", "source": "single.txt", "options": ["bind"]},
	  {"destination": "/rw", "type": "bind", "source": $d, "options": ["bind"]}]'
	cmd 'cat /data/f /etc/single.txt; touch /data/g 2>&1; echo more >/rw/h; test -f /etc/single.txt && echo is-file'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line hello
	assert_line single
	assert_line --partial "Read-only file system"
	assert_line is-file
	run cat "$TMP/data/h"
	assert_output more
	[ ! -e "$TMP/data/g" ]
}

@test "mount options: nosuid, nodev, noexec, tmpfs size and mode" {
	cfg '.mounts += [{"destination": "/scratch", "type": "tmpfs", "source": "tmpfs",
	     "options": ["nosuid", "nodev", "noexec", "size=1m", "mode=0700"]}]'
	cmd 'grep " /scratch " /proc/self/mountinfo; stat -c %a /scratch; cp /bin/busybox /scratch/b 2>/dev/null; /scratch/b true 2>&1 || echo noexec-ok'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --regexp ' /scratch .*nosuid,nodev,noexec.* tmpfs .*size=1024k'
	assert_line 700
	assert_line noexec-ok
}

@test "default /dev: nodes, links, pts and shm" {
	cmd 'ls -l /dev | awk "{print \$1, \$5, \$6, \$NF}"; awk "{for (i = 7; i <= NF; i++) if (\$i == \"-\") print \$5, \$(i+1)}" /proc/self/mountinfo | grep "^/dev"'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line 'crw-rw-rw- 1, 3 null'
	assert_line 'crw-rw-rw- 1, 5 zero'
	assert_line 'crw-rw-rw- 1, 7 full'
	assert_line 'crw-rw-rw- 1, 8 random'
	assert_line 'crw-rw-rw- 1, 9 urandom'
	assert_line 'crw-rw-rw- 5, 0 tty'
	assert_line --regexp '^lrwxrwxrwx .* /proc/self/fd$'
	assert_line --regexp '^lrwxrwxrwx .* pts/ptmx$'
	assert_line '/dev tmpfs'
	assert_line '/dev/pts devpts'
	assert_line '/dev/shm tmpfs'
}

@test "a /dev tmpfs is supplied when config.json has none" {
	cfg '.mounts |= map(select(.destination | startswith("/dev") | not))'
	cmd 'awk "{for (i = 7; i <= NF; i++) if (\$i == \"-\") print \$5, \$(i+1)}" /proc/self/mountinfo | grep "^/dev"; echo x >/dev/null && echo null-ok'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line '/dev tmpfs'
	assert_line '/dev/pts devpts'
	assert_line '/dev/shm tmpfs'
	assert_line null-ok
	# The image's own /dev was not written to.
	run ls -A "$BUNDLE/rootfs/dev"
	assert_output ""
}

@test "masked paths: files read empty, directories are empty and read-only" {
	cmd 'wc -c </proc/timer_list; ls /proc/acpi | wc -l; touch /proc/acpi/x 2>&1; cat /proc/keys | wc -c'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 0
	assert_line --index 1 0
	assert_line --partial "Read-only file system"
	assert_line --index 3 0
}

@test "readonly paths cannot be written even by root" {
	cmd 'echo 1 >/proc/sys/kernel/domainname 2>&1; echo rc=$?'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_line --partial "Read-only file system"
	assert_line rc=1
}

@test "a masked path that does not exist is skipped" {
	cfg '.linux.maskedPaths += ["/proc/does-not-exist", "/no/such/dir"]'
	cmd 'echo ok'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ok
}

@test "/proc is a real procfs" {
	cmd 'stat -f -c %T /proc; stat -f -c %T /sys'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'proc\nsysfs'
}

@test "--no-pivot works" {
	cmd 'cat /proc/self/mountinfo | head -1 | cut -d" " -f5; echo ok'
	run ward run --no-pivot --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 /
	assert_line ok
	assert_no_leftovers
}

@test "rootfsPropagation is applied" {
	cfg '.linux.rootfsPropagation = "rprivate"'
	cmd 'awk "\$5 == \"/\"" /proc/self/mountinfo'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	refute_output --partial "shared:"
	refute_output --partial "master:"
}

@test "mount propagation options on a bind mount" {
	mkdir -p "$TMP/data"
	cfg --arg d "$TMP/data" '.mounts += [{"destination": "/data", "type": "bind", "source": $d, "options": ["rbind", "rprivate"]}]'
	cmd 'grep " /data " /proc/self/mountinfo'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	refute_output --partial "shared:"
}

@test "recursive mount options reach submounts; plain ones do not" {
	mkdir -p "$TMP/data/sub"
	mount -t tmpfs tmpfs "$TMP/data/sub"
	cfg --arg d "$TMP/data" '.mounts += [
	  {"destination": "/plain", "type": "bind", "source": $d, "options": ["rbind", "ro"]},
	  {"destination": "/rec", "type": "bind", "source": $d, "options": ["rbind", "rro", "rnosuid"]}]'
	cmd 'touch /plain/sub/a 2>/dev/null && echo plain-sub-rw; touch /rec/sub/b 2>/dev/null || echo rec-sub-ro
	     grep " /rec/sub " /proc/self/mountinfo | grep -c nosuid'
	run ward run --bundle "$BUNDLE" "$ID"
	umount "$TMP/data/sub"
	assert_success
	assert_line plain-sub-rw
	assert_line rec-sub-ro
	assert_line 1
	assert_no_leftovers
}

@test "a cgroup mount shows the host's layout, read-write unless ro is asked (as runc)" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	cfg '.mounts += [{"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup", "options": ["nosuid", "noexec", "nodev", "ro"]}]'
	cmd 'awk "\$5 ~ \"^/sys/fs/cgroup\" {print \$5, \$6}" /proc/self/mountinfo; mkdir /sys/fs/cgroup/x 2>&1'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_line --partial "Read-only file system"
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		assert_line --regexp '^/sys/fs/cgroup ro,'
	else
		# v1/hybrid: one read-only mount per host hierarchy.
		for h in $(awk '$9 == "cgroup" && $5 ~ "^/sys/fs/cgroup/" {sub("/sys/fs/cgroup/", "", $5); print $5}' /proc/self/mountinfo); do
			assert_line --regexp "^/sys/fs/cgroup/$h ro,"
		done
	fi
	cfg '.mounts[-1].options -= ["ro"]'
	cmd 'awk "\$5 == \"/sys/fs/cgroup\" {print \$6}" /proc/self/mountinfo'
	run ward run --bundle "$BUNDLE" "$ID-rw"
	assert_success
	assert_output --regexp '^rw,'
	assert_no_leftovers
}

@test "idmapped bind mount: explicit mappings" {
	mkdir -p "$TMP/idm" && echo hi >"$TMP/idm/f"
	cfg --arg d "$TMP/idm" '.mounts += [{"destination": "/data", "type": "bind", "source": $d, "options": ["bind", "idmap"],
	  "uidMappings": [{"containerID": 0, "hostID": 1000, "size": 1}], "gidMappings": [{"containerID": 0, "hostID": 1001, "size": 1}]}]'
	cmd 'stat -c "%u %g" /data/f'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	# On disk root's; through the mount, 1000:1001. The host file is unchanged.
	assert_output "1000 1001"
	[ "$(stat -c %u "$TMP/idm/f")" = 0 ]
}

@test "idmapped bind mount without mappings takes the container's user namespace" {
	cfg_userns
	chown -R 200000:200000 "$BUNDLE/rootfs"
	mkdir -p "$TMP/shared" && echo hi >"$TMP/shared/f"
	cfg --arg d "$TMP/shared" '.mounts += [{"destination": "/shared", "type": "bind", "source": $d, "options": ["bind", "idmap"]}]'
	cmd 'stat -c %u /shared/f; echo more >>/shared/f && echo root-may-write'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'0\nroot-may-write'
	[ "$(stat -c %u "$TMP/shared/f")" = 0 ]
	assert_no_leftovers
}

@test "idmap on a non-bind mount is refused" {
	cfg '.mounts += [{"destination": "/t", "type": "tmpfs", "source": "tmpfs", "options": ["idmap"], "uidMappings": [{"containerID": 0, "hostID": 1000, "size": 1}]}]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: mounts[7] (/t): idmapped mounts must be bind mounts'
	assert_no_leftovers
}

@test "compat: any filesystem type the kernel knows can be mounted (ramfs)" {
	WARD_GLOBALS=(--profile compat)
	cfg '.mounts += [{"destination": "/r", "type": "ramfs", "source": "ramfs", "options": ["mode=700"]}]'
	cmd 'awk "\$5 == \"/r\" {for (i = 7; i <= NF; i++) if (\$i == \"-\") print \$(i+1)}" /proc/self/mountinfo; stat -c %a /r'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'ramfs\n700'
	cfg '.mounts[-1].type = "nosuchfs"'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: mounts[7] (/r): mounting nosuchfs on /r: No such device"
	assert_no_leftovers
}

@test "tmpcopyup: a tmpfs starts with a copy of what it covers; links are copied, not followed" {
	mkdir -p "$BUNDLE/rootfs/seed/sub"
	echo hello >"$BUNDLE/rootfs/seed/sub/f"
	chmod 0751 "$BUNDLE/rootfs/seed/sub"
	ln -s /etc/shadow-on-host "$BUNDLE/rootfs/seed/link"
	cfg '.mounts += [{"destination": "/seed", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "tmpcopyup", "size=1m"]}]'
	cmd 'grep -q " /seed tmpfs " /proc/self/mounts && echo tmpfs; cat /seed/sub/f; stat -c %a /seed/sub; readlink /seed/link; echo new >/seed/n && cat /seed/n'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'tmpfs\nhello\n751\n/etc/shadow-on-host\nnew'
	# The image's directory is untouched.
	[ ! -e "$BUNDLE/rootfs/seed/n" ] || fail "the write went through to the rootfs"
	assert_no_leftovers
}

@test "--no-pivot in a user namespace: the host's locked procfs and sysfs cannot be detached, so it is refused (the --no-pivot procfs class, runc PR 1962)" {
	WARD_GLOBALS=(--profile compat)
	cfg_userns
	chown -R 200000:200000 "$BUNDLE/rootfs"
	cmd 'mkdir -p /tmp/p; mount -t sysfs sysfs /tmp/p && echo MOUNTED-SYSFS; echo ran'
	run ward run --no-pivot --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output --regexp '^ward: --no-pivot: [0-9]+ procfs/sysfs mount\(s\) of the host cannot be detached from the container'
	refute_line ran
	assert_no_leftovers
}

@test "a read-only /dev tmpfs still gets /dev/pts and its nodes, then is read-only (as runc)" {
	WARD_GLOBALS=(--profile compat)
	cfg '.mounts |= map(if .destination == "/dev" then .options += ["ro"] else . end)'
	cmd 'grep -E " /dev(/pts)? " /proc/self/mountinfo | cut -d" " -f5,6; test -c /dev/null && echo null-ok; touch /dev/x 2>&1; true'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --regexp '^/dev ro,'
	assert_line --regexp '^/dev/pts rw,'
	assert_line null-ok
	assert_line --partial 'Read-only file system'
}
