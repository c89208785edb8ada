// SPDX-License-Identifier: MIT
/*
 * Half precision in the PTX JIT: add, mul, fma, max, neg and .sat on .f16,
 * and add on .f16x2 pairs, run on the user-space core over halves of every
 * kind (zeros, subnormals, normals, infinities, NaN) and checked against
 * the host's correctly rounded results.
 */
#include "core_run.h"
#include "jit.h"
#include "tap.h"

enum { N = 64, OUTS = 6 };

static const char half_ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry h(.param .u64 h_param_0)\n{\n"
	"\t.reg .b16 %rs<12>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [h_param_0];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd2, %r1, 2;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.b16 %rs1, [%rd3];\n"
	"\tld.global.b16 %rs2, [%rd3+128];\n"
	"\tld.global.b16 %rs3, [%rd3+256];\n"
	"\tadd.f16 %rs4, %rs1, %rs2;\n"
	"\tmul.f16 %rs5, %rs1, %rs2;\n"
	"\tfma.rn.f16 %rs6, %rs1, %rs2, %rs3;\n"
	"\tmax.f16 %rs7, %rs1, %rs3;\n"
	"\tneg.f16 %rs8, %rs1;\n"
	"\tadd.sat.f16 %rs9, %rs2, %rs3;\n"
	"\tmov.b32 %r2, {%rs1, %rs2};\n\tmov.b32 %r3, {%rs3, %rs1};\n"
	"\tsub.f16x2 %r4, %r2, %r3;\n"
	"\tst.global.b16 [%rd3+384], %rs4;\n"
	"\tst.global.b16 [%rd3+512], %rs5;\n"
	"\tst.global.b16 [%rd3+640], %rs6;\n"
	"\tst.global.b16 [%rd3+768], %rs7;\n"
	"\tst.global.b16 [%rd3+896], %rs8;\n"
	"\tst.global.b16 [%rd3+1024], %rs9;\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.b32 [%rd3+1152], %r4;\n"
	"\tret;\n}\n";

static _Float16 h_of(uint16_t b)
{
	_Float16 h;

	memcpy(&h, &b, 2);
	return h;
}

static uint16_t bits_of(_Float16 h)
{
	uint16_t b;

	memcpy(&b, &h, 2);
	/* Any NaN the hardware makes reads 0x7fff. */
	return h != h ? 0x7fff : b;
}

static _Float16 max_model(_Float16 a, _Float16 b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)	/* -0 and +0: +0 is the larger */
		return bits_of(a) & 0x8000 ? b : a;
	return a > b ? a : b;
}

static void half_arithmetic(void)
{
	static uint16_t mem[3 * N + OUTS * N + 2 * N];	/* in, out, f16x2 out */
	struct vgpu_range ranges[2] = { core_range(mem, sizeof(mem), true), { 0 } };
	static const uint16_t special[] = {
		0x0000, 0x8000, 0x0001, 0x83ff, 0x3c00, 0xbc00, 0x7bff, 0xfbff,
		0x7c00, 0xfc00, 0x7e00, 0x3555, 0x0400, 0x4248, 0xc0ff, 0x1234,
	};
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)mem;
	unsigned int i, bad = 0;
	char err[256];

	for (i = 0; i < 3 * N; i++)
		mem[i] = i < 16 ? special[i] : (uint16_t)(i * 7919u + 17u);
	if (vg_jit_compile(half_ptx, sizeof(half_ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(core_run(img->insns, img->ninsns, img->kernels[0].f, 1, N, &p,
		       ranges, NULL) == VGPU_RUN_DONE);
	for (i = 0; i < N; i++) {
		_Float16 a = h_of(mem[i]), b = h_of(mem[N + i]), c = h_of(mem[2 * N + i]);
		uint16_t *o = mem + 3 * N, want[OUTS];
		float sat = (float)b + (float)c;
		uint32_t pair;

		want[0] = bits_of((_Float16)((float)a + (float)b));
		want[1] = bits_of((_Float16)((float)a * (float)b));
		want[2] = bits_of((_Float16)((double)a * (double)b + (double)c));
		want[3] = bits_of(max_model(a, c));
		want[4] = mem[i] ^ 0x8000;
		want[5] = sat != sat ? 0 : bits_of((_Float16)(sat < 0 ? 0 : sat > 1 ? 1 : sat));
		bad += o[i] != want[0] || o[N + i] != want[1];
		bad += o[2 * N + i] != want[2] || o[3 * N + i] != want[3];
		bad += o[4 * N + i] != want[4] || o[5 * N + i] != want[5];
		memcpy(&pair, mem + 3 * N + 6 * N + 2 * i, 4);
		bad += (pair & 0xffff) != bits_of((_Float16)((float)a - (float)c));
		bad += (pair >> 16) != bits_of((_Float16)((float)b - (float)a));
	}
	CHECK(bad == 0);
	vg_jit_free(img);
}

static const struct tap_test tests[] = {
	TAP_TEST(half_arithmetic),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
