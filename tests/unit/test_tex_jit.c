// SPDX-License-Identifier: MIT
/*
 * The texture and surface instructions from PTX to the core: tex (plain,
 * .level, .grad, integer coordinates, texel offsets), tld4, txq, suld
 * and sust with each clamp mode, istypep, and .texref variables,
 * JIT-compiled and run by the interpreter over descriptors in the test's
 * memory. The sampler's own numbers are test_tex_h100's; here each lane's
 * fetch must give what the core's vgpu_tex_sample() gives for the same
 * request, and faults and bad handles behave as on an H100
 * (tests/e2e/ref/h100_texobj.log).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_run.h"
#include "jit.h"
#include "tap.h"
#include "tex.h"

#define PTX_HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

#define W 8
#define H 8

/* Texels and a descriptor over them: 8x8 float4, normalized, linear, wrap. */
static float texels[H][W][4];
static struct vgpu_tex_desc desc __attribute__((aligned(16)));

static void make_texture(void)
{
	int x, y, c;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			for (c = 0; c < 4; c++)
				texels[y][x][c] = (float)(y * 100 + x * 10 + c) * 0.25f;
	memset(&desc, 0, sizeof(desc));
	desc.magic = VGPU_TEX_MAGIC;
	desc.kind = VGPU_TEXK_2D;
	desc.format = VGPU_TEXF_F32;
	desc.channels = 4;
	desc.levels = 1;
	desc.addr = (uintptr_t)texels;
	desc.pitch = W * 16;
	desc.width = W;
	desc.height = H;
	desc.depth = 1;
	desc.flags = VGPU_TEX_NORMALIZED | VGPU_TEX_LINEAR;
	desc.max_aniso = 1;
}

static bool read_host(void *ctx, u64 va, void *buf, u32 n)
{
	(void)ctx;
	memcpy(buf, (void *)(uintptr_t)va, n);
	return true;
}

/* Compiles @ptx and runs its first kernel on @threads threads. */
static int run(const char *ptx, unsigned int threads, const void *params,
	       struct vgpu_range *mem, struct vgpu_fault *fault)
{
	struct vg_jit_image *img = NULL;
	char err[512];
	int r;

	if (vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return -2;
	}
	r = core_run(img->insns, img->ninsns, img->kernels[0].f, 1, threads,
		     params, mem, fault);
	vg_jit_free(img);
	return r;
}

static const char fetch_ptx[] = PTX_HEAD
	".visible .entry k(.param .u64 t, .param .u64 c, .param .u64 o)\n{\n"
	"  .reg .b32 %r<40>; .reg .f32 %f<40>; .reg .b64 %rd<10>;\n"
	"  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [c]; ld.param.u64 %rd3, [o];\n"
	"  mov.u32 %r1, %tid.x; mul.wide.u32 %rd4, %r1, 8; add.s64 %rd5, %rd2, %rd4;\n"
	"  ld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
	"  mul.wide.u32 %rd6, %r1, 80; add.s64 %rd7, %rd3, %rd6;\n"
	"  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
	"  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};\n"
	"  tld4.g.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f1, %f2}];\n"
	"  st.global.v4.f32 [%rd7+16], {%f7, %f8, %f9, %f10};\n"
	"  tex.level.2d.v4.f32.f32 {%f11, %f12, _, %f14}, [%rd1, {%f1, %f2}], 0f00000000;\n"
	"  st.global.v2.f32 [%rd7+32], {%f11, %f12}; st.global.f32 [%rd7+44], %f14;\n"
	"  tex.grad.2d.v4.f32.f32 {%f15, %f16, %f17, %f18}, [%rd1, {%f1, %f2}], {%f1, %f2}, {%f2, %f1};\n"
	"  st.global.v4.f32 [%rd7+48], {%f15, %f16, %f17, %f18};\n"
	"  cvt.rzi.s32.f32 %r2, %f1; cvt.rzi.s32.f32 %r3, %f2;\n"
	"  tex.2d.v4.f32.s32 {%f19, %f20, %f21, %f22}, [%rd1, {%r2, %r3}];\n"
	"  st.global.v4.f32 [%rd7+64], {%f19, %f20, %f21, %f22};\n"
	"  ret;\n}\n";

