// SPDX-License-Identifier: MIT
/*
 * Compute-core benchmarks (run inside the VM bench; `make bench` does).
 * Prints "NAME: VALUE" lines, each a ratio measured in this run:
 *   interp_saxpy_vs_native   the user-space core running saxpy / the same
 *                            loop in C at -O2 (a slowdown)
 *   interp_matmul_vs_native  the Programming Guide's tiled matrix multiply
 *   interp_reduce_vs_native  a shared-memory tree reduction
 *   kmod_vs_user_engine      the matrix multiply through vgpu.ko / through
 *                            the user-space core, both in this VM
 *   saxpy_floor_vs_native    what an engine that keeps each lane's
 *   matmul_floor_vs_native   registers in memory cannot avoid: the data
 *                            moved through lane registers and the fma, as
 *                            plain loops over 32 lanes, with no decoding,
 *                            address arithmetic, bounds checks or control
 *                            flow. The least the interp_ figures can be.
 * Each time is the best of a few runs.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "isa_build.h"
#include "kselftest/vgpu_chan_util.h"
#include "uapi/vgpu.h"

#define REPS 3

#include "bench/bench_host.h"
#include "bench/bench_kernels.h"
/*
 * The yardstick in this program, where the compiler sees the sizes it is
 * called with, as it did when these loops were written here: the figures
 * stay comparable with earlier runs.
 */
#include "bench/native_ref.c"

/* --- the user-space core ------------------------------------------------ */

/* Runs a whole grid on the user-space core; seconds. */
static double run_core(const struct vgpu_insn *code, unsigned int n,
		       struct vgpu_func f, const unsigned int grid[2],
		       const unsigned int block[2], const void *params,
		       struct vgpu_range *mem)
{
	struct vgpu_program prog = { code, n, &f, 1 };
	struct vgpu_launch l = {
		.prog = &prog, .func = &f, .grid = { grid[0], grid[1], 1 },
		.block = { block[0], block[1], 1 }, .params = params, .mmu = mem,
		.nsmid = 1,
	};
	struct vgpu_verdict v;
	uint8_t *seen = malloc(n);
	uint32_t *stack = malloc(n * sizeof(*stack));
	struct vgpu_block *b;
	unsigned int i;
	double t;

	if (vgpu_isa_verify(&prog, seen, stack, &v)) {
		fprintf(stderr, "refused at %lld: %s\n", (long long)v.insn, v.msg);
		exit(1);
	}
	free(seen);
	free(stack);
	b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
	t = now();
	for (i = 0; i < grid[0] * grid[1]; i++) {
		vgpu_block_start(b, &l, i, i == 0);
		while (vgpu_block_run(b, 1 << 20) == VGPU_RUN_MORE)
			;
	}
	t = now() - t;
	free(b);
	return t;
}

/* --- floors ------------------------------------------------------------------ */

/*
 * What the interpreter's instructions would be with nothing else to do:
 * each lane's value lives in a 64-bit register slot, an instruction is a
 * loop over the warp's 32 lanes built as the core is (scalar, unrolled),
 * f32 results have PTX's canonical NaN, and the fma is the CPU's, in a
 * loop of its own as in the core. No decoding, address arithmetic,
 * bounds checks or control flow: the least such an engine can do.
 */
typedef uint64_t lanes[32];

/* A load of @n consecutive words into a register's lanes. */
static noinline void floor_load(uint64_t *r, const float *p,
						 unsigned int n)
{
	unsigned int l;

#pragma GCC unroll 8
	for (l = 0; l < n; l++) {
		uint32_t v;

		memcpy(&v, p + l, 4);
		r[l] = v;
	}
}

/* A store of @n lanes of a register to consecutive words. */
static noinline void floor_store(float *p, const uint64_t *r,
						  unsigned int n)
{
	unsigned int l;

#pragma GCC unroll 8
	for (l = 0; l < n; l++) {
		uint32_t v = (uint32_t)r[l];

		memcpy(p + l, &v, 4);
	}
}

