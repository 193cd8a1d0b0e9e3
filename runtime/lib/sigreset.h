/* Signal state a child must not inherit through execve. */
#ifndef WARD_LIB_SIGRESET_H
#define WARD_LIB_SIGRESET_H

/* Default dispositions and an empty mask: what ward blocked or ignored must
 * not reach a container's (or a hook's) process through execve. */
void sig_reset_default(void);

#endif
