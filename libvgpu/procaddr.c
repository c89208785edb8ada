// SPDX-License-Identifier: MIT
/*
 * cuGetProcAddress: a driver call's entry point by name, for the ABI of a
 * given CUDA version and the legacy or per-thread default stream. Needs
 * neither cuInit nor a device, as on NVIDIA's driver.
 *
 * The table comes from the toolkit's cudaTypedefs.h, made at build time by
 * tools/gen-procaddr: each name's ABI versions and the symbol of each.
 * Only symbols that libvgpu exports (libvgpu.map) have an address; a name
 * whose symbol libvgpu lacks yet answers CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND,
 * as an unknown name does. The address is the exported symbol's own, the
 * one a program linked to that symbol calls.
 *
 * cuGetExportTable is the lookup of NVIDIA's private tables, which vgpu
 * does not implement: every UUID is unknown to it.
 */
#include <stdlib.h>
#include <string.h>

#include "vg.h"

#undef cuGetProcAddress

enum { VG_PROC_PLAIN, VG_PROC_PER_THREAD };

/*
 * The exported symbols by their assembler names, as void functions: the
 * table only takes their addresses, and the names are free of cuda.h's
 * renaming macros.
 */
#define VG_PROC_DECLARE(id, sym) void vg_proc_sym_##id(void) __asm__(sym);
#define VG_PROC_ADDRESS(id, sym) [id] = vg_proc_sym_##id,
#define VG_PROC_ENTRY(name, ver, kind, id, sym) { name, ver, kind, id },

#include "procaddr_table.h"

VG_PROC_EXPORTS(VG_PROC_DECLARE)

static void (*const vg_proc_addr[])(void) = {
	VG_PROC_EXPORTS(VG_PROC_ADDRESS)
};

struct vg_proc {
	const char *name;
	int version;		/* the first CUDA version with this ABI */
	int kind;		/* VG_PROC_PLAIN or VG_PROC_PER_THREAD */
	int id;			/* in vg_proc_addr, or -1: not exported */
};

static const struct vg_proc vg_procs[] = {
	VG_PROC_TABLE(VG_PROC_ENTRY)
};

#define VG_NPROCS (sizeof(vg_procs) / sizeof(vg_procs[0]))

#define VG_PROC_FLAGS (CU_GET_PROC_ADDRESS_LEGACY_STREAM | \
		       CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)

/* The first entry of name in vg_procs, which is sorted by name; or -1. */
static long vg_proc_first(const char *name)
{
	size_t lo = 0, hi = VG_NPROCS;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(vg_procs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == VG_NPROCS || strcmp(vg_procs[lo].name, name))
		return -1;
	return (long)lo;
}

/*
 * The lookup, once the arguments are checked. With the per-thread flag, a
 * name that has per-thread forms resolves among those alone (below the
 * first of them it is VERSION_NOT_SUFFICIENT, not the legacy form); a name
 * without any resolves as with the other flags. A negative cudaVersion
 * asks for the newest ABI.
 */
static CUdriverProcAddressQueryResult vg_proc_lookup(const char *name,
		void **pfn, int cuda_version, cuuint64_t flags)
{
	long first = vg_proc_first(name);
	const struct vg_proc *best = NULL;
	int kind = VG_PROC_PLAIN;
	size_t i;

	*pfn = NULL;
	if (first < 0)
		return CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	if (cuda_version < 0)
		cuda_version = CUDA_VERSION;
	if (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
		for (i = first; i < VG_NPROCS && !strcmp(vg_procs[i].name, name);
		     i++)
			if (vg_procs[i].kind == VG_PROC_PER_THREAD)
				kind = VG_PROC_PER_THREAD;
	for (i = first; i < VG_NPROCS && !strcmp(vg_procs[i].name, name); i++)
		if (vg_procs[i].kind == kind &&
		    vg_procs[i].version <= cuda_version &&
		    (!best || vg_procs[i].version > best->version))
			best = &vg_procs[i];
	if (!best)
		return CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
	if (best->id < 0)
		return CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	*pfn = (void *)vg_proc_addr[best->id];
	return CU_GET_PROC_ADDRESS_SUCCESS;
}

/*
 * A cudaVersion above the library's own or an unknown flag is
 * CUDA_ERROR_INVALID_VALUE with *pfn and *symbolStatus left as they were.
 * NVIDIA's driver crashes on a NULL symbol or pfn; these are
 * CUDA_ERROR_INVALID_VALUE here. symbolStatus may be NULL.
 */
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
			     cuuint64_t flags,
			     CUdriverProcAddressQueryResult *symbolStatus)
{
	CUdriverProcAddressQueryResult st;

	if (!symbol || !pfn || cudaVersion > CUDA_VERSION ||
	    (flags & ~(cuuint64_t)VG_PROC_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	st = vg_proc_lookup(symbol, pfn, cudaVersion, flags);
	if (symbolStatus)
		*symbolStatus = st;
	return CUDA_SUCCESS;
}

/*
 * CUDA 11.3's form, without symbolStatus: a name that does not resolve is
 * CUDA_ERROR_NOT_FOUND, and *pfn is left as it was.
 */
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
			  cuuint64_t flags);

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
			  cuuint64_t flags)
{
	CUdriverProcAddressQueryResult st;
	void *p;
	CUresult rc;

	if (!pfn)
		return CUDA_ERROR_INVALID_VALUE;
	rc = cuGetProcAddress_v2(symbol, &p, cudaVersion, flags, &st);
	if (rc != CUDA_SUCCESS)
		return rc;
	if (st != CU_GET_PROC_ADDRESS_SUCCESS)
		return CUDA_ERROR_NOT_FOUND;
	*pfn = p;
	return CUDA_SUCCESS;
}

/*
 * An H100 answers CUDA_ERROR_INVALID_VALUE, before cuInit too, for a
 * UUID it does not know and for NULL arguments, and clears the table
 * pointer (tests/e2e/ref/h100_compat.log); vgpu knows no UUID.
 */
CUresult cuGetExportTable(const void **ppExportTable,
			  const CUuuid *pExportTableId)
{
	(void)pExportTableId;
	if (ppExportTable)
		*ppExportTable = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}