/* d = x * y + z, lane by lane; @x may be NULL for @xs in every lane. */
static noinline __attribute__((target("fma")))
void floor_fma(uint64_t *d, const uint64_t *x, float xs, const uint64_t *y,
	       const uint64_t *z)
{
	unsigned int l;

#pragma GCC unroll 8
	for (l = 0; l < 32; l++) {
		uint32_t xv = x ? (uint32_t)x[l] : 0, yv = (uint32_t)y[l];
		uint32_t zv = (uint32_t)z[l], v;
		float a, b, c, r;

		memcpy(&a, &xv, 4);
		memcpy(&b, &yv, 4);
		memcpy(&c, &zv, 4);
		r = __builtin_fmaf(x ? a : xs, b, c);
		memcpy(&v, &r, 4);
		d[l] = (v & 0x7fffffff) > 0x7f800000 ? 0x7fffffff : v;
	}
}

/* ld.global x, ld.global y, fma, st.global y: per warp of 32 elements. */
static void floor_saxpy(float a, const float *x, float *y, unsigned int n)
{
	lanes rx, ry;
	unsigned int base;

	for (base = 0; base < n; base += 32) {
		floor_load(rx, x + base, 32);
		floor_load(ry, y + base, 32);
		floor_fma(ry, NULL, a, rx, ry);
		floor_store(y + base, ry, 32);
	}
}

/* A shared-memory load of one word per half warp (A's row, at k). */
static noinline void floor_load2(uint64_t *r, const float *p0,
						  const float *p1)
{
	unsigned int l;
	uint32_t v0, v1;

	memcpy(&v0, p0, 4);
	memcpy(&v1, p1, 4);
#pragma GCC unroll 8
	for (l = 0; l < 16; l++) {
		r[l] = v0;
		r[l + 16] = v1;
	}
}

/*
 * The tiled multiply's data path, per warp (two rows of a 16 x 16 block):
 * each tile of A and B copied to shared memory through a register, then
 * for each k two shared loads into registers and the fma; finally the
 * store of C.
 */
static void floor_matmul(const float *a, const float *b, float *c, unsigned int n)
{
	static float sa[256], sb[256];
	static lanes r, ra, rb, acc[8];
	unsigned int bx, by, t, k, wp, h;

	for (by = 0; by < n / 16; by++)
		for (bx = 0; bx < n / 16; bx++) {
			memset(acc, 0, sizeof(acc));
			for (t = 0; t < n / 16; t++) {
				for (wp = 0; wp < 8; wp++)
					for (h = 0; h < 2; h++) {
						unsigned int ty = 2 * wp + h;

						floor_load(r, a + (by * 16 + ty) * n + t * 16, 16);
						floor_store(sa + ty * 16, r, 16);
						floor_load(r + 16, b + (t * 16 + ty) * n + bx * 16, 16);
						floor_store(sb + ty * 16, r + 16, 16);
					}
				for (wp = 0; wp < 8; wp++)
					for (k = 0; k < 16; k++) {
						floor_load2(ra, &sa[2 * wp * 16 + k],
							    &sa[(2 * wp + 1) * 16 + k]);
						floor_load(rb, &sb[k * 16], 16);
						memcpy(rb + 16, rb, 16 * sizeof(*rb));
						floor_fma(acc[wp], ra, 0, rb, acc[wp]);
					}
			}
			for (wp = 0; wp < 8; wp++)
				for (h = 0; h < 2; h++)
					floor_store(c + (by * 16 + 2 * wp + h) * n + bx * 16,
						    acc[wp] + 16 * h, 16);
		}
}

/* --- through vgpu.ko -------------------------------------------------------- */

