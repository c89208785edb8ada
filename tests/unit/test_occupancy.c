// SPDX-License-Identifier: MIT
/*
 * The occupancy calculator (libvgpu/occupancy.c) against NVIDIA's driver:
 * every answer below is what cuOccupancy* gave on an H100 (driver 580)
 * for three kernels of known registers and shared memory, with the
 * H100's limits; then what vgpu adds on its own devices.
 */
#include "tap.h"
#include "vg.h"

/* The H100 as cuDeviceGetAttribute describes it. */
static const struct vgpu_info h100 = {
	.sm_count = 132, .cc_major = 9, .cc_minor = 0, .warp_size = 32,
	.max_threads_per_block = 1024, .max_threads_per_sm = 2048,
	.max_blocks_per_sm = 32, .shared_mem_per_block = 49152,
	.shared_mem_per_sm = 233472, .regs_per_block = 65536,
	.regs_per_sm = 65536,
};

/*
 * The kernels as ptxas built them for sm_90: a 16x16 tiled matrix
 * multiply (32 registers, 2 KiB of static shared memory), one that uses
 * only dynamic shared memory (12 registers), and one of 102 registers,
 * which limit its blocks to 512 threads.
 */
enum { MM, DYN, HEAVY };
static const struct vg_occ_kernel kernels[] = {
	[MM] = { .regs = 32, .shared_bytes = 2048 },
	[DYN] = { .regs = 12 },
	[HEAVY] = { .regs = 102, .max_threads = 512 },
};

struct occ_case {
	int kernel, block;
	size_t dyn;
	int blocks;
};

struct pot_case {
	int kernel;
	size_t (*cb)(int block);
	size_t dyn;
	int limit, grid, block;
};

static size_t cb8(int block)
{
	return (size_t)block * 8;
}

static size_t cb64(int block)
{
	return (size_t)block * 64;
}

/*
 * cuOccupancyMaxActiveBlocksPerMultiprocessor on the H100: kernel, block
 * size, dynamic shared memory, blocks per SM.
 */
