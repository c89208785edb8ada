// SPDX-License-Identifier: MIT
/*
 * The runtime's device link of an -rdc=true program (libvgpu/rt/rdc.c),
 * over a driver that records what it is asked: every object's fatbin goes
 * to cuLinkAddData whole and in order, an object without usable PTX is
 * left out, a list with nothing usable answers
 * cudaErrorNoKernelImageForDevice, a list entry that is no fatbin
 * cudaErrorInvalidKernelImage, and the link state is always destroyed.
 */
#include <stdint.h>

#include "tap.h"
#include "rt.h"
#include "../libvgpu/fatbin.h"

#define MAX_ADDED 8

/* The fake driver's record, and the answer it gives each input. */
static struct {
	int created, destroyed, completed, loaded;
	int added;
	const void *data[MAX_ADDED];
	size_t size[MAX_ADDED];
	const void *no_ptx;		/* this input answers NO_BINARY */
} drv;

#define FAKE_LINK ((CUlinkState)0x1234)
#define FAKE_MODULE ((CUmodule)0x5678)
static char fake_image[] = "image";

CUresult cuLinkCreate(unsigned int n, CUjit_option *opts, void **values,
		      CUlinkState *state)
{
	(void)n, (void)opts, (void)values;
	drv.created++;
	*state = FAKE_LINK;
	return CUDA_SUCCESS;
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data,
		       size_t size, const char *name, unsigned int n,
		       CUjit_option *opts, void **values)
{
	(void)name, (void)n, (void)opts, (void)values;
	if (state != FAKE_LINK || type != CU_JIT_INPUT_FATBINARY)
		return CUDA_ERROR_INVALID_VALUE;
	if (data == drv.no_ptx)
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	if (drv.added < MAX_ADDED) {
		drv.data[drv.added] = data;
		drv.size[drv.added] = size;
	}
	drv.added++;
	return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState state, void **image, size_t *size)
{
	if (state != FAKE_LINK)
		return CUDA_ERROR_INVALID_HANDLE;
	drv.completed++;
	*image = fake_image;
	*size = sizeof(fake_image);
	return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state)
{
	if (state != FAKE_LINK)
		return CUDA_ERROR_INVALID_HANDLE;
	drv.destroyed++;
	return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *mod, const void *image)
{
	if (image != fake_image)
		return CUDA_ERROR_INVALID_IMAGE;
	drv.loaded++;
	*mod = FAKE_MODULE;
	return CUDA_SUCCESS;
}

/* The runtime's mapping, for the codes rdc.c can meet. */
cudaError_t rt_error(CUresult r)
{
	switch (r) {
	case CUDA_SUCCESS:
		return cudaSuccess;
	case CUDA_ERROR_NO_BINARY_FOR_GPU:
		return cudaErrorNoKernelImageForDevice;
	case CUDA_ERROR_INVALID_IMAGE:
		return cudaErrorInvalidKernelImage;
	default:
		return cudaErrorUnknown;
	}
}

/* A container header: magic, version 1, @hdr bytes, @payload bytes. */
static void fatbin_header(uint64_t *fb, uint16_t hdr, uint64_t payload)
{
	uint32_t magic = VG_FATBIN_MAGIC;
	uint16_t version = 1;
	unsigned char *p = (unsigned char *)fb;

	memcpy(p, &magic, 4);
	memcpy(p + 4, &version, 2);
	memcpy(p + 6, &hdr, 2);
	memcpy(p + 8, &payload, 8);
}

static uint64_t obj_a[8], obj_b[8], devrt[8];

static void reset(void)
{
	memset(&drv, 0, sizeof(drv));
	fatbin_header(obj_a, 16, 40);
	fatbin_header(obj_b, 24, 32);
	fatbin_header(devrt, 16, 48);
}

static void links_every_object(void)
{
	const void *list[] = { obj_a, obj_b, devrt, NULL };
	CUmodule mod = NULL;

	reset();
	drv.no_ptx = devrt;
	CHECK(rt_rdc_load(list, &mod) == cudaSuccess);
	CHECK(mod == FAKE_MODULE);
	CHECK(drv.added == 2);
	CHECK(drv.data[0] == obj_a && drv.size[0] == 16 + 40);
	CHECK(drv.data[1] == obj_b && drv.size[1] == 24 + 32);
	CHECK(drv.completed == 1 && drv.loaded == 1);
	CHECK(drv.created == 1 && drv.destroyed == 1);
}

static void nothing_usable(void)
{
	const void *list[] = { devrt, NULL };
	CUmodule mod = NULL;

	reset();
	drv.no_ptx = devrt;
	CHECK(rt_rdc_load(list, &mod) == cudaErrorNoKernelImageForDevice);
	CHECK(mod == NULL);
	CHECK(drv.completed == 0 && drv.loaded == 0);
	CHECK(drv.destroyed == 1);
}

static void not_a_fatbin(void)
{
	uint64_t junk[4] = { 0 };
	const void *list[] = { obj_a, junk, obj_b, NULL };
	CUmodule mod = NULL;

	reset();
	CHECK(rt_rdc_load(list, &mod) == cudaErrorInvalidKernelImage);
	CHECK(mod == NULL);
	CHECK(drv.added == 1 && drv.completed == 0 && drv.loaded == 0);
	CHECK(drv.destroyed == 1);
}

static const struct tap_test tests[] = {
	TAP_TEST(links_every_object),
	TAP_TEST(nothing_usable),
	TAP_TEST(not_a_fatbin),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
