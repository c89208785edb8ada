// SPDX-License-Identifier: MIT
/*
 * Stream memory operations (cuStreamWaitValue*, cuStreamWriteValue*,
 * cuStreamBatchMemOp): the engines' SEM_ACQUIRE and SEM_RELEASE on 32 or
 * 64-bit words of device or page-locked host memory, queued on the
 * stream's channel. What is checked, and the codes, follow NVIDIA's
 * driver on an H100 (tests/e2e/ref/h100_memops.log).
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "vg.h"

/* The most operations one batch may hold: 256 is refused on the H100. */
#define VG_MEMOP_MAX 255

/* The wait flags: a comparison in the low bits, then FLUSH. */
#define VG_WAIT_CMP_MASK 0xfu

/*
 * One operation as a command; false: NVIDIA refuses it (*@r says how).
 * Barriers and remote-write flushes need no command (*@cmd stays NOP): the
 * engines' semaphores already order everything they wrote.
 */
static bool vg_memop_cmd(struct CUctx_st *ctx,
			 const CUstreamBatchMemOpParams *p,
			 struct vgpu_cmd *cmd, CUresult *r)
{
	const struct CUstreamMemOpWaitValueParams_st *w = &p->waitValue;
	bool is64 = p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64 ||
		p->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
	unsigned int size = is64 ? 8 : 4;

	memset(cmd, 0, sizeof(*cmd));
	*r = CUDA_ERROR_INVALID_VALUE;
	switch (p->operation) {
	case CU_STREAM_MEM_OP_WAIT_VALUE_32:
	case CU_STREAM_MEM_OP_WAIT_VALUE_64:
		if (w->flags & ~(VG_WAIT_CMP_MASK | CU_STREAM_WAIT_VALUE_FLUSH) ||
		    (w->flags & VG_WAIT_CMP_MASK) > CU_STREAM_WAIT_VALUE_NOR)
			return false;
		if (w->flags & CU_STREAM_WAIT_VALUE_FLUSH) {
			/* CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0. */
			*r = CUDA_ERROR_NOT_SUPPORTED;
			return false;
		}
		cmd->op = VGPU_CMD_SEM_ACQUIRE;
		/* CU_STREAM_WAIT_VALUE_* in the order of VGPU_SEM_*'s tests. */
		cmd->flags = (w->flags & VG_WAIT_CMP_MASK) << 4;
		break;
	case CU_STREAM_MEM_OP_WRITE_VALUE_32:
	case CU_STREAM_MEM_OP_WRITE_VALUE_64:
		if (p->writeValue.flags)
			return false;
		cmd->op = VGPU_CMD_SEM_RELEASE;
		break;
	case CU_STREAM_MEM_OP_BARRIER:
		return p->memoryBarrier.flags <= CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
	case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
		*r = CUDA_ERROR_NOT_SUPPORTED;
		return false;
	default:
		return false;
	}
	if (!w->address || w->address % size ||
	    !vg_pointer_in(ctx, w->address, size,
			   cmd->op == VGPU_CMD_SEM_RELEASE))
		return false;
	if (!is64)
		cmd->flags |= VGPU_SEM_32;
	cmd->sem.addr = w->address;
	cmd->sem.value = is64 ? w->value64 : w->value;
	return true;
}

CUresult vg_memops_valid(CUcontext h, unsigned int count,
			 const CUstreamBatchMemOpParams *ops, unsigned int flags)
{
	struct vgpu_cmd cmd;
	unsigned int i;
	CUresult r = CUDA_SUCCESS, why;

	if (!h || flags || count > VG_MEMOP_MAX || (count && !ops))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_ctx_alive(h))
		r = CUDA_ERROR_INVALID_VALUE;
	for (i = 0; !r && i < count; i++)
		if (!vg_memop_cmd(h, &ops[i], &cmd, &why))
			r = why;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * Checks every operation, then queues them in order on @hs: none is
 * queued when one is refused. In a capture, the batch is a node.
 */
