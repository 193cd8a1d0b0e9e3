#!/usr/bin/env bats
# ward's built-in seccomp profile on every architecture its filter lists
# (issue #12): the argument rules - socket families, ioctl commands, clone
# flags, personalities, execveat's AT_EMPTY_PATH - hold through each ABI's
# own entry (x86-64, i386 through int 0x80, x32 through the x32 bit), and
# the multiplexed socketcall cannot go around them. Seen from inside the
# container with sysprobe; a distinctive errno (200) proves the filter
# answered and not the kernel.

load ../helpers/common

setup() {
	ward_setup
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
	cfg '.linux.seccomp.defaultErrnoRet = 200'
}

# The probes of one ABI, one line each:
#   vsock alg vsock-high inet unix | sti linux sti-high winsz | clone-newuser
#   clone-plain | personality-bad personality-query | execveat-empty
#   execveat-path
# Numbers where libseccomp has no name on that ABI (i386 socket is 359).
probe_script() { # probe_script ABI
	local p socket
	case $1 in
	native) p=sysprobe socket=socket ;;
	i386) p="sysprobe i386" socket=359 ;;
	x32) p="sysprobe x32" socket=socket ;;
	esac
	cat <<-EOF
	echo inside-ran
	$p $socket 40 1 0; $p $socket 38 5 0; $p $socket 0x100000028 1 0; $p $socket 2 1 0; $p $socket 1 1 0
	$p ioctl 0 0x5412 @x; $p ioctl 0 0x541C @x; $p ioctl 0 0x100005412 @x; $p ioctl 0 0x5413 @x
	$p clone 0x10000000; $p personality 0x0040000; $p personality 0xffffffff
	$p execveat -100 @/nonexistent 0 0 0x1000; $p execveat -100 @/nonexistent 0 0 0
	EOF
}

# run_probes ABI: the probes above, under ward's own profile (ward spec).
run_probes() {
	cmd "$(probe_script "$1")"
	run ward run --bundle "$BUNDLE" "$ID" </dev/null
	assert_success
	assert_line --index 0 inside-ran
}

# The answers every ABI must give: denied by the filter (200), or let
# through to the kernel (any other answer).
assert_denied() { assert_equal "${lines[$1]}" "errno 200"; }
assert_passed() { [ "${lines[$1]}" != "errno 200" ] || fail "line $1: denied, should pass: ${lines[$1]}"; }

assert_common() {
	assert_denied 1 # AF_VSOCK
	assert_denied 2 # AF_ALG
	assert_denied 3 # AF_VSOCK with high bits (the kernel reads an int)
	assert_passed 4 # AF_INET
	assert_passed 5 # AF_UNIX
	assert_denied 6 # TIOCSTI
	assert_denied 7 # TIOCLINUX
	assert_denied 8 # TIOCSTI with high bits
	assert_passed 9 # TIOCGWINSZ
	assert_denied 10 # clone(CLONE_NEWUSER)
	assert_denied 11 # personality(ADDR_NO_RANDOMIZE)
	assert_passed 12 # personality query
	assert_equal "${lines[13]}" "errno 38" # execveat(AT_EMPTY_PATH): ENOSYS
	assert_passed 14                      # execveat with a path
}

@test "ward's profile lists x86-64, i386 and x32, and each has a test here" {
	run jq -r '.linux.seccomp.architectures | join(",")' "$BUNDLE/config.json"
	assert_output SCMP_ARCH_X86_64,SCMP_ARCH_X86,SCMP_ARCH_X32
}

@test "x86-64: families, ioctls, clone, personality and execveat rules hold" {
	run_probes native
	assert_common
	assert_equal "${lines[4]%% *}" ok        # AF_INET: a socket
	assert_equal "${lines[5]%% *}" ok        # AF_UNIX: a socket
	assert_equal "${lines[9]}" "errno 25"    # TIOCGWINSZ on /dev/null: ENOTTY
	assert_equal "${lines[12]%% *}" ok       # personality query
	assert_equal "${lines[14]}" "errno 2"    # execveat(path): the kernel's ENOENT
	assert_no_leftovers
}

@test "i386 (int 0x80): families, ioctls, clone, personality and execveat rules hold" {
	need_i386
	run_probes i386
	assert_common
	assert_equal "${lines[4]%% *}" ok
	assert_equal "${lines[5]%% *}" ok
	assert_equal "${lines[9]}" "errno 25"
	assert_equal "${lines[12]%% *}" ok
	assert_equal "${lines[14]}" "errno 2"
	assert_no_leftovers
}

