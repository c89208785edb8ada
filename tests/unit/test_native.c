// SPDX-License-Identifier: MIT
/*
 * The native engine (libvgpu/native) against the interpreter, its
 * reference: every program runs on both, over two copies of the same
 * memory at the same device addresses, and must leave the same memory
 * and registers of record (stored to memory at the end) and report the
 * same fault. Then a differential fuzzer: random verified programs from
 * the operations the engine compiles, fixed seeds first, then a few
 * seconds of new ones.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "native.h"
#include "tap.h"
#include "isa_build.h"
#include "bench/bench_kernels.h"

/* The device window both engines see: VA below, host copies apart. */
#define WIN_VA 0x10000000ULL
#define WIN_BYTES (256u << 10)
/* A read-only window after a gap, for write faults. */
#define RO_VA 0x20000000ULL
#define RO_BYTES 4096u

struct setup {
	const struct vgpu_insn *code;
	unsigned int n;
	struct vgpu_func f;
	unsigned int grid[2];
	unsigned int block[3];
	const void *params;
	const uint8_t *init;	/* WIN_BYTES (NULL: zeros) */
	const uint8_t *init_ro;	/* RO_BYTES (NULL: zeros) */
};

struct outcome {
	int ret;		/* VGPU_RUN_DONE or VGPU_RUN_FAULT */
	unsigned int block;	/* the block that faulted */
	struct vgpu_fault fault;
	uint8_t *mem;
	uint8_t *ro;
};

static void ranges_for(struct outcome *o, struct vgpu_range r[3])
{
	r[0] = (struct vgpu_range){ .va = WIN_VA, .size = WIN_BYTES, .ptr = o->mem,
				    .writable = true };
	r[1] = (struct vgpu_range){ .va = RO_VA, .size = RO_BYTES, .ptr = o->ro };
	r[2] = (struct vgpu_range){ 0 };
}

static void outcome_init(const struct setup *s, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->mem = aligned_alloc(64, WIN_BYTES);
	o->ro = aligned_alloc(64, RO_BYTES);
	if (s->init)
		memcpy(o->mem, s->init, WIN_BYTES);
	else
		memset(o->mem, 0, WIN_BYTES);
	if (s->init_ro)
		memcpy(o->ro, s->init_ro, RO_BYTES);
	else
		memset(o->ro, 0, RO_BYTES);
}

static void outcome_free(struct outcome *o)
{
	free(o->mem);
	free(o->ro);
}

static struct vgpu_launch launch_of(const struct setup *s,
				    const struct vgpu_program *prog,
				    void *mmu)
{
	struct vgpu_launch l = {
		.prog = prog, .func = &s->f,
		.grid = { s->grid[0], s->grid[1] ? s->grid[1] : 1, 1 },
		.block = { s->block[0], s->block[1] ? s->block[1] : 1,
			   s->block[2] ? s->block[2] : 1 },
		.params = s->params, .mmu = mmu, .nsmid = 1,
	};

	return l;
}

static bool verified(const struct setup *s)
{
	struct vgpu_program prog = { s->code, s->n, &s->f, 1 };
	uint8_t *seen = calloc(s->n, 1);
	uint32_t *stack = calloc(s->n, sizeof(*stack));
	struct vgpu_verdict v;
	int r = vgpu_isa_verify(&prog, seen, stack, &v);

	free(seen);
	free(stack);
	return r == 0;
}

/* The interpreter's run: every block from clean state, as the native's. */
static void run_interp(const struct setup *s, struct outcome *o)
{
	struct vgpu_program prog = { s->code, s->n, &s->f, 1 };
	struct vgpu_range r[3];
	struct vgpu_launch l;
	struct vgpu_block *b;
	unsigned int i, nb;

	outcome_init(s, o);
	ranges_for(o, r);
	l = launch_of(s, &prog, r);
	nb = l.grid[0] * l.grid[1];
	b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
	o->ret = VGPU_RUN_DONE;
	for (i = 0; i < nb; i++) {
		int ret;

		vgpu_block_start(b, &l, i, true);
		do
			ret = vgpu_block_run(b, 100000);
		while (ret == VGPU_RUN_MORE);
		if (ret == VGPU_RUN_FAULT) {
			o->ret = ret;
			o->block = i;
			o->fault = *vgpu_block_fault(b);
			break;
		}
	}
	free(b);
}

