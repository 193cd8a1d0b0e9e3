/* container/protocol: the parent<->init channel over a SOCK_SEQPACKET
 * socketpair, both ends in this process (or a forked child for the steps
 * that wait on each other): every message type, the number HOOKS_DONE
 * carries, an error crossing with its errno, kind and message, the cut of
 * an over-long message, unexpected types, EOF, and fds passed along. */
#include "container/protocol.h"
#include "lib/error.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int sv[2] = {-1, -1};

static int pair(void)
{
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv);
}

/* Nothing is waiting on the socket. */
static int empty(int fd)
{
	char b[8];

	return recv(fd, b, sizeof(b), MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

static void test_types(void)
{
	const enum sync_type types[] = {SYNC_MAPPED,     SYNC_READY,   SYNC_ACK,
	                                SYNC_SECCOMP_FD, SYNC_HOOKS,   SYNC_HOOKS_DONE,
	                                SYNC_TREE,       SYNC_TREE_FD, SYNC_TREE_END};
	int fails = 0;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct sync_msg m;
		int fd = 99;

		if (sync_send(sv[0], types[i], err) < 0 || sync_expect(sv[1], types[i], err) < 0)
			fails++;
		if (sync_send(sv[1], types[i], err) < 0 || sync_recv(sv[0], &m, &fd, err) < 0 ||
		    m.type != types[i] || m.err != 0 || m.kind != 0 || m.text[0] != '\0' ||
		    fd != -1)
			fails++;
	}
	ok(fails == 0 && empty(sv[0]) && empty(sv[1]),
	   "each of the %zu types crosses both ways, alone", sizeof(types) / sizeof(types[0]));
	werr_clear(err);
	ok(proto_mapped(sv[0], err) == 0 && proto_await_mapped(sv[1], err) == 0,
	   "proto_mapped / proto_await_mapped");
}

static void test_numbers(void)
{
	const int32_t nums[] = {0, 1, 4242, -7, INT32_MAX, INT32_MIN};
	int fails = 0;

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		struct sync_msg m;

		if (sync_send_num(sv[0], SYNC_HOOKS_DONE, nums[i], err) < 0 ||
		    sync_expect_msg(sv[1], SYNC_HOOKS_DONE, &m, err) < 0 || m.err != nums[i]) {
			fails++;
			diag("%d arrived as %d", (int)nums[i], (int)m.err);
		}
	}
	ok(fails == 0, "sync_send_num carries 0, 4242, -7, INT32_MAX and INT32_MIN");
}

static int hooks_ran;

static int run_hooks(void *arg, struct werror *e)
{
	hooks_ran++;
	if (arg)
		return werr_k(e, WERR_REFUSED, EPERM, "prestart hook %s failed", (const char *)arg);
	return 0;
}

/* The two sides of a step that wait on each other: the init in a child,
 * its verdict in the exit status. */
static void test_steps(void)
{
	pid_t pid;
	int st = -1;

	pid = fork();
	if (pid == 0) {
		pid_t host = 0;
		struct werror e = WERROR_INIT;

		close(sv[0]);
		if (proto_hooks(sv[1], &host, &e) < 0 || host != 31337)
			_exit(1);
		if (proto_ready(sv[1], &e) < 0)
			_exit(2);
		_exit(0); /* EOF: what the parent's release waits for */
	}
	close(sv[1]); /* (else the child's exit is no EOF) */
	sv[1] = -1;
	ok(pid > 0 && proto_run_hooks(sv[0], 31337, run_hooks, NULL, err) == 0 && hooks_ran == 1,
	   "proto_run_hooks: HOOKS awaited, the hooks run once, HOOKS_DONE sent");
	ok(proto_await_ready(sv[0], err) == 0, "proto_await_ready");
	ok(proto_release(sv[0], err) == 0, "proto_release: ACK, then the init's EOF");
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "the init side: host pid 31337 from proto_hooks, proto_ready acked (status %d)", st);
	pair();

	/* A failing hook: its error, and no HOOKS_DONE. */
	werr_clear(err);
	ok(sync_send(sv[1], SYNC_HOOKS, err) == 0 &&
	       proto_run_hooks(sv[0], 1, run_hooks, (void *)"h1", err) < 0 &&
	       strcmp(werr_msg(err), "prestart hook h1 failed: Operation not permitted") == 0 &&
	       werr_kind_of(err) == WERR_REFUSED && empty(sv[1]),
	   "a failing hook is the error, and the init gets no HOOKS_DONE");
	werr_clear(err);
	/* exec: the child's execve closes its end. */
	close(sv[1]);
	sv[1] = -1;
	ok(proto_await_exec(sv[0], err) == 0, "proto_await_exec: EOF is success");
	pair();
}

