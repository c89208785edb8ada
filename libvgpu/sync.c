// SPDX-License-Identifier: MIT
/*
 * The sync area: pinned host memory of a context that the engines write
 * with SEM_RELEASE and read with SEM_ACQUIRE. It holds, in 8-byte words,
 * the fence word of each channel (channel.c), the host-function token of
 * each channel (callback.c), and from VG_SYNC_SLOT0 on the 16-byte event
 * slots: a record's value, then the engine's timestamp (event.c). It is
 * mapped and registered on first use and lives as long as the context's
 * file. Used with the context's lock held.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "vg.h"

#define VG_SYNC_TOKENS 64	/* word index of the first token */
#define VG_SYNC_SLOTS ((VG_SYNC_SIZE - VG_SYNC_SLOT0 * 8) / 16)
#define VG_SYNC_TRIES 16	/* mappings tried before giving up */

_Static_assert(VG_MAX_CHANS <= VG_SYNC_TOKENS &&
	       VG_SYNC_TOKENS + VG_MAX_CHANS <= VG_SYNC_SLOT0,
	       "the words of the sync area overlap");

/*
 * A fresh mapping of the sync area's size, registered with the context:
 * the mapping, or NULL. A context shared through fork() may hold a
 * child's registration of its own sync area at an address this process
 * has free (the child is gone, its registration lives as long as the
 * file); that answers EEXIST, and the area is mapped again elsewhere,
 * the refused mappings kept until then so that mmap moves on.
 */
static void *vg_sync_map(int fd)
{
	struct vgpu_host_register hr = { .size = VG_SYNC_SIZE };
	void *refused[VG_SYNC_TRIES], *p = NULL;
	unsigned int n = 0, i;

	while (n < VG_SYNC_TRIES) {
		p = mmap(NULL, VG_SYNC_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			p = NULL;
			break;
		}
		hr.addr = (uintptr_t)p;
		if (!ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &hr))
			break;
		refused[n++] = p;
		p = NULL;
		if (errno != EEXIST)
			break;
	}
	for (i = 0; i < n; i++)
		munmap(refused[i], VG_SYNC_SIZE);
	return p;
}

CUresult vg_sync_get(struct CUctx_st *ctx)
{
	uint32_t i;
	void *p;

	if (ctx->sync)
		return CUDA_SUCCESS;
	ctx->slot_free = malloc(VG_SYNC_SLOTS * sizeof(*ctx->slot_free));
	if (!ctx->slot_free)
		return CUDA_ERROR_OUT_OF_MEMORY;
	p = vg_sync_map(ctx->fd);
	if (!p)
		goto err;
	/* Lowest slots on top, so a few events stay on one page. */
	for (i = 0; i < VG_SYNC_SLOTS; i++)
		ctx->slot_free[i] = VG_SYNC_SLOTS - 1 - i;
	ctx->nslot_free = VG_SYNC_SLOTS;
	ctx->sync = p;
	return CUDA_SUCCESS;
err:
	free(ctx->slot_free);
	ctx->slot_free = NULL;
	return CUDA_ERROR_OUT_OF_MEMORY;
}

/* After the file is closed (the registration went with it). */
void vg_sync_free(struct CUctx_st *ctx)
{
	if (ctx->sync)
		munmap(ctx->sync, VG_SYNC_SIZE);
	free(ctx->slot_free);
	ctx->sync = NULL;
	ctx->slot_free = NULL;
	ctx->nslot_free = 0;
}

volatile uint64_t *vg_sync_fence(struct CUctx_st *ctx, unsigned int chan)
{
	return (volatile uint64_t *)ctx->sync + chan;
}

volatile uint64_t *vg_sync_token(struct CUctx_st *ctx, unsigned int chan)
{
	return (volatile uint64_t *)ctx->sync + VG_SYNC_TOKENS + chan;
}

volatile uint64_t *vg_sync_slot(struct CUctx_st *ctx, uint32_t slot)
{
	return (volatile uint64_t *)ctx->sync + VG_SYNC_SLOT0 + 2 * (size_t)slot;
}

CUresult vg_slot_alloc(struct CUctx_st *ctx, uint32_t *slot)
{
	CUresult r = vg_sync_get(ctx);

	if (r)
		return r;
	if (!ctx->nslot_free)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*slot = ctx->slot_free[--ctx->nslot_free];
	vg_sync_slot(ctx, *slot)[0] = 0;
	vg_sync_slot(ctx, *slot)[1] = 0;
	return CUDA_SUCCESS;
}

void vg_slot_free(struct CUctx_st *ctx, uint32_t slot)
{
	if (ctx->sync)
		ctx->slot_free[ctx->nslot_free++] = slot;
}