/* The native engine's run; false when it refused the program. */
static bool run_native(const struct setup *s, struct outcome *o, char *why,
		       size_t why_len)
{
	struct vgpu_program prog = { s->code, s->n, &s->f, 1 };
	struct vgpu_native_kernel *k = vgpu_native_compile(&prog, 0, why, why_len);
	struct vgpu_native_block *b;
	struct vgpu_range r[3];
	struct vgpu_launch l;
	unsigned int i, nb;

	if (!k)
		return false;
	outcome_init(s, o);
	ranges_for(o, r);
	l = launch_of(s, &prog, r);
	nb = l.grid[0] * l.grid[1];
	b = vgpu_native_block_new(k, &l, r, 2);
	o->ret = VGPU_RUN_DONE;
	for (i = 0; b && i < nb; i++) {
		int ret;

		vgpu_native_block_start(b, i);
		do
			ret = vgpu_native_block_run(b);
		while (ret == VGPU_RUN_MORE);
		if (ret == VGPU_RUN_FAULT) {
			o->ret = ret;
			o->block = i;
			o->fault = *vgpu_native_block_fault(b);
			break;
		}
	}
	vgpu_native_block_free(b);
	vgpu_native_kernel_free(k);
	return true;
}

/*
 * Both engines; true when they agree (differences printed). @want_fault:
 * the kind the run must end with (VGPU_FAULT_NONE: none).
 */
static bool agree(const char *what, const struct setup *s, u32 want_fault)
{
	struct outcome a, b;
	char why[160];
	bool ok = true;
	size_t i;

	if (!verified(s)) {
		TAP_FAIL("%s: the verifier refused the program", what);
		return false;
	}
	run_interp(s, &a);
	if (!run_native(s, &b, why, sizeof(why))) {
		TAP_FAIL("%s: native refused: %s", what, why);
		outcome_free(&a);
		return false;
	}
	if (a.ret != b.ret || a.block != b.block ||
	    memcmp(&a.fault, &b.fault, sizeof(a.fault))) {
		TAP_FAIL("%s: interp ret %d block %u fault %u insn %u thread %u addr %#llx;"
			 " native ret %d block %u fault %u insn %u thread %u addr %#llx",
			 what, a.ret, a.block, a.fault.kind, a.fault.insn, a.fault.thread,
			 (unsigned long long)a.fault.addr, b.ret, b.block, b.fault.kind,
			 b.fault.insn, b.fault.thread, (unsigned long long)b.fault.addr);
		ok = false;
	}
	if ((want_fault == VGPU_FAULT_NONE) != (a.ret == VGPU_RUN_DONE) ||
	    (want_fault && a.fault.kind != want_fault)) {
		TAP_FAIL("%s: interp ended %d (fault %u), expected fault %u", what,
			 a.ret, a.fault.kind, want_fault);
		ok = false;
	}
	for (i = 0; i < WIN_BYTES && ok; i++) {
		if (a.mem[i] != b.mem[i]) {
			TAP_FAIL("%s: memory differs at +%#zx: interp %02x native %02x",
				 what, i, a.mem[i], b.mem[i]);
			ok = false;
		}
	}
	outcome_free(&a);
	outcome_free(&b);
	return ok;
}

