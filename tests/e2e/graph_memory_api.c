// SPDX-License-Identifier: MIT
/*
 * The device's graph memory, held to an H200: the probe that ran there
 * (tests/e2e/ref/h200_graphmem.c) runs here on vgpu (probe_run.h) and
 * prints what it printed there: cuDeviceGetGraphMemAttribute's values as
 * graphs with allocation nodes are built, uploaded, launched, freed (by
 * free nodes and by cuMemFreeAsync) and destroyed, what
 * cuDeviceGraphMemTrim gives back, which marks cuDeviceSetGraphMemAttribute
 * resets, and the codes of bad input to all three.
 */
#include "tap.h"
#include "probe_run.h"

#define main h200_graphmem_main
#include "e2e/ref/h200_graphmem.c"
#undef main

static void probe_prints_as_on_h200(void)
{
	probe_matches(h200_graphmem_main, "tests/e2e/ref/h200_graphmem.log", NULL);
}

static const struct tap_test tests[] = {
	TAP_TEST(probe_prints_as_on_h200),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