/* An error sent by one side is the other side's error, word for word. */
static void test_errors(void)
{
	const struct {
		enum werr_kind kind;
		int errnum;
		const char *msg;
	} cases[] = {
	    {WERR_SYSTEM, ENOENT, "mounting /x on /y"},
	    {WERR_INVALID, 0, "process.args: empty"},
	    {WERR_REFUSED, EPERM, "only procfs may be mounted at /proc"},
	    {WERR_NOT_FOUND, ENOENT, "executable \"sh\" not found"},
	    {WERR_NOT_RUNNING, ESRCH, "init gone"},
	    {WERR_UNSUPPORTED, ENOSYS, "no clone3"},
	};
	int fails = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct werror sent = WERROR_INIT, got = WERROR_INIT;
		struct sync_msg m;
		char want[256];
		int fd = 5;

		werr_k(&sent, cases[i].kind, cases[i].errnum, "%s", cases[i].msg);
		snprintf(want, sizeof(want), "%s", werr_msg(&sent));
		/* Each receiver: sync_expect, sync_expect_fd, sync_expect_msg. */
		sync_send_error(sv[0], &sent);
		if (sync_expect(sv[1], SYNC_READY, &got) != -1 ||
		    werr_kind_of(&got) != cases[i].kind || werr_errno(&got) != werr_errno(&sent) ||
		    strcmp(werr_msg(&got), want) != 0) {
			fails++;
			diag("expect: %d/%d \"%s\"", werr_kind_of(&got), werr_errno(&got),
			     werr_msg(&got));
		}
		werr_clear(&got);
		sync_send_error(sv[0], &sent);
		if (sync_expect_fd(sv[1], SYNC_SECCOMP_FD, &fd, &got) != -1 || fd != -1 ||
		    werr_kind_of(&got) != cases[i].kind || strcmp(werr_msg(&got), want) != 0)
			fails++;
		werr_clear(&got);
		sync_send_error(sv[0], &sent);
		if (sync_expect_msg(sv[1], SYNC_HOOKS_DONE, &m, &got) != -1 ||
		    werr_errno(&got) != werr_errno(&sent) || strcmp(werr_msg(&got), want) != 0)
			fails++;
		werr_clear(&got);
		werr_clear(&sent);
	}
	ok(fails == 0, "SYNC_ERROR becomes the receiver's error: errno, kind, message (%zu kinds)",
	   sizeof(cases) / sizeof(cases[0]));
	{
		struct werror sent = WERROR_INIT, got = WERROR_INIT;

		werr(&sent, ENOENT, "x");
		ok(strcmp(werr_msg(&sent), "x: No such file or directory") == 0 &&
		       (sync_send_error(sv[0], &sent), sync_expect(sv[1], SYNC_ACK, &got) < 0) &&
		       werr_errno(&got) == ENOENT && werr_kind_of(&got) == WERR_SYSTEM &&
		       strcmp(werr_msg(&got), "x: No such file or directory") == 0,
		   "the strerror part is not added twice");
		werr_clear(&sent);
		werr_clear(&got);
	}
}

