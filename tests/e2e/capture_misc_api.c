// SPDX-License-Identifier: MIT
/*
 * Stream capture of the calls tests/e2e/ref/h200_capture.c left out, held
 * to an H200: the probe that ran there (tests/e2e/ref/h200_capture_misc.c)
 * runs here on vgpu (probe_run.h) and prints what it printed there. Stream
 * callbacks, prefetches, discards, attaching managed memory and peer copies
 * end the capture's use (900, then 901 at its end); cooperative launches
 * become kernel nodes that keep the attribute, and copies between host
 * memories (or managed memory) copy nodes of unified memory.
 */
#include "tap.h"
#include "probe_run.h"

#define main h200_capture_misc_main
#include "e2e/ref/h200_capture_misc.c"
#undef main

static void probe_prints_as_on_h200(void)
{
	probe_matches(h200_capture_misc_main, "tests/e2e/ref/h200_capture_misc.log", NULL);
}

static const struct tap_test tests[] = {
	TAP_TEST(probe_prints_as_on_h200),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
