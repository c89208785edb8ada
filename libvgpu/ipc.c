// SPDX-License-Identifier: MIT
/*
 * IPC of device memory: cuIpcGetMemHandle, cuIpcOpenMemHandle and
 * cuIpcCloseMemHandle over the module's broker (IPC_EXPORT, IPC_OPEN,
 * IPC_CLOSE), which checks who opens what and keeps the memory while a
 * mapping of it lives.
 *
 * A CUipcMemHandle carries the module's token, the exporting process and
 * the device. A process opens a handle once: opening it again gives the
 * same address and counts, as on NVIDIA's driver, and the last close
 * unmaps it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vg.h"

/* cuda.h would rename the first ABI's definition below. */
#undef cuIpcOpenMemHandle

#define VG_IPC_MAGIC 0x49504776u	/* "vGPI" */

/* What a CUipcMemHandle holds (64 bytes, the rest zero). */
struct vg_ipc_handle {
	uint32_t magic;
	uint32_t dev;		/* ordinal of the exporter's device */
	uint64_t pid;		/* the exporting process */
	uint64_t token[2];	/* the module's */
};

_Static_assert(sizeof(struct vg_ipc_handle) <= sizeof(CUipcMemHandle),
	       "an IPC handle's contents fit in CUipcMemHandle");

/* A handle opened in this process, until its last close. */
struct vg_ipc_open {
	struct vg_ipc_open *next;	/* vg_ipc_opens */
	struct CUctx_st *ctx;
	uint64_t token[2];
	CUdeviceptr va;
	unsigned int refs;
};

/* Under vg_lock. */
static struct vg_ipc_open *vg_ipc_opens;

CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr dptr)
{
	struct vgpu_ipc_export x = { .va = dptr };
	struct vg_ipc_handle h = { .magic = VG_IPC_MAGIC };
	struct CUctx_st *ctx;
	CUmemoryPool pool;
	uint64_t start, len;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	/* Pools' memory is shared through pool export, not this. */
	if (vg_pool_lookup(dptr, &start, &len, &pool))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	ctx = vg_ctx_by_address(dptr);
	if (!ctx || ctx->fd < 0)
		r = CUDA_ERROR_INVALID_VALUE;
	else if (ioctl(ctx->fd, VGPU_IOCTL_IPC_EXPORT, &x))
		r = errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
			CUDA_ERROR_INVALID_VALUE;
	else
		h.dev = (uint32_t)ctx->dev;
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	h.pid = (uint64_t)getpid();
	h.token[0] = x.token[0];
	h.token[1] = x.token[1];
	memset(handle, 0, sizeof(*handle));
	memcpy(handle, &h, sizeof(h));
	return CUDA_SUCCESS;
}

static CUresult vg_ipc_open_result(int err)
{
	switch (err) {
	case ESTALE:	/* its allocation is freed */
	case EACCES:	/* another user's */
		return CUDA_ERROR_NOT_PERMITTED;
	case EXDEV:
		return CUDA_ERROR_INVALID_DEVICE;
	case EINVAL:	/* this context's own */
		return CUDA_ERROR_INVALID_CONTEXT;
	case ENOMEM:
	case ENOSPC:
		return CUDA_ERROR_OUT_OF_MEMORY;
	default:	/* ENOENT: it names nothing */
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle,
			       unsigned int flags)
{
	struct vgpu_ipc_open o = { 0 };
	struct vg_ipc_handle h;
	struct vg_ipc_open *e;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	memcpy(&h, &handle, sizeof(h));
	/* NVIDIA's driver wants exactly the one flag there is. */
	if (!pdptr || flags != CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS ||
	    h.magic != VG_IPC_MAGIC)
		return CUDA_ERROR_INVALID_VALUE;
	/* The exporting process cannot open its own handle. */
	if (h.pid == (uint64_t)getpid())
		return CUDA_ERROR_INVALID_CONTEXT;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	for (e = vg_ipc_opens; !r && e; e = e->next) {
		if (e->ctx == ctx && e->token[0] == h.token[0] &&
		    e->token[1] == h.token[1]) {
			e->refs++;
			*pdptr = e->va;
			pthread_mutex_unlock(&vg_lock);
			return CUDA_SUCCESS;
		}
	}
	e = r ? NULL : calloc(1, sizeof(*e));
	if (!r && !e)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	o.token[0] = h.token[0];
	o.token[1] = h.token[1];
	if (!r && ioctl(ctx->fd, VGPU_IOCTL_IPC_OPEN, &o))
		r = vg_ipc_open_result(errno);
	if (!r) {
		e->ctx = ctx;
		e->token[0] = h.token[0];
		e->token[1] = h.token[1];
		e->va = o.va;
		e->refs = 1;
		e->next = vg_ipc_opens;
		vg_ipc_opens = e;
		*pdptr = o.va;
	} else {
		free(e);
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* The first ABI's name of the same call. */
CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle,
			    unsigned int flags)
{
	return cuIpcOpenMemHandle_v2(pdptr, handle, flags);
}

CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
{
	struct vgpu_ipc_close c = { .va = dptr };
	struct vg_ipc_open **pp, *e = NULL;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_ipc_opens; *pp; pp = &(*pp)->next) {
		if ((*pp)->va == dptr) {
			e = *pp;
			break;
		}
	}
	if (!e || --e->refs) {
		pthread_mutex_unlock(&vg_lock);
		return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	}
	*pp = e->next;
	ctx = e->ctx;
	free(e);
	/* As cuMemFree: work already queued finishes before the memory goes. */
	vg_ctx_begin(ctx);
	vg_ctx_idle(ctx);
	if (ioctl(ctx->fd, VGPU_IOCTL_IPC_CLOSE, &c))
		r = CUDA_ERROR_INVALID_VALUE;
	vg_ctx_end(ctx);
	return r;
}

/* A context closes (vg_lock held): its opened handles go with its file. */
void vg_ipc_ctx_close(struct CUctx_st *ctx)
{
	struct vg_ipc_open **pp = &vg_ipc_opens, *e;

	while (*pp) {
		e = *pp;
		if (e->ctx == ctx) {
			*pp = e->next;
			free(e);
		} else {
			pp = &e->next;
		}
	}
}