/* SYNC_TEXT_MAX - 1 characters fit; one more is cut, ending in "[...]". */
static void test_long(void)
{
	const size_t lens[] = {SYNC_TEXT_MAX - 1, SYNC_TEXT_MAX, SYNC_TEXT_MAX + 1, 10000};
	char *msg = malloc(10001);

	for (size_t i = 0; i < 10000; i++)
		msg[i] = (char)('a' + i % 26);
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		struct werror sent = WERROR_INIT, got = WERROR_INIT;
		char saved = msg[lens[k]];
		const char *g;
		size_t n;

		msg[lens[k]] = '\0';
		werr_set(&sent, WERR_INVALID, EINVAL, msg);
		sync_send_error(sv[0], &sent);
		sync_expect(sv[1], SYNC_READY, &got);
		g = werr_msg(&got);
		n = strlen(g);
		if (lens[k] < SYNC_TEXT_MAX)
			ok(strcmp(g, msg) == 0, "a message of %zu characters arrives whole",
			   lens[k]);
		else
			ok(n == SYNC_TEXT_MAX - 1 && strcmp(g + n - 5, "[...]") == 0 &&
			       strncmp(g, msg, n - 5) == 0 && werr_kind_of(&got) == WERR_INVALID,
			   "a message of %zu characters: its first %zu, then \"[...]\"", lens[k],
			   n - 5);
		msg[lens[k]] = saved;
		werr_clear(&sent);
		werr_clear(&got);
	}
	free(msg);
	ok(empty(sv[1]), "one message each");
}

static void test_unexpected(void)
{
	struct sync_msg m;
	uint32_t raw[2] = {SYNC_READY, 0};
	int fd = 7;

	werr_clear(err);
	ok(sync_send(sv[0], SYNC_READY, err) == 0 && sync_expect(sv[1], SYNC_MAPPED, err) < 0 &&
	       werr_errno(err) == EPROTO &&
	       strcmp(werr_msg(err),
	              "sync channel: unexpected message 2 (expected 1): Protocol error") == 0,
	   "an unexpected type is EPROTO, naming the one that came and the one awaited");
	werr_clear(err);
	ok(sync_send(sv[0], SYNC_ACK, err) == 0 &&
	       sync_expect_msg(sv[1], SYNC_READY, &m, err) < 0 && werr_errno(err) == EPROTO &&
	       strstr(werr_msg(err), "message 3 (expected 2)"),
	   "the same through sync_expect_msg");
	werr_clear(err);
	ok(sync_send(sv[0], SYNC_READY, err) == 0 && sync_expect(sv[1], SYNC_EOF, err) < 0 &&
	       strstr(werr_msg(err), "message 2 (expected 0)"),
	   "a message where EOF is awaited (exec) is an error");
	werr_clear(err);
	ok(send(sv[0], raw, 6, 0) == 6 && sync_recv(sv[1], &m, NULL, err) < 0 &&
	       werr_errno(err) == EPROTO && strstr(werr_msg(err), "short message"),
	   "a message shorter than the header is EPROTO");
	werr_clear(err);
	{
		/* A full message with no NUL in its text: cut at the end. */
		struct sync_msg big;

		memset(&big, 'A', sizeof(big));
		big.type = SYNC_ERROR;
		big.err = EIO;
		big.kind = 99; /* not a kind */
		ok(send(sv[0], &big, sizeof(big), 0) == (ssize_t)sizeof(big) &&
		       sync_expect(sv[1], SYNC_READY, err) < 0 &&
		       strlen(werr_msg(err)) == SYNC_TEXT_MAX - 1 && werr_errno(err) == EIO &&
		       strcmp(werr_kind_name(werr_kind_of(err)), "system") == 0,
		   "an unterminated text is cut to SYNC_TEXT_MAX - 1; an unknown kind reads as "
		   "system");
	}
	werr_clear(err);
	/* EOF. */
	close(sv[0]);
	sv[0] = -1;
	ok(sync_expect(sv[1], SYNC_READY, err) < 0 && werr_errno(err) == EPIPE &&
	       strstr(werr_msg(err), "container init exited during setup"),
	   "EOF where a message is awaited: EPIPE, the init exited");
	werr_clear(err);
	ok(sync_recv(sv[1], &m, &fd, err) == 0 && m.type == SYNC_EOF && fd == -1,
	   "sync_recv reports EOF as SYNC_EOF");
	ok(sync_expect(sv[1], SYNC_EOF, err) == 0, "awaiting EOF at EOF succeeds");
	/* The other way: a send to a closed peer is EPIPE, no SIGPIPE. */
	ok(sync_send(sv[1], SYNC_ACK, err) < 0 && werr_errno(err) == EPIPE &&
	       strstr(werr_msg(err), "sync channel"),
	   "a send to a closed peer: EPIPE (and no SIGPIPE)");
	werr_clear(err);
	{
		struct werror keep = WERROR_INIT;

		werr(&keep, EACCES, "the step");
		sync_send_error(sv[1], &keep);
		ok(strcmp(werr_msg(&keep), "the step: Permission denied") == 0 &&
		       werr_errno(&keep) == EACCES,
		   "sync_send_error to a closed peer leaves the error as it was");
		werr_clear(&keep);
	}
	pair();
}

