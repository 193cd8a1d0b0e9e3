/* pasta for a strict container run by hand (sup_pasta.h). */
#include "supervisor/sup_pasta.h"
#include "supervisor/supervisor.h"
#include "facts/host_facts.h"
#include "lib/error.h"
#include "net/dns_upstream.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define READY_TRIES 5000 /* 1 ms apart */

/* In the child: the namespace at fd 3, nothing else of the supervisor's. */
static _Noreturn void run_pasta(pid_t parent, int nsfd, const char *dns)
{
	/* Root, with the capabilities pasta keeps (CAP_SYS_ADMIN over the
	 * namespace, which a user namespace's root owns): pasta's nobody
	 * could not join it. */
	char *argv[32] = {"pasta",
	                  "--foreground",
	                  "--quiet",
	                  "--runas",
	                  "0",
	                  "--config-net",
	                  "-t",
	                  "none",
	                  "-u",
	                  "none",
	                  "-T",
	                  "none",
	                  "-U",
	                  "none",
	                  "--no-map-gw",
	                  "--dns-forward",
	                  DNS_PASTA_FORWARD,
	                  "--netns",
	                  "/proc/self/fd/3"};
	char *envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
	int n = 19;
	sigset_t all;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(127);
	if (dns && dns[0]) {
		argv[n++] = "--dns";
		argv[n++] = (char *)dns;
	}
	argv[n] = NULL;
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	if (dup2(nsfd, 3) < 0 || syscall(SYS_close_range, 4, ~0U, 0) < 0)
		_exit(127);
	execve(PASTA_PATH, argv, envp);
	_exit(127);
}

/* The namespace has a default route (pasta configured it). */
static bool routed(pid_t init)
{
	char path[64], line[256];
	FILE *f;
	bool yes = false;

	snprintf(path, sizeof(path), "/proc/%d/net/route", (int)init);
	f = fopen(path, "re");
	while (f && !yes && fgets(line, sizeof(line), f)) {
		char dev[32], dest[16];

		yes = sscanf(line, "%31s %15s", dev, dest) == 2 && strcmp(dest, "00000000") == 0;
	}
	if (f)
		fclose(f);
	return yes;
}

int sup_pasta_start(struct sup_pasta *p, int init_pidfd, const char *dns, struct werror *err)
{
	pid_t init = sup_pidfd_pid(init_pidfd), parent = getpid();
	char path[64];
	int nsfd, status;

	p->pid = -1;
	p->pidfd = -1;
	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)init);
	nsfd = init > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (nsfd < 0)
		return werr(err, errno ? errno : ESRCH, "pasta: the container's network namespace");
	p->pid = fork();
	if (p->pid == 0)
		run_pasta(parent, nsfd, dns);
	close(nsfd);
	if (p->pid < 0)
		return werr(err, errno, "pasta: fork");
	p->pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	for (int i = 0; i < READY_TRIES; i++) {
		if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
			p->pid = -1;
			sup_pasta_stop(p);
			return werr(
			    err, 0,
			    "pasta (%s) ended before the container's network was up (%s %d)",
			    PASTA_PATH, WIFEXITED(status) ? "status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		}
		if (routed(init))
			return p->pidfd < 0 ? (sup_pasta_stop(p), werr(err, errno, "pasta: pidfd"))
			                    : 0;
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
	sup_pasta_stop(p);
	return werr(err, ETIMEDOUT, "pasta did not bring the container's network up");
}

void sup_pasta_stop(struct sup_pasta *p)
{
	if (p->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, p->pidfd, SIGKILL, NULL, 0);
	else if (p->pid > 0)
		kill(p->pid, SIGKILL); /* our unreaped child: never another's pid */
	if (p->pid > 0)
		waitpid(p->pid, NULL, 0);
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pid = -1;
	p->pidfd = -1;
}
