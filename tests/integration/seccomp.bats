#!/usr/bin/env bats
# seccomp, seen from inside the container with a static probe (sysprobe).

load ../helpers/common
bats_require_minimum_version 1.5.0

setup() {
	ward_setup
	cp "$WARD_BUILDDIR/tests/helpers/sysprobe" "$BUNDLE/rootfs/bin/sysprobe"
}

# A filter that allows everything but what the test adds.
permissive() {
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": []}'
}

# Add a rule: add_rule '{"names": ["mkdir"], "action": "SCMP_ACT_ERRNO"}'
add_rule() {
	cfg --argjson r "$1" '.linux.seccomp.syscalls += [$r]'
}

@test "ward spec emits the default profile" {
	run jq -r '.linux.seccomp.defaultAction, .linux.seccomp.defaultErrnoRet, (.linux.seccomp.architectures | join(","))' "$BUNDLE/config.json"
	assert_output $'SCMP_ACT_ERRNO\n1\nSCMP_ARCH_X86_64,SCMP_ARCH_X86,SCMP_ARCH_X32'
}

@test "default profile: a busybox shell still works" {
	cmd 'ls / >/dev/null && echo ls-ok; ps -o pid,comm | wc -l; echo a b | (read x y; echo "$y"); date +%Y >/dev/null && echo date-ok
	     nc -w 1 127.0.0.1 1 </dev/null 2>&1; echo nc=$?; grep ^Seccomp: /proc/self/status'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line ls-ok
	assert_line b
	assert_line date-ok
	assert_line --partial "can't connect"
	assert_line nc=1
	assert_line "Seccomp:	2"
}

# What the default profile denies (ward(1), SECCOMP: keyrings, bpf and
# perf events, userfaultfd, io_uring, module and kexec loading, mounting,
# namespace creation, ptrace and cross-process memory access, file handles;
# and host-wide state), written out here per ABI: only syscalls the ABI has.
# The argument rules (personality, socket, ioctl, clone) and clone3's ENOSYS
# are the next test's.
DENIED_X86_64="keyctl add_key request_key bpf perf_event_open userfaultfd
	io_uring_setup io_uring_enter io_uring_register
	kexec_load kexec_file_load init_module finit_module delete_module
	mount umount2 fsopen fsconfig fsmount fspick move_mount open_tree mount_setattr pivot_root
	swapon swapoff reboot acct quotactl quotactl_fd settimeofday clock_settime syslog vhangup
	unshare setns
	ptrace process_vm_readv process_vm_writev pidfd_getfd kcmp process_madvise migrate_pages move_pages
	open_by_handle_at name_to_handle_at
	lookup_dcookie uselib nfsservctl _sysctl ustat modify_ldt iopl ioperm
	create_module get_kernel_syms query_module sysfs"
DENIED_I386="keyctl add_key request_key bpf perf_event_open userfaultfd
	io_uring_setup io_uring_enter io_uring_register
	kexec_load init_module finit_module delete_module
	mount umount umount2 fsopen fsconfig fsmount fspick move_mount open_tree mount_setattr pivot_root
	swapon swapoff reboot acct quotactl quotactl_fd settimeofday clock_settime clock_settime64 stime
	syslog vhangup
	unshare setns
	ptrace process_vm_readv process_vm_writev pidfd_getfd kcmp process_madvise migrate_pages move_pages
	open_by_handle_at name_to_handle_at
	lookup_dcookie uselib vm86 vm86old nfsservctl _sysctl ustat modify_ldt iopl ioperm
	create_module get_kernel_syms query_module sysfs bdflush"
# (i386 socketcall answers ENOSYS, so that libcs use the socket calls the
# argument rules check: seccomp_arch.bats.)

# One ABI's deny list: each one attempted and denied, in order, then an
# allowed call. A distinctive errno proves the filter answered, not a
# capability check; anything else (a result, another errno, "no syscall")
# is not a denial.
deny_list_run() { # deny_list_run ABI-LABEL PROBE LIST
	cfg '.linux.seccomp.defaultErrnoRet = 200'
	cmd "for n in $(echo $3); do echo \"$1 \$n: \$($2 \$n 2>&1)\"; done
	     echo \"$1 getpid: \$($2 getpid 2>&1 | cut -d' ' -f1)\""
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	expected=$(for n in $3; do echo "$1 $n: errno 200"; done
		echo "$1 getpid: ok")
	assert_output "$expected"
}

