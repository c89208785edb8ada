// SPDX-License-Identifier: MIT
/*
 * Programs built with separate compilation (nvcc -rdc=true): their link
 * stub registers one wrapper of version 2, whose own fatbin is nvlink's
 * output and holds machine code only, and whose extra field lists every
 * object's fatbin as compiled, before the device link. vgpu runs PTX, so
 * it redoes that device link itself: the PTX of each object through the
 * driver's cuLink* into one module, which then answers for the kernels
 * and variables of every object.
 */
#include <stdint.h>
#include <string.h>

#include "../fatbin.h"
#include "rt.h"

/* The container's bytes: its header's size plus its payload's. */
static size_t rt_rdc_fatbin_size(const unsigned char *fb)
{
	uint16_t hdr;
	uint64_t payload;

	memcpy(&hdr, fb + 6, sizeof(hdr));
	memcpy(&payload, fb + 8, sizeof(payload));
	return hdr + payload;
}

cudaError_t rt_rdc_load(const void *const *fatbins, CUmodule *mod)
{
	CUlinkState link;
	void *image;
	size_t size;
	CUresult r;
	int added = 0;

	r = cuLinkCreate(0, NULL, NULL, &link);
	if (r)
		return rt_error(r);
	for (; *fatbins; fatbins++) {
		const unsigned char *fb = *fatbins;
		uint32_t magic;

		memcpy(&magic, fb, sizeof(magic));
		if (magic != VG_FATBIN_MAGIC) {
			r = CUDA_ERROR_INVALID_IMAGE;
			goto out;
		}
		r = cuLinkAddData(link, CU_JIT_INPUT_FATBINARY, (void *)fb,
				  rt_rdc_fatbin_size(fb), "rdc", 0, NULL,
				  NULL);
		/*
		 * nvlink adds the device runtime library's object, which
		 * ships as machine code only; an object the program needs
		 * and lacks PTX for shows as an undefined reference below.
		 */
		if (r == CUDA_ERROR_NO_BINARY_FOR_GPU)
			continue;
		if (r)
			goto out;
		added++;
	}
	if (!added) {
		r = CUDA_ERROR_NO_BINARY_FOR_GPU;
		goto out;
	}
	r = cuLinkComplete(link, &image, &size);
	if (!r)
		r = cuModuleLoadData(mod, image);
out:
	cuLinkDestroy(link);
	return rt_error(r);
}