/* Each lane's fetches are the sampler's answers to the same requests. */
static void fetches_match_the_sampler(void)
{
	enum { N = 64 };
	static float coords[N][2], out[N][20];
	struct vgpu_range mem[] = {
		core_range(coords, sizeof(coords), false),
		core_range(out, sizeof(out), true),
		core_range(&desc, sizeof(desc), false),
		core_range(texels, sizeof(texels), false), { 0 },
	};
	uint64_t params[3] = { (uintptr_t)&desc, (uintptr_t)coords, (uintptr_t)out };
	int i, k, bad = 0;

	make_texture();
	for (i = 0; i < N; i++) {
		coords[i][0] = (float)i / 17.0f - 0.7f;
		coords[i][1] = (float)(i * 7 % 23) / 9.0f - 0.3f;
	}
	if (run(fetch_ptx, N, params, mem, NULL) != VGPU_RUN_DONE) {
		TAP_FAIL("the kernel did not run to the end");
		return;
	}
	for (i = 0; i < N; i++) {
		struct vgpu_tex_req q = { .coord = { 0 } };
		u32 want[4], lod0[4];
		u64 fva;

		memcpy(&q.coord[0], &coords[i][0], 4);
		memcpy(&q.coord[1], &coords[i][1], 4);
		vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
		bad += memcmp(want, out[i], 16) != 0;
		q.variant = VGPU_TEXV_GATHER;
		q.comp = 1;
		vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
		bad += memcmp(want, out[i] + 4, 16) != 0;
		q.variant = VGPU_TEXV_LEVEL;
		q.comp = 0;
		vgpu_tex_sample(&desc, &q, read_host, NULL, lod0, &fva);
		bad += memcmp(lod0, out[i] + 8, 8) != 0 || memcmp(lod0 + 3, out[i] + 11, 4) != 0;
		q.variant = VGPU_TEXV_GRAD;
		memcpy(&q.grad[0], &coords[i][0], 4);
		memcpy(&q.grad[1], &coords[i][1], 4);
		memcpy(&q.grad[3], &coords[i][1], 4);
		memcpy(&q.grad[4], &coords[i][0], 4);
		vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
		bad += memcmp(want, out[i] + 12, 16) != 0;
		/* integer coordinates: the texel itself, zeros outside */
		{
			int x = (int)coords[i][0], y = (int)coords[i][1];

			for (k = 0; k < 4; k++) {
				float t = x >= 0 && x < W && y >= 0 && y < H ?
					  texels[y][x][k] : 0;

				bad += out[i][16 + k] != t;
			}
		}
	}
	CHECK(bad == 0);
}

static const char query_ptx[] = PTX_HEAD
	".visible .entry q(.param .u64 t, .param .u64 o)\n{\n"
	"  .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
	"  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [o];\n"
	"  txq.width.b32 %r1, [%rd1]; txq.height.b32 %r2, [%rd1];\n"
	"  txq.depth.b32 %r3, [%rd1]; txq.level.width.b32 %r4, [%rd1], 1;\n"
	"  suq.width.b32 %r5, [%rd1];\n"
	"  istypep.texref %p1, %rd1; selp.u32 %r6, 1, 0, %p1;\n"
	"  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n"
	"  st.global.v2.u32 [%rd2+16], {%r5, %r6};\n"
	"  ret;\n}\n";

/* txq and suq as an H100 answers: a 2D layered texture's layers as depth. */
static void queries_answer_as_an_h100(void)
{
	static uint32_t out[6];
	struct vgpu_range mem[] = {
		core_range(out, sizeof(out), true),
		core_range(&desc, sizeof(desc), false), { 0 },
	};
	uint64_t params[2] = { (uintptr_t)&desc, (uintptr_t)out };

	make_texture();
	desc.kind = VGPU_TEXK_2D_LAYERED;
	desc.depth = 5;
	if (run(query_ptx, 1, params, mem, NULL) != VGPU_RUN_DONE) {
		TAP_FAIL("the kernel did not run to the end");
		return;
	}
	CHECK(out[0] == W && out[1] == H && out[2] == 5);
	CHECK(out[3] == 0);	/* no level 1 */
	CHECK(out[4] == W);
	CHECK(out[5] == 0);	/* istypep: never for a handle */
}