@test "default profile denies every syscall of its deny list (x86-64)" {
	deny_list_run x86_64 sysprobe "$DENIED_X86_64"
}

@test "default profile denies every syscall of its deny list (i386, int 0x80)" {
	need_i386
	deny_list_run i386 "sysprobe i386" "$DENIED_I386"
}

@test "default profile: argument rules, including high-bit tricks" {
	cfg '.linux.seccomp.defaultErrnoRet = 200'
	cmd 'sysprobe personality 0xffffffff; sysprobe personality 0x0040000
	     sysprobe socket 2 1 0; sysprobe socket 40 1 0; sysprobe socket 38 5 0; sysprobe socket 0x100000028 1 0
	     sysprobe ioctl 0 0x5412 @x; sysprobe ioctl 0 0x100005412 @x; sysprobe ioctl 0 0x541C @x; sysprobe ioctl 0 0x5413 @x
	     sysprobe clone 0x10000000; sysprobe clone3 0 0'
	run ward run --bundle "$BUNDLE" "$ID" </dev/null
	assert_success
	assert_equal "${lines[0]%% *}" ok     # personality query
	assert_equal "${lines[1]}" "errno 200" # ADDR_NO_RANDOMIZE
	assert_equal "${lines[2]%% *}" ok     # AF_INET
	assert_equal "${lines[3]}" "errno 200" # AF_VSOCK
	assert_equal "${lines[4]}" "errno 200" # AF_ALG
	assert_equal "${lines[5]}" "errno 200" # AF_VSOCK with high bits
	assert_equal "${lines[6]}" "errno 200" # TIOCSTI
	assert_equal "${lines[7]}" "errno 200" # TIOCSTI with high bits
	assert_equal "${lines[8]}" "errno 200" # TIOCLINUX
	assert_equal "${lines[9]}" "errno 25"  # TIOCGWINSZ: allowed, ENOTTY
	assert_equal "${lines[10]}" "errno 200" # clone(CLONE_NEWUSER)
	assert_equal "${lines[11]}" "errno 38"  # clone3: ENOSYS, libc falls back
	assert_equal "${#lines[@]}" 12
}

@test "syscalls newer than the profile get ENOSYS, older unlisted ones EPERM" {
	cmd 'sysprobe 1000; sysprobe syslog 0 0 0'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'errno 38\nerrno 1'
}

@test "i386: syscalls newer than the profile get ENOSYS" {
	need_i386
	cmd 'sysprobe i386 1000'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output 'errno 38'
}

@test "actions: ERRNO with and without errnoRet, LOG, TRACE" {
	permissive
	add_rule '{"names": ["mkdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13}'
	add_rule '{"names": ["rmdir"], "action": "SCMP_ACT_ERRNO"}'
	add_rule '{"names": ["getppid"], "action": "SCMP_ACT_LOG"}'
	add_rule '{"names": ["getpgrp"], "action": "SCMP_ACT_TRACE"}'
	cmd 'sysprobe mkdir @/tmp/x 0; sysprobe rmdir @/tmp; sysprobe getppid; sysprobe getpgrp'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	# getppid: the probe's parent is the container's pid 1.
	assert_output $'errno 13\nerrno 1\nok 1\nerrno 38'
}

@test "actions: KILL_PROCESS, KILL_THREAD and TRAP end the process with SIGSYS" {
	for a in SCMP_ACT_KILL_PROCESS SCMP_ACT_KILL SCMP_ACT_KILL_THREAD SCMP_ACT_TRAP; do
		permissive
		# (a syscall the shell itself never makes: it must survive)
		add_rule "{\"names\": [\"sched_yield\"], \"action\": \"$a\"}"
		cmd 'sysprobe sched_yield; echo rc=$?'
		run ward run --bundle "$BUNDLE" "$ID"
		assert_success
		assert_line rc=159 # 128 + SIGSYS
	done
}

