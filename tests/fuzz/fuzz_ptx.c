// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the PTX JIT: the input is PTX text (or anything).
 * The front end must refuse bad input with a message and nothing leaked;
 * whatever it compiles must be a program the module's verifier accepts,
 * since a refusal there would be a JIT bug that a user meets as
 * CUDA_ERROR_INVALID_PTX on valid PTX.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "jit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vg_jit_image *img = NULL;
	struct vgpu_program prog;
	struct vgpu_verdict v;
	struct vgpu_func *funcs;
	char err[256];
	uint32_t i, *stack;
	uint8_t *seen;

	if (vg_jit_compile((const char *)data, size, &img, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a refusal always says why */
		return 0;
	}
	funcs = calloc(img->nkernels, sizeof(*funcs));
	seen = calloc(img->ninsns, 1);
	stack = calloc(img->ninsns, sizeof(*stack));
	if (!funcs || !seen || !stack)
		abort();
	for (i = 0; i < img->nkernels; i++)
		funcs[i] = img->kernels[i].f;
	prog = (struct vgpu_program){ img->insns, img->ninsns, funcs,
				      img->nkernels };
	if (vgpu_isa_verify(&prog, seen, stack, &v))
		abort();
	free(funcs);
	free(seen);
	free(stack);
	vg_jit_free(img);
	return 0;
}
