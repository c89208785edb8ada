// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier inside the module: every program of the shared table
 * (tests/isa_verify_cases.h) goes through MODULE_LOAD, and the module
 * accepts it or refuses it with -EINVAL, the instruction and the message
 * the table expects.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_verify_cases.h"

TEST(every_verifier_rule)
{
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	size_t i;

	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct vcase *c = &cases[i];
		struct vgpu_func f = c->func;
		char log[128];
		struct vgpu_module_load ml = {
			.insns = (uintptr_t)c->insns, .funcs = (uintptr_t)&f,
			.log = (uintptr_t)log, .ninsns = c->n, .nfuncs = 1,
			.log_size = sizeof(log),
		};
		int ret;

		if (!f.nregs && !f.entry) {
			f.nregs = 4;
			f.npreds = 2;
		}
		memset(log, 0, sizeof(log));
		ret = ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml);
		if (c->insn == -2) {
			EXPECT_EQ(0, ret) TH_LOG("%s: refused: %s", c->name, log);
			continue;
		}
		EXPECT_EQ(-1, ret) TH_LOG("%s: accepted", c->name);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", c->name);
		EXPECT_STREQ(c->msg, log) TH_LOG("%s", c->name);
		EXPECT_EQ(c->insn < 0 ? ~0U : (__u32)c->insn, ml.error_insn) TH_LOG("%s", c->name);
	}
	close(fd);
}

TEST_HARNESS_MAIN