@test "argument comparisons: every operator, AND across args, OR on one arg" {
	permissive
	add_rule '{"names": ["close"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_EQ"}]}'
	add_rule '{"names": ["fchdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_LT"}]}'
	add_rule '{"names": ["fsync"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_GE"}]}'
	add_rule '{"names": ["fdatasync"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 240, "valueTwo": 96, "op": "SCMP_CMP_MASKED_EQ"}]}'
	add_rule '{"names": ["dup2"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_EQ"}, {"index": 1, "value": 200, "op": "SCMP_CMP_EQ"}]}'
	add_rule '{"names": ["dup"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_EQ"}, {"index": 0, "value": 101, "op": "SCMP_CMP_EQ"}]}'
	add_rule '{"names": ["syncfs"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_NE"}]}'
	add_rule '{"names": ["fstatfs"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_LE"}]}'
	add_rule '{"names": ["flock"], "action": "SCMP_ACT_ERRNO", "errnoRet": 70, "args": [{"index": 0, "value": 100, "op": "SCMP_CMP_GT"}]}'
	cmd 'sysprobe close 100; sysprobe close 101
	     sysprobe fchdir 99; sysprobe fchdir 100
	     sysprobe fsync 100; sysprobe fsync 99
	     sysprobe fdatasync 0x65; sysprobe fdatasync 0x75
	     sysprobe dup2 100 200; sysprobe dup2 100 201
	     sysprobe dup 100; sysprobe dup 101; sysprobe dup 102
	     sysprobe syncfs 101; sysprobe syncfs 100
	     sysprobe fstatfs 100 0; sysprobe fstatfs 101 0
	     sysprobe flock 101 1; sysprobe flock 100 1'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	# 70: the rule matched; 9 (EBADF): it did not and the call ran.
	assert_output "$(printf 'errno %s\n' 70 9  70 9  70 9  70 9  70 9  70 70 9  70 9  70 9  70 9)"
}

@test "an i386 syscall through int 0x80 is filtered by name too" {
	need_i386
	permissive
	add_rule '{"names": ["getpid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 71}'
	cmd 'sysprobe getpid; sysprobe i386 getpid; sysprobe x32 getpid'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line --index 0 "errno 71"
	assert_line --index 1 "errno 71"
	# x32 is off in most kernels (ENOSYS); where it is on, filtered too.
	[[ "${lines[2]}" == "errno 71" || "${lines[2]}" == "errno 38" ]]
}

@test "an ABI left out of architectures is killed, not let through" {
	need_i386
	permissive
	cfg '.linux.seccomp.architectures = ["SCMP_ARCH_X86_64"]'
	cmd 'sysprobe getpid >/dev/null; echo native=$?; sysprobe i386 getpid; echo i386=$?'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_line native=0
	assert_line i386=159
}

@test "flags: LOG and SPEC_ALLOW load; unknown flags are refused" {
	permissive
	cfg '.linux.seccomp.flags = ["SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_SPEC_ALLOW"]'
	cmd 'grep ^Seccomp: /proc/self/status'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output "Seccomp:	2"
	cfg '.linux.seccomp.flags = ["SECCOMP_FILTER_FLAG_BOGUS"]'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: config.json: .linux.seccomp.flags[0]: unknown flag "SECCOMP_FILTER_FLAG_BOGUS"'
	assert_no_leftovers
}

@test "unknown syscalls: skipped in a more permissive rule, refused in a stricter one" {
	cfg '.linux.seccomp.syscalls += [{"names": ["no_such_syscall_2099"], "action": "SCMP_ACT_ALLOW"}]'
	cmd 'echo ran'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output ran
	permissive
	add_rule '{"names": ["getpid", "no_such_syscall_2099"], "action": "SCMP_ACT_ERRNO"}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: config.json: .linux.seccomp.syscalls[0].names[1]: unknown syscall "no_such_syscall_2099" in a rule stricter than the default action'
	assert_no_leftovers
}

