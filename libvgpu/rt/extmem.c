// SPDX-License-Identifier: MIT
/*
 * External memory through the runtime: the calls forward to the driver's
 * (libvgpu/extmem.c). The runtime's descriptors are the driver's, field
 * for field, and its handle types have the driver's numbers. The driver
 * maps buffers from offsets on a 64 KiB grid only; the runtime, as
 * NVIDIA's does, takes any offset: it maps from the grid point below and
 * hands out the address of the offset, which cudaFree takes back.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* The driver's grid for buffer offsets. */
#define RT_EXT_GRID 65536

/* A buffer handed out off the grid: what the driver mapped, and where. */
struct rt_ext_buf {
	struct rt_ext_buf *next;
	CUdeviceptr given;	/* what cudaExternalMemoryGetMappedBuffer gave */
	CUdeviceptr mapped;	/* what the driver mapped */
};

static pthread_mutex_t rt_ext_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_ext_buf *rt_ext_bufs;	/* under rt_ext_lock */

_Static_assert(sizeof(struct cudaExternalMemoryHandleDesc) ==
	       sizeof(CUDA_EXTERNAL_MEMORY_HANDLE_DESC),
	       "the runtime's and the driver's memory handle descriptors are alike");
_Static_assert(offsetof(struct cudaExternalMemoryHandleDesc, size) ==
	       offsetof(CUDA_EXTERNAL_MEMORY_HANDLE_DESC, size),
	       "the size lies where the driver looks for it");
_Static_assert(sizeof(struct cudaExternalMemoryBufferDesc) ==
	       sizeof(CUDA_EXTERNAL_MEMORY_BUFFER_DESC),
	       "the runtime's and the driver's buffer descriptors are alike");
_Static_assert((int)cudaExternalMemoryHandleTypeOpaqueFd ==
	       (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD,
	       "the handle types have one numbering");

cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *ext_mem_out,
				     const struct cudaExternalMemoryHandleDesc *desc)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuImportExternalMemory((CUexternalMemory *)ext_mem_out,
			(const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *)desc));
}

cudaError_t cudaExternalMemoryGetMappedBuffer(void **dev_ptr,
					      cudaExternalMemory_t ext_mem,
					      const struct cudaExternalMemoryBufferDesc *desc)
{
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC d;
	struct rt_ext_buf *b = NULL;
	unsigned long long off;
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dev_ptr || !desc)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	memcpy(&d, desc, sizeof(d));
	off = d.offset % RT_EXT_GRID;
	if (off) {
		/* The driver checks the widened range against the import. */
		if (!d.size || d.size > ~0ULL - off)
			return rt_ret(cudaErrorInvalidValue);
		b = malloc(sizeof(*b));
		if (!b)
			return rt_ret(cudaErrorMemoryAllocation);
		d.offset -= off;
		d.size += off;
	}
	e = rt_ret_cu(cuExternalMemoryGetMappedBuffer(&p, (CUexternalMemory)ext_mem,
						      &d));
	if (e == cudaSuccess && b) {
		b->mapped = p;
		b->given = p + off;
		pthread_mutex_lock(&rt_ext_lock);
		b->next = rt_ext_bufs;
		rt_ext_bufs = b;
		pthread_mutex_unlock(&rt_ext_lock);
		p += off;
	} else {
		free(b);
	}
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

CUdeviceptr rt_ext_base(CUdeviceptr p)
{
	struct rt_ext_buf **pp, *b;

	pthread_mutex_lock(&rt_ext_lock);
	for (pp = &rt_ext_bufs; (b = *pp); pp = &b->next) {
		if (b->given == p) {
			*pp = b->next;
			p = b->mapped;
			free(b);
			break;
		}
	}
	pthread_mutex_unlock(&rt_ext_lock);
	return p;
}

cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t ext_mem)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDestroyExternalMemory((CUexternalMemory)ext_mem));
}
