/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The calling process's capabilities (capget(2)), for what needs one: immutable, journal. */
#include "config.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

bool fattrs_caps_have(unsigned cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2] = { { .effective = 0 } };
	uint64_t eff;

	if (cap >= 64 || syscall(SYS_capget, &h, d) < 0)
		return true;
	eff = (uint64_t)d[1].effective << 32 | d[0].effective;
	return (eff >> cap) & 1;
}