/* --- random values ---------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

/* Values that find edge cases: specials of f32 and f64, small and big ints. */
static uint64_t rnd_value(void)
{
	static const uint32_t f32s[] = {
		0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000,
		0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x00000001,
		0x807fffff, 0x00800000, 0x7f7fffff, 0x3effffff, 0x4b000000,
	};
	static const uint64_t f64s[] = {
		0x0000000000000000ULL, 0x8000000000000000ULL, 0x3ff0000000000000ULL,
		0x7ff0000000000000ULL, 0xfff8000000000000ULL, 0x7ff0000000000001ULL,
		0x0000000000000001ULL, 0x41dfffffffc00000ULL, 0xc3e0000000000000ULL,
	};

	switch (rnd() % 8) {
	case 0:
		return f32s[rnd() % (sizeof(f32s) / sizeof(f32s[0]))];
	case 1:
		return f64s[rnd() % (sizeof(f64s) / sizeof(f64s[0]))];
	case 2:
		return rnd() % 5 - 2;
	case 3:
		return (uint32_t)rnd();
	case 4: {
		float f = (float)((int64_t)(rnd() % 2001) - 1000) / 7.0f;
		uint32_t u;

		memcpy(&u, &f, 4);
		return u;
	}
	case 5:
		return 1ULL << (rnd() % 64);
	default:
		return rnd();
	}
}

static __attribute__((unused)) uint8_t *random_window(void)
{
	uint8_t *m = malloc(WIN_BYTES);
	size_t i;

	for (i = 0; i < WIN_BYTES; i += 8) {
		uint64_t v = rnd_value();

		memcpy(m + i, &v, 8);
	}
	return m;
}

/* --- the bench kernels ------------------------------------------------------- */

static void bench_kernels_agree(void)
{
	uint8_t *init = calloc(1, WIN_BYTES);
	struct saxpy_params { uint64_t x, y; float a; uint32_t n; } sp;
	struct matmul_params { uint64_t a, b, c; uint32_t n; } mp;
	struct reduce_params { uint64_t in, out; } rp;
	struct setup s;
	unsigned int i;
	float *f = (float *)init;

	rng_state = 0x5eed;
	for (i = 0; i < WIN_BYTES / 4; i++)
		f[i] = (float)((int)(rnd() % 2001) - 1000) / 64.0f;
	/* saxpy: 1000 elements in blocks of 96 (a partial block, partial warps) */
	sp = (struct saxpy_params){ WIN_VA, WIN_VA + 8192, 1.5f, 1000 };
	s = (struct setup){ saxpy, sizeof(saxpy) / sizeof(saxpy[0]),
			    { .nregs = 10, .npreds = 1, .param_bytes = 24 },
			    { 11, 1 }, { 96, 1, 1 }, &sp, init, NULL };
	CHECK(agree("saxpy", &s, VGPU_FAULT_NONE));
	/* matmul 64 x 64 in 16 x 16 tiles: 8 warps a block, barriers */
	mp = (struct matmul_params){ WIN_VA, WIN_VA + 16384, WIN_VA + 32768, 64 };
	s = (struct setup){ matmul, sizeof(matmul) / sizeof(matmul[0]),
			    { .nregs = 27, .npreds = 2, .param_bytes = 28,
			      .shared_bytes = 2048 },
			    { 4, 4 }, { 16, 16, 1 }, &mp, init, NULL };
	CHECK(agree("matmul", &s, VGPU_FAULT_NONE));
	/* reduce: 32 blocks of 256 */
	rp = (struct reduce_params){ WIN_VA, WIN_VA + 65536 };
	s = (struct setup){ reduce, sizeof(reduce) / sizeof(reduce[0]),
			    { .nregs = 15, .npreds = 3, .param_bytes = 16,
			      .shared_bytes = 1024 },
			    { 32, 1 }, { 256, 1, 1 }, &rp, init, NULL };
	CHECK(agree("reduce", &s, VGPU_FAULT_NONE));
	free(init);
}

static const struct tap_test tests[] = {
	TAP_TEST(bench_kernels_agree),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