@test "i386: socketcall, whose arguments seccomp cannot see, gets ENOSYS for every family" {
	need_i386
	# libseccomp turns the socket rules into socketcall(SYS_SOCKET) rules
	# without their family checks: before issue #12 AF_VSOCK got a socket.
	cmd "echo inside-ran
	     sysprobe i386 socketcall 1 '[40,1,0]'; sysprobe i386 socketcall 1 '[38,5,0]'
	     sysprobe i386 socketcall 1 '[2,1,0]'; sysprobe i386 socketcall 8 '[1,1,0,0]'
	     sysprobe i386 socketcall 3 '[0,0,0]'"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "$(printf 'inside-ran\nerrno 38\nerrno 38\nerrno 38\nerrno 38\nerrno 38')"
	assert_no_leftovers
}

@test "x32 (the x32 bit): families, ioctls, clone, personality and execveat rules hold" {
	run_probes x32
	assert_common
	# Where the kernel has no x32 ABI (CONFIG_X86_X32_ABI off), what the
	# filter lets through ends in the kernel's ENOSYS; the denials above
	# came from the filter either way.
	if [ "${lines[12]}" = "errno 38" ]; then
		for i in 4 5 9 12 14; do assert_equal "${lines[$i]}" "errno 38"; done
	else
		assert_equal "${lines[4]%% *}" ok
		assert_equal "${lines[9]}" "errno 25"
		assert_equal "${lines[14]}" "errno 2"
	fi
	assert_no_leftovers
}

@test "exec'd processes get the same answers on every ABI" {
	cmd 'sleep 100'
	ward run -d --bundle "$BUNDLE" "$ID"
	run ward exec "$ID" sh -c 'sysprobe 41 40 1 0; sysprobe x32 socket 40 1 0'
	assert_success
	assert_output "$(printf 'errno 200\nerrno 200')"
	if host_has_i386; then
		run ward exec "$ID" sh -c 'sysprobe i386 359 40 1 0; sysprobe i386 socketcall 1 "[40,1,0]"
		                          sysprobe i386 ioctl 0 0x5412 @x'
		assert_success
		assert_output "$(printf 'errno 200\nerrno 38\nerrno 200')"
	fi
	ward delete --force "$ID"
	assert_no_leftovers
}

# ---- a config's own profile ----

@test "a config's own conditional socket rule holds on i386: socketcall gets ENOSYS" {
	need_i386
	# ward's profile without its explicit socketcall rule: ward adds the
	# guard itself, as for any profile whose socket rules have arguments.
	cfg '.linux.seccomp.syscalls |= map(select(.names != ["socketcall"]))'
	run jq '[.linux.seccomp.syscalls[].names[] | select(. == "socketcall")] | length' "$BUNDLE/config.json"
	assert_output 0
	cmd "echo inside-ran; sysprobe i386 socketcall 1 '[40,1,0]'; sysprobe i386 359 40 1 0; sysprobe i386 359 2 1 0"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 inside-ran
	assert_line --index 1 "errno 38"
	assert_line --index 2 "errno 200"
	assert_line --index 3 --regexp '^ok '
	# A profile that allows socketcall by name says so itself: its words.
	cfg '.linux.seccomp.syscalls += [{"names": ["socketcall"], "action": "SCMP_ACT_ALLOW"}]'
	cmd "sysprobe i386 socketcall 1 '[2,1,0]'"
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output --regexp '^ok '
	assert_no_leftovers
}

@test "a rule comparing the upper 32 bits is refused when a 32-bit ABI is listed" {
	# libseccomp compares only the lower half on i386 and x32: "== 0x1_00000005"
	# would match 5 there.
	cfg '.linux.seccomp.syscalls += [{"names": ["getpriority"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 0, "value": 4294967301, "op": "SCMP_CMP_EQ"}]}]'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output --regexp '^ward: config.json: \.linux\.seccomp\.syscalls\[[0-9]+\]\.args\[0\]: the value needs the upper 32 bits, which libseccomp does not compare on i386 \(listed in architectures\)'
	assert_no_leftovers
	# With x86-64 alone, the comparison is made in full.
	cfg '.linux.seccomp.architectures = ["SCMP_ARCH_X86_64"]'
	cmd 'echo inside-ran'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output inside-ran
	assert_no_leftovers
}
