// SPDX-License-Identifier: MIT
/*
 * Device assert end to end in user space: nvcc's call of __assertfail
 * (ptx_assert.c), run by the core's interpreter, leaves one FIFO record
 * per failing thread and traps at a trap marked as an assert's; the
 * host's reader (printf.c) prints the records in NVIDIA's words
 * (tests/e2e/ref/h100_assert.log).
 */
#include <stdint.h>
#include <unistd.h>

#include "core_run.h"
#include "jit.h"
#include "tap.h"
#include "vg.h"

/* nvcc -arch=sm_75 -ptx of assert(threadIdx.x < n && "small") in k(int n). */
static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".extern .func __assertfail\n(\n\t.param .b64 __assertfail_param_0,\n"
	"\t.param .b64 __assertfail_param_1,\n\t.param .b32 __assertfail_param_2,\n"
	"\t.param .b64 __assertfail_param_3,\n\t.param .b64 __assertfail_param_4\n)\n;\n"
	".global .align 1 .b8 __unnamed_1[12] = {118, 111, 105, 100, 32, 107, 40, 105, 110, 116, 41};\n"
	".global .align 1 .b8 $str[27] = {116, 104, 114, 101, 97, 100, 73, 100, 120, 46, 120, 32, 60, 32, 110, 32, 38, 38, 32, 34, 115, 109, 97, 108, 108, 34};\n"
	".global .align 1 .b8 $str$1[9] = {100, 114, 118, 95, 107, 46, 99, 117};\n"
	".visible .entry k(\n\t.param .u32 k_param_0\n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<7>;\n"
	"\tld.param.u32 %r1, [k_param_0];\n\tmov.u32 %r2, %tid.x;\n"
	"\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra $L__BB0_2;\n"
	"\tmov.u64 %rd1, $str;\n\tcvta.global.u64 %rd2, %rd1;\n"
	"\tmov.u64 %rd3, $str$1;\n\tcvta.global.u64 %rd4, %rd3;\n"
	"\tmov.u64 %rd5, __unnamed_1;\n\tcvta.global.u64 %rd6, %rd5;\n"
	"\t{ // callseq 0, 0\n\t.reg .b32 temp_param_reg;\n"
	"\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd2;\n"
	"\t.param .b64 param1;\n\tst.param.b64 [param1+0], %rd4;\n"
	"\t.param .b32 param2;\n\tst.param.b32 [param2+0], 4;\n"
	"\t.param .b64 param3;\n\tst.param.b64 [param3+0], %rd6;\n"
	"\t.param .b64 param4;\n\tst.param.b64 [param4+0], 1;\n"
	"\tcall.uni \n\t__assertfail, \n\t(\n\tparam0, \n\tparam1, \n\tparam2, \n"
	"\tparam3, \n\tparam4\n\t);\n\t} // callseq 0\n"
	"$L__BB0_2:\n\tret;\n}\n";

static const char expect[] =
	"drv_k.cu:4: void k(int): block: [0,0,0], thread: [1,0,0] Assertion `threadIdx.x < n && \"small\"` failed.\n"
	"drv_k.cu:4: void k(int): block: [0,0,0], thread: [2,0,0] Assertion `threadIdx.x < n && \"small\"` failed.\n";

/*
 * k(@n) over 3 threads with a FIFO: the run's result must be @want_rc,
 * a fault the assert's trap, and the reader print @want on stderr.
 */
static void failing_threads(struct vg_jit_image *img, uint32_t n,
			    const char *want, int want_rc)
{
	const uint64_t cap = 4096;
	size_t bytes = VG_PRINTF_HEADER + cap + VG_PRINTF_MAX_RECORD;
	uint8_t *fifo = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	uint8_t *globals = aligned_alloc(64, (img->global_bytes + 63) & ~(size_t)63);
	struct vgpu_range mem[3] = {
		core_range(globals, img->global_bytes, true),
		core_range(fifo, bytes, true), { 0 },
	};
	struct CUmod_st mod = { .globals = (uintptr_t)globals, .img = img };
	struct CUctx_st ctx = { .modules = &mod };
	struct vgpu_fault fault = { 0 };
	uint64_t head, addr = (uintptr_t)fifo;
	FILE *cap_file = tmpfile();
	int saved = dup(2), rc;
	char out[1024];
	size_t len;
	uint32_t i;

	memset(fifo, 0, bytes);
	memcpy(fifo + 8, &cap, 8);
	memcpy(globals, img->globals, img->global_bytes);
	memcpy(globals + img->printf_off, &addr, 8);
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm += (uintptr_t)globals;
	rc = core_run(img->insns, img->ninsns, img->kernels[0].f, 1, 3, &n,
		      mem, &fault);
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm -= (uintptr_t)globals;
	CHECK(rc == want_rc);
	if (rc == VGPU_RUN_FAULT) {
		CHECK(fault.kind == VGPU_FAULT_TRAP && fault.insn < img->ninsns);
		CHECK(img->insns[fault.insn].op == VGPU_OP_TRAP &&
		      img->insns[fault.insn].mod == VGPU_TRAP_ASSERT);
	}
	memcpy(&head, fifo, 8);
	fflush(stderr);
	dup2(fileno(cap_file), 2);
	vg_printf_records(&ctx, fifo + VG_PRINTF_HEADER, head, head, cap);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(cap_file);
	len = fread(out, 1, sizeof(out) - 1, cap_file);
	out[len] = 0;
	fclose(cap_file);
	if (strcmp(out, want))
		TAP_FAIL("printed \"%s\", expected \"%s\"", out, want);
	free(fifo);
	free(globals);
}

static struct vg_jit_image *img;

/* Threads 1 and 2 of 3 fail: two lines, then the assert's trap. */
static void failing_threads_print_and_trap(void)
{
	failing_threads(img, 1, expect, VGPU_RUN_FAULT);
}

/* No thread fails: nothing printed, no fault. */
static void passing_threads_print_nothing(void)
{
	failing_threads(img, 3, "", VGPU_RUN_DONE);
}

/* The kernel uses the printf FIFO, so the FIFO is bound before a launch. */
static void assert_kernel_prints(void)
{
	CHECK(img->has_printf && img->kernels[0].prints);
}

static const struct tap_test tests[] = {
	TAP_TEST(assert_kernel_prints),
	TAP_TEST(failing_threads_print_and_trap),
	TAP_TEST(passing_threads_print_nothing),
};

int main(void)
{
	char err[256];
	int r;

	if (vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	r = tap_run(tests, sizeof(tests) / sizeof(tests[0]));
	vg_jit_free(img);
	return r;
}
