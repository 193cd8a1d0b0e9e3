/* Shorthands for jfield tables (see jwalk.h). */
#ifndef WARD_JWALK_MACROS_H
#define WARD_JWALK_MACROS_H

#include <stddef.h>

#include "lib/jwalk.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FLD(k, kind_, T, m, fl)                                                                    \
	{                                                                                          \
		.key = k, .kind = kind_, .flags = fl, .off = offsetof(T, m), .has_off = -1         \
	}
#define FLD_HAS(k, kind_, T, m, fl)                                                                \
	{                                                                                          \
		.key = k, .kind = kind_, .flags = fl, .off = offsetof(T, m),                       \
		.has_off = offsetof(T, has_##m)                                                    \
	}
#define FLD_N(k, kind_, T, m, fl, sub_)                                                            \
	{                                                                                          \
		.key = k, .kind = kind_, .flags = fl, .off = offsetof(T, m), .has_off = -1,        \
		.n_off = offsetof(T, n_##m), .sub = sub_                                           \
	}
#define FLD_OBJ(k, T, m, fl, sub_)                                                                 \
	{                                                                                          \
		.key = k, .kind = JK_OBJ, .flags = fl, .off = offsetof(T, m), .has_off = -1,       \
		.sub = sub_                                                                        \
	}
#define FLD_CUSTOM(k, T, m, fn)                                                                    \
	{                                                                                          \
		.key = k, .kind = JK_CUSTOM, .off = offsetof(T, m),                                \
		.has_off = offsetof(T, has_##m), .custom = fn                                      \
	}
#define FLD_REFUSE(k, why)                                                                         \
	{                                                                                          \
		.key = k, .kind = JK_REFUSE, .has_off = -1, .note = why                            \
	}
#define SCHEMA(T, f, check_, free_)                                                                \
	{                                                                                          \
		sizeof(T), f, ARRAY_SIZE(f), check_, free_                                         \
	}

#endif
