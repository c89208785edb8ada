// SPDX-License-Identifier: MIT
/*
 * Kernel printf's host side (libvgpu/printf.c): records packed as vprintf
 * packs them (natural alignment, float promoted to double, char to int)
 * come out as C's printf would print the same call.
 */
#include <stdint.h>

#include "tap.h"
#include "vg.h"

static size_t no_strings(void *arg, uint64_t addr, char *buf, size_t len)
{
	(void)arg;
	snprintf(buf, len, "<%llx>", (unsigned long long)addr);
	return strlen(buf);
}

static void conversions(void)
{
	unsigned char args[64] = { 0 };
	double d = 1.5, f = 0.25;
	int64_t ll = -1234567890123LL;
	int32_t i = -42, c = 'Z';
	uint64_t p = 0x1000, s = 0xabc;
	char out[256], want[256];

	/* (float, double, long long, pointer, char): 0/8/16/24/32 */
	memcpy(args, &f, 8);
	memcpy(args + 8, &d, 8);
	memcpy(args + 16, &ll, 8);
	memcpy(args + 24, &p, 8);
	memcpy(args + 32, &c, 4);
	vg_printf_format(out, sizeof(out), "f=%f d=%5.2f ll=%lld p=%p c=%c\n",
			 args, 36, no_strings, NULL);
	snprintf(want, sizeof(want), "f=%f d=%5.2f ll=%lld p=%p c=%c\n", 0.25, 1.5,
		 -1234567890123LL, (void *)0x1000, 'Z');
	CHECK(!strcmp(out, want));
	/* (int, unsigned as hex, string, 100%) */
	memset(args, 0, sizeof(args));
	memcpy(args, &i, 4);
	memcpy(args + 4, &i, 4);
	memcpy(args + 8, &s, 8);
	vg_printf_format(out, sizeof(out), "%d %08x %s 100%%", args, 16,
			 no_strings, NULL);
	CHECK(!strcmp(out, "-42 ffffffd6 <abc> 100%"));
}

/* A record shorter than its format: what can be printed is, then it ends. */
static void short_records_and_odd_specs(void)
{
	int32_t v = 7;
	char out[64];

	vg_printf_format(out, sizeof(out), "a=%d b=%d", (const unsigned char *)&v,
			 4, no_strings, NULL);
	CHECK(!strcmp(out, "a=7 b="));
	vg_printf_format(out, sizeof(out), "%y and %", NULL, 0, no_strings, NULL);
	CHECK(!strcmp(out, "%y and %"));
	vg_printf_format(out, 4, "abcdef", NULL, 0, no_strings, NULL);
	CHECK(!strcmp(out, "abc"));
}

static const struct tap_test tests[] = {
	TAP_TEST(conversions),
	TAP_TEST(short_records_and_odd_specs),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
