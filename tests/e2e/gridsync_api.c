// SPDX-License-Identifier: MIT
/*
 * Grid-wide synchronization: cooperative groups' this_grid().sync() in
 * kernels launched by cuLaunchCooperativeKernel and by cuLaunchKernelEx
 * with CU_LAUNCH_ATTRIBUTE_COOPERATIVE, at the largest grid the
 * occupancy calculator says is co-resident, many barriers in a loop, a
 * 2D grid, two cooperative launches on two streams at once, a fault
 * after a barrier, and the trap an ordinary launch of the same kernel
 * ends in. The codes and outcomes are an H100's
 * (tests/e2e/ref/h100_gridsync.log from h100_gridsync.c; the line each
 * check follows is named in its comment).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync_ptx.h"
#include "tap.h"

#define BLOCK 128

static CUmodule mod;
static CUfunction f;
static unsigned int max_grid;	/* blocks of BLOCK threads co-resident */

static void setup(void)
{
	CUcontext ctx;
	int per_sm = 0, sms = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, gridsync_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "rounds"));
	REQUIRE_RES(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, BLOCK, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	REQUIRE_RES(1, per_sm > 0 && sms > 0);
	max_grid = (unsigned int)(per_sm * sms);
}

/* How the grid is launched. */
enum how { COOP, EX_COOP, PLAIN, EX_NOT_COOP };

/* One grid of rounds: buffers, its arguments and its launch. */
struct grid {
	unsigned int gx, gy;
	int nrounds;
	CUdeviceptr cnt, seen;
	void *args[3];
};

static void grid_init(struct grid *g, unsigned int gx, unsigned int gy,
		      int nrounds)
{
	size_t n = (size_t)gx * gy * nrounds;

	g->gx = gx;
	g->gy = gy;
	g->nrounds = nrounds;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&g->cnt, 4 * (size_t)nrounds));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&g->seen, 4 * n));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32(g->cnt, 0, (size_t)nrounds));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32(g->seen, 0xffffffff, n));
	/* Non-blocking streams do not wait for the NULL stream's fills. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	g->args[0] = &g->cnt;
	g->args[1] = &g->seen;
	g->args[2] = &g->nrounds;
}

static CUresult grid_launch(struct grid *g, enum how how, CUstream s)
{
	CUlaunchAttribute a;
	CUlaunchConfig c = {
		.gridDimX = g->gx, .gridDimY = g->gy, .gridDimZ = 1,
		.blockDimX = BLOCK, .blockDimY = 1, .blockDimZ = 1,
		.hStream = s, .attrs = &a, .numAttrs = 1,
	};

	memset(&a, 0, sizeof(a));
	a.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	a.value.cooperative = how == EX_COOP;
	switch (how) {
	case COOP:
		return cuLaunchCooperativeKernel(f, g->gx, g->gy, 1, BLOCK, 1, 1,
						 0, s, g->args);
	case PLAIN:
		return cuLaunchKernel(f, g->gx, g->gy, 1, BLOCK, 1, 1, 0, s,
				      g->args, NULL);
	default:
		return cuLaunchKernelEx(&c, f, g->args, NULL);
	}
}

/* Records that disagree with the block count: 0 when every barrier held. */
static unsigned int grid_wrong(const struct grid *g)
{
	size_t n = (size_t)g->gx * g->gy * g->nrounds, i;
	uint32_t *h = malloc(4 * n);
	unsigned int wrong = 0;

	REQUIRE_RES(1, h != NULL);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, g->seen, 4 * n));
	for (i = 0; i < n; i++)
		wrong += h[i] != g->gx * g->gy;
	free(h);
	return wrong;
}

