// SPDX-License-Identifier: MIT
/*
 * PCI bus id parsing (libvgpu/busid.c) against NVIDIA's driver: each
 * string below is one cuDeviceGetByPCIBusId gave an H100 at 0000:00:06.0
 * (tests/e2e/ref/h100_api.log), with what the driver made of it: the
 * device (the address parsed, function 0), another address (101) or no
 * bus id at all (1).
 */
#include "tap.h"
#include "vg.h"

enum { MATCH, OTHER, BAD };

struct busid_case {
	const char *s;
	int want;
};

static const struct busid_case cases[] = {
	{ "0000:00:06.0", MATCH }, { "00000000:00:06.0", MATCH },
	{ "0:0:6.0", MATCH }, { "0:0:6", MATCH }, { "0000:00:06", MATCH },
	{ "00:06.0", MATCH }, { "00:06", BAD }, { "00", BAD },
	{ "0000:00:06.1", OTHER }, { "0000:00:06.7", OTHER },
	{ "0000:00:06.8", OTHER }, { "0000:00:06.f", OTHER },
	{ "0000:00:06.0x", MATCH }, { "0000:00:06.0 ", BAD },
	{ " 0000:00:06.0", MATCH }, { "0000:00:06.00", MATCH },
	{ "0000:00:06.0:", BAD }, { "0000:00:06:0", BAD },
	{ "0000.00.06.0", BAD }, { "0000:00.06.0", BAD },
	{ "0001:00:06.0", OTHER }, { "0000:01:06.0", OTHER },
	{ "0000:00:07.0", OTHER }, { "0000:000:06.0", MATCH },
	{ "0000:00:006.0", MATCH }, { "00000:00:06.0", MATCH },
	{ "0000:0:06.0", MATCH }, { "0x0000:00:06.0", MATCH },
	{ "0000:0x00:06.0", MATCH }, { "10000:00:06.0", OTHER },
	{ "0000:100:06.0", OTHER }, { "0000:00:26.0", OTHER },
	{ "0000:00:106.0", OTHER }, { "-1:00:06.0", OTHER },
	{ "0000:-00:06.0", MATCH }, { "0000::00.0", BAD },
	{ ":00:06.0", BAD }, { "garbage", BAD }, { "GPU-0", BAD }, { "0", BAD },
	{ "", BAD }, { ":", BAD }, { "0000:ff:1f.0", OTHER },
	{ "0000:00:06.0x1", OTHER }, { "0000:00:06x", BAD },
	{ "0000:00:06.0xg", BAD }, { "0000:00:06. 0", MATCH },
	{ "0000:00:06.+0", MATCH }, { "0000:00:06.-0", MATCH },
	{ "0000:00:06.0X", MATCH }, { "00:06.0x", MATCH }, { "00:06.0 ", BAD },
	{ "00:06.1", OTHER }, { "0000:00:06.0\n", BAD },
	{ "0000:00:06\n", BAD }, { "0000:00:06 ", BAD },
	{ "0000:00:0x6.0", MATCH }, { "0000 : 00 : 06.0", BAD },
	{ "0000: 00: 06.0", MATCH }, { "0000:00:06.", BAD },
	{ "0000:00:06:", BAD }, { "0000:00:06.g", BAD },
	{ "0000:00:06.0.0", BAD }, { "0000:00:06:00.0", BAD },
	{ "0:0000:00:06.0", BAD }, { "100000000:00:06.0", MATCH },
	{ "fffffffff:00:06.0", OTHER }, { "0000:00:06.100000000", MATCH },
};

static void parses_as_the_h100(void)
{
	unsigned int d, b, v, f;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool ok = vg_bus_id_parse(cases[i].s, &d, &b, &v, &f);
		int got = !ok ? BAD :
			d == 0 && b == 0 && v == 6 && f == 0 ? MATCH : OTHER;

		if (got != cases[i].want)
			TAP_FAIL("\"%s\": got %d, expected %d", cases[i].s, got,
				 cases[i].want);
	}
}

/* What vgpu writes reads back as the same address. */
static void reads_back_its_own_ids(void)
{
	unsigned int d, b, v, f;

	CHECK(vg_bus_id_parse("0000:0A:00.0", &d, &b, &v, &f));
	CHECK(d == 0 && b == 10 && v == 0 && f == 0);
	CHECK(vg_bus_id_parse("0000:0a:00.0", &d, &b, &v, &f));
	CHECK(d == 0 && b == 10 && v == 0 && f == 0);
}

/* The channel counts of a few formats, as the H100 accepted them. */
static void texture_channels(void)
{
	CHECK(vg_texture_channels(CU_AD_FORMAT_UNSIGNED_INT8) == 0x16);
	CHECK(vg_texture_channels(CU_AD_FORMAT_FLOAT) == 0x16);
	CHECK(vg_texture_channels(CU_AD_FORMAT_NV12) == 1u << 3);
	CHECK(vg_texture_channels(CU_AD_FORMAT_UNORM_INT8X1) == 1u << 1);
	CHECK(vg_texture_channels(CU_AD_FORMAT_UNORM_INT8X4) == 1u << 4);
	CHECK(vg_texture_channels(CU_AD_FORMAT_SNORM_INT16X4) == 1u << 4);
	CHECK(vg_texture_channels(CU_AD_FORMAT_BC1_UNORM) == 1u << 4);
	CHECK(vg_texture_channels(CU_AD_FORMAT_UNORM_INT_101010_2) == 1u << 4);
	CHECK(vg_texture_channels(0) == 0);
	CHECK(vg_texture_channels(4) == 0);
	CHECK(vg_texture_channels(99) == 0);
	CHECK(vg_texture_channels(-1) == 0);
}

static const struct tap_test tests[] = {
	TAP_TEST(parses_as_the_h100),
	TAP_TEST(reads_back_its_own_ids),
	TAP_TEST(texture_channels),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
