// SPDX-License-Identifier: MIT
/*
 * Kernel printf's FIFO end to end in user space: the code the JIT emits
 * for vprintf (ptx_printf.c), run by the core's interpreter, appends
 * records to a FIFO the test owns, laid out as libvgpu's (jit.h), and
 * the host's reader (printf.c) prints them. The FIFO is a ring: when
 * more is printed than fits, the newest whole records come out, as on
 * an H100 (tests/e2e/ref/h100_printf_fifo.log).
 */
#include <stdint.h>
#include <unistd.h>

#include "core_run.h"
#include "jit.h"
#include "tap.h"
#include "vg.h"

#define PTX_HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/*
 * Each thread prints "r TID I\n" for I in [0, n), and with @odd set a
 * line of no arguments ("x%%\n") after each odd I: records of two sizes.
 */
static const char ptx[] = PTX_HEAD
	".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
	".global .align 1 .b8 $str[9] = {114, 32, 37, 100, 32, 37, 100, 10, 0};\n"
	".global .align 1 .b8 $str1[5] = {120, 37, 37, 10, 0};\n"
	".visible .entry pr(.param .u32 n, .param .u32 odd, .param .u64 rets)\n{\n"
	"\t.local .align 8 .b8 __local_depot0[8];\n"
	"\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<10>;\n"
	"\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n"
	"\tld.param.u32 %r1, [n];\n\tld.param.u32 %r5, [odd];\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, 0;\n"
	"\tld.param.u64 %rd8, [rets];\n\tmul.wide.u32 %rd9, %r2, 8;\n"
	"\tadd.u64 %rd8, %rd8, %rd9;\n"
	"\tadd.u64 %rd2, %SP, 0;\n\tadd.u64 %rd3, %SPL, 0;\n"
	"\tmov.u64 %rd4, $str;\n\tcvta.global.u64 %rd5, %rd4;\n"
	"\tmov.u64 %rd6, $str1;\n\tcvta.global.u64 %rd7, %rd6;\n"
	"\tsetp.ge.u32 %p1, %r3, %r1;\n\t@%p1 bra DONE;\n"
	"LOOP:\n"
	"\tst.local.v2.u32 [%rd3], {%r2, %r3};\n"
	"\t{ .param .b64 a; st.param.b64 [a], %rd5; .param .b64 b; st.param.b64 [b], %rd2;\n"
	"\t.param .b32 r; call.uni (r), vprintf, (a, b); ld.param.b32 %r4, [r]; }\n"
	"\tst.global.u32 [%rd8], %r4;\n"
	"\tand.b32 %r6, %r3, %r5;\n\tsetp.eq.u32 %p2, %r6, 0;\n\t@%p2 bra NEXT;\n"
	"\tmov.u64 %rd1, 0;\n"
	"\t{ .param .b64 a; st.param.b64 [a], %rd7; .param .b64 b; st.param.b64 [b], %rd1;\n"
	"\t.param .b32 r; call.uni (r), vprintf, (a, b); ld.param.b32 %r4, [r]; }\n"
	"\tst.global.u32 [%rd8+4], %r4;\n"
	"NEXT:\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p3, %r3, %r1;\n\t@%p3 bra LOOP;\n"
	"DONE:\n\tret;\n}\n"
	".visible .entry quiet(.param .u64 p)\n{\n"
	"\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n"
	"\tst.global.u32 [%rd1], 7;\n\tret;\n}\n";

enum { REC2 = 32, REC0 = 24 };	/* bytes of a record of two ints, of none */

static struct vg_jit_image *img;
static uint8_t *globals;
static char out[1 << 20];
/* What each thread's last two vprintf calls returned. */
static int32_t rets[32][2];

/*
 * Runs kernel "pr" over @threads threads with a FIFO of @cap bytes
 * (@bound: its address in the module's slot) and puts what the reader
 * prints in @out. Returns the bytes the kernel reserved.
 */
static uint64_t run(unsigned int threads, uint32_t n, uint32_t odd,
		    uint64_t cap, bool bound)
{
	size_t bytes = VG_PRINTF_HEADER + cap + VG_PRINTF_MAX_RECORD;
	uint8_t *fifo = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	struct vgpu_range mem[4] = {
		core_range(globals, img->global_bytes, true),
		core_range(fifo, bytes, true),
		core_range(rets, sizeof(rets), true), { 0 },
	};
	struct CUmod_st mod = { .globals = (uintptr_t)globals, .img = img };
	struct CUctx_st ctx = { .modules = &mod };
	struct vgpu_func funcs[2] = { img->kernels[0].f, img->kernels[1].f };
	struct { uint32_t n, odd; uint64_t rets; } params = {
		n, odd, (uintptr_t)rets,
	};
	uint64_t head, addr = bound ? (uintptr_t)fifo : 0;
	int saved = dup(1), len;
	FILE *cap_file = tmpfile();
	uint32_t i;

	memset(fifo, 0xa5, bytes);
	memset(rets, 0x55, sizeof(rets));
	memset(fifo, 0, 8);
	memcpy(fifo + 8, &cap, 8);
	memcpy(globals, img->globals, img->global_bytes);
	memcpy(globals + img->printf_off, &addr, 8);
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm += (uintptr_t)globals;
	CHECK(core_run_prog(img->insns, img->ninsns, funcs, 2, 0, 1, threads,
			    &params, mem, NULL) == VGPU_RUN_DONE);
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm -= (uintptr_t)globals;
	memcpy(&head, fifo, 8);
	fflush(stdout);
	dup2(fileno(cap_file), 1);
	vg_printf_records(&ctx, fifo + VG_PRINTF_HEADER,
			  head <= cap ? head : cap + VG_PRINTF_MAX_RECORD, head, cap);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(cap_file);
	len = (int)fread(out, 1, sizeof(out) - 1, cap_file);
	out[len > 0 ? len : 0] = 0;
	fclose(cap_file);
	free(fifo);
	return head;
}