@test "without no_new_privs the filter is loaded while privileged, and still applies" {
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	permissive
	add_rule '{"names": ["mkdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13}'
	cfg '.process.noNewPrivileges = false | .process.user.uid = 1000'
	cmd 'grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status; sysprobe mkdir @/tmp/x 0'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output $'NoNewPrivs:\t0\nSeccomp:\t2\nerrno 13'
}

# A profile written before faccessat2, close_range, openat2 (and one that
# leaves out getcwd, as oci-runtime-tool's default does): ward must make
# none of them once the filter is in (issue #13, 1.), for run and for exec.
old_profile() {
	mkdir -p "$BUNDLE/rootfs/srv" && echo in-srv >"$BUNDLE/rootfs/srv/cwd-marker"
	WARD_GLOBALS=(--profile compat) # the spec's semantics, not the policy's
	permissive
	add_rule '{"names": ["faccessat2", "close_range", "openat2", "getcwd", "statx"],
	           "action": "SCMP_ACT_ERRNO", "errnoRet": 1}'
	cfg '.process.noNewPrivileges = false | .process.user = {"uid": 1000, "gid": 1000}
	     | .process.cwd = "/srv"'
}

@test "a profile older than ward's own calls: run and exec work without no_new_privs" {
	old_profile
	cmd 'echo started; cat cwd-marker; id -u; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status
	     sysprobe close_range 3 3 0; sleep 30'
	bg_start 40 "$TMP/run.log" "$WARD" --root "$ROOT" --profile compat run --bundle "$BUNDLE" "$ID"
	wait_for "the container to start" grep -q '^errno 1' "$TMP/run.log"
	run cat "$TMP/run.log"
	assert_output $'started\nin-srv\n1000\nNoNewPrivs:\t0\nSeccomp:\t2\nerrno 1'
	run ward exec --cwd /etc "$ID" sh -c 'test -f passwd && echo in-etc; id -u; sysprobe faccessat2 0 @/ 0 0'
	assert_success
	assert_output $'in-etc\n1000\nerrno 1'
	ward kill "$ID" KILL
}

@test "a profile older than ward's own calls: a program the user may not run fails at execve" {
	old_profile
	chmod 0700 "$BUNDLE/rootfs/bin/sysprobe"
	cfg '.process.args = ["/bin/sysprobe", "getpid"]'
	run -127 ward run --bundle "$BUNDLE" "$ID"
	assert_failure 127
	assert_output 'ward: /bin/sysprobe: Permission denied'
	assert_no_leftovers
}

@test "ward spec survives jq 1.6: no number above 2^53, and the jq-edited template still runs" {
	# jq 1.6 reads numbers as doubles; the seccomp masks once lost bits.
	run python3 -c '
import json, sys
def big(v):
    if isinstance(v, bool): return []
    if isinstance(v, int): return [v] if abs(v) > 2**53 else []
    if isinstance(v, list): return [b for x in v for b in big(x)]
    if isinstance(v, dict): return [b for x in v.values() for b in big(x)]
    return []
print(big(json.load(open(sys.argv[1]))))' "$BUNDLE/config.json"
	assert_output '[]'
	jq . "$BUNDLE/config.json" >"$TMP/c.json" && mv "$TMP/c.json" "$BUNDLE/config.json"
	cfg '.linux.seccomp.defaultErrnoRet = 200'
	cmd 'sysprobe socket 2 1 0; sysprobe socket 38 5 0; sysprobe ioctl 0 0x5412 @x; echo ran'
	run ward run --bundle "$BUNDLE" "$ID" </dev/null
	assert_success
	assert_equal "${lines[0]%% *}" ok      # AF_INET
	assert_equal "${lines[1]}" "errno 200" # AF_ALG
	assert_equal "${lines[2]}" "errno 200" # TIOCSTI
	assert_equal "${lines[3]}" ran
}