static const struct occ_case occ_cases[] = {
	{ MM, 1, 0, 32 }, { MM, 1, 1, 32 }, { MM, 1, 4096, 32 }, { MM, 1, 16384, 12 },
	{ MM, 1, 40000, 5 }, { MM, 1, 49152, 4 }, { MM, 32, 0, 32 },
	{ MM, 32, 1, 32 }, { MM, 32, 4096, 32 }, { MM, 32, 16384, 12 },
	{ MM, 32, 40000, 5 }, { MM, 32, 49152, 4 }, { MM, 33, 0, 32 },
	{ MM, 33, 1, 32 }, { MM, 33, 4096, 32 }, { MM, 33, 16384, 12 },
	{ MM, 33, 40000, 5 }, { MM, 33, 49152, 4 }, { MM, 64, 0, 32 },
	{ MM, 64, 1, 32 }, { MM, 64, 4096, 32 }, { MM, 64, 16384, 12 },
	{ MM, 64, 40000, 5 }, { MM, 64, 49152, 4 }, { MM, 96, 0, 21 },
	{ MM, 96, 1, 21 }, { MM, 96, 4096, 21 }, { MM, 96, 16384, 12 },
	{ MM, 96, 40000, 5 }, { MM, 96, 49152, 4 }, { MM, 128, 0, 16 },
	{ MM, 128, 1, 16 }, { MM, 128, 4096, 16 }, { MM, 128, 16384, 12 },
	{ MM, 128, 40000, 5 }, { MM, 128, 49152, 4 }, { MM, 192, 0, 10 },
	{ MM, 192, 1, 10 }, { MM, 192, 4096, 10 }, { MM, 192, 16384, 10 },
	{ MM, 192, 40000, 5 }, { MM, 192, 49152, 4 }, { MM, 256, 0, 8 },
	{ MM, 256, 1, 8 }, { MM, 256, 4096, 8 }, { MM, 256, 16384, 8 },
	{ MM, 256, 40000, 5 }, { MM, 256, 49152, 4 }, { MM, 384, 0, 5 },
	{ MM, 384, 1, 5 }, { MM, 384, 4096, 5 }, { MM, 384, 16384, 5 },
	{ MM, 384, 40000, 5 }, { MM, 384, 49152, 4 }, { MM, 512, 0, 4 },
	{ MM, 512, 1, 4 }, { MM, 512, 4096, 4 }, { MM, 512, 16384, 4 },
	{ MM, 512, 40000, 4 }, { MM, 512, 49152, 4 }, { MM, 640, 0, 3 },
	{ MM, 640, 1, 3 }, { MM, 640, 4096, 3 }, { MM, 640, 16384, 3 },
	{ MM, 640, 40000, 3 }, { MM, 640, 49152, 3 }, { MM, 768, 0, 2 },
	{ MM, 768, 1, 2 }, { MM, 768, 4096, 2 }, { MM, 768, 16384, 2 },
	{ MM, 768, 40000, 2 }, { MM, 768, 49152, 2 }, { MM, 1024, 0, 2 },
	{ MM, 1024, 1, 2 }, { MM, 1024, 4096, 2 }, { MM, 1024, 16384, 2 },
	{ MM, 1024, 40000, 2 }, { MM, 1024, 49152, 2 }, { DYN, 1, 0, 32 },
	{ DYN, 1, 1, 32 }, { DYN, 1, 4096, 32 }, { DYN, 1, 16384, 13 },
	{ DYN, 1, 40000, 5 }, { DYN, 1, 49152, 4 }, { DYN, 32, 0, 32 },
	{ DYN, 32, 1, 32 }, { DYN, 32, 4096, 32 }, { DYN, 32, 16384, 13 },
	{ DYN, 32, 40000, 5 }, { DYN, 32, 49152, 4 }, { DYN, 33, 0, 32 },
	{ DYN, 33, 1, 32 }, { DYN, 33, 4096, 32 }, { DYN, 33, 16384, 13 },
	{ DYN, 33, 40000, 5 }, { DYN, 33, 49152, 4 }, { DYN, 64, 0, 32 },
	{ DYN, 64, 1, 32 }, { DYN, 64, 4096, 32 }, { DYN, 64, 16384, 13 },
	{ DYN, 64, 40000, 5 }, { DYN, 64, 49152, 4 }, { DYN, 96, 0, 21 },
	{ DYN, 96, 1, 21 }, { DYN, 96, 4096, 21 }, { DYN, 96, 16384, 13 },
	{ DYN, 96, 40000, 5 }, { DYN, 96, 49152, 4 }, { DYN, 128, 0, 16 },
	{ DYN, 128, 1, 16 }, { DYN, 128, 4096, 16 }, { DYN, 128, 16384, 13 },
	{ DYN, 128, 40000, 5 }, { DYN, 128, 49152, 4 }, { DYN, 192, 0, 10 },
	{ DYN, 192, 1, 10 }, { DYN, 192, 4096, 10 }, { DYN, 192, 16384, 10 },
	{ DYN, 192, 40000, 5 }, { DYN, 192, 49152, 4 }, { DYN, 256, 0, 8 },
	{ DYN, 256, 1, 8 }, { DYN, 256, 4096, 8 }, { DYN, 256, 16384, 8 },
	{ DYN, 256, 40000, 5 }, { DYN, 256, 49152, 4 }, { DYN, 384, 0, 5 },
	{ DYN, 384, 1, 5 }, { DYN, 384, 4096, 5 }, { DYN, 384, 16384, 5 },
	{ DYN, 384, 40000, 5 }, { DYN, 384, 49152, 4 }, { DYN, 512, 0, 4 },
	{ DYN, 512, 1, 4 }, { DYN, 512, 4096, 4 }, { DYN, 512, 16384, 4 },
	{ DYN, 512, 40000, 4 }, { DYN, 512, 49152, 4 }, { DYN, 640, 0, 3 },
	{ DYN, 640, 1, 3 }, { DYN, 640, 4096, 3 }, { DYN, 640, 16384, 3 },
	{ DYN, 640, 40000, 3 }, { DYN, 640, 49152, 3 }, { DYN, 768, 0, 2 },
	{ DYN, 768, 1, 2 }, { DYN, 768, 4096, 2 }, { DYN, 768, 16384, 2 },
	{ DYN, 768, 40000, 2 }, { DYN, 768, 49152, 2 }, { DYN, 1024, 0, 2 },
	{ DYN, 1024, 1, 2 }, { DYN, 1024, 4096, 2 }, { DYN, 1024, 16384, 2 },
	{ DYN, 1024, 40000, 2 }, { DYN, 1024, 49152, 2 }, { HEAVY, 1, 0, 16 },
	{ HEAVY, 1, 1, 16 }, { HEAVY, 1, 4096, 16 }, { HEAVY, 1, 16384, 13 },
	{ HEAVY, 1, 40000, 5 }, { HEAVY, 1, 49152, 4 }, { HEAVY, 32, 0, 16 },
	{ HEAVY, 32, 1, 16 }, { HEAVY, 32, 4096, 16 }, { HEAVY, 32, 16384, 13 },
	{ HEAVY, 32, 40000, 5 }, { HEAVY, 32, 49152, 4 }, { HEAVY, 33, 0, 8 },
	{ HEAVY, 33, 1, 8 }, { HEAVY, 33, 4096, 8 }, { HEAVY, 33, 16384, 8 },
	{ HEAVY, 33, 40000, 5 }, { HEAVY, 33, 49152, 4 }, { HEAVY, 64, 0, 8 },
	{ HEAVY, 64, 1, 8 }, { HEAVY, 64, 4096, 8 }, { HEAVY, 64, 16384, 8 },
	{ HEAVY, 64, 40000, 5 }, { HEAVY, 64, 49152, 4 }, { HEAVY, 96, 0, 5 },
	{ HEAVY, 96, 1, 5 }, { HEAVY, 96, 4096, 5 }, { HEAVY, 96, 16384, 5 },
	{ HEAVY, 96, 40000, 5 }, { HEAVY, 96, 49152, 4 }, { HEAVY, 128, 0, 4 },
	{ HEAVY, 128, 1, 4 }, { HEAVY, 128, 4096, 4 }, { HEAVY, 128, 16384, 4 },
	{ HEAVY, 128, 40000, 4 }, { HEAVY, 128, 49152, 4 }, { HEAVY, 192, 0, 2 },
	{ HEAVY, 192, 1, 2 }, { HEAVY, 192, 4096, 2 }, { HEAVY, 192, 16384, 2 },
	{ HEAVY, 192, 40000, 2 }, { HEAVY, 192, 49152, 2 }, { HEAVY, 256, 0, 2 },
	{ HEAVY, 256, 1, 2 }, { HEAVY, 256, 4096, 2 }, { HEAVY, 256, 16384, 2 },
	{ HEAVY, 256, 40000, 2 }, { HEAVY, 256, 49152, 2 }, { HEAVY, 384, 0, 1 },
	{ HEAVY, 384, 1, 1 }, { HEAVY, 384, 4096, 1 }, { HEAVY, 384, 16384, 1 },
	{ HEAVY, 384, 40000, 1 }, { HEAVY, 384, 49152, 1 }, { HEAVY, 512, 0, 1 },
	{ HEAVY, 512, 1, 1 }, { HEAVY, 512, 4096, 1 }, { HEAVY, 512, 16384, 1 },
	{ HEAVY, 512, 40000, 1 }, { HEAVY, 512, 49152, 1 }, { HEAVY, 640, 0, 0 },
	{ HEAVY, 640, 1, 0 }, { HEAVY, 640, 4096, 0 }, { HEAVY, 640, 16384, 0 },
	{ HEAVY, 640, 40000, 0 }, { HEAVY, 640, 49152, 0 }, { HEAVY, 768, 0, 0 },
	{ HEAVY, 768, 1, 0 }, { HEAVY, 768, 4096, 0 }, { HEAVY, 768, 16384, 0 },
	{ HEAVY, 768, 40000, 0 }, { HEAVY, 768, 49152, 0 }, { HEAVY, 1024, 0, 0 },
	{ HEAVY, 1024, 1, 0 }, { HEAVY, 1024, 4096, 0 }, { HEAVY, 1024, 16384, 0 },
	{ HEAVY, 1024, 40000, 0 }, { HEAVY, 1024, 49152, 0 },
};

