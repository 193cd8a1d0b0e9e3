/* supervisor.json: the plan create hands the supervisor through the state
 * dir (a file of ward's own, in a 0700 directory). */
#ifndef WARD_SUP_PLAN_H
#define WARD_SUP_PLAN_H

#include "lib/error.h"

#include "supervisor/supervisor.h"

int sup_plan_write(int dirfd, const struct sup_plan *p, struct werror *err);
int sup_plan_read(int dirfd, struct sup_plan *p, struct werror *err);

#endif
