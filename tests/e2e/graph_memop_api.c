// SPDX-License-Identifier: MIT
/*
 * Batch memory operation nodes, held to an H200: the probe that ran there
 * (tests/e2e/ref/h200_graph_memop.c) runs here on vgpu (probe_run.h) and
 * prints what it printed there: what adding a node accepts and refuses,
 * the parameters read back, set in a graph and in an executable graph,
 * the values the launched nodes wrote, the node through cuGraphAddNode,
 * and the nodes stream capture makes of batches, waits and writes.
 */
#include "tap.h"
#include "probe_run.h"

#define main h200_memop_main
#include "e2e/ref/h200_graph_memop.c"
#undef main

static void probe_prints_as_on_h200(void)
{
	probe_matches(h200_memop_main, "tests/e2e/ref/h200_graph_memop.log", NULL);
}

static const struct tap_test tests[] = {
	TAP_TEST(probe_prints_as_on_h200),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
