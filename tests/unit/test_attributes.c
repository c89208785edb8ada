// SPDX-License-Identifier: MIT
/*
 * cuDeviceGetAttribute's table: every CUDA 13 attribute answers, values
 * come from the device's properties, out-of-range attributes are refused.
 */
#include "tap.h"
#include "vg.h"

static struct vgpu_info fake(unsigned int major, unsigned int minor)
{
	struct vgpu_info i = {
		.abi_version = VGPU_ABI_VERSION, .mem_size = 1ull << 30,
		.index = 3, .sm_count = 7, .cc_major = major, .cc_minor = minor,
		.warp_size = 32, .max_threads_per_block = 1024,
		.max_block_dim = { 1024, 1024, 64 },
		.max_grid_dim = { 0x7fffffff, 65535, 65535 },
		.max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
		.shared_mem_per_block = 49152, .shared_mem_per_sm = 233472,
		.regs_per_block = 65536, .regs_per_sm = 65536,
		.const_mem_size = 65536, .clock_khz = 1500000, .copy_engines = 2,
	};
	return i;
}

static int attr(const struct vgpu_info *i, int a)
{
	int v = -12345;

	CHECK_RES(CUDA_SUCCESS, vg_attribute(i, a, &v));
	return v;
}

static void every_attribute_answers(void)
{
	struct vgpu_info i = fake(9, 0);
	int a, v;

	for (a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++)
		CHECK_RES(CUDA_SUCCESS, vg_attribute(&i, a, &v));
	CHECK(CU_DEVICE_ATTRIBUTE_MAX == 148);
}

static void out_of_range_refused(void)
{
	struct vgpu_info i = fake(9, 0);
	int v = 77;

	CHECK_RES(CUDA_ERROR_INVALID_VALUE, vg_attribute(&i, 0, &v));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, vg_attribute(&i, -1, &v));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, vg_attribute(&i, CU_DEVICE_ATTRIBUTE_MAX, &v));
	CHECK(v == 77);
}

static void values_follow_properties(void)
{
	struct vgpu_info i = fake(9, 0);

	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) == 7);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) == 9);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) == 0);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z) == 64);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y) == 65535);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) == 1500000);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT) == 2);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID) == 3);
	/* The H100's figures for compute capability 9.0. */
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) == 232448);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK) == 1024);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) == 233472);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) == 2048);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR) == 32);
}

static void turing_has_no_reserved_shared_memory(void)
{
	struct vgpu_info i = fake(7, 5);

	i.shared_mem_per_sm = 65536;
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK) == 0);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) == 65536);
}

static void unified_addressing(void)
{
	struct vgpu_info i = fake(7, 5);

	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) == 1);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) == 1);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED) == 1);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED) == 1);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM) == 1);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH) == 1);
}

/* Managed memory: shared pages, reachable from both sides at any time. */
static void managed_memory(void)
{
	struct vgpu_info i = fake(7, 5);

	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) == 1);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS) == 1);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST) == 1);
}

static void features_not_offered_read_zero(void)
{
	struct vgpu_info i = fake(9, 0);

	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) == 0);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES) == 0);
}

/* The texture unit's limits are an H100's (tests/e2e/ref/h100_texattr.log). */
static void texture_limits_are_an_h100s(void)
{
	struct vgpu_info i = fake(9, 0);

	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH) == 131072);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT) == 65536);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE) == 32768);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS) == 2046);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH) == 32768);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT) == 32);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH) == 268435456);
	CHECK(attr(&i, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH) == 2097120);
}

static const struct tap_test tests[] = {
	TAP_TEST(every_attribute_answers),
	TAP_TEST(out_of_range_refused),
	TAP_TEST(values_follow_properties),
	TAP_TEST(turing_has_no_reserved_shared_memory),
	TAP_TEST(unified_addressing),
	TAP_TEST(managed_memory),
	TAP_TEST(texture_limits_are_an_h100s),
	TAP_TEST(features_not_offered_read_zero),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
