#include "lib/sigreset.h"

#include <signal.h>

void sig_reset_default(void)
{
	struct sigaction sa = {.sa_handler = SIG_DFL};
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