/* One cooperative grid, launched, synchronized and checked. */
static void one(unsigned int gx, unsigned int gy, int nrounds, enum how how)
{
	struct grid g;

	grid_init(&g, gx, gy, nrounds);
	CHECK_RES(CUDA_SUCCESS, grid_launch(&g, how, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(grid_wrong(&g) == 0);
}

/* coop_max: launch 0 sync 0 ... wrong 0, at the co-resident maximum. */
static void cooperative_kernel_at_the_maximum(void)
{
	setup();
	printf("# co-resident: %u blocks of %d threads\n", max_grid, BLOCK);
	one(max_grid, 1, 3, COOP);
}

/* ex_max: the same through cuLaunchKernelEx. */
static void launch_ex_cooperative_at_the_maximum(void)
{
	setup();
	one(max_grid, 1, 3, EX_COOP);
}

/* coop_loop: many barriers, the workspace reused by each. */
static void barriers_in_a_loop(void)
{
	setup();
	one(max_grid, 1, 300, COOP);
}

/* coop_2d and coop_one: block (0, 0, 0) of a 2D grid leads; one block. */
static void grids_of_two_dimensions_and_of_one_block(void)
{
	setup();
	one(4, 3, 5, COOP);
	one(1, 1, 2, COOP);
}

/* Launches one after another on a stream each start from a zeroed workspace. */
static void launches_in_a_row(void)
{
	int i;

	setup();
	for (i = 0; i < 4; i++)
		one(max_grid - (unsigned int)i, 1, 7, i % 2 ? EX_COOP : COOP);
}

/* coop_too_large and ex_too_large: 720, and the context goes on. */
static void one_block_too_many(void)
{
	struct grid g;
	CUdeviceptr p;

	setup();
	grid_init(&g, max_grid + 1, 1, 1);
	CHECK_RES(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, grid_launch(&g, COOP, NULL));
	CHECK_RES(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, grid_launch(&g, EX_COOP, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&p, 4));
}

/* two: two cooperative grids of half the maximum on two streams at once. */
static void two_streams_at_once(void)
{
	struct grid g[2];
	CUstream s[2];
	int i;

	setup();
	for (i = 0; i < 2; i++) {
		REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING));
		grid_init(&g[i], max_grid / 2, 1, 64);
	}
	for (i = 0; i < 2; i++)
		CHECK_RES(CUDA_SUCCESS, grid_launch(&g[i], COOP, s[i]));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	for (i = 0; i < 2; i++)
		CHECK(grid_wrong(&g[i]) == 0);
}

/*
 * plain, ex_not_coop and plain_one: an ordinary launch has no workspace,
 * so grid.sync() traps: the launch succeeds, the synchronization answers
 * 719, and so does every later call, the context being lost.
 */
static void ordinary_launch(enum how how, unsigned int gx)
{
	struct grid g;
	CUdeviceptr p;

	setup();
	grid_init(&g, gx, 1, 1);
	CHECK_RES(CUDA_SUCCESS, grid_launch(&g, how, NULL));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuMemAlloc(&p, 4));
}

static void ordinary_launch_traps(void)
{
	ordinary_launch(PLAIN, 4);
}

static void launch_ex_not_cooperative_traps(void)
{
	ordinary_launch(EX_NOT_COOP, 4);
}

static void ordinary_launch_of_one_block_traps(void)
{
	ordinary_launch(PLAIN, 1);
}

/*
 * vgpu's: a fault after a barrier ends the whole gang with the code of
 * an illegal address (700, as cuLaunchKernel's faults), and the next
 * cooperative launch in another context still runs.
 */
static void fault_after_a_barrier(void)
{
	struct grid g;
	CUcontext ctx;

	setup();
	grid_init(&g, max_grid, 1, 2);
	g.seen = 16;	/* no memory there */
	CHECK_RES(CUDA_SUCCESS, grid_launch(&g, COOP, NULL));
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetCurrent(&ctx));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(ctx));
	setup();
	one(max_grid, 1, 3, COOP);
}

static const struct tap_test tests[] = {
	TAP_TEST(cooperative_kernel_at_the_maximum),
	TAP_TEST(launch_ex_cooperative_at_the_maximum),
	TAP_TEST(barriers_in_a_loop),
	TAP_TEST(grids_of_two_dimensions_and_of_one_block),
	TAP_TEST(launches_in_a_row),
	TAP_TEST(one_block_too_many),
	TAP_TEST(two_streams_at_once),
	TAP_TEST(ordinary_launch_traps),
	TAP_TEST(launch_ex_not_cooperative_traps),
	TAP_TEST(ordinary_launch_of_one_block_traps),
	TAP_TEST(fault_after_a_barrier),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
