// SPDX-License-Identifier: MIT
/*
 * The PTX JIT (libvgpu/jit/: the driver ptx_lower.c, instruction selection
 * ptx_select.c and the lowerings under it, ptx_regalloc.c): kernels
 * written the way nvcc writes them are lowered, verified and run on the
 * user-space core, and checked against the same computation on the host;
 * the layouts of parameters and variables; the registers a kernel keeps;
 * and the diagnostics for what is refused.
 */
#include "core_run.h"
#include "gridsync_ptx.h"
#include "jit.h"
#include "jit_cache.h"
#include "tap.h"

#define PTX_HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

static const char vadd_ptx[] = PTX_HEAD
	".visible .entry vectorAdd(\n"
	"\t.param .u64 vectorAdd_param_0,\n"
	"\t.param .u64 vectorAdd_param_1,\n"
	"\t.param .u64 vectorAdd_param_2,\n"
	"\t.param .u32 vectorAdd_param_3\n"
	")\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n"
	"\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<11>;\n"
	"\tld.param.u64 %rd1, [vectorAdd_param_0];\n"
	"\tld.param.u64 %rd2, [vectorAdd_param_1];\n"
	"\tld.param.u64 %rd3, [vectorAdd_param_2];\n"
	"\tld.param.u32 %r2, [vectorAdd_param_3];\n"
	"\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %ctaid.x;\n"
	"\tmov.u32 %r5, %tid.x;\n"
	"\tmad.lo.s32 %r1, %r3, %r4, %r5;\n"
	"\tsetp.ge.s32 %p1, %r1, %r2;\n"
	"\t@%p1 bra $L__BB0_2;\n"
	"\tcvta.to.global.u64 %rd4, %rd1;\n"
	"\tmul.wide.s32 %rd5, %r1, 4;\n"
	"\tadd.s64 %rd6, %rd4, %rd5;\n"
	"\tcvta.to.global.u64 %rd7, %rd2;\n"
	"\tadd.s64 %rd8, %rd7, %rd5;\n"
	"\tld.global.f32 %f1, [%rd8];\n"
	"\tld.global.f32 %f2, [%rd6];\n"
	"\tadd.f32 %f3, %f2, %f1;\n"
	"\tcvta.to.global.u64 %rd9, %rd3;\n"
	"\tadd.s64 %rd10, %rd9, %rd5;\n"
	"\tst.global.f32 [%rd10], %f3;\n"
	"$L__BB0_2:\n\tret;\n}\n";

/* Runs kernel 0 of @img over @grid x @block threads on the core. */
static int run_image(const struct vg_jit_image *img, unsigned int grid,
		     unsigned int block, const void *params,
		     struct vgpu_range *mem)
{
	struct vgpu_fault fault;

	return core_run(img->insns, img->ninsns, img->kernels[0].f, grid, block,
			params, mem, &fault);
}

