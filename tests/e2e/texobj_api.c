// SPDX-License-Identifier: MIT
/*
 * Texture and surface objects and references through the driver API, for
 * what the runtime sample rt_texobj (held to an H100's answers) cannot
 * show: a trapping surface store's report naming the instruction; the
 * memory of arrays and descriptors given back when objects, arrays and
 * contexts go in any order; an array destroyed under a texture still read
 * through it; descriptor pools that grow and are reused; references bound,
 * rebound and unbound between launches; objects made and destroyed by
 * several threads at once; objects over another context's array refused
 * as an H100 refuses them (h100_texctx.log).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_texctx.log"
#include "h100_log.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

static const char ptx[] = HEAD
	/* out[i] = tex2D(t, i % 8 + 0.5, i / 8 + 0.5).x, 64 threads */
	".visible .entry fetch(.param .u64 t, .param .u64 out)\n{\n"
	"\t.reg .f32 %f<8>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd1, [t];\n\tld.param.u64 %rd2, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 7;\n\tshr.u32 %r3, %r1, 3;\n"
	"\tcvt.rn.f32.u32 %f1, %r2;\n\tcvt.rn.f32.u32 %f2, %r3;\n"
	"\tadd.f32 %f1, %f1, 0f3F000000;\n\tadd.f32 %f2, %f2, 0f3F000000;\n"
	"\ttex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tst.global.f32 [%rd4], %f3;\n\tret;\n}\n"
	/* A store at byte x 256 of an 8-wide float surface: past the end. */
	".visible .entry store_past(.param .u64 s)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [s];\n\tmov.b32 %r1, 0f3F800000;\n"
	"\t.loc 1 17 3\n"
	"\tsust.b.2d.b32.trap [%rd1, {256, 0}], {%r1};\n\tret;\n}\n"
	/* The same through a texture reference. */
	".global .texref tr;\n"
	".visible .entry fetch_ref(.param .u64 out)\n{\n"
	"\t.reg .f32 %f<8>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd2, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 7;\n\tshr.u32 %r3, %r1, 3;\n"
	"\tcvt.rn.f32.u32 %f1, %r2;\n\tcvt.rn.f32.u32 %f2, %r3;\n"
	"\tadd.f32 %f1, %f1, 0f3F000000;\n\tadd.f32 %f2, %f2, 0f3F000000;\n"
	"\ttex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tr, {%f1, %f2}];\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tst.global.f32 [%rd4], %f3;\n\tret;\n}\n"
	".file 1 \"/src/surfaces.cu\"\n";

/* An 8 x 8 float array holding base + i at texel i. */
static CUarray array8(float base, unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { .Width = 8, .Height = 8, .Format = CU_AD_FORMAT_FLOAT,
				      .NumChannels = 1, .Flags = flags };
	CUDA_MEMCPY2D c = { 0 };
	float v[64];
	CUarray a = NULL;
	int i;

	for (i = 0; i < 64; i++)
		v[i] = base + (float)i;
	CHECK_RES(CUDA_SUCCESS, cuArray3DCreate(&a, &d));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = v;
	c.srcPitch = 32;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = 32;
	c.Height = 8;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&c));
	return a;
}

static CUtexObject tex_of(CUarray a)
{
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { .addressMode = { CU_TR_ADDRESS_MODE_CLAMP,
						 CU_TR_ADDRESS_MODE_CLAMP } };
	CUtexObject o = 0;

	r.res.array.hArray = a;
	CHECK_RES(CUDA_SUCCESS, cuTexObjectCreate(&o, &r, &t, NULL));
	return o;
}

/* Runs fetch over @o into @out. */
static void fetch(CUmodule m, CUtexObject o, float *out)
{
	CUfunction f;
	CUdeviceptr d;
	void *args[] = { &o, &d };

	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "fetch"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 64 * sizeof(float)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d, 0x7fc00000, 64));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, d, 64 * sizeof(float)));
	cuMemFree(d);
}

