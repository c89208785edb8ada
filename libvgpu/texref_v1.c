// SPDX-License-Identifier: MIT
/*
 * The texture reference calls of the first ABI, with 32-bit device
 * pointers, offsets and sizes (the unversioned cuTexRefSetAddress,
 * cuTexRefSetAddress2D and cuTexRefGetAddress). As the first ABI's memory
 * calls (compat_v1.c): in a context of that ABI each forwards to the
 * current call, its values widened; in any other, and with no context, it
 * answers CUDA_ERROR_INVALID_CONTEXT having cleared the outputs it was
 * given.
 */
#include "abi_v1.h"
#include "vg.h"

/* The macros of cuda.h would rename the definitions below. */
#undef cuTexRefGetAddress
#undef cuTexRefSetAddress
#undef cuTexRefSetAddress2D

CUresult cuTexRefSetAddress(unsigned int *ByteOffset, CUtexref hTexRef,
			    CUdeviceptr_v1 dptr, unsigned int bytes);
CUresult cuTexRefSetAddress2D(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR_v1 *desc,
			      CUdeviceptr_v1 dptr, unsigned int Pitch);
CUresult cuTexRefGetAddress(CUdeviceptr_v1 *pdptr, CUtexref hTexRef);

CUresult cuTexRefSetAddress(unsigned int *ByteOffset, CUtexref hTexRef,
			    CUdeviceptr_v1 dptr, unsigned int bytes)
{
	CUresult r = vg_v1_enter(ByteOffset, NULL);
	size_t off = 0;

	if (r)
		return r;
	r = cuTexRefSetAddress_v2(ByteOffset ? &off : NULL, hTexRef, dptr, bytes);
	if (!r && ByteOffset)
		*ByteOffset = (unsigned int)off;	/* below the alignment */
	return r;
}

CUresult cuTexRefSetAddress2D(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR_v1 *desc,
			      CUdeviceptr_v1 dptr, unsigned int Pitch)
{
	CUDA_ARRAY_DESCRIPTOR d;
	CUresult r = vg_v1_enter(NULL, NULL);

	if (r)
		return r;
	if (!desc)
		return cuTexRefSetAddress2D_v3(hTexRef, NULL, dptr, Pitch);
	d.Width = desc->Width;
	d.Height = desc->Height;
	d.Format = desc->Format;
	d.NumChannels = desc->NumChannels;
	return cuTexRefSetAddress2D_v3(hTexRef, &d, dptr, Pitch);
}

CUresult cuTexRefGetAddress(CUdeviceptr_v1 *pdptr, CUtexref hTexRef)
{
	CUdeviceptr p = 0;
	CUresult r = vg_v1_enter(pdptr, NULL);

	if (r)
		return r;
	r = cuTexRefGetAddress_v2(pdptr ? &p : NULL, hTexRef);
	if (!r)
		*pdptr = (CUdeviceptr_v1)p;	/* a first-ABI context's: 32 bits */
	return r;
}
