// SPDX-License-Identifier: MIT
/*
 * The device heap that kernels' malloc and free use. As on NVIDIA's
 * driver, a context gets it at the first launch of a kernel that may
 * call them, of the size
 * CU_LIMIT_MALLOC_HEAP_SIZE says then; from that launch on the limit is
 * fixed (ctx_config.c). The module allocates it and keeps it out of
 * user space's allocations: the copy calls and cuMemGetAddressRange do
 * not see its blocks, the memset calls do, as on an H100
 * (tests/e2e/ref/h100_devmalloc.log).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "vg.h"

/*
 * Can kernel @kernel of @img call malloc or free? Its code is what its
 * entry reaches (the JIT inlines every call, so a kernel's code is its
 * own). Without the memory to look, it is taken to.
 */
bool vg_heap_used(const struct vg_jit_image *img, uint32_t kernel)
{
	uint32_t n = 0, pc, *todo = malloc(img->ninsns * sizeof(*todo));
	uint8_t *seen = calloc(img->ninsns, 1);
	bool used = !todo || !seen;

	if (!used)
		todo[n++] = img->kernels[kernel].f.entry;
	while (n && !used) {
		for (pc = todo[--n]; pc < img->ninsns && !seen[pc]; pc++) {
			const struct vgpu_insn *in = &img->insns[pc];

			seen[pc] = 1;
			if (in->op == VGPU_OP_MALLOC || in->op == VGPU_OP_FREE) {
				used = true;
				break;
			}
			/* Each branch is seen once: @todo holds at most all. */
			if (in->op == VGPU_OP_BRA && in->imm < img->ninsns &&
			    !seen[in->imm])
				todo[n++] = (uint32_t)in->imm;
			if ((in->op == VGPU_OP_BRA && in->guard == VGPU_PRED_NONE) ||
			    in->op == VGPU_OP_EXIT || in->op == VGPU_OP_TRAP)
				break;
		}
	}
	free(todo);
	free(seen);
	return used;
}

/*
 * Before a launch of @f in @ctx, with vg_lock held: the heap exists if
 * the kernel needs one.
 */
CUresult vg_heap_ready(struct CUctx_st *ctx, const struct CUfunc_st *f)
{
	struct vgpu_heap_create hc = {
		.size = ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE],
	};

	if (!f->uses_heap || ctx->heap_created)
		return CUDA_SUCCESS;
	if (ioctl(ctx->fd, VGPU_IOCTL_HEAP_CREATE, &hc))
		return errno == ENOSPC ? CUDA_ERROR_OUT_OF_MEMORY :
			vg_errno_result(errno);
	ctx->heap_created = true;
	ctx->heap_va = hc.va;
	ctx->heap_size = hc.size;
	return CUDA_SUCCESS;
}

/*
 * Is [va, va + n) inside @ctx's heap? The memset calls take heap blocks,
 * as an H100 does, where the copy calls refuse them.
 */
bool vg_heap_holds(const struct CUctx_st *ctx, CUdeviceptr va, size_t n)
{
	return ctx->heap_created && n <= ctx->heap_size &&
	       va - ctx->heap_va <= ctx->heap_size - n;
}
