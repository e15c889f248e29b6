/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/caps.c: the calling thread's effective capabilities. */
#include "config.h"

#include "fattrs.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tap.h"

/* CapEff of /proc/self/status, or false when it cannot be read. */
static bool cap_eff(uint64_t *ret)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool found = false;

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = sscanf(line, "CapEff: %" SCNx64, ret) == 1;
	(void)fclose(f);
	return found;
}

static void test_caps__as_the_kernel_says(void)
{
	uint64_t eff;
	bool same = true;

	if (!cap_eff(&eff)) {
		tap_skip("no /proc/self/status to compare with");
		return;
	}
	for (unsigned c = 0; c <= CAP_LAST_CAP; c++) {
		if (fattrs_caps_have(c) != (bool)((eff >> c) & 1)) {
			printf("# capability %u: %d, CapEff %#" PRIx64 "\n", c, fattrs_caps_have(c), eff);
			same = false;
		}
	}
	tap_ok(same, "each capability up to CAP_LAST_CAP is what CapEff says (%#" PRIx64 ")", eff);
}

static void test_caps__unknown_is_yes(void)
{
	tap_ok(fattrs_caps_have(64) && fattrs_caps_have(1000),
	       "a capability it cannot ask about counts as had: no message blames it");
}

/* Set or clear @cap in the thread's effective set (it stays permitted). */
static int set_effective(unsigned cap, bool on)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	if (on)
		d[cap / 32].effective |= 1u << (cap % 32);
	else
		d[cap / 32].effective &= ~(1u << (cap % 32));
	return (int)syscall(SYS_capset, &h, d);
}

static void test_caps__follows_a_drop(void)
{
	if (!fattrs_caps_have(CAP_LINUX_IMMUTABLE)) {
		tap_skip("CAP_LINUX_IMMUTABLE is not effective here (not root)");
		tap_skip("CAP_LINUX_IMMUTABLE is not effective here (not root)");
		return;
	}
	must(set_effective(CAP_LINUX_IMMUTABLE, false));
	tap_ok(!fattrs_caps_have(CAP_LINUX_IMMUTABLE) && fattrs_caps_have(CAP_FOWNER),
	       "a capability dropped from the effective set is no longer had; the others are");
	must(set_effective(CAP_LINUX_IMMUTABLE, true));
	tap_ok(fattrs_caps_have(CAP_LINUX_IMMUTABLE), "... and had again once raised: asked each time");
}

int main(void)
{
	tap_plan(4);
	tap_run(test_caps__as_the_kernel_says());
	tap_run(test_caps__unknown_is_yes());
	tap_run(test_caps__follows_a_drop());
	return tap_done();
}