/* Whether texel i of @o reads base + i for all 64 (0 + 0 for none). */
static bool reads(CUmodule m, CUtexObject o, float base, bool none)
{
	float out[64];
	bool ok = true;
	int i;

	fetch(m, o, out);
	for (i = 0; i < 64; i++)
		ok &= out[i] == (none ? 0.0f : base + (float)i);
	return ok;
}

static size_t free_mem(void)
{
	size_t f = 0, t = 0;

	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&f, &t));
	return f;
}

static CUmodule open_ctx(CUcontext *c)
{
	CUmodule m;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	return m;
}

/*
 * Objects of one context over another's array: refused with
 * CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, as on an H100, while copies to that
 * array and its descriptor still work from there.
 */
static void other_context_array(void)
{
	CUDA_ARRAY3D_DESCRIPTOR got = { 0 };
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { .filterMode = CU_TR_FILTER_MODE_POINT };
	CUDA_MEMCPY2D c = { 0 };
	CUcontext a, b;
	CUtexObject o = 0;
	CUsurfObject s = 0;
	CUmodule m;
	CUarray arr;
	float v[64];
	int i;

	m = open_ctx(&a);
	arr = array8(0.0f, CUDA_ARRAY3D_SURFACE_LDST);
	REQUIRE_RES(h100("ctx b"), cuCtxCreate(&b, NULL, 0, 0));
	r.res.array.hArray = arr;
	CHECK_RES(h100("texobj in b over a's array"), cuTexObjectCreate(&o, &r, &t, NULL));
	CHECK_RES(h100("surfobj in b over a's array"), cuSurfObjectCreate(&s, &r));
	CHECK(o == 0 && s == 0);
	for (i = 0; i < 64; i++)
		v[i] = 50.0f + (float)i;
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = v;
	c.srcPitch = 32;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = arr;
	c.WidthInBytes = 32;
	c.Height = 8;
	CHECK_RES(h100("copy in b to a's array"), cuMemcpy2D(&c));
	CHECK_RES(h100("descriptor in b of a's array"), cuArray3DGetDescriptor(&got, arr));
	CHECK(got.Width == 8 && got.Height == 8);
	CHECK_RES(h100("destroy b"), cuCtxDestroy(b));
	/* In its own context the array reads what b copied. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(a));
	o = tex_of(arr);
	CHECK(reads(m, o, 50.0f, false));
	CHECK_RES(CUDA_SUCCESS, cuTexObjectDestroy(o));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(arr));
	CHECK_RES(h100("destroy a"), cuCtxDestroy(a));
}

/* A trapping store past the surface: 700, and with VGPU_ERROR_REPORT=1 */
/* a report naming the kernel, the instruction and its source line. */
static void trap_report(void)
{
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	char buf[1024] = "";
	int fds[2], saved = dup(2);
	CUsurfObject s;
	CUfunction f;
	CUcontext c;
	CUmodule m = open_ctx(&c);
	void *args[] = { &s };
	ssize_t n;

	r.res.array.hArray = array8(0, CUDA_ARRAY3D_SURFACE_LDST);
	REQUIRE_RES(CUDA_SUCCESS, cuSurfObjectCreate(&s, &r));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "store_past"));
	if (pipe(fds) || saved < 0) {
		TAP_FAIL("pipe or dup");
		return;
	}
	setenv("VGPU_ERROR_REPORT", "1", 1);
	dup2(fds[1], 2);
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	dup2(saved, 2);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	CHECK(strstr(buf, "vgpu: kernel store_past: illegal address") != NULL);
	CHECK(strstr(buf, "instruction ") != NULL);
	CHECK(strstr(buf, ", /src/surfaces.cu:17\n") != NULL);
	if (!strstr(buf, "/src/surfaces.cu:17"))
		printf("# stderr: %s\n", buf);
	/* Sticky, as any fault. */
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
}

/*
 * Destroying the array first leaves it readable through the texture (an
 * H100 lets both calls succeed); its memory goes with the texture.
 */