/*
 * cuOccupancyMaxPotentialBlockSize on the H100: kernel, callback,
 * dynamic shared memory, block size limit, minimum grid, block size.
 */
static const struct pot_case pot_cases[] = {
	{ MM, NULL, 0, 0, 264, 1024 }, { MM, NULL, 8192, 0, 264, 1024 },
	{ MM, NULL, 49152, 0, 264, 1024 }, { MM, NULL, 0, 100, 4224, 64 },
	{ MM, NULL, 8192, 100, 2640, 96 }, { MM, NULL, 49152, 100, 528, 100 },
	{ MM, NULL, 0, 256, 1056, 256 }, { MM, NULL, 8192, 256, 1056, 256 },
	{ MM, NULL, 49152, 256, 528, 256 }, { MM, NULL, 0, 1000, 528, 512 },
	{ MM, NULL, 8192, 1000, 528, 512 }, { MM, NULL, 49152, 1000, 528, 512 },
	{ MM, NULL, 0, 1024, 264, 1024 }, { MM, NULL, 8192, 1024, 264, 1024 },
	{ MM, NULL, 49152, 1024, 264, 1024 }, { MM, NULL, 0, 2048, 264, 1024 },
	{ MM, NULL, 8192, 2048, 264, 1024 }, { MM, NULL, 49152, 2048, 264, 1024 },
	{ MM, cb8, 1 << 30, 0, 264, 1024 }, { MM, cb64, 0, 0, 264, 1024 },
	{ DYN, NULL, 0, 0, 264, 1024 }, { DYN, NULL, 8192, 0, 264, 1024 },
	{ DYN, NULL, 49152, 0, 264, 1024 }, { DYN, NULL, 0, 100, 4224, 64 },
	{ DYN, NULL, 8192, 100, 2772, 96 }, { DYN, NULL, 49152, 100, 528, 100 },
	{ DYN, NULL, 0, 256, 1056, 256 }, { DYN, NULL, 8192, 256, 1056, 256 },
	{ DYN, NULL, 49152, 256, 528, 256 }, { DYN, NULL, 0, 1000, 528, 512 },
	{ DYN, NULL, 8192, 1000, 528, 512 }, { DYN, NULL, 49152, 1000, 528, 512 },
	{ DYN, NULL, 0, 1024, 264, 1024 }, { DYN, NULL, 8192, 1024, 264, 1024 },
	{ DYN, NULL, 49152, 1024, 264, 1024 }, { DYN, NULL, 0, 2048, 264, 1024 },
	{ DYN, NULL, 8192, 2048, 264, 1024 }, { DYN, NULL, 49152, 2048, 264, 1024 },
	{ DYN, cb8, 1 << 30, 0, 264, 1024 }, { DYN, cb64, 0, 0, 264, 1024 },
	{ HEAVY, NULL, 0, 0, 132, 512 }, { HEAVY, NULL, 8192, 0, 132, 512 },
	{ HEAVY, NULL, 49152, 0, 132, 512 }, { HEAVY, NULL, 0, 100, 1056, 64 },
	{ HEAVY, NULL, 8192, 100, 1056, 64 }, { HEAVY, NULL, 49152, 100, 528, 100 },
	{ HEAVY, NULL, 0, 256, 264, 256 }, { HEAVY, NULL, 8192, 256, 264, 256 },
	{ HEAVY, NULL, 49152, 256, 264, 256 }, { HEAVY, NULL, 0, 1000, 132, 512 },
	{ HEAVY, NULL, 8192, 1000, 132, 512 }, { HEAVY, NULL, 49152, 1000, 132, 512 },
	{ HEAVY, NULL, 0, 1024, 132, 512 }, { HEAVY, NULL, 8192, 1024, 132, 512 },
	{ HEAVY, NULL, 49152, 1024, 132, 512 }, { HEAVY, NULL, 0, 2048, 132, 512 },
	{ HEAVY, NULL, 8192, 2048, 132, 512 }, { HEAVY, NULL, 49152, 2048, 132, 512 },
	{ HEAVY, cb8, 1 << 30, 0, 132, 512 }, { HEAVY, cb64, 0, 0, 132, 512 },
};