/* The matrix multiply launched through the module; seconds, or 0. */
static double run_kmod(const float *a, const float *b, float *c, unsigned int n)
{
	struct vgpu_va_window w = { .base = 1ULL << 44, .size = 1ULL << 32 };
	struct vgpu_func f = { .nregs = 27, .npreds = 2, .param_bytes = 28,
			       .shared_bytes = 2048 };
	size_t bytes = (size_t)n * n * 4, host_bytes = 3 * bytes + 4096;
	struct vgpu_mem_alloc da = { .size = 3 * bytes };
	struct vgpu_host_register hr = { .size = (host_bytes + 4095) & ~4095UL };
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)matmul, .funcs = (uintptr_t)&f,
		.ninsns = sizeof(matmul) / sizeof(matmul[0]), .nfuncs = 1,
	};
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	unsigned char *host;
	struct vgpu_cmd *cmd;
	void *status;
	struct chan ch;
	uint64_t *params;
	double best = 1e9, t;
	int r;

	if (fd < 0 || ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w) ||
	    ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &da) || ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml))
		return 0;
	status = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	host = mmap(NULL, hr.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hr.addr = (uintptr_t)host;
	if (status == MAP_FAILED || host == MAP_FAILED ||
	    ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &hr) || chan_open(fd, &ch, status))
		return 0;
	memcpy(host, a, bytes);
	memcpy(host + bytes, b, bytes);
	params = (uint64_t *)(host + 3 * bytes);
	params[0] = da.va;
	params[1] = da.va + bytes;
	params[2] = da.va + 2 * bytes;
	params[3] = n;
	cmd_copy(&ch, da.va, (uintptr_t)host, 2 * bytes, 1, 0, 0);
	if (submit(&ch) || wait_for(&ch, ch.put))
		return 0;
	for (r = 0; r < REPS; r++) {
		cmd = slot(&ch);
		cmd->op = VGPU_CMD_LAUNCH;
		cmd->launch.module = ml.handle;
		cmd->launch.grid[0] = n / 16;
		cmd->launch.grid[1] = n / 16;
		cmd->launch.grid[2] = 1;
		cmd->launch.block[0] = 16;
		cmd->launch.block[1] = 16;
		cmd->launch.block[2] = 1;
		cmd->launch.params = (uintptr_t)params;
		cmd->launch.param_bytes = 28;
		t = now();
		if (submit(&ch) || wait_for(&ch, ch.put))
			return 0;
		t = now() - t;
		if (t < best)
			best = t;
	}
	cmd_copy(&ch, (uintptr_t)(host + 2 * bytes), da.va + 2 * bytes, bytes, 1, 0, 0);
	if (submit(&ch) || wait_for(&ch, ch.put))
		return 0;
	memcpy(c, host + 2 * bytes, bytes);
	close(fd);
	return best;
}

/* Whether @x is @y to a relative 1e-3 (an absolute one below 1); NaN is not. */
static int close_enough(const float *x, const float *y, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		float d = x[i] - y[i], m = y[i] < 0 ? -y[i] : y[i];

		if (isnan(d) || (d < 0 ? -d : d) > 1e-3f * (m > 1 ? m : 1))
			return 0;
	}
	return 1;
}