/* SCM_RIGHTS: the fd arrives working and close-on-exec; one that comes
 * with the wrong message, or to a receiver that wants none, is closed. */
static void test_fds(void)
{
	int p[2], got = -1;
	char c = 0;

	ok(pipe2(p, O_CLOEXEC) == 0 && proto_hand_listener(sv[0], p[1], err) == 0 &&
	       proto_await_listener(sv[1], &got, err) == 0 && got >= 0 && got != p[1],
	   "SECCOMP_FD delivers an fd");
	ok(write(got, "s", 1) == 1 && read(p[0], &c, 1) == 1 && c == 's',
	   "it is the pipe's write end (a byte written through it arrives)");
	ok((fcntl(got, F_GETFD) & FD_CLOEXEC) != 0, "and it is close-on-exec");
	close(got);
	got = -1;
	ok(proto_listener_to(&sv[0], p[1], err) == 0 &&
	       sync_expect_fd(sv[1], SYNC_SECCOMP_FD, &got, err) == 0 && got >= 0 &&
	       (close(got), 1),
	   "proto_listener_to sends on the channel it is given");
	got = -1;

	/* The fd rides an unexpected message: refused and closed. */
	werr_clear(err);
	ok(sync_send_fd(sv[0], SYNC_TREE_FD, p[1], err) == 0 &&
	       sync_expect_fd(sv[1], SYNC_SECCOMP_FD, &got, err) < 0 && got == -1 &&
	       werr_errno(err) == EPROTO,
	   "an fd with an unexpected message: an error, *passfd -1");
	werr_clear(err);
	ok(sync_send_fd(sv[0], SYNC_SECCOMP_FD, p[1], err) == 0 &&
	       sync_expect(sv[1], SYNC_SECCOMP_FD, err) == 0,
	   "an fd to a receiver that wants none: the message is taken");
	{
		struct sync_msg m;

		ok(sync_send_fd(sv[0], SYNC_READY, p[1], err) == 0 &&
		       sync_recv(sv[1], &m, NULL, err) == 0 && m.type == SYNC_READY,
		   "sync_recv with passfd NULL takes the message");
	}
	/* Every copy of the write end the receiver got was closed: with ours
	 * closed too, the pipe reads EOF. */
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK); /* a leaked copy: EAGAIN, not a hang */
	ok(read(p[0], &c, 1) == 0, "every fd that was not wanted was closed (the pipe is at EOF)");
	close(p[0]);
	ok(empty(sv[1]), "nothing left on the channel");
}

int main(void)
{
	signal(SIGPIPE, SIG_DFL); /* a send without MSG_NOSIGNAL would kill the test */
	if (!ok(pair() == 0, "socketpair"))
		return tap_done();
	test_types();
	test_numbers();
	test_steps();
	test_errors();
	test_long();
	test_unexpected();
	test_fds();
	close(sv[0]);
	close(sv[1]);
	werr_clear(err);
	return tap_done();
}