static void blocks_per_sm_as_on_h100(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(occ_cases) / sizeof(occ_cases[0]); i++) {
		const struct occ_case *c = &occ_cases[i];
		int got = vg_occupancy(&h100, &kernels[c->kernel], c->block, c->dyn);

		if (got != c->blocks)
			TAP_FAIL("kernel %d block %d dyn %zu: %d, expected %d",
				 c->kernel, c->block, c->dyn, got, c->blocks);
	}
}

static void best_block_as_on_h100(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(pot_cases) / sizeof(pot_cases[0]); i++) {
		const struct pot_case *c = &pot_cases[i];
		int block, blocks;

		vg_occupancy_best(&h100, &kernels[c->kernel], c->cb, c->dyn,
				  c->limit, &block, &blocks);
		if (block != c->block || blocks * (int)h100.sm_count != c->grid)
			TAP_FAIL("kernel %d dyn %zu limit %d: grid %d block %d, expected %d %d",
				 c->kernel, c->dyn, c->limit,
				 blocks * (int)h100.sm_count, block, c->grid,
				 c->block);
	}
}

/* Past the opt-in limit or the kernel's threads there is no block. */
static void impossible_blocks(void)
{
	int block = -1, blocks = -1;

	CHECK(vg_occupancy(&h100, &kernels[DYN], 32, 1 << 20) == 0);
	CHECK(vg_occupancy(&h100, &kernels[DYN], 32, 232448) == 1);
	CHECK(vg_occupancy(&h100, &kernels[DYN], 32, 232449) == 0);
	CHECK(vg_occupancy(&h100, &kernels[DYN], 1025, 0) == 0);
	CHECK(vg_occupancy(&h100, &kernels[HEAVY], 513, 0) == 0);
	CHECK(vg_occupancy(&h100, &kernels[DYN], 0, 0) == 0);
	vg_occupancy_best(&h100, &kernels[DYN], NULL, 1 << 20, 0, &block, &blocks);
	CHECK(block == 0 && blocks == 0);
}