/* The lines of @out, each checked as "r TID I" or "x%"; -1 if one is not. */
static int lines(int tids[], int is[], int max)
{
	char *p = out, *nl;
	int n = 0;

	while ((nl = strchr(p, '\n')) && n < max) {
		if (!strncmp(p, "x%\n", 3)) {
			tids[n] = -1;
			is[n] = -1;
		} else if (sscanf(p, "r %d %d\n", &tids[n], &is[n]) != 2) {
			return -1;
		}
		n++;
		p = nl + 1;
	}
	return *p ? -1 : n;
}

static int tids[4096], is[4096];

static void records_in_order(void)
{
	int n, i;

	CHECK(img->has_printf && img->kernels[0].prints && !img->kernels[1].prints);
	CHECK(run(1, 5, 0, 1 << 20, true) == 5 * REC2);
	n = lines(tids, is, 4096);
	CHECK(n == 5);
	for (i = 0; i < n; i++)
		CHECK(tids[i] == 0 && is[i] == i);
	/* vprintf returns the arguments its format converts, as CUDA's. */
	CHECK(rets[0][0] == 2);
}

/* One thread prints 100 records into a ring of 32: the last 32 come out. */
static void ring_keeps_the_newest(void)
{
	int n, i;

	CHECK(run(1, 100, 0, 32 * REC2, true) == 100 * REC2);
	n = lines(tids, is, 4096);
	CHECK(n == 32);
	for (i = 0; i < n; i++)
		CHECK(tids[i] == 0 && is[i] == 68 + i);
}

/* A warp prints 10 rounds into a ring of 32: the last round, whole. */
static void warp_keeps_the_last_round(void)
{
	int n, i, seen[32] = { 0 };

	CHECK(run(32, 10, 0, 32 * REC2, true) == 32 * 10 * REC2);
	n = lines(tids, is, 4096);
	CHECK(n == 32);
	for (i = 0; i < n; i++) {
		CHECK(is[i] == 9 && tids[i] >= 0 && tids[i] < 32);
		if (tids[i] >= 0 && tids[i] < 32)
			seen[tids[i]]++;
	}
	for (i = 0; i < 32; i++)
		CHECK(seen[i] == 1);
}

/*
 * Records of two sizes, so the ring's start falls inside a record: what
 * comes out is the tail of the sequence, from the first whole record.
 */
static void ring_of_mixed_records(void)
{
	uint64_t cap = 1024, head, bytes = 0;
	int n, i, k, expect_i;

	head = run(1, 200, 1, cap, true);
	CHECK(head == 200 * REC2 + 100 * REC0);
	/* "r %d %d\n" converts two arguments, "x%%\n" none. */
	CHECK(rets[0][0] == 2 && rets[0][1] == 0);
	n = lines(tids, is, 4096);
	if (n <= 0) {
		TAP_FAIL("no lines: %d", n);
		return;
	}
	/* Walk back from the end: "x%" after each odd I. */
	expect_i = 199;
	k = n - 1;
	for (i = 199; i >= 0 && k >= 0; i--) {
		if (i & 1) {
			CHECK(tids[k] == -1);
			bytes += REC0;
			k--;
			if (k < 0)
				break;
		}
		CHECK(tids[k] == 0 && is[k] == i);
		bytes += REC2;
		expect_i = i;
		k--;
	}
	CHECK(k < 0);
	/* All that fits comes out: one more record would not. */
	CHECK(bytes <= cap && bytes + REC2 > cap);
	CHECK(expect_i > 150);
}

/* A module whose FIFO was never given writes nothing and does not fault. */
static void unbound_fifo_writes_nothing(void)
{
	CHECK(run(4, 3, 0, 1024, false) == 0);
	CHECK(out[0] == 0);
}

static const struct tap_test tests[] = {
	TAP_TEST(records_in_order),
	TAP_TEST(ring_keeps_the_newest),
	TAP_TEST(warp_keeps_the_last_round),
	TAP_TEST(ring_of_mixed_records),
	TAP_TEST(unbound_fifo_writes_nothing),
};

int main(void)
{
	char err[256];
	int r;

	if (vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	globals = aligned_alloc(64, (img->global_bytes + 63) & ~(size_t)63);
	r = tap_run(tests, sizeof(tests) / sizeof(tests[0]));
	free(globals);
	vg_jit_free(img);
	return r;
}