static void vector_add_runs_on_the_core(void)
{
	enum { N = 1000 };
	static float a[N], b[N], c[N];
	struct vgpu_range mem[4] = {
		core_range(a, sizeof(a), false), core_range(b, sizeof(b), false),
		core_range(c, sizeof(c), true), { 0 },
	};
	unsigned char params[28];
	struct vg_jit_image *img = NULL;
	uint64_t pa = (uintptr_t)a, pb = (uintptr_t)b, pc = (uintptr_t)c;
	uint32_t n = N;
	char err[256];
	int i, bad = 0;

	for (i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 1.0f / (float)(i + 1);
	}
	if (vg_jit_compile(vadd_ptx, sizeof(vadd_ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(img->nkernels == 1);
	CHECK(!strcmp(img->kernels[0].name, "vectorAdd"));
	/* As NVIDIA's driver lays them out: 28 bytes, no tail padding. */
	CHECK(img->kernels[0].f.param_bytes == 28);
	CHECK(img->kernels[0].nparams == 4);
	CHECK(img->kernels[0].params[3].offset == 24);
	CHECK(img->kernels[0].params[3].size == 4);
	memcpy(params, &pa, 8);
	memcpy(params + 8, &pb, 8);
	memcpy(params + 16, &pc, 8);
	memcpy(params + 24, &n, 4);
	CHECK(run_image(img, (N + 255) / 256, 256, params, mem) == VGPU_RUN_DONE);
	for (i = 0; i < N; i++)
		bad += c[i] != a[i] + b[i];
	CHECK(bad == 0);
	vg_jit_free(img);
}

/*
 * Shared memory, a barrier and a backward loop: each block reverses its
 * 64 elements through a static __shared__ array, then a thread adds the
 * elements up in a loop.
 */
static const char reverse_ptx[] = PTX_HEAD
	".visible .entry rev(.param .u64 rev_param_0)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<6>;\n"
	"\t.shared .align 4 .b8 _ZZ3revE1s[256];\n"
	"\tld.param.u64 %rd1, [rev_param_0];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r2, [%rd4];\n"
	"\tmov.u32 %r3, _ZZ3revE1s;\n"
	"\tshl.b32 %r4, %r1, 2;\n"
	"\tadd.s32 %r5, %r3, %r4;\n"
	"\tst.shared.u32 [%r5], %r2;\n"
	"\tbar.sync 0;\n"
	"\tsub.s32 %r6, 63, %r1;\n"
	"\tshl.b32 %r7, %r6, 2;\n"
	"\tadd.s32 %r8, %r3, %r7;\n"
	"\tld.shared.u32 %r9, [%r8];\n"
	"\tst.global.u32 [%rd4], %r9;\n"
	"\tsetp.ne.s32 %p1, %r1, 0;\n"
	"\t@%p1 bra $L__done;\n"
	"\tmov.u32 %r10, 0;\n\tmov.u32 %r11, 0;\n"
	"$L__loop:\n"
	"\tshl.b32 %r4, %r10, 2;\n"
	"\tadd.s32 %r5, %r3, %r4;\n"
	"\tld.shared.u32 %r2, [%r5];\n"
	"\tadd.s32 %r11, %r11, %r2;\n"
	"\tadd.s32 %r10, %r10, 1;\n"
	"\tsetp.lt.u32 %p1, %r10, 64;\n"
	"\t@%p1 bra $L__loop;\n"
	"\tst.global.u32 [%rd2+256], %r11;\n"
	"$L__done:\n\tret;\n}\n";

static void shared_barrier_and_loop(void)
{
	static uint32_t data[65];
	struct vgpu_range mem[2] = { core_range(data, sizeof(data), true), { 0 } };
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)data;
	uint32_t i, sum = 0;
	char err[256];
	int bad = 0;

	for (i = 0; i < 64; i++) {
		data[i] = i * 3 + 1;
		sum += data[i];
	}
	if (vg_jit_compile(reverse_ptx, sizeof(reverse_ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(img->kernels[0].f.shared_bytes == 256);
	CHECK(run_image(img, 1, 64, &p, mem) == VGPU_RUN_DONE);
	for (i = 0; i < 64; i++)
		bad += data[i] != (63 - i) * 3 + 1;
	CHECK(bad == 0);
	CHECK(data[64] == sum);
	vg_jit_free(img);
}

/*
 * Named barriers as nvcc and CUTLASS write them: warp 1 produces four
 * items for warp 0 through one buffer (bar.arrive, bar.sync,
 * barrier.arrive, barrier.sync.aligned with counts); warps 2-3 sync on a
 * barrier and count both named by registers, then reduce over their 64
 * threads with bar.red and barrier.red.
 */
static const char named_ptx[] = PTX_HEAD
	".visible .entry named(.param .u64 named_param_0)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<5>;\n"
	"\t.shared .align 4 .b8 buf[128];\n"
	"\tld.param.u64 %rd1, [named_param_0];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tshr.u32 %r2, %r1, 5;\n"
	"\tand.b32 %r3, %r1, 31;\n"
	"\tmov.u32 %r4, buf;\n"
	"\tshl.b32 %r5, %r3, 2;\n"
	"\tadd.s32 %r6, %r4, %r5;\n"
	"\tmov.u32 %r7, 0;\n\tmov.u32 %r8, 0;\n"
	"\tsetp.eq.s32 %p1, %r2, 0;\n"
	"\t@%p1 bra $L__cons;\n"
	"\tsetp.eq.s32 %p1, %r2, 1;\n"
	"\t@%p1 bra $L__prod;\n"
	"\tmov.u32 %r9, 3;\n\tmov.u32 %r10, 64;\n"
	"\tbar.sync %r9, %r10;\n"
	"\tand.b32 %r11, %r1, 1;\n"
	"\tsetp.eq.s32 %p2, %r11, 0;\n"
	"\tbar.red.popc.u32 %r7, %r9, %r10, %p2;\n"
	"\tbarrier.red.or.pred %p3, 4, 64, !%p2;\n"
	"\tselp.u32 %r12, 100, 0, %p3;\n"
	"\tadd.s32 %r7, %r7, %r12;\n"
	"\tbarrier.cta.red.and.pred %p3, 5, %r10, %p2;\n"
	"\tselp.u32 %r12, 1000, 0, %p3;\n"
	"\tadd.s32 %r7, %r7, %r12;\n"
	"\tbra.uni $L__done;\n"
	"$L__cons:\n"
	"\tbar.sync 1, 64;\n"
	"\tld.shared.u32 %r12, [%r6];\n"
	"\tadd.s32 %r7, %r7, %r12;\n"
	"\tbarrier.arrive 2, 64;\n"
	"\tadd.s32 %r8, %r8, 1;\n"
	"\tsetp.lt.u32 %p1, %r8, 4;\n"
	"\t@%p1 bra $L__cons;\n"
	"\tbra.uni $L__done;\n"
	"$L__prod:\n"
	"\tmul.lo.s32 %r12, %r8, 100;\n"
	"\tadd.s32 %r12, %r12, %r3;\n"
	"\tst.shared.u32 [%r6], %r12;\n"
	"\tbar.arrive 1, 64;\n"
	"\tbarrier.sync.aligned 2, 64;\n"
	"\tadd.s32 %r8, %r8, 1;\n"
	"\tsetp.lt.u32 %p1, %r8, 4;\n"
	"\t@%p1 bra $L__prod;\n"
	"\tmov.u32 %r7, 7;\n"
	"$L__done:\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd4], %r7;\n"
	"\tret;\n}\n";

static void named_barriers(void)
{
	static uint32_t out[128];
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)out;
	char err[256];
	int t, bad = 0;

	if (vg_jit_compile(named_ptx, sizeof(named_ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(run_image(img, 1, 128, &p, mem) == VGPU_RUN_DONE);
	for (t = 0; t < 128; t++) {
		/* 32 of 64 even; some odd; not all even */
		uint32_t want = t < 32 ? 600 + 4 * t : t < 64 ? 7 : 32 + 100;

		bad += out[t] != want;
	}
	CHECK(bad == 0);
	vg_jit_free(img);
}

/* __device__ and __constant__ variables: one initialized block, relocated. */
static void module_variables(void)
{
	static const char ptx[] = PTX_HEAD
		".global .align 4 .u32 counter = 5;\n"
		".const .align 4 .b8 tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
		".visible .entry k()\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.global.u32 %r1, [counter];\n"
		"\tld.const.u32 %r2, [tab+4];\n"
		"\tadd.s32 %r3, %r1, %r2;\n"
		"\tst.global.u32 [counter], %r3;\n"
		"\tret;\n}\n";
	static const uint8_t want[16] = { 5, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct vg_jit_image *img = NULL;
	char err[256];

	if (vg_jit_compile(ptx, sizeof(ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(img->nvars == 2);
	CHECK(!strcmp(img->vars[0].name, "counter") && img->vars[0].offset == 0 &&
	      img->vars[0].size == 4 && !img->vars[0].is_const);
	CHECK(!strcmp(img->vars[1].name, "tab") && img->vars[1].offset == 4 &&
	      img->vars[1].size == 8 && img->vars[1].is_const);
	CHECK(img->global_bytes == 12);
	CHECK(!memcmp(img->globals, want, 12));
	/* Three accesses name a variable: the loader adds the block's address. */
	CHECK(img->nrelocs == 3);
	vg_jit_free(img);
}

/*
 * __managed__ variables (.attribute(.managed)): their initial bytes last
 * in the block, code and initializers naming them by
 * VG_JIT_MANAGED_ADDR, which the loader relocates to their own storage;
 * the flag survives a compiled module's round trip.
 */
static void managed_variables(void)
{
	static const char ptx[] = PTX_HEAD
		".global .attribute(.managed) .align 4 .u32 m = 3;\n"
		".global .align 4 .u32 d = 5;\n"
		".global .attribute(.managed) .align 8 .u64 pm = generic(d);\n"
		".global .align 8 .u64 pd = generic(m)+4;\n"
		".visible .entry k()\n{\n"
		"\t.reg .b32 %r<3>;\n"
		"\tld.global.u32 %r1, [m+4];\n"
		"\tld.global.u32 %r2, [d];\n"
		"\tret;\n}\n";
	struct vg_jit_image *img = NULL, *back = NULL;
	unsigned char *file = NULL;
	size_t len = 0;
	uint64_t v;
	char err[256];
	int64_t off;
	uint32_t i, managed_relocs = 0;

	if (vg_jit_compile(ptx, sizeof(ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(img->nvars == 4);
	/* The device's variables first, then the managed ones, in order. */
	CHECK(!strcmp(img->vars[0].name, "d") && !img->vars[0].managed &&
	      img->vars[0].offset == 0);
	CHECK(!strcmp(img->vars[1].name, "pd") && !img->vars[1].managed &&
	      img->vars[1].offset == 8);
	CHECK(!strcmp(img->vars[2].name, "m") && img->vars[2].managed &&
	      img->vars[2].offset == 16 && img->vars[2].size == 4);
	CHECK(!strcmp(img->vars[3].name, "pm") && img->vars[3].managed &&
	      img->vars[3].offset == 24 && img->vars[3].size == 8);
	CHECK(img->global_bytes == 32);
	CHECK(img->globals[16] == 3);
	/* pd holds m + 4: managed variable 0, 4 bytes in. */
	memcpy(&v, img->globals + 8, 8);
	CHECK(vg_jit_managed_index(v, &off) == 0 && off == 4);
	/* pm holds d: an offset in the block. */
	memcpy(&v, img->globals + 24, 8);
	CHECK(v == 0 && vg_jit_managed_index(v, &off) == -1);
	CHECK(img->ndata_relocs == 2);
	for (i = 0; i < img->nrelocs; i++)
		managed_relocs += vg_jit_managed_index(img->insns[img->relocs[i]].imm,
						       &off) == 0 && off == 4;
	CHECK(img->nrelocs == 2 && managed_relocs == 1);
	/* Past or before a variable's end it is still that variable. */
	CHECK(vg_jit_managed_index(VG_JIT_MANAGED_ADDR(1) - 8, &off) == 1 &&
	      off == -8);
	CHECK(vg_jit_managed_index(VG_JIT_MANAGED_ADDR(2) + 4096, &off) == 2 &&
	      off == 4096);

	if (vg_modfile_save(img, &file, &len) ||
	    vg_modfile_load(file, len, &back, err, sizeof(err))) {
		TAP_FAIL("round trip: %s", err);
	} else {
		CHECK(back->nvars == 4 && back->vars[2].managed &&
		      back->vars[3].managed && !back->vars[0].managed &&
		      !back->vars[2].is_const);
		vg_jit_free(back);
	}
	free(file);
	vg_jit_free(img);
}

/* .attribute takes .managed alone, on module .global variables. */
static void managed_refused(void)
{
	static const char *const bad[] = {
		PTX_HEAD ".shared .attribute(.managed) .align 4 .u32 s;\n",
		PTX_HEAD ".const .attribute(.managed) .align 4 .u32 c;\n",
		PTX_HEAD ".global .attribute(.unified(1, 2)) .align 4 .u32 u;\n",
		PTX_HEAD ".visible .entry k()\n{\n"
			"\t.global .attribute(.managed) .u32 l;\n\tret;\n}\n",
	};
	struct vg_jit_image *img = NULL;
	char err[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		img = NULL;
		CHECK(vg_jit_compile(bad[i], strlen(bad[i]), &img, err,
				     sizeof(err)) == -1);
		vg_jit_free(img);
	}
}

/*
 * A module whose data would be over 4 GiB is refused with the line of
 * the variable that takes it there, before any of it is allocated: one
 * variable that large, several that add up, a managed one past them.
 */
static void global_data_bounded(void)
{
	static const struct {
		const char *ptx;
		const char *line;
	} bad[] = {
		{ PTX_HEAD ".global .align 1 .b8 big[34444444448];\n", "4:" },
		{ PTX_HEAD ".global .align 8 .b8 a[3221225472];\n"
		  ".global .align 8 .b8 b[2147483648];\n", "5:" },
		{ PTX_HEAD ".global .align 8 .b8 a[3221225472];\n"
		  ".global .attribute(.managed) .align 8 .b8 m[2147483648];\n", "5:" },
		{ PTX_HEAD ".global .align 1 .b8 huge[18446744073709551615];\n", "4:" },
	};
	struct vg_jit_image *img;
	char err[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		img = NULL;
		err[0] = 0;
		CHECK(vg_jit_compile(bad[i].ptx, strlen(bad[i].ptx), &img, err,
				     sizeof(err)) == -1);
		printf("# %s\n", err);
		CHECK(!strncmp(err, bad[i].line, strlen(bad[i].line)));
		if (i < 3)
			CHECK(strstr(err, "over 4 GiB") != NULL);
		vg_jit_free(img);
	}
}

/* PTX's bfi, which the JIT builds from shifts and masks, against C. */
static uint32_t bfi_model(uint32_t f, uint32_t b, uint32_t pos, uint32_t len)
{
	uint32_t i;

	pos &= 0xff;
	len &= 0xff;
	for (i = 0; i < len && pos + i < 32; i++)
		b = (b & ~(1u << (pos + i))) | (((f >> i) & 1) << (pos + i));
	return b;
}

static void bit_field_insert(void)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 k_param_0)\n{\n"
		"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [k_param_0];\n"
		"\tmov.u32 %r1, %tid.x;\n"
		"\tmul.lo.s32 %r2, %r1, 7;\n"
		"\txor.b32 %r2, %r2, -1412623820;\n"
		"\tsub.s32 %r3, -1, %r1;\n"
		"\tmul.lo.s32 %r4, %r1, 3;\n\trem.u32 %r4, %r4, 40;\n"
		"\tmul.lo.s32 %r5, %r1, 5;\n\trem.u32 %r5, %r5, 40;\n"
		"\tbfi.b32 %r6, %r2, %r3, %r4, %r5;\n"
		"\tbfi.b32 %r7, %r2, %r6, 4, 8;\n"
		"\tmul.wide.u32 %rd2, %r1, 8;\n"
		"\tadd.s64 %rd3, %rd1, %rd2;\n"
		"\tst.global.v2.u32 [%rd3], {%r6, %r7};\n"
		"\tret;\n}\n";
	static uint32_t out[2 * 64];
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)out;
	uint32_t t;
	char err[256];
	int bad = 0;

	if (vg_jit_compile(ptx, sizeof(ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(run_image(img, 1, 64, &p, mem) == VGPU_RUN_DONE);
	for (t = 0; t < 64; t++) {
		uint32_t f = (t * 7) ^ 0xabcd1234u, r;

		r = bfi_model(f, ~0u - t, t * 3 % 40, t * 5 % 40);
		bad += out[2 * t] != r;
		bad += out[2 * t + 1] != bfi_model(f, r, 4, 8);
	}
	CHECK(bad == 0);
	vg_jit_free(img);
}

/*
 * Calls to .func functions, inlined: a value returned through a .b32
 * return parameter, an 8-byte struct passed and returned by value, a
 * function that calls another, a guarded call, and an early ret.
 */
static const char calls_ptx[] = PTX_HEAD
	".func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n{\n"
	"\t.reg .b32 %r<3>;\n"
	"\tld.param.u32 %r1, [twice_param_0];\n"
	"\tshl.b32 %r2, %r1, 1;\n"
	"\tst.param.b32 [func_retval0+0], %r2;\n\tret;\n}\n"
	".func (.param .align 4 .b8 func_retval0[8]) swap(.param .align 4 .b8 swap_param_0[8])\n{\n"
	"\t.reg .b32 %r<5>;\n\t.reg .pred %p<2>;\n"
	"\tld.param.u32 %r1, [swap_param_0];\n"
	"\tld.param.u32 %r2, [swap_param_0+4];\n"
	"\tst.param.b32 [func_retval0+0], %r2;\n"
	"\tst.param.b32 [func_retval0+4], %r1;\n"
	"\tsetp.lt.u32 %p1, %r1, 100;\n"
	"\t@%p1 ret;\n"
	"\t{ .param .b32 param0; st.param.b32 [param0+0], %r1;\n"
	"\t.param .b32 retval0;\n"
	"\tcall.uni (retval0), twice, (param0);\n"
	"\tld.param.b32 %r3, [retval0+0]; }\n"
	"\tst.param.b32 [func_retval0+4], %r3;\n"
	"\tret;\n}\n"
	".visible .entry k(.param .u64 k_param_0)\n{\n"
	"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\t{ .param .b32 param0; st.param.b32 [param0+0], %r1;\n"
	"\t.param .b32 retval0;\n"
	"\tcall.uni (retval0), twice, (param0);\n"
	"\tld.param.b32 %r2, [retval0+0]; }\n"
	"\tmov.u32 %r3, 7;\n"
	"\tand.b32 %r4, %r1, 1;\n\tsetp.ne.s32 %p1, %r4, 0;\n"
	"\t{ .param .b32 param0; st.param.b32 [param0+0], %r2;\n"
	"\t.param .b32 retval0;\n"
	"\t@%p1 call.uni (retval0), twice, (param0);\n"
	"\t@%p1 ld.param.b32 %r3, [retval0+0]; }\n"
	"\tmul.lo.s32 %r5, %r1, 60;\n"
	"\t{ .param .align 4 .b8 param0[8];\n"
	"\tst.param.v2.b32 [param0+0], {%r5, %r3};\n"
	"\t.param .align 4 .b8 retval0[8];\n"
	"\tcall.uni (retval0), swap, (param0);\n"
	"\tld.param.v2.b32 {%r6, %r7}, [retval0+0]; }\n"
	"\tmul.wide.u32 %rd2, %r1, 16;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.v4.u32 [%rd3], {%r2, %r3, %r6, %r7};\n"
	"\tret;\n}\n";

static void calls_are_inlined(void)
{
	static uint32_t out[4 * 32];
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)out;
	uint32_t t;
	char err[256];
	int bad = 0;

	if (vg_jit_compile(calls_ptx, sizeof(calls_ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(img->nkernels == 1);
	CHECK(run_image(img, 1, 32, &p, mem) == VGPU_RUN_DONE);
	for (t = 0; t < 32; t++) {
		uint32_t r2 = 2 * t, r3 = t & 1 ? 2 * r2 : 7, r5 = 60 * t;

		bad += out[4 * t] != r2 || out[4 * t + 1] != r3;
		bad += out[4 * t + 2] != r3;
		bad += out[4 * t + 3] != (r5 < 100 ? r5 : 2 * r5);
	}
	CHECK(bad == 0);
	vg_jit_free(img);
}

/*
 * Function pointers, as nvcc writes them: a __device__ table of binary
 * operations, one chosen per thread (lanes of a warp pick different
 * ones), called through .callprototype; a guarded call of a function
 * without a return value through a pointer chosen by selp; a pointer
 * stored to a __device__ variable, loaded back and compared; and a call
 * through pointers the host hands in.
 */
#define BINOP_DECL(f) \
	".func (.param .b32 func_retval0) " f "(.param .b32 " f "_param_0, " \
	".param .b64 " f "_param_1)"
#define BINOP(f, op) BINOP_DECL(f) "\n{\n\t.reg .b32 %r<4>;\n" \
	"\tld.param.u32 %r1, [" f "_param_0];\n" \
	"\tld.param.u32 %r2, [" f "_param_1];\n" \
	"\t" op " %r3, %r1, %r2;\n" \
	"\tst.param.b32 [func_retval0+0], %r3;\n\tret;\n}\n"
#define BUMP(f, n) ".func " f "(.param .b64 " f "_param_0)\n{\n" \
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n" \
	"\tld.param.u64 %rd1, [" f "_param_0];\n" \
	"\tld.u32 %r1, [%rd1];\n\tadd.s32 %r2, %r1, " n ";\n" \
	"\tst.u32 [%rd1], %r2;\n\tret;\n}\n"
/* r = ((binop)%rd<fp>)(%r1, 7) into %r<r>, as nvcc's call sequence. */
#define BINOP_CALL(fp, r) "\t{ // callseq\n" \
	"\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r1;\n" \
	"\t.param .b64 param1;\n\tst.param.b64 [param1+0], 7;\n" \
	"\t.param .b32 retval0;\n" \
	"\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b64 _);\n" \
	"\tcall (retval0), \n\t%rd" fp ", \n\t(\n\tparam0, \n\tparam1\n\t)\n\t, prototype_0;\n" \
	"\tld.param.b32 %r" r ", [retval0+0];\n\t} // callseq\n"

static const char fnptr_ptx[] = PTX_HEAD
	BINOP_DECL("f_add") ";\n" BINOP_DECL("f_mul") ";\n"
	BINOP_DECL("f_sub") ";\n"
	".global .align 8 .u64 table[4] = {f_add, f_mul, f_sub, f_mul};\n"
	".global .align 8 .u64 saved;\n"
	BINOP("f_add", "add.s32") BINOP("f_mul", "mul.lo.s32")
	BINOP("f_sub", "sub.s32") BUMP("bump", "100") BUMP("bump2", "1000")
	/* out[t] = table[sel[t] & 3](t, 7); if (t & 1) (t & 4 ? bump : bump2)(&out[t]) */
	".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<12>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n"
	"\tld.param.u64 %rd2, [k_param_1];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r2, [%rd4];\n"
	"\tand.b32 %r3, %r2, 3;\n"
	"\tmul.wide.u32 %rd5, %r3, 8;\n"
	"\tmov.u64 %rd6, table;\n"
	"\tadd.s64 %rd7, %rd6, %rd5;\n"
	"\tld.global.u64 %rd8, [%rd7];\n"
	BINOP_CALL("8", "4")
	"\tadd.s64 %rd9, %rd1, %rd3;\n"
	"\tst.global.u32 [%rd9], %r4;\n"
	"\tand.b32 %r5, %r1, 4;\n"
	"\tsetp.eq.s32 %p1, %r5, 0;\n"
	"\tmov.u64 %rd10, bump;\n"
	"\tmov.u64 %rd11, bump2;\n"
	"\tselp.b64 %rd10, %rd11, %rd10, %p1;\n"
	"\tand.b32 %r6, %r1, 1;\n"
	"\tsetp.ne.s32 %p2, %r6, 0;\n"
	"\t{ // callseq\n"
	"\t.param .b64 param0;\n"
	"\tst.param.b64 [param0+0], %rd9;\n"
	"\tprototype_1 : .callprototype ()_ (.param .b64 _);\n"
	"\t@%p2 call.uni \n\t%rd10, \n\t(\n\tparam0\n\t)\n\t, prototype_1;\n"
	"\t} // callseq\n"
	"\tret;\n}\n"
	/* out64[0] = (saved = f_sub); out32[2] = table[1] == f_mul */
	".visible .entry kset(.param .u64 kset_param_0)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd1, [kset_param_0];\n"
	"\tmov.u64 %rd2, f_sub;\n"
	"\tst.global.u64 [saved], %rd2;\n"
	"\tld.global.u64 %rd3, [saved];\n"
	"\tst.global.u64 [%rd1], %rd3;\n"
	"\tld.global.u64 %rd4, [table+8];\n"
	"\tsetp.eq.s64 %p1, %rd4, f_mul;\n"
	"\tselp.u32 %r1, 1, 0, %p1;\n"
	"\tst.global.u32 [%rd1+8], %r1;\n"
	"\tret;\n}\n"
	/* out[t] = ptrs[t](t, 7) */
	".visible .entry kcall(.param .u64 kcall_param_0, .param .u64 kcall_param_1)\n{\n"
	"\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<9>;\n"
	"\tld.param.u64 %rd1, [kcall_param_0];\n"
	"\tld.param.u64 %rd2, [kcall_param_1];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd3, %r1, 8;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u64 %rd8, [%rd4];\n"
	BINOP_CALL("8", "4")
	"\tmul.wide.u32 %rd3, %r1, 4;\n"
	"\tadd.s64 %rd5, %rd1, %rd3;\n"
	"\tst.global.u32 [%rd5], %r4;\n"
	"\tret;\n}\n";

static uint32_t binop_model(uint32_t op, uint32_t a, uint32_t b)
{
	return op == 0 ? a + b : op == 2 ? a - b : a * b;
}

static uint32_t kernel_index(const struct vg_jit_image *img, const char *name)
{
	uint32_t i;

	for (i = 0; i < img->nkernels; i++)
		if (!strcmp(img->kernels[i].name, name))
			return i;
	TAP_FAIL("no kernel %s", name);
	exit(1);
}

/*
 * Runs kernel @name of @img over one block of @threads, with the module's
 * variables in @globals (a copy of img->globals in @mem): the relocations
 * point there while it runs.
 */
static int run_module(struct vg_jit_image *img, const char *name,
		      unsigned int threads, const void *params,
		      struct vgpu_range *mem, uint8_t *globals,
		      struct vgpu_fault *fault)
{
	uint32_t k = kernel_index(img, name), i;
	struct vgpu_func *funcs = calloc(img->nkernels, sizeof(*funcs));
	int r;

	for (i = 0; i < img->nkernels; i++)
		funcs[i] = img->kernels[i].f;
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm += (uintptr_t)globals;
	r = core_run_prog(img->insns, img->ninsns, funcs, img->nkernels, k, 1,
			  threads, params, mem, fault);
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm -= (uintptr_t)globals;
	free(funcs);
	return r;
}

static void function_pointers(void)
{
	enum { T = 64 };
	static uint32_t out[T], sel[T];
	static uint64_t ptrs[T];
	struct vg_jit_image *img = NULL;
	struct vgpu_fault fault;
	uint8_t *globals;
	uint64_t table[4], params[2], addr;
	uint32_t t, kinds = 0;
	char err[256];
	int bad = 0;

	if (vg_jit_compile(fnptr_ptx, sizeof(fnptr_ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	/* The table holds each function's address: nonzero, one per function. */
	memcpy(table, img->globals, sizeof(table));
	CHECK(table[0] && table[1] && table[2]);
	CHECK(table[0] != table[1] && table[1] != table[2] && table[0] != table[2]);
	CHECK(table[3] == table[1]);
	globals = calloc(1, img->global_bytes);
	memcpy(globals, img->globals, img->global_bytes);
	{
		struct vgpu_range mem[4] = {
			core_range(out, sizeof(out), true),
			core_range(sel, sizeof(sel), false),
			core_range(globals, img->global_bytes, true), { 0 },
		};

		for (t = 0; t < T; t++) {
			sel[t] = t ^ t >> 2;
			out[t] = 0;
			kinds |= 1u << (sel[t] & 3);
		}
		CHECK(kinds == 15);
		params[0] = (uintptr_t)out;
		params[1] = (uintptr_t)sel;
		CHECK(run_module(img, "k", T, params, mem, globals, NULL) == VGPU_RUN_DONE);
		for (t = 0; t < T; t++) {
			uint32_t want = binop_model(sel[t] & 3, t, 7);

			if (t & 1)
				want += t & 4 ? 100 : 1000;
			bad += out[t] != want;
		}
		CHECK(bad == 0);
		/* What the code takes of a function is what the table holds. */
		memset(out, 0, sizeof(out));
		CHECK(run_module(img, "kset", 1, params, mem, globals, NULL) == VGPU_RUN_DONE);
		memcpy(&addr, out, 8);
		CHECK(addr == table[2]);
		memcpy(&addr, globals + 32, 8);
		CHECK(addr == table[2]);
		CHECK(out[2] == 1);
	}
	{
		struct vgpu_range mem[4] = {
			core_range(out, sizeof(out), true),
			core_range(ptrs, sizeof(ptrs), false),
			core_range(globals, img->global_bytes, true), { 0 },
		};
		static const uint64_t wrong[] = { 0, 0x1234, 1 };
		unsigned int w;

		/* Pointers the host read from the table (cuMemcpyDtoH) work. */
		for (t = 0; t < T; t++)
			ptrs[t] = table[(t * 7) & 3];
		params[0] = (uintptr_t)out;
		params[1] = (uintptr_t)ptrs;
		CHECK(run_module(img, "kcall", T, params, mem, globals, NULL) == VGPU_RUN_DONE);
		bad = 0;
		for (t = 0; t < T; t++)
			bad += out[t] != binop_model((t * 7) & 3, t, 7);
		CHECK(bad == 0);
		/* One that is no function's traps, and the launch faults. */
		for (w = 0; w < sizeof(wrong) / sizeof(wrong[0]); w++) {
			ptrs[37] = w == 2 ? table[0] + wrong[w] : wrong[w];
			memset(&fault, 0, sizeof(fault));
			CHECK(run_module(img, "kcall", T, params, mem, globals,
					 &fault) == VGPU_RUN_FAULT);
			CHECK(fault.kind == VGPU_FAULT_TRAP && fault.thread == 37);
		}
	}
	free(globals);
	vg_jit_free(img);
}

/*
 * What nvcc makes of tests/unit/data/fnptr.cu (FNPTR_PTX, built with the
 * test): virtual calls, a __constant__ table of functions on structs, a
 * pointer one kernel stores for another, one in a packed struct.
 */
static void nvcc_function_pointers(void)
{
	enum { T = 64 };
	static int32_t out[2 * T];
	struct vg_jit_image *img = NULL;
	uint8_t *globals;
	uint64_t param = (uintptr_t)out;
	char err[256], *ptx;
	size_t len = 0;
	float f[2 * T];
	int32_t t, bad = 0;
	FILE *fp = fopen(FNPTR_PTX, "r");

	ptx = malloc(1 << 20);
	if (fp)
		len = fread(ptx, 1, 1 << 20, fp);
	if (!fp || !len || len == 1 << 20) {
		TAP_FAIL("cannot read %s", FNPTR_PTX);
		free(ptx);
		if (fp)
			fclose(fp);
		return;
	}
	fclose(fp);
	if (vg_jit_compile(ptx, len, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		free(ptx);
		return;
	}
	free(ptx);
	globals = calloc(1, img->global_bytes);
	memcpy(globals, img->globals, img->global_bytes);
	{
		struct vgpu_range mem[3] = {
			core_range(out, sizeof(out), true),
			core_range(globals, img->global_bytes, true), { 0 },
		};

		CHECK(run_module(img, "_Z6shapesPi", T, &param, mem, globals,
				 NULL) == VGPU_RUN_DONE);
		for (t = 0; t < T; t++)
			bad += out[t] != (t % 3 == 0 ? t * t : t % 3 == 1 ?
					  t * t / 2 : 3 * t * t);
		CHECK(bad == 0);
		CHECK(run_module(img, "_Z7vectorsP2V2", T, &param, mem, globals,
				 NULL) == VGPU_RUN_DONE);
		memcpy(f, out, sizeof(f));
		for (bad = 0, t = 0; t < T; t++) {
			float x = (float)t, y = (float)(t + 1);

			if (t & 1)
				bad += f[2 * t] != y || f[2 * t + 1] != x + 0.5f;
			else
				bad += f[2 * t] != x * 0.5f || f[2 * t + 1] != y * 0.5f;
		}
		CHECK(bad == 0);
		/* No hook yet: the kernel tests the pointer against null. */
		CHECK(run_module(img, "_Z9call_hookPi", T, &param, mem, globals,
				 NULL) == VGPU_RUN_DONE);
		CHECK(out[0] == -1 && out[T - 1] == -1);
		CHECK(run_module(img, "_Z8set_hookv", 1, NULL, mem, globals,
				 NULL) == VGPU_RUN_DONE);
		CHECK(run_module(img, "_Z9call_hookPi", T, &param, mem, globals,
				 NULL) == VGPU_RUN_DONE);
		for (bad = 0, t = 0; t < T; t++)
			bad += out[t] != t * t * t;
		CHECK(bad == 0);
		CHECK(run_module(img, "_Z6packedPi", T, &param, mem, globals,
				 NULL) == VGPU_RUN_DONE);
		for (bad = 0, t = 0; t < T; t++)
			bad += out[t] != t * t * t + 'e';
		CHECK(bad == 0);
	}
	free(globals);
	vg_jit_free(img);
}

/*
 * Recursion through a pointer is refused like direct recursion: a
 * function that may call itself through a table, and one whose callee
 * may call back into it. A table of other functions of the same shape
 * is no recursion.
 */
static void recursion_through_pointers(void)
{
	static const char head[] = PTX_HEAD
		".func (.param .b32 func_retval0) walk(.param .b32 walk_param_0);\n"
		".func (.param .b32 func_retval0) leaf(.param .b32 leaf_param_0)\n"
		"{\n\tst.param.b32 [func_retval0+0], 1;\n\tret;\n}\n";
	/* walk(x) = hop(x); hop(x) = next[0](x); k calls @entry */
	static const char body[] =
		".func (.param .b32 func_retval0) walk(.param .b32 walk_param_0)\n{\n"
		"\t.reg .b32 %r<3>;\n"
		"\tld.param.u32 %r1, [walk_param_0];\n"
		"\t{ .param .b32 param0; st.param.b32 [param0+0], %r1;\n"
		"\t.param .b32 retval0;\n"
		"\tcall.uni (retval0), hop, (param0);\n"
		"\tld.param.b32 %r2, [retval0+0]; }\n"
		"\tst.param.b32 [func_retval0+0], %r2;\n\tret;\n}\n"
		".func (.param .b32 func_retval0) hop(.param .b32 hop_param_0)\n{\n"
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u32 %r1, [hop_param_0];\n"
		"\tld.global.u64 %rd1, [next];\n"
		"\t{ .param .b32 param0; st.param.b32 [param0+0], %r1;\n"
		"\t.param .b32 retval0;\n"
		"\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"\tcall (retval0), %rd1, (param0), prototype_0;\n"
		"\tld.param.b32 %r2, [retval0+0]; }\n"
		"\tst.param.b32 [func_retval0+0], %r2;\n\tret;\n}\n"
		".visible .entry k(.param .u64 k_param_0)\n{\n"
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u64 %rd1, [k_param_0];\n"
		"\t{ .param .b32 param0; st.param.b32 [param0+0], 5;\n"
		"\t.param .b32 retval0;\n"
		"\tcall.uni (retval0), ";
	static const char tail[] = ", (param0);\n"
		"\tld.param.b32 %r2, [retval0+0]; }\n"
		"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
	static const struct {
		const char *table, *entry, *msg;
	} cases[] = {
		{ "{leaf, walk}", "walk", "31:2: recursive call to 'walk' through a function pointer is not supported" },
		{ "{hop}", "hop", "31:2: recursive call to 'hop' through a function pointer is not supported" },
		/* k, hop, then walk through the pointer: its call of hop */
		{ "{walk}", "hop", "17:2: recursive call to 'hop' is not supported" },
		{ "{leaf}", "walk", NULL },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vg_jit_image *img = NULL;
		char ptx[4096], err[256] = "";

		snprintf(ptx, sizeof(ptx), "%s.global .align 8 .u64 next[] = %s;\n%s%s%s",
			 head, cases[i].table, body, cases[i].entry, tail);
		if (!vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
			if (cases[i].msg)
				TAP_FAIL("case %u compiled", i);
			vg_jit_free(img);
			continue;
		}
		if (!cases[i].msg)
			TAP_FAIL("case %u: refused: %s", i, err);
		else if (strcmp(err, cases[i].msg))
			TAP_FAIL("case %u: got \"%s\", expected \"%s\"", i, err,
				 cases[i].msg);
	}
}

/*
 * Register allocation (ptx_regalloc.c): kernels in which a register slot
 * could be shared wrongly, each against a model of one thread. Every
 * kernel writes one u32 per thread to out[tid].
 */
#define RA_HEAD PTX_HEAD ".visible .entry k(.param .u64 k_param_0)\n{\n" \
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<4>;\n" \
	"\tld.param.u64 %rd1, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n"
#define RA_TAIL "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n" \
	"\tst.global.u32 [%rd3], %r19;\n\tret;\n}\n"

/*
 * A loop whose trip count differs per lane, with an if/else inside: %r2
 * is read only at the loop's top, so it is live around the back edge
 * through the latch's temporaries; %r4 and %r5 are carried around it,
 * and %r3 is read only after the loop.
 */
static const char ra_loop_ptx[] = RA_HEAD
	"\tmul.lo.s32 %r2, %r1, 13;\n"
	"\tadd.s32 %r3, %r1, 7;\n"
	"\tmov.u32 %r4, 0;\n\tmov.u32 %r5, 0;\n"
	"$L__loop:\n"
	"\txor.b32 %r6, %r5, %r2;\n"
	"\tand.b32 %r7, %r5, 1;\n"
	"\tsetp.eq.s32 %p2, %r7, 0;\n"
	"\t@%p2 bra $L__even;\n"
	"\tshl.b32 %r8, %r6, 1;\n"
	"\tadd.s32 %r4, %r4, %r8;\n"
	"\tbra.uni $L__next;\n"
	"$L__even:\n"
	"\tmul.lo.s32 %r9, %r6, 3;\n"
	"\tadd.s32 %r4, %r4, %r9;\n"
	"$L__next:\n"
	"\tadd.s32 %r5, %r5, 1;\n"
	"\tand.b32 %r10, %r1, 7;\n"
	"\tadd.s32 %r11, %r10, 3;\n"
	"\tmul.lo.s32 %r12, %r11, %r5;\n"
	"\txor.b32 %r13, %r12, 5;\n"
	"\tadd.s32 %r4, %r4, %r13;\n"
	"\tsetp.lt.u32 %p1, %r5, %r11;\n"
	"\t@%p1 bra $L__loop;\n"
	"\tadd.s32 %r19, %r4, %r3;\n"
	RA_TAIL;

static uint32_t ra_loop_model(uint32_t t)
{
	uint32_t acc = 0, i = 0, x;

	do {
		x = i ^ (t * 13);
		acc += i & 1 ? x << 1 : x * 3;
		i++;
		acc += (((t & 7) + 3) * i) ^ 5;
	} while (i < (t & 7) + 3);
	return acc + t + 7;
}

/*
 * Divergent if/else: %r2 is read on both paths and after them, %r3 only
 * on the else path and after the join, so the then path's temporaries
 * must not take its slot.
 */
static const char ra_branch_ptx[] = RA_HEAD
	"\tmul.lo.s32 %r2, %r1, 7;\n"
	"\tadd.s32 %r3, %r1, 100;\n"
	"\tand.b32 %r4, %r1, 1;\n"
	"\tsetp.eq.s32 %p1, %r4, 0;\n"
	"\t@%p1 bra $L__else;\n"
	"\tmul.lo.s32 %r5, %r2, 3;\n"
	"\tadd.s32 %r6, %r5, 5;\n"
	"\txor.b32 %r7, %r6, 255;\n"
	"\tmov.u32 %r8, %r7;\n"
	"\tbra.uni $L__join;\n"
	"$L__else:\n"
	"\tmul.lo.s32 %r9, %r3, 5;\n"
	"\tsub.s32 %r10, %r9, %r2;\n"
	"\tshl.b32 %r11, %r10, 2;\n"
	"\tmov.u32 %r8, %r11;\n"
	"$L__join:\n"
	"\tadd.s32 %r12, %r2, %r3;\n"
	"\tadd.s32 %r19, %r12, %r8;\n"
	RA_TAIL;

static uint32_t ra_branch_model(uint32_t t)
{
	uint32_t a = t * 7, b = t + 100;
	uint32_t c = t & 1 ? (a * 3 + 5) ^ 255 : (b * 5 - a) << 2;

	return a + b + c;
}

/*
 * Guarded writes keep the old value where the guard is false: %r2 stays
 * live across the temporaries before its guarded writes. %r7 is written
 * only where %p1 holds, so it is read before any write on the other
 * lanes' path (selp reads it everywhere but keeps it only where %p1).
 */
static const char ra_guard_ptx[] = RA_HEAD
	"\tadd.s32 %r2, %r1, 1000;\n"
	"\tand.b32 %r3, %r1, 3;\n"
	"\tsetp.eq.s32 %p1, %r3, 1;\n"
	"\tmul.lo.s32 %r4, %r1, %r1;\n"
	"\tadd.s32 %r5, %r4, 11;\n"
	"\txor.b32 %r6, %r5, %r1;\n"
	"\t@%p1 add.s32 %r7, %r6, 5;\n"
	"\t@%p1 mov.u32 %r2, %r6;\n"
	"\t@!%p1 mul.lo.s32 %r2, %r2, 3;\n"
	"\tselp.b32 %r8, %r7, 0, %p1;\n"
	"\tadd.s32 %r19, %r8, %r2;\n"
	RA_TAIL;

static uint32_t ra_guard_model(uint32_t t)
{
	uint32_t r6 = (t * t + 11) ^ t;

	return (t & 3) == 1 ? r6 + 5 + r6 : (t + 1000) * 3;
}

static void allocated_registers_keep_results(void)
{
	static const struct {
		const char *name;
		const char *ptx;
		uint32_t (*model)(uint32_t t);
	} cases[] = {
		{ "loop", ra_loop_ptx, ra_loop_model },
		{ "branch", ra_branch_ptx, ra_branch_model },
		{ "guard", ra_guard_ptx, ra_guard_model },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static uint32_t out[64];
		struct vgpu_range mem[2] = {
			core_range(out, sizeof(out), true), { 0 },
		};
		struct vg_jit_image *img = NULL;
		uint64_t p = (uintptr_t)out;
		char err[256];
		uint32_t t;
		int bad = 0;

		if (vg_jit_compile(cases[i].ptx, strlen(cases[i].ptx), &img, err,
				   sizeof(err))) {
			TAP_FAIL("%s: refused: %s", cases[i].name, err);
			continue;
		}
		/* Fewer slots than the 23 registers the PTX declares. */
		if (img->kernels[0].f.nregs >= 12)
			TAP_FAIL("%s: %u registers", cases[i].name,
				 img->kernels[0].f.nregs);
		memset(out, 0, sizeof(out));
		if (run_image(img, 1, 64, &p, mem) != VGPU_RUN_DONE)
			TAP_FAIL("%s: did not run", cases[i].name);
		for (t = 0; t < 64; t++)
			bad += out[t] != cases[i].model(t);
		if (bad)
			TAP_FAIL("%s: %d threads wrong", cases[i].name, bad);
		vg_jit_free(img);
	}
}

/* Step @i of the chain below, in PTX and in C. */
static const char *const chain_ops[] = {
	"add.s32 %%r%u, %%r%u, 12345;\n", "xor.b32 %%r%u, %%r%u, 1431655765;\n",
	"mul.lo.s32 %%r%u, %%r%u, 33;\n", "shr.u32 %%r%u, %%r%u, 1;\n",
};

static uint32_t chain_model(uint32_t v)
{
	unsigned int i;

	for (i = 2; i < 200; i++) {
		switch (i % 4) {
		case 0:
			v += 12345;
			break;
		case 1:
			v ^= 1431655765u;
			break;
		case 2:
			v *= 33;
			break;
		default:
			v >>= 1;
			break;
		}
	}
	return v;
}

/*
 * A kernel that declares 200 registers, each value dying as the next is
 * made, as nvcc writes them: its slots follow what is live.
 */
static void declared_registers_are_not_slots(void)
{
	static uint32_t out[64];
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)out;
	size_t cap = 16384, len;
	char err[256], *ptx = malloc(cap);
	unsigned int i;
	uint32_t t;
	int bad = 0;

	len = (size_t)snprintf(ptx, cap, PTX_HEAD
			       ".visible .entry k(.param .u64 k_param_0)\n{\n"
			       "\t.reg .b32 %%r<200>;\n\t.reg .b64 %%rd<4>;\n"
			       "\tld.param.u64 %%rd1, [k_param_0];\n"
			       "\tmov.u32 %%r1, %%tid.x;\n");
	for (i = 2; i < 200; i++) {
		len += (size_t)snprintf(ptx + len, cap - len, "\t");
		len += (size_t)snprintf(ptx + len, cap - len, chain_ops[i % 4],
					i, i - 1);
	}
	len += (size_t)snprintf(ptx + len, cap - len,
				"\tmul.wide.u32 %%rd2, %%r1, 4;\n"
				"\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
				"\tst.global.u32 [%%rd3], %%r199;\n\tret;\n}\n");
	if (len >= cap || vg_jit_compile(ptx, len, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", len >= cap ? "too long" : err);
		free(ptx);
		return;
	}
	CHECK(img->kernels[0].ptx_regs == 204);
	/* %rd1, %r1 (live to the end), the value in hand and the address. */
	CHECK(img->kernels[0].f.nregs <= 4);
	CHECK(run_image(img, 1, 64, &p, mem) == VGPU_RUN_DONE);
	for (t = 0; t < 64; t++)
		bad += out[t] != chain_model(t);
	CHECK(bad == 0);
	vg_jit_free(img);
	free(ptx);
}

/*
 * Line info (nvcc -lineinfo): every instruction knows the .loc before its
 * PTX instruction, and vg_jit_where() names file and line.
 */
static void source_lines(void)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 k_param_0)\n{\n"
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
		"\t.loc 1 10 1\n"
		"\tld.param.u64 %rd1, [k_param_0];\n"
		"\t.loc 2 20 5\n"
		"\tmov.u32 %r1, 7;\n"
		"\tst.global.u32 [%rd1], %r1;\n"
		"\tret;\n}\n"
		".file 1 \"/a/k.cu\"\n.file 2 \"/a/inc.h\"\n";
	struct vg_jit_image *img = NULL;
	char err[256], where[64];
	uint32_t i, st = UINT32_MAX;

	if (vg_jit_compile(ptx, sizeof(ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	vg_jit_where(img, 0, where, sizeof(where));
	CHECK(!strcmp(where, "/a/k.cu:10"));
	for (i = 0; i < img->ninsns; i++)
		if (img->insns[i].op == VGPU_OP_ST)
			st = i;
	vg_jit_where(img, st, where, sizeof(where));
	CHECK(!strcmp(where, "/a/inc.h:20"));
	vg_jit_where(img, img->ninsns, where, sizeof(where));
	CHECK(!where[0]);
	vg_jit_free(img);
}

/*
 * nvcc passes a constant member mask in a register set by mov just before
 * (__ballot_sync(0xffff, p) in divergent code): the vote waits for those
 * lanes only, and the two halves of the warp vote apart. A register
 * written twice may hold anything: its mask is the whole warp.
 */
static void member_masks_in_registers(void)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry vm(.param .u64 p)\n{\n"
		"\t.reg .pred %p<3>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [p];\n"
		"\tmov.u32 %r1, %tid.x;\n"
		"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
		"\tand.b32 %r2, %r1, 1;\n\tsetp.eq.u32 %p1, %r2, 1;\n"
		"\tsetp.ge.u32 %p2, %r1, 16;\n"
		"\t@%p2 bra $L__high;\n"
		"\tmov.u32 %r3, 65535;\n"
		"\tvote.sync.ballot.b32 %r4, %p1, %r3;\n"
		"\tbra.uni $L__out;\n"
		"$L__high:\n"
		"\tmov.u32 %r5, -65536;\n"
		"\tvote.sync.ballot.b32 %r4, %p1, %r5;\n"
		"$L__out:\n"
		"\tst.global.u32 [%rd3], %r4;\n\tret;\n}\n";
	static const char twice[] = PTX_HEAD
		".visible .entry vt(.param .u64 p)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u64 %rd1, [p];\n"
		"\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 3;\n"
		"\tmov.u32 %r2, 65535;\n\tadd.s32 %r2, %r2, %r1;\n"
		"\tvote.sync.ballot.b32 %r3, %p1, %r2;\n"
		"\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";
	uint32_t out[32], masks[2], n = 0, i, bad = 0;
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)out;
	char err[256];

	if (vg_jit_compile(ptx, sizeof(ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	for (i = 0; i < img->ninsns; i++)
		if (img->insns[i].op == VGPU_OP_VOTE && n < 2)
			masks[n++] = (uint32_t)img->insns[i].imm;
	CHECK(n == 2 && masks[0] == 0xffff && masks[1] == 0xffff0000);
	memset(out, 0xa5, sizeof(out));
	CHECK(core_run(img->insns, img->ninsns, img->kernels[0].f, 1, 32, &p,
		       mem, NULL) == VGPU_RUN_DONE);
	for (i = 0; i < 32; i++)
		bad += out[i] != (i < 16 ? 0xaaaaU : 0xaaaa0000U);
	CHECK(bad == 0);
	vg_jit_free(img);

	img = NULL;
	if (vg_jit_compile(twice, sizeof(twice) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	for (i = 0, n = 0; i < img->ninsns; i++)
		if (img->insns[i].op == VGPU_OP_VOTE)
			n += img->insns[i].imm == 0xffffffffU;
	CHECK(n == 1);
	vg_jit_free(img);
}

/*
 * %envreg1 and %envreg2 are the high and low halves of a cooperative
 * launch's grid workspace.
 */
static void environment_registers(void)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry env(.param .u64 p)\n{\n"
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u64 %rd1, [p];\n"
		"\tmov.u32 %r1, %envreg1;\n\tmov.u32 %r2, %envreg2;\n"
		"\tst.global.v2.u32 [%rd1], {%r1, %r2};\n\tret;\n}\n";
	static const unsigned int grid[3] = { 1, 1, 1 };
	uint32_t out[2] = { 0, 0 };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vg_jit_image *img = NULL;
	uint64_t p = (uintptr_t)out;
	char err[256];

	if (vg_jit_compile(ptx, sizeof(ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	CHECK(core_run_gang(img->insns, img->ninsns, img->kernels[0].f, grid, 1,
			    &p, mem, 0x123456789abcdef8ULL, 100, NULL) ==
	      VGPU_RUN_DONE);
	CHECK(out[0] == 0x12345678 && out[1] == 0x9abcdef8);
	CHECK(core_run_gang(img->insns, img->ninsns, img->kernels[0].f, grid, 1,
			    &p, mem, 0, 100, NULL) == VGPU_RUN_DONE);
	CHECK(out[0] == 0 && out[1] == 0);
	vg_jit_free(img);
}

/*
 * nvcc's this_grid().sync() (tests/gridsync_ptx.h) over a 3 x 2 grid
 * whose blocks take turns, as the module runs a cooperative launch:
 * after each barrier every block sees all six blocks counted, and the
 * workspace's arrival count is back at 0 with its sign bit flipped once
 * per barrier. Without a workspace, the kernel traps.
 */
static void grid_sync_of_nvcc(void)
{
	enum { NB = 6, NR = 5 };
	static const unsigned int grid[3] = { 3, 2, 1 };
	uint32_t cnt[NR] = { 0 }, seen[NR * NB], ws[2] = { 0, 0 };
	struct vgpu_range mem[4] = {
		core_range(cnt, sizeof(cnt), true),
		core_range(seen, sizeof(seen), true),
		core_range(ws, sizeof(ws), true), { 0 },
	};
	struct vg_jit_image *img = NULL;
	struct vgpu_fault fault = { 0 };
	uint64_t pc = (uintptr_t)cnt, ps = (uintptr_t)seen;
	int32_t nr = NR;
	unsigned char params[20];
	char err[256];
	int i, bad = 0;

	memset(seen, 0xff, sizeof(seen));
	if (vg_jit_compile(gridsync_ptx, sizeof(gridsync_ptx) - 1, &img, err,
			   sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	REQUIRE_RES(1, img->kernels[0].nparams == 3 &&
		    img->kernels[0].params[2].offset == 16);
	memcpy(params, &pc, 8);
	memcpy(params + 8, &ps, 8);
	memcpy(params + 16, &nr, 4);
	CHECK(core_run_gang(img->insns, img->ninsns, img->kernels[0].f, grid, 64,
			    params, mem, (uintptr_t)ws, 300, &fault) ==
	      VGPU_RUN_DONE);
	for (i = 0; i < NR * NB; i++)
		bad += seen[i] != NB;
	CHECK(bad == 0);
	CHECK(ws[0] == 0 && ws[1] == (NR % 2 ? 0x80000000u : 0));
	CHECK(core_run_gang(img->insns, img->ninsns, img->kernels[0].f, grid, 64,
			    params, mem, 0, 300, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_TRAP);
	vg_jit_free(img);
}

#define HEAP_DECLS \
	".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n" \
	".extern .func free(.param .b64 free_param_0);\n"

/*
 * Calls to malloc and free become one heap operation each, run by the
 * lanes of the call: here lanes 0 and 1 of 4 (a guarded call). The core
 * in user space has no heap, so malloc gives them 0; the others keep 7.
 */
static void malloc_and_free_calls(void)
{
	static const char ptx[] = PTX_HEAD HEAP_DECLS
		".visible .entry k(.param .u64 k_param_0)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<6>;\n"
		"\tld.param.u64 %rd1, [k_param_0];\n"
		"\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 2;\n"
		"\tmov.u64 %rd2, 7;\n"
		"\t{ // callseq 0, 0\n\t.param .b64 param0;\n"
		"\tst.param.b64 [param0], 48;\n\t.param .b64 retval0;\n"
		"\t@%p1 call.uni (retval0), \n\tmalloc, \n\t(\n\tparam0\n\t);\n"
		"\t@%p1 ld.param.b64 %rd2, [retval0];\n\t} // callseq 0\n"
		"\tmul.wide.u32 %rd3, %r1, 8;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
		"\tst.global.u64 [%rd4], %rd2;\n"
		"\t{ // callseq 1, 0\n\t.param .b64 param0;\n"
		"\tst.param.b64 [param0], %rd2;\n"
		"\t@%p1 call.uni \n\tfree, \n\t(\n\tparam0\n\t);\n"
		"\t} // callseq 1\n\tret;\n}\n";
	struct vg_jit_image *img = NULL;
	char err[256] = "";
	uint64_t out[4] = { 1, 1, 1, 1 }, params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	unsigned int i, nmalloc = 0, nfree = 0;

	if (vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	for (i = 0; i < img->ninsns; i++) {
		const struct vgpu_insn *in = &img->insns[i];

		if (in->op != VGPU_OP_MALLOC && in->op != VGPU_OP_FREE)
			continue;
		nmalloc += in->op == VGPU_OP_MALLOC;
		nfree += in->op == VGPU_OP_FREE;
		CHECK(in->type == VGPU_T_U64 && in->guard != VGPU_PRED_NONE);
	}
	CHECK(nmalloc == 1 && nfree == 1);
	CHECK(run_image(img, 1, 4, params, mem) == VGPU_RUN_DONE);
	CHECK(out[0] == 0 && out[1] == 0 && out[2] == 7 && out[3] == 7);
	vg_jit_free(img);
}

/* Calls to malloc and free of another shape: refused, with the line. */
static void malloc_and_free_refusals(void)
{
	static const struct {
		const char *decls;
		const char *body;
		const char *msg;
	} cases[] = {
		{ HEAP_DECLS, "\t{ .param .b64 q; call.uni malloc, (q); }\n",
		  "8:19: call.uni: malloc takes a size and returns a pointer" },
		{ HEAP_DECLS, "\t{ .param .b64 q; .param .b64 r; call.uni (r), free, (q); }\n",
		  "8:34: call.uni: free takes a pointer and returns nothing" },
		{ HEAP_DECLS, "\t{ .param .b64 q; call.uni free, (q, q); }\n",
		  "8:19: call.uni: free takes a pointer and returns nothing" },
		{ ".extern .func (.param .b32 func_retval0) malloc(.param .b32 a);\n"
		  ".extern .func free(.param .b64 a);\n",
		  "\t{ .param .b32 q; .param .b32 r; call.uni (r), malloc, (q); }\n",
		  "8:34: call.uni: malloc and free take and return 64-bit .param scalars" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vg_jit_image *img = NULL;
		char ptx[1024], err[256] = "";

		/* The call is on line 8. */
		snprintf(ptx, sizeof(ptx), PTX_HEAD "%s"
			 ".visible .entry k()\n{\n%s\tret;\n}\n",
			 cases[i].decls, cases[i].body);
		if (!vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
			TAP_FAIL("case %u compiled", i);
			vg_jit_free(img);
			continue;
		}
		if (strcmp(err, cases[i].msg))
			TAP_FAIL("case %u: got \"%s\", expected \"%s\"", i, err,
				 cases[i].msg);
	}
}

/* What the JIT refuses, at the instruction's line and column. */
static void refusals(void)
{
	static const struct {
		const char *body;
		const char *msg;
	} cases[] = {
		{ "\tcall.uni k, ();\n", "11:2: recursive call to 'k' is not supported" },
		{ "\t{ .param .b32 q; call.uni f, (q); }\n", "11:19: call passes 1 values where 'f' takes 0" },
		{ "\tbar.sync 1, 48;\n", "11:2: bar.sync: thread count must be a multiple of 32 from 32 to 1024" },
		{ "\tbarrier.arrive 1;\n", "11:2: barrier.arrive: arrive needs a barrier number and a thread count" },
		{ "\tbar.sync 16;\n", "11:2: bar.sync: barrier number must be from 0 to 15" },
		{ "\tbar.red.popc.u32 %r1, 0, 0, 64, %p1;\n", "11:2: bar.red.popc.u32: wrong number of operands" },
		{ "\tbar.red.or.pred;\n", "11:2: bar.red.or.pred: wrong number of operands" },
		{ "\tadd.rz.f16 %h1, %h1, %h1;\n", "11:2: add.rz.f16: only round-to-nearest half precision without ftz is supported" },
		{ "\tcvt.s32.f32 %r1, %f1;\n", "11:2: cvt.s32.f32: float to integer needs .rni, .rzi, .rmi or .rpi" },
		{ "\tsetp.ltu.s32 %p1, %r1, %r1;\n", "11:2: setp.ltu.s32: unordered comparison of integers" },
		{ "\tbrkpt;\n", "11:2: brkpt: unsupported instruction" },
		{ "\tcall %rd1, ();\n", "11:2: call: a call through a pointer needs a .callprototype" },
		{ "\t{ .param .b32 q; p: .callprototype _ (.param .b32 _); call %r1, (q), p; }\n",
		  "11:56: a function pointer must be a 64-bit register" },
		{ "\t{ .param .b32 q; p: .callprototype _ (.param .b32 _, .param .b32 _); call %rd1, (q), p; }\n",
		  "11:71: call does not match prototype 'p'" },
		{ "\tmov.u64 %rd1, k;\n", "11:16: the address of kernel 'k' is not supported" },
		{ "\tld.u32 %r1, [f];\n", "11:14: 'f' is a function, not data" },
		{ "\tmov.u32 %r1, %envreg0;\n", "11:15: %envreg0 is not supported (only %envreg1 and %envreg2, a cooperative launch's grid workspace)" },
		{ "\tmov.u32 %r1, %envreg5;\n", "11:15: %envreg5 is not supported (only %envreg1 and %envreg2, a cooperative launch's grid workspace)" },
		{ "\tmov.u32 %r1, %envreg31;\n", "11:15: %envreg31 is not supported (only %envreg1 and %envreg2, a cooperative launch's grid workspace)" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vg_jit_image *img = NULL;
		char ptx[1024], err[256] = "";

		/* The instruction is on line 11. */
		snprintf(ptx, sizeof(ptx), PTX_HEAD
			 ".func f()\n{\n\tret;\n}\n"
			 ".visible .entry k()\n{\n"
			 "\t.reg .pred %%p<2>; .reg .b32 %%r<2>; .reg .f32 %%f<2>; .reg .b16 %%h<2>; .reg .b64 %%rd<2>;\n"
			 "%s\tret;\n}\n", cases[i].body);
		if (!vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
			TAP_FAIL("case %u compiled", i);
			vg_jit_free(img);
			continue;
		}
		if (strcmp(err, cases[i].msg))
			TAP_FAIL("case %u: got \"%s\", expected \"%s\"", i, err,
				 cases[i].msg);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(vector_add_runs_on_the_core),
	TAP_TEST(shared_barrier_and_loop),
	TAP_TEST(named_barriers),
	TAP_TEST(module_variables),
	TAP_TEST(managed_variables),
	TAP_TEST(managed_refused),
	TAP_TEST(global_data_bounded),
	TAP_TEST(bit_field_insert),
	TAP_TEST(calls_are_inlined),
	TAP_TEST(function_pointers),
	TAP_TEST(nvcc_function_pointers),
	TAP_TEST(recursion_through_pointers),
	TAP_TEST(source_lines),
	TAP_TEST(allocated_registers_keep_results),
	TAP_TEST(declared_registers_are_not_slots),
	TAP_TEST(member_masks_in_registers),
	TAP_TEST(environment_registers),
	TAP_TEST(grid_sync_of_nvcc),
	TAP_TEST(malloc_and_free_calls),
	TAP_TEST(malloc_and_free_refusals),
	TAP_TEST(refusals),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
