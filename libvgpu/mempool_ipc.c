// SPDX-License-Identifier: MIT
/*
 * Memory pools between processes: cuMemPoolExportToShareableHandle and
 * cuMemPoolImportFromShareableHandle for a pool made with
 * CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, cuMemPoolExportPointer and
 * cuMemPoolImportPointer for its allocations, and cuMemFree of an
 * imported pointer.
 *
 * The descriptor names the pool: a small sealed memory file holding the
 * exporting process, its pool and the device. The memory itself travels
 * through the module's IPC broker (ipc.c's, IPC_EXPORT and IPC_OPEN):
 * each pool allocation is an allocation of the module, and its exported
 * data carries that allocation's token, so whoever opens it is checked
 * by the module as cuIpcOpenMemHandle's callers are. An imported pointer
 * maps the allocation until cuMemFree; importing it again gives the same
 * address, as on an H100 (tests/e2e/ref/h100_pool_ipc.log).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vg.h"

#define VG_POOL_FILE_MAGIC 0x504d4776u	/* "vGMP" */
#define VG_POOL_PTR_MAGIC 0x50504776u	/* "vGPP" */

/* What the pool's descriptor holds. */
struct vg_pool_file {
	uint32_t magic;
	uint32_t dev;
	uint64_t pid;
	uint64_t serial;
};

/* What CUmemPoolPtrExportData holds (64 bytes, the rest zero). */
struct vg_pool_ptr {
	uint32_t magic;
	uint32_t dev;
	uint64_t pid;
	uint64_t serial;
	uint64_t token[2];
};

_Static_assert(sizeof(struct vg_pool_ptr) <= sizeof(CUmemPoolPtrExportData),
	       "a pointer's export data fits in CUmemPoolPtrExportData");

/* A pointer imported into this process, until cuMemFree. */
struct vg_pool_import {
	struct vg_pool_import *next;
	CUmemoryPool pool;
	struct CUctx_st *ctx;
	uint64_t token[2];
	CUdeviceptr va;
	uint64_t size;
};

static pthread_mutex_t vg_import_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vg_pool_import *vg_imports;

CUresult cuMemPoolExportToShareableHandle(void *handle, CUmemoryPool pool,
					  CUmemAllocationHandleType type,
					  unsigned long long flags)
{
	struct vg_pool_file f = { .magic = VG_POOL_FILE_MAGIC };
	CUresult r = vg_check_init();
	int dev, fd;

	if (r)
		return r;
	if (!handle || flags || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_pool_export_info(pool, &dev, &f.serial);
	if (r)
		return r;
	f.dev = (uint32_t)dev;
	f.pid = (uint64_t)getpid();
	/* Not close-on-exec, as NVIDIA's: it is made to be handed on. */
	fd = memfd_create("vgpu-mempool", MFD_ALLOW_SEALING);
	if (fd < 0)
		return CUDA_ERROR_OPERATING_SYSTEM;
	if (pwrite(fd, &f, sizeof(f), 0) != sizeof(f) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW |
		  F_SEAL_SHRINK | F_SEAL_SEAL)) {
		close(fd);
		return CUDA_ERROR_OPERATING_SYSTEM;
	}
	*(int *)handle = fd;
	return CUDA_SUCCESS;
}

CUresult cuMemPoolImportFromShareableHandle(CUmemoryPool *pool, void *handle,
					    CUmemAllocationHandleType type,
					    unsigned long long flags)
{
	struct vg_pool_file f;
	int fd = (int)(uintptr_t)handle;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pool || flags || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	if (pread(fd, &f, sizeof(f), 0) != sizeof(f) ||
	    f.magic != VG_POOL_FILE_MAGIC ||
	    f.dev >= (uint32_t)vg_device_count)
		return CUDA_ERROR_INVALID_VALUE;
	*pool = vg_pool_imported((int)f.dev, f.pid, f.serial);
	return *pool ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *data, CUdeviceptr ptr)
{
	struct vg_pool_ptr d = { .magic = VG_POOL_PTR_MAGIC };
	struct vgpu_ipc_export x = { .va = ptr };
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();
	int dev;

	if (r)
		return r;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_pool_ptr_info(ptr, &dev, &d.serial, &ctx);
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	if (ctx->fd < 0 || ioctl(ctx->fd, VGPU_IOCTL_IPC_EXPORT, &x))
		r = ctx->fd >= 0 && errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
			CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	d.dev = (uint32_t)dev;
	d.pid = (uint64_t)getpid();
	d.token[0] = x.token[0];
	d.token[1] = x.token[1];
	memset(data, 0, sizeof(*data));
	memcpy(data, &d, sizeof(d));
	return CUDA_SUCCESS;
}