@test "the compiled filter is cached, and a tampered cache entry is not used" {
	run "$WARD" --root "$ROOT" --debug run --bundle "$BUNDLE" "$ID" 2>&1
	assert_success
	refute_output --partial "from the cache"
	cmd 'sysprobe syslog 0 0 0'
	run "$WARD" --root "$ROOT" --debug run --bundle "$BUNDLE" "$ID"
	assert_success
	assert_output --partial "from the cache"
	assert_line "errno 1"
	# Another owner, or writable by others: not ours, not used.
	f=$(ls "$ROOT"/.seccomp/*.bpf | head -1)
	chmod 0666 "$f"
	run "$WARD" --root "$ROOT" --debug run --bundle "$BUNDLE" "$ID"
	assert_success
	refute_output --partial "from the cache"
	assert_line "errno 1"
	# Same key, flipped filter bytes: the key check passes, so the file is
	# owner-only precisely to keep anyone but root from doing this.
	run stat -c %a "$ROOT/.seccomp"
	assert_output 700
}

@test "a NOTIFY rule hands the listener fd and the state to the agent" {
	sock="$TMP/agent.sock"
	# The agent gives up after 20 s; bg_start bounds and reaps it too.
	cat >"$TMP/agent.py" <<'PY'
import json, os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(20)
s.bind(sys.argv[1]); s.listen(1)
c, _ = s.accept()
c.settimeout(20)
msg, fds, _, _ = socket.recv_fds(c, 65536, 4)
state = json.loads(msg)
with open(sys.argv[2], "w") as out:
    out.write("%s %s %s %s\n" % (state["fds"], state["metadata"], state["state"]["status"], state["pid"] > 0))
    out.write(os.readlink("/proc/self/fd/%d" % fds[0]) + "\n")
for fd in fds:
    os.close(fd)
PY
	bg_start 30 "$TMP/agent.log" /usr/bin/python3 "$TMP/agent.py" "$sock" "$TMP/agent.out"
	agent=$BGPID
	wait_for "the agent's socket" test -S "$sock"
	permissive
	cfg --arg s "$sock" '.linux.seccomp.listenerPath = $s | .linux.seccomp.listenerMetadata = "meta1"'
	add_rule '{"names": ["mkdir"], "action": "SCMP_ACT_NOTIFY"}'
	cmd 'sysprobe mkdir @/tmp/x 0'
	run ward run --bundle "$BUNDLE" "$ID"
	rc=0
	wait "$agent" || rc=$?
	[ "$rc" -eq 0 ] || fail "the agent exited $rc: $(cat "$TMP/agent.log")"
	assert_success
	# The agent closed the listener without answering: ENOSYS.
	assert_output "errno 38"
	run cat "$TMP/agent.out"
	assert_line --index 0 "['seccompFd'] meta1 creating True"
	assert_line --index 1 "anon_inode:seccomp notify"
}

@test "NOTIFY without a listenerPath is refused" {
	permissive
	add_rule '{"names": ["mkdir"], "action": "SCMP_ACT_NOTIFY"}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 126
	assert_output 'ward: config.json: .linux.seccomp.listenerPath: required with SCMP_ACT_NOTIFY'
	assert_no_leftovers
}

@test "an unreachable listener fails the create and leaves nothing" {
	permissive
	cfg --arg s "$TMP/nobody.sock" '.linux.seccomp.listenerPath = $s'
	add_rule '{"names": ["mkdir"], "action": "SCMP_ACT_NOTIFY"}'
	run ward create --bundle "$BUNDLE" "$ID"
	assert_failure 125
	assert_output "ward: config.json: .linux.seccomp.listenerPath: failed to connect with seccomp agent at $TMP/nobody.sock: No such file or directory"
	assert_no_leftovers
}

@test "SCMP_ACT_NOTIFY on write is refused with runc's words (the runtime writes after the filter)" {
	WARD_GLOBALS=(--profile compat)
	cfg --arg p "$TMP/agent.sock" '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "listenerPath": $p, "syscalls": [{"names": ["getpid", "write"], "action": "SCMP_ACT_NOTIFY"}]}'
	run ward run --bundle "$BUNDLE" "$ID"
	assert_failure 1
	assert_output "ward: bundle $BUNDLE: config.json: .linux.seccomp.syscalls[0].names[1]: SCMP_ACT_NOTIFY cannot be used for the write syscall"
	assert_no_leftovers
}