static void array_destroyed_under_texture(void)
{
	CUDA_ARRAY3D_DESCRIPTOR big = { .Width = 1024, .Height = 1024,
					.Format = CU_AD_FORMAT_FLOAT, .NumChannels = 1 };
	CUcontext c;
	CUmodule m = open_ctx(&c);
	size_t before = free_mem();
	CUarray a = array8(100, 0), b;
	CUtexObject o = tex_of(a), ob;
	CUDA_ARRAY_DESCRIPTOR d;

	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
	/* The handle is dead to the array calls... */
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArrayGetDescriptor(&d, a));
	/* ...and the texture still reads it. */
	CHECK(reads(m, o, 100, false));
	CHECK_RES(CUDA_SUCCESS, cuTexObjectDestroy(o));
	/* A destroyed texture's handle reads zeros, as on an H100. */
	CHECK(reads(m, o, 0, true));

	/* The memory stays until the texture goes (4 MiB: cuMemGetInfo sees it). */
	CHECK_RES(CUDA_SUCCESS, cuArray3DCreate(&b, &big));
	ob = tex_of(b);
	CHECK(free_mem() + (4 << 20) <= before);
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));
	CHECK(free_mem() + (4 << 20) <= before);
	CHECK_RES(CUDA_SUCCESS, cuTexObjectDestroy(ob));
	CHECK(free_mem() == before);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

/* Contexts that go with objects, arrays and references alive. */
static void context_teardown(void)
{
	CUcontext c;
	CUmodule m;
	size_t before;
	int round;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	before = free_mem();
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	for (round = 0; round < 3; round++) {
		CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
		CUarray a, b, s;
		CUtexObject o;
		CUsurfObject so;
		CUtexref tr;

		m = open_ctx(&c);
		a = array8(1, 0);
		b = array8(2, 0);
		s = array8(3, CUDA_ARRAY3D_SURFACE_LDST);
		o = tex_of(a);
		tex_of(b);
		r.res.array.hArray = s;
		CHECK_RES(CUDA_SUCCESS, cuSurfObjectCreate(&so, &r));
		CHECK_RES(CUDA_SUCCESS, cuModuleGetTexRef(&tr, m, "tr"));
		CHECK_RES(CUDA_SUCCESS, cuTexRefSetArray(tr, b, CU_TRSA_OVERRIDE_FORMAT));
		if (round == 1)
			CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
		CHECK(reads(m, o, 1, false));
		CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
		/* Everything went with the context; the handles are dead. */
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&r, o));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(&r, so));
		CHECK_RES(CUDA_SUCCESS, cuTexObjectDestroy(o));
		REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
		CHECK(free_mem() == before);
		REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	}
}

static int cmp_handles(const void *x, const void *y)
{
	CUtexObject a = *(const CUtexObject *)x, b = *(const CUtexObject *)y;

	return a < b ? -1 : a > b;
}

/* More objects than one pool page holds: distinct handles, all reading. */
static void many_objects(void)
{
	enum { N = 1500 };
	static CUtexObject o[N], again[N];
	CUcontext c;
	CUmodule m = open_ctx(&c);
	CUarray a = array8(7, 0);
	int i, j, dup = 0;

	for (i = 0; i < N; i++)
		o[i] = tex_of(a);
	for (i = 0; i < N; i++)
		for (j = i + 1; j < N; j++)
			dup += o[i] == o[j] || !o[i];
	CHECK(dup == 0);
	CHECK(reads(m, o[0], 7, false) && reads(m, o[N / 2], 7, false) && reads(m, o[N - 1], 7, false));
	for (i = 0; i < N; i++)
		CHECK_RES(CUDA_SUCCESS, cuTexObjectDestroy(o[i]));
	/* Freed descriptors are taken again, every one of them. */
	for (i = 0; i < N; i++)
		again[i] = tex_of(a);
	qsort(o, N, sizeof(o[0]), cmp_handles);
	for (i = 0, dup = 0; i < N; i++)
		dup += bsearch(&again[i], o, N, sizeof(o[0]), cmp_handles) != NULL;
	CHECK(dup == N);
	CHECK(reads(m, again[N - 1], 7, false));
	for (i = 0; i < N; i++)
		CHECK_RES(CUDA_SUCCESS, cuTexObjectDestroy(again[i]));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
}