/* Handle 0 and a cleared descriptor read zeros; an unmapped one faults. */
static void bad_handles(void)
{
	static float coords[2] = { 0.5f, 0.5f }, out[20];
	struct vgpu_range mem[] = {
		core_range(coords, sizeof(coords), false),
		core_range(out, sizeof(out), true),
		core_range(&desc, sizeof(desc), false),
		core_range(texels, sizeof(texels), false), { 0 },
	};
	uint64_t params[3] = { 0, (uintptr_t)coords, (uintptr_t)out };
	struct vgpu_fault f;
	int i, nonzero = 0;

	make_texture();
	memset(out, 0x55, sizeof(out));
	CHECK(run(fetch_ptx, 1, params, mem, NULL) == VGPU_RUN_DONE);
	for (i = 0; i < 20; i++)
		nonzero += i != 10 && out[i] != 0;	/* (out[10] is not written) */
	CHECK(nonzero == 0);
	desc.magic = 0;		/* a destroyed object */
	params[0] = (uintptr_t)&desc;
	memset(out, 0x55, sizeof(out));
	CHECK(run(fetch_ptx, 1, params, mem, NULL) == VGPU_RUN_DONE);
	for (i = 0, nonzero = 0; i < 20; i++)
		nonzero += i != 10 && out[i] != 0;
	CHECK(nonzero == 0);
	params[0] = 0x123456789ULL;
	CHECK(run(fetch_ptx, 1, params, mem, &f) == VGPU_RUN_FAULT);
	CHECK(f.kind == VGPU_FAULT_ADDRESS && f.addr == 0x123456789ULL);
}

static const char surf_ptx[] = PTX_HEAD
	".visible .entry s(.param .u64 s, .param .u32 x, .param .u32 y, .param .u64 o)\n{\n"
	"  .reg .b32 %r<12>; .reg .b64 %rd<4>;\n"
	"  ld.param.u64 %rd1, [s]; ld.param.u32 %r1, [x]; ld.param.u32 %r2, [y];\n"
	"  ld.param.u64 %rd2, [o];\n"
	"  mov.b32 %r3, 7; sust.b.2d.b32.zero [%rd1, {%r1, %r2}], {%r3};\n"
	"  suld.b.2d.b32.zero {%r4}, [%rd1, {%r1, %r2}];\n"
	"  mov.b32 %r5, 9; sust.b.2d.b32.clamp [%rd1, {%r1, %r2}], {%r5};\n"
	"  suld.b.2d.b32.clamp {%r6}, [%rd1, {%r1, %r2}];\n"
	"  mov.b32 %r7, 11; mov.b32 %r8, 12; mov.b32 %r0, 0; mov.b32 %r11, 1;\n"
	"  sust.b.2d.v2.b32.trap [%rd1, {%r0, %r11}], {%r7, %r8};\n"
	"  suld.b.2d.v2.b32.trap {%r9, %r10}, [%rd1, {%r0, %r11}];\n"
	"  st.global.v4.u32 [%rd2], {%r4, %r6, %r9, %r10};\n"
	"  ret;\n}\n";

static const char surf_trap_ptx[] = PTX_HEAD
	".visible .entry s(.param .u64 s, .param .u32 x, .param .u32 y, .param .u64 o)\n{\n"
	"  .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
	"  ld.param.u64 %rd1, [s]; ld.param.u32 %r1, [x]; ld.param.u32 %r2, [y];\n"
	"  mov.b32 %r3, 5; sust.b.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};\n"
	"  ret;\n}\n";

