// SPDX-License-Identifier: MIT
/*
 * The array calls of the first ABI, with 32-bit sizes, offsets and device
 * pointers (the unversioned cuArrayCreate, cuMemcpyHtoA, ...). As the
 * first ABI's memory calls (compat_v1.c): in a context of that ABI each
 * forwards to the current call, its values widened; in any other, and
 * with no context, it answers CUDA_ERROR_INVALID_CONTEXT having cleared
 * the outputs it was given. No H100 probe reached these: the rule is
 * that of the memory calls, which one did.
 */
#include <string.h>

#include "abi_v1.h"
#include "vg.h"

/* The macros of cuda.h would rename the definitions below. */
#undef cuArray3DCreate
#undef cuArray3DGetDescriptor
#undef cuArrayCreate
#undef cuArrayGetDescriptor
#undef cuMemcpyAtoA
#undef cuMemcpyAtoD
#undef cuMemcpyAtoH
#undef cuMemcpyAtoHAsync
#undef cuMemcpyDtoA
#undef cuMemcpyHtoA
#undef cuMemcpyHtoAAsync

CUresult cuArrayCreate(CUarray *pa, const CUDA_ARRAY_DESCRIPTOR_v1 *d);
CUresult cuArray3DCreate(CUarray *pa, const CUDA_ARRAY3D_DESCRIPTOR_v1 *d);
CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR_v1 *d, CUarray a);
CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR_v1 *d, CUarray a);
CUresult cuMemcpyHtoA(CUarray dst, unsigned int off, const void *src,
		      unsigned int n);
CUresult cuMemcpyAtoH(void *dst, CUarray src, unsigned int off,
		      unsigned int n);
CUresult cuMemcpyDtoA(CUarray dst, unsigned int off, CUdeviceptr_v1 src,
		      unsigned int n);
CUresult cuMemcpyAtoD(CUdeviceptr_v1 dst, CUarray src, unsigned int off,
		      unsigned int n);
CUresult cuMemcpyAtoA(CUarray dst, unsigned int doff, CUarray src,
		      unsigned int soff, unsigned int n);
CUresult cuMemcpyHtoAAsync(CUarray dst, unsigned int off, const void *src,
			   unsigned int n, CUstream s);
CUresult cuMemcpyAtoHAsync(void *dst, CUarray src, unsigned int off,
			   unsigned int n, CUstream s);

/* vg_v1_enter() for a call whose output is a handle or a descriptor. */
static CUresult vg_v1_enter_out(void *out, size_t size)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	if (r == CUDA_ERROR_INVALID_CONTEXT && out)
		memset(out, 0, size);
	return r;
}

CUresult cuArrayCreate(CUarray *pa, const CUDA_ARRAY_DESCRIPTOR_v1 *d)
{
	CUDA_ARRAY_DESCRIPTOR c;
	CUresult r = vg_v1_enter_out(pa, sizeof(*pa));

	if (r)
		return r;
	if (d)
		c = (CUDA_ARRAY_DESCRIPTOR){
			.Width = d->Width,
			.Height = d->Height,
			.Format = d->Format,
			.NumChannels = d->NumChannels,
		};
	return cuArrayCreate_v2(pa, d ? &c : NULL);
}

CUresult cuArray3DCreate(CUarray *pa, const CUDA_ARRAY3D_DESCRIPTOR_v1 *d)
{
	CUDA_ARRAY3D_DESCRIPTOR c;
	CUresult r = vg_v1_enter_out(pa, sizeof(*pa));

	if (r)
		return r;
	if (d)
		c = (CUDA_ARRAY3D_DESCRIPTOR){
			.Width = d->Width,
			.Height = d->Height,
			.Depth = d->Depth,
			.Format = d->Format,
			.NumChannels = d->NumChannels,
			.Flags = d->Flags,
		};
	return cuArray3DCreate_v2(pa, d ? &c : NULL);
}

/* Every array's sizes fit 32 bits: the limits keep them below 2^18. */
CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR_v1 *d, CUarray a)
{
	CUDA_ARRAY_DESCRIPTOR c;
	CUresult r = vg_v1_enter_out(d, sizeof(*d));

	if (!r)
		r = cuArrayGetDescriptor_v2(d ? &c : NULL, a);
	if (r)
		return r;
	d->Width = (unsigned int)c.Width;
	d->Height = (unsigned int)c.Height;
	d->Format = c.Format;
	d->NumChannels = c.NumChannels;
	return CUDA_SUCCESS;
}

CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR_v1 *d, CUarray a)
{
	CUDA_ARRAY3D_DESCRIPTOR c;
	CUresult r = vg_v1_enter_out(d, sizeof(*d));

	if (!r)
		r = cuArray3DGetDescriptor_v2(d ? &c : NULL, a);
	if (r)
		return r;
	d->Width = (unsigned int)c.Width;
	d->Height = (unsigned int)c.Height;
	d->Depth = (unsigned int)c.Depth;
	d->Format = c.Format;
	d->NumChannels = c.NumChannels;
	d->Flags = c.Flags;
	return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoA(CUarray dst, unsigned int off, const void *src,
		      unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyHtoA_v2(dst, off, src, n);
}

CUresult cuMemcpyAtoH(void *dst, CUarray src, unsigned int off,
		      unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyAtoH_v2(dst, src, off, n);
}

CUresult cuMemcpyDtoA(CUarray dst, unsigned int off, CUdeviceptr_v1 src,
		      unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyDtoA_v2(dst, off, src, n);
}

CUresult cuMemcpyAtoD(CUdeviceptr_v1 dst, CUarray src, unsigned int off,
		      unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyAtoD_v2(dst, src, off, n);
}

CUresult cuMemcpyAtoA(CUarray dst, unsigned int doff, CUarray src,
		      unsigned int soff, unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyAtoA_v2(dst, doff, src, soff, n);
}

CUresult cuMemcpyHtoAAsync(CUarray dst, unsigned int off, const void *src,
			   unsigned int n, CUstream s)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyHtoAAsync_v2(dst, off, src, n, s);
}

CUresult cuMemcpyAtoHAsync(void *dst, CUarray src, unsigned int off,
			   unsigned int n, CUstream s)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyAtoHAsync_v2(dst, src, off, n, s);
}