/* A reference reads zeros until bound, then what it is bound to now. */
static void references_rebound(void)
{
	CUcontext c;
	CUmodule m = open_ctx(&c);
	CUarray a = array8(10, 0), b = array8(500, 0);
	CUfunction f;
	CUdeviceptr d;
	CUtexref tr, again;
	float out[64];
	void *args[] = { &d };
	int i, zeros = 0, as = 0, bs = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetTexRef(&tr, m, "tr"));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetTexRef(&again, m, "tr"));
	CHECK(again == tr);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "fetch_ref"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(out)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d, 0x7fc00000, 64));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, d, sizeof(out)));
	for (i = 0; i < 64; i++)
		zeros += out[i] == 0;
	CHECK_RES(CUDA_SUCCESS, cuTexRefSetArray(tr, a, CU_TRSA_OVERRIDE_FORMAT));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, d, sizeof(out)));
	for (i = 0; i < 64; i++)
		as += out[i] == 10 + (float)i;
	CHECK_RES(CUDA_SUCCESS, cuTexRefSetArray(tr, b, CU_TRSA_OVERRIDE_FORMAT));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, d, sizeof(out)));
	for (i = 0; i < 64; i++)
		bs += out[i] == 500 + (float)i;
	CHECK(zeros == 64 && as == 64 && bs == 64);
	/* The module's references go with it. */
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuTexRefSetArray(tr, a, 0));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuModuleGetTexRef(&tr, m, "tr"));
	cuMemFree(d);
}

struct worker {
	CUcontext ctx;
	CUarray a;
	int bad;
};

static void *churn(void *p)
{
	struct worker *w = p;
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY }, g;
	CUDA_TEXTURE_DESC t = { 0 };
	CUtexObject o[16];
	int i, k;

	r.res.array.hArray = w->a;
	if (cuCtxSetCurrent(w->ctx))
		w->bad++;
	for (i = 0; i < 200; i++) {
		for (k = 0; k < 16; k++)
			w->bad += cuTexObjectCreate(&o[k], &r, &t, NULL) != CUDA_SUCCESS;
		for (k = 0; k < 16; k++) {
			w->bad += cuTexObjectGetResourceDesc(&g, o[k]) != CUDA_SUCCESS ||
				  g.res.array.hArray != w->a;
			w->bad += cuTexObjectDestroy(o[k]) != CUDA_SUCCESS;
		}
	}
	return NULL;
}

static void threads(void)
{
	struct worker w[4];
	pthread_t th[4];
	CUcontext c;
	CUmodule m = open_ctx(&c);
	CUarray a = array8(3, 0);
	CUtexObject o = tex_of(a);
	int i;

	for (i = 0; i < 4; i++) {
		w[i] = (struct worker){ .ctx = c, .a = a };
		pthread_create(&th[i], NULL, churn, &w[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK(w[i].bad == 0);
	}
	CHECK(reads(m, o, 3, false));
}

struct ref_race {
	CUcontext ctx;
	CUmodule mod;
	CUtexref ref;
	CUresult r;
};

static void *get_ref(void *p)
{
	struct ref_race *w = p;

	w->r = cuCtxSetCurrent(w->ctx);
	if (!w->r)
		w->r = cuModuleGetTexRef(&w->ref, w->mod, "tr");
	return NULL;
}

/* Threads asking for one reference at once all get the same one. */
static void references_raced(void)
{
	struct ref_race w[8];
	pthread_t th[8];
	CUcontext c;
	int round, i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	for (round = 0; round < 20; round++) {
		CUmodule m;

		REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
		for (i = 0; i < 8; i++) {
			w[i] = (struct ref_race){ .ctx = c, .mod = m };
			pthread_create(&th[i], NULL, get_ref, &w[i]);
		}
		for (i = 0; i < 8; i++) {
			pthread_join(th[i], NULL);
			CHECK_RES(CUDA_SUCCESS, w[i].r);
			CHECK(w[i].ref == w[0].ref);
		}
		CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(trap_report),
	TAP_TEST(array_destroyed_under_texture),
	TAP_TEST(context_teardown),
	TAP_TEST(many_objects),
	TAP_TEST(references_rebound),
	TAP_TEST(references_raced),
	TAP_TEST(threads),
	TAP_TEST(other_context_array),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