int main(void)
{
	enum { SN = 1 << 20, MN = 128, RB = 4096 };
	float *x = malloc(SN * 4), *y = malloc(SN * 4), *y2 = malloc(SN * 4);
	float *y3 = malloc(SN * 4);
	float *a = malloc(MN * MN * 4), *b = malloc(MN * MN * 4);
	float *c = malloc(MN * MN * 4), *c2 = malloc(MN * MN * 4), *c3 = malloc(MN * MN * 4);
	float *rin = malloc(RB * 256 * 4), *rout = malloc(RB * 4), *rout2 = malloc(RB * 4);
	double t_native, t_core, t_kmod, best;
	bool have_fma = __builtin_cpu_supports("fma");
	unsigned int r;

	bench_inputs(x, y, SN, a, b, MN, rin, RB);

	/* saxpy */
	{
		struct { uint64_t x, y; float a; uint32_t n; } p = { (uintptr_t)x, (uintptr_t)y2, 2.0f, SN };
		struct vgpu_range mem[3] = { range(x, SN * 4), range(y2, SN * 4), { 0 } };
		struct vgpu_func f = { .nregs = 10, .npreds = 1, .param_bytes = 24 };
		unsigned int grid[2] = { SN / 256, 1 }, block[2] = { 256, 1 };

		for (best = 1e9, r = 0; r < REPS; r++) {
			memcpy(y2, y, SN * 4);
			t_core = run_core(saxpy, sizeof(saxpy) / sizeof(saxpy[0]), f, grid, block, &p, mem);
			best = t_core < best ? t_core : best;
		}
		t_core = best;
		for (best = 1e9, r = 0; r < REPS; r++) {
			memcpy(y3, y, SN * 4);
			t_native = now();
			ref_saxpy(2.0f, x, y3, SN);
			t_native = now() - t_native;
			best = t_native < best ? t_native : best;
		}
		if (!close_enough(y2, y3, SN))
			fprintf(stderr, "saxpy: results differ\n");
		printf("interp_saxpy_vs_native: %.1f\n", t_core / best);
		if (have_fma) {
			double t, t_floor = 1e9;

			for (r = 0; r < REPS; r++) {
				memcpy(y2, y, SN * 4);
				t = now();
				floor_saxpy(2.0f, x, y2, SN);
				t = now() - t;
				t_floor = t < t_floor ? t : t_floor;
			}
			if (!close_enough(y2, y3, SN))
				fprintf(stderr, "saxpy floor: results differ\n");
			printf("saxpy_floor_vs_native: %.2f\n", t_floor / best);
		}
	}

	/* matmul */
	{
		struct { uint64_t a, b, c; uint32_t n; } p = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c2, MN };
		struct vgpu_range mem[4] = { range(a, MN * MN * 4), range(b, MN * MN * 4),
					     range(c2, MN * MN * 4), { 0 } };
		struct vgpu_func f = { .nregs = 27, .npreds = 2, .param_bytes = 28,
				       .shared_bytes = 2048 };
		unsigned int grid[2] = { MN / 16, MN / 16 }, block[2] = { 16, 16 };

		for (best = 1e9, r = 0; r < REPS; r++) {
			t_core = run_core(matmul, sizeof(matmul) / sizeof(matmul[0]), f, grid, block, &p, mem);
			best = t_core < best ? t_core : best;
		}
		t_core = best;
		for (best = 1e9, r = 0; r < REPS; r++) {
			t_native = now();
			ref_matmul(a, b, c, MN);
			t_native = now() - t_native;
			best = t_native < best ? t_native : best;
		}
		if (!close_enough(c2, c, MN * MN))
			fprintf(stderr, "matmul: results differ\n");
		printf("interp_matmul_vs_native: %.1f\n", t_core / best);
		if (have_fma) {
			double t, t_floor = 1e9;

			for (r = 0; r < REPS; r++) {
				t = now();
				floor_matmul(a, b, c3, MN);
				t = now() - t;
				t_floor = t < t_floor ? t : t_floor;
			}
			if (!close_enough(c3, c, MN * MN))
				fprintf(stderr, "matmul floor: results differ\n");
			printf("matmul_floor_vs_native: %.2f\n", t_floor / best);
		}
		t_kmod = run_kmod(a, b, c3, MN);
		if (t_kmod > 0) {
			if (!close_enough(c3, c, MN * MN))
				fprintf(stderr, "matmul through vgpu.ko: results differ\n");
			printf("kmod_vs_user_engine: %.2f\n", t_kmod / t_core);
		}
	}

	/* reduce */
	{
		struct { uint64_t in, out; } p = { (uintptr_t)rin, (uintptr_t)rout2 };
		struct vgpu_range mem[3] = { range(rin, RB * 256 * 4), range(rout2, RB * 4), { 0 } };
		struct vgpu_func f = { .nregs = 15, .npreds = 3, .param_bytes = 16,
				       .shared_bytes = 1024 };
		unsigned int grid[2] = { RB, 1 }, block[2] = { 256, 1 };

		for (best = 1e9, r = 0; r < REPS; r++) {
			t_core = run_core(reduce, sizeof(reduce) / sizeof(reduce[0]), f, grid, block, &p, mem);
			best = t_core < best ? t_core : best;
		}
		t_core = best;
		for (best = 1e9, r = 0; r < REPS; r++) {
			t_native = now();
			ref_reduce(rin, rout, RB);
			t_native = now() - t_native;
			best = t_native < best ? t_native : best;
		}
		if (!close_enough(rout2, rout, RB))
			fprintf(stderr, "reduce: results differ\n");
		printf("interp_reduce_vs_native: %.1f\n", t_core / best);
	}
	return 0;
}
