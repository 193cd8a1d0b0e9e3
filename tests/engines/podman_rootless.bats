#!/usr/bin/env bats
# Rootless Podman driving ward (issue #16): Podman as a user with
# subordinate ids, its storage, runroot and configuration the test's own.
# Podman runs ward as root inside its own user namespace; cgroups are
# cgroupfs, with none delegated here; networking is slirp4netns, as Podman
# 4.3 sets it up for a user.

load podman
load ../helpers/rootless
bats_require_minimum_version 1.5.0

IMAGE=localhost/ward-rl-busybox:latest

setup_file() {
	rootless_users
	U=$RL
	P=$(mktemp -d /tmp/ward-pmrl.XXXXXX)
	UXDG="$P/xdg"
	echo "$P" >"$BATS_FILE_TMPDIR/dir"
	rootless_binary "$P"
	mkdir -p "$P/home" "$P/xdg" "$P/conf"
	chmod 700 "$P/xdg"
	pm_conf "$P/conf/containers.conf"
	pm_storage_conf "$P/conf/storage.conf" "$P/home/storage" "$P/xdg/containers"
	: >"$P/conf/registries.conf"
	chmod -R a+rX "$P/conf"
	chown -R "$U:" "$P/home" "$P/xdg"
	"$WARD_SRCDIR/tests/helpers/mkrootfs.sh" "$BUSYBOX" "$P/rootfs"
	tar -C "$P/rootfs" -c . | upm import --change 'CMD ["sh"]' - "$IMAGE" >/dev/null
	# slirp4netns opens /dev/net/tun as the user: Debian's mode is 0666;
	# this host may have it closer. Restored in teardown_file.
	stat -c %a /dev/net/tun >"$BATS_FILE_TMPDIR/tun-mode"
	chmod 666 /dev/net/tun
}

teardown_file() {
	rl_env
	upm rm -af -t 0 >/dev/null 2>&1 || true
	upm system reset -f >/dev/null 2>&1 || true
	pkill -9 -u "$U" 2>/dev/null || true
	chmod "$(cat "$BATS_FILE_TMPDIR/tun-mode")" /dev/net/tun
	rm -rf "$P"
}

rl_env() {
	U=$RL
	P=$(cat "$BATS_FILE_TMPDIR/dir")
	UXDG="$P/xdg"
	UBIN="$P/bin/ward"
}

setup() {
	rl_env
}

teardown() {
	upm rm -af -t 0 >/dev/null 2>&1 || true
}

# Podman as the user, on the test's storage and configuration.
upm() {
	as_user HOME="$P/home" CONTAINERS_CONF="$P/conf/containers.conf" \
		CONTAINERS_STORAGE_CONF="$P/conf/storage.conf" \
		CONTAINERS_REGISTRIES_CONF="$P/conf/registries.conf" -- \
		podman --runtime "$UBIN" "$@"
}

@test "rootless podman: run with ward; root inside is the user, the rest its subordinate ids" {
	local uid sub
	uid=$(id -u "$U")
	sub=$(awk -F: -v u="$U" '$1 == u {print $2; exit}' /etc/subuid)
	run upm run --rm --network none "$IMAGE" sh -c 'echo uid=$(id -u); cat /proc/self/uid_map'
	assert_success
	assert_line uid=0
	assert_line --regexp "^ +0 +$uid +1\$"
	assert_line --regexp "^ +1 +$sub +[0-9]+\$"
	# ward kept its state in the user's runtime directory.
	[ -d "$P/xdg/ward" ]
	run ls "$P/xdg/ward"
	assert_output ""
}

@test "rootless podman: run -d, exec, stop and rm; nothing is left" {
	local pid
	run upm run -d --name rl1 --network none "$IMAGE" sleep 1000
	assert_success
	run upm exec rl1 sh -c 'echo exec-ok pid1=$(cat /proc/1/comm)'
	assert_success
	assert_output "exec-ok pid1=sleep"
	pid=$(upm inspect -f '{{.State.Pid}}' rl1)
	[ "$(stat -c %u "/proc/$pid")" = "$(id -u "$U")" ]
	run upm stop -t 1 rl1
	assert_success
	run upm rm rl1
	assert_success
	run kill -0 "$pid"
	assert_failure
	run ls "$P/xdg/ward"
	assert_output ""
}

@test "rootless podman: slirp4netns networking reaches a listener on the host's loopback" {
	local port=$((20000 + RANDOM % 20000)) listener
	# The user's listener, on the host's loopback only.
	as_user -- timeout 20 python3 -c 'import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
c, _ = s.accept()
sys.stdout.write(c.recv(100).decode())' "$port" >"$BATS_TEST_TMPDIR/got" 3>&- &
	listener=$!
	for _ in $(seq 50); do
		ss -ltn | grep -q "127.0.0.1:$port " && break
		sleep 0.1
	done
	run upm run --rm --network slirp4netns:allow_host_loopback=true "$IMAGE" \
		sh -c "ip -4 addr show tap0 | grep -o 'inet [0-9.]*'; echo hello-host | nc -w 3 10.0.2.2 $port && echo sent"
	assert_success
	assert_line "inet 10.0.2.100"
	assert_line sent
	# (This listener alone: bats' own timeout runs beside the test.)
	wait "$listener"
	[ "$(cat "$BATS_TEST_TMPDIR/got")" = hello-host ]
}

@test "rootless podman: the baseline profile still refuses what it refuses for root" {
	run upm run --rm --network none --cap-add SYS_ADMIN "$IMAGE" true
	assert_failure
	assert_output --partial 'CAP_SYS_ADMIN'
	assert_output --partial 'refused by the baseline profile'
}