/* Surface stores and loads in range, past it in each mode, misaligned. */
static void surfaces(void)
{
	static uint32_t cells[4][8], out[4];
	static struct vgpu_tex_desc sd __attribute__((aligned(16)));
	struct vgpu_range mem[] = {
		core_range(cells, sizeof(cells), true),
		core_range(out, sizeof(out), true),
		core_range(&sd, sizeof(sd), false), { 0 },
	};
	struct { uint64_t s; uint32_t x, y; uint64_t o; } p = {
		(uintptr_t)&sd, 8, 2, (uintptr_t)out };
	struct vgpu_fault f;

	memset(&sd, 0, sizeof(sd));
	sd.magic = VGPU_TEX_MAGIC;
	sd.kind = VGPU_TEXK_2D;
	sd.format = VGPU_TEXF_U32;
	sd.channels = 1;
	sd.levels = 1;
	sd.addr = (uintptr_t)cells;
	sd.pitch = 32;
	sd.width = 8;
	sd.height = 4;
	sd.depth = 1;
	sd.flags = VGPU_TEX_SURFACE;
	CHECK(run(surf_ptx, 1, &p, mem, NULL) == VGPU_RUN_DONE);
	CHECK(out[0] == 7 && out[1] == 9 && cells[2][2] == 9);
	CHECK(out[2] == 11 && out[3] == 12 && cells[1][0] == 11 && cells[1][1] == 12);
	/* Past the right edge: zero drops the store and reads 0; clamp takes the edge. */
	memset(cells, 0, sizeof(cells));
	p.x = 40;
	p.y = 3;
	CHECK(run(surf_ptx, 1, &p, mem, NULL) == VGPU_RUN_DONE);
	CHECK(out[0] == 0 && out[1] == 9 && cells[3][7] == 9);
	/* Trapping out of range, and any misaligned x, fault. */
	p.x = 32;
	p.y = 0;
	CHECK(run(surf_trap_ptx, 1, &p, mem, &f) == VGPU_RUN_FAULT);
	CHECK(f.kind == VGPU_FAULT_ADDRESS);
	p.x = 6;
	CHECK(run(surf_trap_ptx, 1, &p, mem, &f) == VGPU_RUN_FAULT);
	CHECK(f.kind == VGPU_FAULT_MISALIGNED);
}

static const char texref_ptx[] = PTX_HEAD
	".global .texref tr;\n"
	".visible .entry r(.param .u64 o)\n{\n"
	"  .reg .f32 %f<6>; .reg .b64 %rd<2>;\n"
	"  ld.param.u64 %rd1, [o];\n"
	"  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tr, {0f3f000000, 0f3f000000}];\n"
	"  st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};\n"
	"  ret;\n}\n";

/* A .texref is a variable holding a descriptor's address, named in tex. */
static void texref_variables(void)
{
	struct vg_jit_image *img = NULL;
	char err[512];

	/* Constant coordinates, which ptxas takes too. */
	CHECK(vg_jit_compile(texref_ptx, strlen(texref_ptx), &img, err, sizeof(err)) == 0);
	if (img)
		vg_jit_free(img);
	img = NULL;
	{
		static const char ok[] = PTX_HEAD
			".global .texref tr;\n.global .surfref sr;\n"
			".visible .entry r(.param .u64 o)\n{\n"
			"  .reg .f32 %f<6>; .reg .b64 %rd<2>; .reg .b32 %r<3>; .reg .pred %p<2>;\n"
			"  ld.param.u64 %rd1, [o]; mov.f32 %f5, 0f3f000000;\n"
			"  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tr, {%f5, 0f3f000000}];\n"
			"  st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};\n"
			"  txq.width.b32 %r1, [tr]; st.global.u32 [%rd1+16], %r1;\n"
			"  istypep.texref %p1, tr; selp.u32 %r2, 1, 0, %p1;\n"
			"  st.global.u32 [%rd1+20], %r2;\n"
			"  ret;\n}\n";
		static float out[6];
		uint64_t params[1] = { (uintptr_t)out };
		uint8_t *globals;
		uint32_t i, ref = 0;

		if (vg_jit_compile(ok, strlen(ok), &img, err, sizeof(err))) {
			TAP_FAIL("refused: %s", err);
			return;
		}
		for (i = 0; i < img->nvars; i++)
			if (!strcmp(img->vars[i].name, "tr"))
				ref = img->vars[i].ref;
		CHECK(ref == VG_JIT_REF_TEX);
		/* The loader's part: the global block, the variable bound. */
		globals = calloc(1, img->global_bytes + 8);
		make_texture();
		for (i = 0; i < img->nvars; i++)
			if (!strcmp(img->vars[i].name, "tr")) {
				uint64_t a = (uintptr_t)&desc;

				memcpy(globals + img->vars[i].offset, &a, 8);
			}
		for (i = 0; i < img->nrelocs; i++)
			img->insns[img->relocs[i]].imm += (uintptr_t)globals;
		{
			struct vgpu_range mem[] = {
				core_range(out, sizeof(out), true),
				core_range(globals, img->global_bytes, false),
				core_range(&desc, sizeof(desc), false),
				core_range(texels, sizeof(texels), false), { 0 },
			};
			u32 want[4];
			u64 fva;
			struct vgpu_tex_req q = { .coord = { 0x3f000000, 0x3f000000 } };

			CHECK(core_run(img->insns, img->ninsns, img->kernels[0].f, 1, 1,
				       params, mem, NULL) == VGPU_RUN_DONE);
			vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
			CHECK(!memcmp(want, out, 16));
			CHECK(((uint32_t *)out)[4] == W);
			CHECK(((uint32_t *)out)[5] == 1);
		}
		free(globals);
		vg_jit_free(img);
	}
}