static CUresult vg_memops(CUstream hs, unsigned int count,
			  const CUstreamBatchMemOpParams *ops,
			  unsigned int flags)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vgpu_cmd *cmds;
	unsigned int i;
	bool taken = false;
	CUresult r = vg_check_init();

	if (!r)
		r = vg_cap_memops(hs, count, ops, flags, &taken);
	if (r || taken)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r == CUDA_SUCCESS && (flags || count > VG_MEMOP_MAX))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS && count && !ops)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r || !count) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	cmds = calloc(count, sizeof(*cmds));
	if (!cmds) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	for (i = 0; i < count; i++)
		if (!vg_memop_cmd(ctx, &ops[i], &cmds[i], &r))
			break;
	if (i < count) {
		pthread_mutex_unlock(&vg_lock);
		free(cmds);
		return r;
	}
	vg_ctx_begin(ctx);
	r = vg_stream_enter(st);
	/* A failed push fails the channel: what came before it is moot. */
	for (i = 0; i < count && r == CUDA_SUCCESS; i++)
		if (cmds[i].op != VGPU_CMD_NOP)
			r = vg_chan_push(st->ch, &cmds[i], NULL);
	st->last = st->ch->put;
	vg_ctx_end(ctx);
	free(cmds);
	return r;
}

CUresult cuStreamBatchMemOp_v2(CUstream hs, unsigned int count,
			       CUstreamBatchMemOpParams *ops,
			       unsigned int flags)
{
	return vg_memops(hs, count, ops, flags);
}

/* One wait or write. */
static CUresult vg_memop(CUstream hs, CUstreamBatchMemOpType op,
			 CUdeviceptr addr, uint64_t value, unsigned int flags)
{
	CUstreamBatchMemOpParams p;

	memset(&p, 0, sizeof(p));
	p.waitValue.operation = op;
	p.waitValue.address = addr;
	p.waitValue.value64 = value;
	p.waitValue.flags = flags;
	return vg_memops(hs, 1, &p, 0);
}

CUresult cuStreamWaitValue32_v2(CUstream hs, CUdeviceptr addr,
				cuuint32_t value, unsigned int flags)
{
	return vg_memop(hs, CU_STREAM_MEM_OP_WAIT_VALUE_32, addr, value, flags);
}

CUresult cuStreamWaitValue64_v2(CUstream hs, CUdeviceptr addr,
				cuuint64_t value, unsigned int flags)
{
	return vg_memop(hs, CU_STREAM_MEM_OP_WAIT_VALUE_64, addr, value, flags);
}

CUresult cuStreamWriteValue32_v2(CUstream hs, CUdeviceptr addr,
				 cuuint32_t value, unsigned int flags)
{
	return vg_memop(hs, CU_STREAM_MEM_OP_WRITE_VALUE_32, addr, value,
			flags);
}

CUresult cuStreamWriteValue64_v2(CUstream hs, CUdeviceptr addr,
				 cuuint64_t value, unsigned int flags)
{
	return vg_memop(hs, CU_STREAM_MEM_OP_WRITE_VALUE_64, addr, value,
			flags);
}

/*
 * The first ABI's names, which programs built against CUDA 13's cuda.h do
 * not bind to: NVIDIA's driver answers CUDA_ERROR_NOT_SUPPORTED for any
 * arguments, as CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 (0) says.
 */
#undef cuStreamBatchMemOp
#undef cuStreamWaitValue32
#undef cuStreamWaitValue64
#undef cuStreamWriteValue32
#undef cuStreamWriteValue64

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

CUresult cuStreamBatchMemOp(CUstream hs, unsigned int count,
			    CUstreamBatchMemOpParams *ops, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamBatchMemOp_ptsz(CUstream hs, unsigned int count,
				 CUstreamBatchMemOpParams *ops,
				 unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWaitValue32(CUstream hs, CUdeviceptr addr,
			     cuuint32_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWaitValue32_ptsz(CUstream hs, CUdeviceptr addr,
				  cuuint32_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWaitValue64(CUstream hs, CUdeviceptr addr,
			     cuuint64_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWaitValue64_ptsz(CUstream hs, CUdeviceptr addr,
				  cuuint64_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWriteValue32(CUstream hs, CUdeviceptr addr,
			      cuuint32_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWriteValue32_ptsz(CUstream hs, CUdeviceptr addr,
				   cuuint32_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWriteValue64(CUstream hs, CUdeviceptr addr,
			      cuuint64_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamWriteValue64_ptsz(CUstream hs, CUdeviceptr addr,
				   cuuint64_t value, unsigned int flags)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

#pragma GCC diagnostic pop
