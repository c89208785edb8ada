// SPDX-License-Identifier: MIT
/*
 * CUDA_VISIBLE_DEVICES parsing, against the answers of NVIDIA's driver
 * (recorded on a real machine): indices, UUID prefixes, blanks, the end of
 * the list at the first bad entry, duplicates.
 */
#include "tap.h"
#include "vg.h"

static const uint8_t uuids[3][VGPU_UUID_LEN] = {
	{ 0x76, 0x67, 0x70, 0x75, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0 },
	{ 0x76, 0x67, 0x70, 0x75, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1 },
	{ 0xab, 0xcd, 0xef, 0x01, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 2 },
};

struct visible_case {
	const char *env;
	int count;		/* or VG_VISIBLE_DUPLICATE */
	int order[3];
};

static const struct visible_case cases[] = {
	{ NULL, 3, { 0, 1, 2 } },
	{ "0", 1, { 0 } },
	{ "2,0", 2, { 2, 0 } },
	{ " 1 ", 1, { 1 } },
	{ "00", 1, { 0 } },
	{ "", 0, { 0 } },
	{ "x", 0, { 0 } },
	{ "0,x,1", 1, { 0 } },
	{ "3,0", 0, { 0 } },
	{ "-1", 0, { 0 } },
	{ "0,", 1, { 0 } },
	{ "0,0", VG_VISIBLE_DUPLICATE, { 0 } },
	{ "0,1,2,1", VG_VISIBLE_DUPLICATE, { 0 } },
	{ "GPU-abcd", 1, { 2 } },
	{ "gpu-ABCDEF01", 1, { 2 } },
	{ "GPU-abcdef01-0000-4000-8000-000000000002", 1, { 2 } },
	{ "GPU-abcdef01-0000-4000-8000-0000000000020", 0, { 0 } },
	{ "GPU-7667", 0, { 0 } },	/* ambiguous */
	{ "GPU-", 0, { 0 } },
	{ "GPU-76677075-0000-4000-8000-000000000001,2", 2, { 1, 2 } },
	{ "MIG-1", 0, { 0 } },
};

static void parse_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct visible_case *c = &cases[i];
		int order[3] = { -1, -1, -1 }, n, j;

		n = vg_parse_visible(c->env, uuids, 3, order);
		if (n != c->count) {
			TAP_FAIL("\"%s\": %d devices, expected %d",
				 c->env ? c->env : "(unset)", n, c->count);
			continue;
		}
		for (j = 0; j < n; j++)
			if (order[j] != c->order[j])
				TAP_FAIL("\"%s\": ordinal %d is device %d, expected %d",
					 c->env, j, order[j], c->order[j]);
	}
}

static void uuid_text(void)
{
	char buf[64];

	vg_format_uuid(buf, sizeof(buf), uuids[2]);
	CHECK(strcmp(buf, "GPU-abcdef01-0000-4000-8000-000000000002") == 0);
}

static const struct tap_test tests[] = {
	TAP_TEST(parse_table),
	TAP_TEST(uuid_text),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