static const char offset_ptx[] = PTX_HEAD
	".visible .entry k(.param .u64 t, .param .u64 c, .param .u64 o)\n{\n"
	"  .reg .b32 %r<40>; .reg .f32 %f<40>; .reg .b64 %rd<10>;\n"
	"  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [c]; ld.param.u64 %rd3, [o];\n"
	"  mov.u32 %r1, %tid.x; mul.wide.u32 %rd4, %r1, 8; add.s64 %rd5, %rd2, %rd4;\n"
	"  ld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
	"  mul.wide.u32 %rd6, %r1, 64; add.s64 %rd7, %rd3, %rd6;\n"
	"  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}], {-9, 8};\n"
	"  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};\n"
	"  and.b32 %r2, %r1, 7; sub.s32 %r2, %r2, 4; sub.s32 %r3, 11, %r2;\n"
	"  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}], {%r2, %r3}, %f1;\n"
	"  st.global.v4.f32 [%rd7+16], {%f3, %f4, %f5, %f6};\n"
	"  tld4.b.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}], {-33, %r2};\n"
	"  st.global.v4.f32 [%rd7+32], {%f3, %f4, %f5, %f6};\n"
	"  cvt.rzi.s32.f32 %r4, %f1; cvt.rzi.s32.f32 %r5, %f2;\n"
	"  tex.2d.v4.f32.s32 {%f3, %f4, %f5, %f6}, [%rd1, {%r4, %r5}], {%r3, -1};\n"
	"  st.global.v4.f32 [%rd7+48], {%f3, %f4, %f5, %f6};\n"
	"  ret;\n}\n";

/*
 * Texel offsets, immediate and in registers, reach the sampler wrapped as
 * an H100 wraps them: tex's to 4 bits, tld4's to 6 (the depth comparison
 * operand changes nothing).
 */