/*
 * vgpu's default device (sm_75: 1024 threads, 16 blocks and 64 KiB of
 * shared memory per SM, no reserved shared memory, 256-byte units). Its
 * kernels may use more registers than a real one has; vgpu runs their
 * blocks anyway, so the calculator never answers 0 for a block the
 * launch accepts.
 */
static void vgpu_sm75(void)
{
	static const struct vgpu_info t4 = {
		.sm_count = 3, .cc_major = 7, .cc_minor = 5, .warp_size = 32,
		.max_threads_per_block = 1024, .max_threads_per_sm = 1024,
		.max_blocks_per_sm = 16, .shared_mem_per_block = 49152,
		.shared_mem_per_sm = 65536, .regs_per_block = 65536,
		.regs_per_sm = 65536,
	};
	const struct vg_occ_kernel small = { .regs = 8 }, huge = { .regs = 600 };
	int block, blocks;

	CHECK(vg_occupancy(&t4, &small, 64, 0) == 16);
	CHECK(vg_occupancy(&t4, &small, 256, 0) == 4);
	CHECK(vg_occupancy(&t4, &small, 1024, 0) == 1);
	/* 10000 bytes take 10240 in 256-byte units: 6 blocks in 64 KiB. */
	CHECK(vg_occupancy(&t4, &small, 32, 10000) == 6);
	CHECK(vg_occupancy(&t4, &small, 32, 65536) == 1);
	CHECK(vg_occupancy(&t4, &small, 32, 65537) == 0);
	CHECK(vg_occupancy(&t4, &huge, 1024, 0) == 1);
	CHECK(vg_occupancy(&t4, &huge, 32, 0) == 1);
	vg_occupancy_best(&t4, &small, NULL, 0, 0, &block, &blocks);
	CHECK(block == 1024 && blocks == 1);
	vg_occupancy_best(&t4, &huge, NULL, 0, 0, &block, &blocks);
	CHECK(block == 1024 && blocks == 1);
}

