// SPDX-License-Identifier: MIT
/*
 * The runtime helpers generated code calls, by name: the code refers to
 * them as external symbols, which the JIT resolves to this process's
 * addresses when it links the code in, so compiled code holds no address
 * of the process that made it and can be kept on disk (native_cache.c).
 */
#include <stdint.h>
#include <string.h>

#include "native_ir.h"

#define NRT_HELPER(f) { #f, (const void *)(uintptr_t)&f }

const struct nrt_helper nrt_helpers[] = {
	NRT_HELPER(nrt_check),
	NRT_HELPER(nrt_diverge),
	NRT_HELPER(nrt_exit),
	NRT_HELPER(nrt_bar),
	NRT_HELPER(nrt_warp_sync),
	NRT_HELPER(nrt_fail),
	NRT_HELPER(nrt_mem),
	NRT_HELPER(nrt_atom),
	NRT_HELPER(nrt_bits_op),
	NRT_HELPER(nrt_int_op),
	NRT_HELPER(nrt_sreg),
	NRT_HELPER(nrt_fp_alu),
	NRT_HELPER(nrt_fp_setp),
	NRT_HELPER(nrt_fp_cvt),
	NRT_HELPER(nrt_fp_func),
};

const unsigned int nrt_nhelpers = sizeof(nrt_helpers) / sizeof(nrt_helpers[0]);

const char *nrt_helper_name(const void *fn)
{
	unsigned int i;

	for (i = 0; i < nrt_nhelpers; i++)
		if (nrt_helpers[i].fn == fn)
			return nrt_helpers[i].name;
	/* A helper missing here: the JIT refuses the kernel, naming it. */
	return "nrt_helper_not_in_nrt_helpers";
}