static void offsets_reach_the_sampler(void)
{
	enum { N = 64 };
	static float coords[N][2], out[N][16];
	struct vgpu_range mem[] = {
		core_range(coords, sizeof(coords), false),
		core_range(out, sizeof(out), true),
		core_range(&desc, sizeof(desc), false),
		core_range(texels, sizeof(texels), false), { 0 },
	};
	uint64_t params[3] = { (uintptr_t)&desc, (uintptr_t)coords, (uintptr_t)out };
	int i, bad = 0;

	make_texture();
	for (i = 0; i < N; i++) {
		coords[i][0] = (float)i / 13.0f - 0.4f;
		coords[i][1] = (float)(i * 5 % 19) / 7.0f - 0.2f;
	}
	if (run(offset_ptx, N, params, mem, NULL) != VGPU_RUN_DONE) {
		TAP_FAIL("the kernel did not run to the end");
		return;
	}
	for (i = 0; i < N; i++) {
		int r2 = (i & 7) - 4, r3 = 11 - r2 - 16;	/* 8..15 wrap */
		struct vgpu_tex_req q = { .off = { 7, -8 } };
		u32 want[4];
		u64 fva;

		memcpy(&q.coord[0], &coords[i][0], 4);
		memcpy(&q.coord[1], &coords[i][1], 4);
		vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
		bad += memcmp(want, out[i], 16) != 0;
		q.off[0] = (s8)r2;
		q.off[1] = (s8)r3;
		vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
		bad += memcmp(want, out[i] + 4, 16) != 0;
		q.variant = VGPU_TEXV_GATHER;
		q.comp = 2;
		q.off[0] = 31;
		q.off[1] = (s8)r2;
		vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
		bad += memcmp(want, out[i] + 8, 16) != 0;
		q.variant = VGPU_TEXV_PLAIN;
		q.comp = 0;
		q.int_coords = true;
		q.coord[0] = (u32)(int)coords[i][0];
		q.coord[1] = (u32)(int)coords[i][1];
		q.off[0] = (s8)r3;
		q.off[1] = -1;
		vgpu_tex_sample(&desc, &q, read_host, NULL, want, &fva);
		bad += memcmp(want, out[i] + 12, 16) != 0;
	}
	CHECK(bad == 0);
}

/* Forms vgpu refuses say why, with the line. */
static void refusals_name_the_line(void)
{
	/* Each with the code the loader answers (an H100's for the queries). */
	static const struct { const char *insn; int code; } bad[] = {
		{ "tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, %rd1, {%f1, %f1}];", -1 },
		{ "txq.channel_order.b32 %r1, [%rd1];", VG_JIT_REFUSED_HANDLE },
		{ "txq.normalized_coords.b32 %r1, [%rd1];", VG_JIT_REFUSED_HANDLE },
		{ "suq.channel_data_type.b32 %r1, [%rd1];", VG_JIT_REFUSED_UNSUPPORTED },
		{ "tex.2d.v4.f16.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1}];", -1 },
		{ "tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1}];", -1 },
		{ "suld.b.2d.b32.trap {%r1}, [%rd1, {%r1, %r1}], %r1;", -1 },
		/* texel offsets: not on cubes, one per axis; no 3D depth */
		{ "tex.cube.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1, %f1, %f1}], {1, 1};", -1 },
		{ "tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1}], {1};", -1 },
		{ "tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1}], {1, _};", -1 },
		{ "tex.3d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1, %f1, %f1}], {1, 1, 1, 1}, %f1;", -1 },
		{ "tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1}], {1, 1}, %f1, %f1;", -1 },
		{ "st.global.v2.u32 [%rd1], {1, 2};", -1 },
	};
	char ptx[1024], err[512];
	unsigned int i;
	int r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct vg_jit_image *img = NULL;

		snprintf(ptx, sizeof(ptx), PTX_HEAD
			 ".visible .entry b(.param .u64 t)\n{\n"
			 "  .reg .f32 %%f<3>; .reg .b32 %%r<3>; .reg .b64 %%rd<3>;\n"
			 "  ld.param.u64 %%rd1, [t];\n  %s\n  ret;\n}\n", bad[i].insn);
		r = vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err));
		if (!r) {
			TAP_FAIL("accepted: %s", bad[i].insn);
			vg_jit_free(img);
			continue;
		}
		if (r != bad[i].code)
			TAP_FAIL("%s: %d, not %d", bad[i].insn, r, bad[i].code);
		CHECK(atoi(err) == 8);
	}
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(fetches_match_the_sampler),
		TAP_TEST(queries_answer_as_an_h100),
		TAP_TEST(bad_handles),
		TAP_TEST(surfaces),
		TAP_TEST(texref_variables),
		TAP_TEST(offsets_reach_the_sampler),
		TAP_TEST(refusals_name_the_line),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