/* A kernel of the API probe, as the H100 described it. */
struct probe_kernel {
	char name[16];
	struct vg_occ_kernel k;
	size_t max_dyn;
};

static struct probe_kernel *probe_kernel(struct probe_kernel *ks, int *n,
					 const char *name)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(ks[i].name, name))
			return &ks[i];
	if (*n == 4)
		return NULL;
	memset(&ks[*n], 0, sizeof(ks[*n]));
	snprintf(ks[*n].name, sizeof(ks[*n].name), "%s", name);
	return &ks[(*n)++];
}

/*
 * cuOccupancyAvailableDynamicSMemPerBlock: every answer the H100 gave in
 * the API probe (tests/e2e/ref/h100_api.log), for three kernels of its
 * PTX, before cuFuncSetAttribute raised one's dynamic shared memory limit
 * and after (the answers after the carveout was set are left out: vgpu
 * has none). Run from the top of the tree.
 */
static void available_smem_as_on_h100(void)
{
	FILE *f = fopen("tests/e2e/ref/h100_api.log", "r");
	struct probe_kernel ks[4], *pk;
	char line[512], name[16];
	int nk = 0, cases = 0, blocks, block, rc, v, raised = 0;
	size_t want, got;

	if (!f) {
		TAP_FAIL("cannot read tests/e2e/ref/h100_api.log");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "kernel %15[a-z]: NUM_REGS %d", name, &v) == 2 &&
		    (pk = probe_kernel(ks, &nk, name)))
			pk->k.regs = (uint32_t)v;
		else if (sscanf(line, "kernel %15[a-z]: SHARED_SIZE_BYTES %d",
				name, &v) == 2 && (pk = probe_kernel(ks, &nk, name)))
			pk->k.shared_bytes = (uint32_t)v;
		else if (sscanf(line, "kernel %15[a-z]: MAX_THREADS_PER_BLOCK %d",
				name, &v) == 2 && (pk = probe_kernel(ks, &nk, name)))
			pk->k.max_threads = (uint32_t)v;
		else if (sscanf(line, "kernel %15[a-z]: MAX_DYNAMIC_SHARED_SIZE_BYTES %d",
				name, &v) == 2 && (pk = probe_kernel(ks, &nk, name)))
			pk->max_dyn = (size_t)v;
		else if (strstr(line, "cuFuncSetAttribute(plain,MAX_DYN,100000)"))
			raised = 1;
		else if (strstr(line, "cuFuncSetAttribute(plain,CARVEOUT"))
			raised = 2;
		else if ((sscanf(line, "cuOccupancyAvailableDynamicSMemPerBlock(&v,%15[a-z],blocks=%d,block=%d) -> %d v %zu",
				 name, &blocks, &block, &rc, &want) == 5 ||
			  (raised == 1 && strcpy(name, "plain") &&
			   sscanf(line, "  after: cuOccupancyAvailableDynamicSMemPerBlock(&v,plain,%d,%d) -> %d v %zu",
				  &blocks, &block, &rc, &want) == 4)) &&
			 (pk = probe_kernel(ks, &nk, name))) {
			bool ok;

			got = 0;
			ok = vg_occupancy_smem(&h100, &pk->k,
					       raised == 1 ? 100000 : pk->max_dyn,
					       blocks, block, &got);

			cases++;
			if (ok != (rc == 0) || (ok && got != want))
				TAP_FAIL("%s, %d blocks of %d: got %d %zu, expected %d %zu",
					 name, blocks, block, ok ? 0 : 1, got, rc,
					 want);
		}
	}
	fclose(f);
	CHECK(nk == 3 && cases > 500);
}

static const struct tap_test tests[] = {
	TAP_TEST(blocks_per_sm_as_on_h100),
	TAP_TEST(best_block_as_on_h100),
	TAP_TEST(impossible_blocks),
	TAP_TEST(vgpu_sm75),
	TAP_TEST(available_smem_as_on_h100),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