CUresult cuMemPoolImportPointer(CUdeviceptr *ptr, CUmemoryPool pool,
				CUmemPoolPtrExportData *data)
{
	struct vgpu_ipc_open o = { 0 };
	struct vg_pool_import *im;
	struct vg_pool_ptr d;
	struct CUctx_st *ctx;
	uint64_t pid, serial;
	int dev;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!ptr || !data)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(&d, data, sizeof(d));
	/* Only an imported pool takes pointers, and only its own. */
	if (!vg_pool_source(pool, &dev, &pid, &serial) ||
	    d.magic != VG_POOL_PTR_MAGIC || d.pid != pid ||
	    d.serial != serial || d.dev != (uint32_t)dev)
		return CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (!r && ctx->dev != dev)
		r = CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&vg_import_lock);
	for (im = vg_imports; !r && im; im = im->next) {
		if (im->ctx == ctx && im->token[0] == d.token[0] &&
		    im->token[1] == d.token[1]) {
			*ptr = im->va;
			goto out;
		}
	}
	im = r ? NULL : calloc(1, sizeof(*im));
	if (!r && !im)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	o.token[0] = d.token[0];
	o.token[1] = d.token[1];
	if (!r && ioctl(ctx->fd, VGPU_IOCTL_IPC_OPEN, &o))
		r = errno == ENOMEM || errno == ENOSPC ?
			CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
	if (r) {
		free(im);
		goto out;
	}
	im->pool = pool;
	im->ctx = ctx;
	im->token[0] = d.token[0];
	im->token[1] = d.token[1];
	im->va = o.va;
	im->size = o.size;
	im->next = vg_imports;
	vg_imports = im;
	*ptr = o.va;
out:
	pthread_mutex_unlock(&vg_import_lock);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* An imported pointer holding @ptr: its start, size and pool. */
bool vg_pool_import_lookup(CUdeviceptr ptr, uint64_t *start, uint64_t *size,
			   CUmemoryPool *pool)
{
	struct vg_pool_import *im;
	bool found = false;

	pthread_mutex_lock(&vg_import_lock);
	for (im = vg_imports; im; im = im->next) {
		if (ptr >= im->va && ptr - im->va < im->size) {
			*start = im->va;
			*size = im->size;
			*pool = im->pool;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&vg_import_lock);
	return found;
}

/*
 * cuMemFree of @va with its context idle (vg_lock held): 1 when it was an
 * imported pointer, unmapped now; 0 when it is none.
 */
int vg_pool_import_free(CUdeviceptr va)
{
	struct vgpu_ipc_close c = { .va = va };
	struct vg_pool_import **pp, *im = NULL;

	pthread_mutex_lock(&vg_import_lock);
	for (pp = &vg_imports; *pp; pp = &(*pp)->next) {
		if ((*pp)->va == va) {
			im = *pp;
			*pp = im->next;
			break;
		}
	}
	pthread_mutex_unlock(&vg_import_lock);
	if (!im)
		return 0;
	if (im->ctx->fd >= 0)
		ioctl(im->ctx->fd, VGPU_IOCTL_IPC_CLOSE, &c);
	free(im);
	return 1;
}

/* A context closes: its imported pointers go with its file. */
void vg_pool_imports_ctx_close(struct CUctx_st *ctx)
{
	struct vg_pool_import **pp = &vg_imports, *im;

	pthread_mutex_lock(&vg_import_lock);
	while (*pp) {
		im = *pp;
		if (im->ctx == ctx) {
			*pp = im->next;
			free(im);
		} else {
			pp = &im->next;
		}
	}
	pthread_mutex_unlock(&vg_import_lock);
}
