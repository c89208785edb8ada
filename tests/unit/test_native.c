// SPDX-License-Identifier: MIT
/*
 * The native engine (libvgpu/native) against the interpreter, its
 * reference: every program runs on both, over two copies of the same
 * memory at the same device addresses, and must leave the same memory
 * and registers of record (stored to memory at the end) and report the
 * same fault. Then a differential fuzzer: random verified programs from
 * the operations the engine compiles, fixed seeds first, then a few
 * seconds of new ones (VGPU_FUZZ_SECONDS sets how many, VGPU_FUZZ_SEED
 * the first, which the test prints).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "core.h"
#include "native.h"
#include "native_rt.h"
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
	/* A second kernel of the program, after the one run, or entry 0. */
	u32 next_entry;
};

/* The program: the kernel run (function 0), and the next one if any. */
static struct vgpu_program program_of(const struct setup *s, struct vgpu_func fs[2])
{
	fs[0] = s->f;
	fs[1] = s->f;
	fs[1].entry = s->next_entry;
	return (struct vgpu_program){ s->code, s->n, fs, s->next_entry ? 2 : 1 };
}

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
	struct vgpu_func fs[2];
	struct vgpu_program prog = program_of(s, fs);
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
	struct vgpu_func fs[2];
	struct vgpu_program prog = program_of(s, fs);
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

/*
 * The interpreter's run of @s: done, with threads [@from, @to) each
 * finding @want in the word of the window at its thread index.
 */
static void interp_reads(const struct setup *s, unsigned int from, unsigned int to,
			 uint32_t want)
{
	struct outcome o;
	unsigned int t;

	run_interp(s, &o);
	CHECK(o.ret == VGPU_RUN_DONE);
	for (t = from; t < to; t++) {
		uint32_t v;

		memcpy(&v, o.mem + t * 4, 4);
		if (v != want) {
			TAP_FAIL("thread %u read %u, not %u", t, v, want);
			break;
		}
	}
	outcome_free(&o);
}

/*
 * What run_native()'s compile did: from the cache, and how long it took;
 * how many kernels ran through the block function.
 */
static unsigned int fuzz_straight, fuzz_phased, native_mores;
static bool last_cached;
static double last_compile_ms;

/* The native engine's run; false when it refused the program. */
static bool run_native(const struct setup *s, struct outcome *o, char *why,
		       size_t why_len)
{
	struct vgpu_func fs[2];
	struct vgpu_program prog = program_of(s, fs);
	struct vgpu_native_kernel *k = vgpu_native_compile(&prog, 0, why, why_len);
	struct vgpu_native_block *b;
	struct vgpu_range r[3];
	struct vgpu_launch l;
	unsigned int i, nb;

	if (!k)
		return false;
	last_cached = k->cached;
	fuzz_straight += k->straight && !k->phased;
	fuzz_phased += k->phased;
	last_compile_ms = k->compile_ms;
	outcome_init(s, o);
	ranges_for(o, r);
	l = launch_of(s, &prog, r);
	nb = l.grid[0] * l.grid[1];
	b = vgpu_native_block_new(k, &l, r, 2);
	o->ret = VGPU_RUN_DONE;
	for (i = 0; b && i < nb; i++) {
		int ret;

		vgpu_native_block_start(b, i);
		while ((ret = vgpu_native_block_run(b, 100000)) == VGPU_RUN_MORE)
			native_mores++;
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

static uint8_t *random_window(void)
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

/* The bench kernels' launches: saxpy (0), matmul (1), reduce (2). */
static const char *const bench_names[3] = { "saxpy", "matmul", "reduce" };

static struct setup bench_setup(unsigned int which, const uint8_t *init)
{
	static struct saxpy_params { uint64_t x, y; float a; uint32_t n; } sp;
	static struct matmul_params { uint64_t a, b, c; uint32_t n; } mp;
	static struct reduce_params { uint64_t in, out; } rp;

	switch (which) {
	case 0:
		/* saxpy: 1000 elements in blocks of 96 (a partial block, partial warps) */
		sp = (struct saxpy_params){ WIN_VA, WIN_VA + 8192, 1.5f, 1000 };
		return (struct setup){ saxpy, sizeof(saxpy) / sizeof(saxpy[0]),
				       { .nregs = 10, .npreds = 1, .param_bytes = 24 },
				       { 11, 1 }, { 96, 1, 1 }, &sp, init, NULL, 0 };
	case 1:
		/* matmul 64 x 64 in 16 x 16 tiles: 8 warps a block, barriers */
		mp = (struct matmul_params){ WIN_VA, WIN_VA + 16384, WIN_VA + 32768, 64 };
		return (struct setup){ matmul, sizeof(matmul) / sizeof(matmul[0]),
				       { .nregs = 27, .npreds = 2, .param_bytes = 28,
					 .shared_bytes = 2048 },
				       { 4, 4 }, { 16, 16, 1 }, &mp, init, NULL, 0 };
	default:
		/* reduce: 32 blocks of 256 */
		rp = (struct reduce_params){ WIN_VA, WIN_VA + 65536 };
		return (struct setup){ reduce, sizeof(reduce) / sizeof(reduce[0]),
				       { .nregs = 15, .npreds = 3, .param_bytes = 16,
					 .shared_bytes = 1024 },
				       { 32, 1 }, { 256, 1, 1 }, &rp, init, NULL, 0 };
	}
}

static uint8_t *bench_memory(void)
{
	uint8_t *init = calloc(1, WIN_BYTES);
	float *f = (float *)init;
	unsigned int i;

	rng_state = 0x5eed;
	for (i = 0; i < WIN_BYTES / 4; i++)
		f[i] = (float)((int)(rnd() % 2001) - 1000) / 64.0f;
	return init;
}

static void bench_kernels_agree(void)
{
	uint8_t *init = bench_memory();
	struct setup s;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		s = bench_setup(i, init);
		CHECK(agree(bench_names[i], &s, VGPU_FAULT_NONE));
	}
	free(init);
}

/* --- the object cache ------------------------------------------------------- */

/* The entries in @dir; the name of the last in @name. */
static unsigned int cache_entries(const char *dir, char *name, size_t name_len)
{
	struct dirent *e;
	unsigned int n = 0;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(name, name_len, "%s/%s", dir, e->d_name);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* Flips a byte at @at, or truncates the file to @len when @at < 0. */
static void damage(const char *path, long at, off_t len)
{
	FILE *f;
	int c;

	if (at < 0) {
		CHECK(!truncate(path, len));
		return;
	}
	f = fopen(path, "r+b");
	CHECK(f);
	if (!f)
		return;
	fseek(f, at, SEEK_SET);
	c = fgetc(f);
	fseek(f, at, SEEK_SET);
	fputc(c ^ 0x40, f);
	fclose(f);
}

/*
 * Compiled code kept in the cache directory: the same kernel again comes
 * from it, much sooner, and runs as the interpreter does; another kernel,
 * or the same code with another description, misses; a damaged entry is
 * compiled anew and rewritten; CUDA_CACHE_DISABLE keeps it off.
 */
static void object_cache(void)
{
	char dir[] = "/tmp/vgpu_native_cache_XXXXXX", entry[512], other[512];
	uint8_t *init = bench_memory();
	double miss_ms[3];
	struct setup s;
	struct stat st;
	unsigned int i;

	if (!mkdtemp(dir)) {
		TAP_FAIL("mkdtemp: %s", strerror(errno));
		free(init);
		return;
	}
	setenv("CUDA_CACHE_PATH", dir, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	for (i = 0; i < 3; i++) {
		s = bench_setup(i, init);
		CHECK(agree(bench_names[i], &s, VGPU_FAULT_NONE));
		CHECK(!last_cached);
		miss_ms[i] = last_compile_ms;
		CHECK(cache_entries(dir, entry, sizeof(entry)) == i + 1);
	}
	for (i = 0; i < 3; i++) {
		s = bench_setup(i, init);
		CHECK(agree(bench_names[i], &s, VGPU_FAULT_NONE));
		CHECK(last_cached);
		CHECK(last_compile_ms < miss_ms[i] / 3);
		printf("# %s: compiled in %.2f ms, from the cache in %.2f ms\n",
		       bench_names[i], miss_ms[i], last_compile_ms);
	}
	CHECK(cache_entries(dir, entry, sizeof(entry)) == 3);

	/* Another description of the same code: another key. */
	s = bench_setup(0, init);
	s.f.nregs++;
	CHECK(agree("saxpy, one more register", &s, VGPU_FAULT_NONE));
	CHECK(!last_cached);
	CHECK(cache_entries(dir, entry, sizeof(entry)) == 4);

	/*
	 * Every entry damaged, matmul's among them: a byte of the code, a
	 * byte of the key, cut to half, emptied.
	 */
	for (i = 0; i < 4; i++) {
		unsigned int n = 0;
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(other, sizeof(other), "%s/%s", dir, e->d_name);
			if (stat(other, &st))
				continue;
			damage(other, i == 0 ? (long)st.st_size - 100 : i == 1 ? 40 : -1,
			       i == 2 ? st.st_size / 2 : 0);
			n++;
		}
		if (d)
			closedir(d);
		CHECK(n == 4);
		s = bench_setup(1, init);
		CHECK(agree("matmul, its entry damaged", &s, VGPU_FAULT_NONE));
		CHECK(!last_cached);
		/* Rewritten whole: the next compile is a hit again. */
		CHECK(agree("matmul, its entry rewritten", &s, VGPU_FAULT_NONE));
		CHECK(last_cached);
	}

	/* Off: nothing read, nothing written. */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	s = bench_setup(1, init);
	CHECK(agree("matmul, the cache off", &s, VGPU_FAULT_NONE));
	CHECK(!last_cached);
	s = bench_setup(2, init);
	s.f.nregs++;
	CHECK(agree("reduce, the cache off", &s, VGPU_FAULT_NONE));
	CHECK(cache_entries(dir, entry, sizeof(entry)) == 4);

	while (cache_entries(dir, entry, sizeof(entry)))
		CHECK(!unlink(entry));
	CHECK(!rmdir(dir));
	unsetenv("CUDA_CACHE_PATH");
	free(init);
}

/* --- fork ------------------------------------------------------------------- */

/* Compiles the matmul (the cache is off) and frees it: @arg, or NULL. */
static void *compile_matmul(void *arg)
{
	struct setup s = bench_setup(1, NULL);
	struct vgpu_program p = { s.code, s.n, &s.f, 1 };
	struct vgpu_native_kernel *k;
	char why[160];
	bool ok;

	k = vgpu_native_compile(&p, 0, why, sizeof(why));
	ok = k != NULL;
	vgpu_native_kernel_free(k);
	return ok ? arg : NULL;
}

/*
 * A fork while another thread compiles, at several points of the
 * compile: the child compiles a kernel and frees it, and exits. (Forked
 * halfway through, it found the engine's lock held by a thread it does
 * not have, and waited for ever.)
 */
static void fork_while_compiling(void)
{
	static const unsigned int delay_us[] = { 0, 2000, 5000, 10000, 20000 };
	static int done;
	unsigned int i, waited_ms;
	bool exited;
	void *ret;
	int status;
	pthread_t t;
	pid_t pid;

	for (i = 0; i < sizeof(delay_us) / sizeof(delay_us[0]); i++) {
		if (pthread_create(&t, NULL, compile_matmul, &done)) {
			TAP_FAIL("pthread_create");
			return;
		}
		usleep(delay_us[i]);
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(compile_matmul(&done) ? 0 : 1);
		CHECK(pid > 0);
		exited = false;
		for (waited_ms = 0; pid > 0 && !exited && waited_ms < 20000; waited_ms += 10) {
			exited = waitpid(pid, &status, WNOHANG) == pid;
			if (!exited)
				usleep(10000);
		}
		if (pid > 0 && !exited) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			TAP_FAIL("a child forked %u us into a compile did not finish",
				 delay_us[i]);
		} else if (pid > 0) {
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		ret = NULL;
		CHECK(!pthread_join(t, &ret) && ret == &done);
	}
}

/* --- targeted programs ------------------------------------------------------- */

/* r0 = tid.x; r1 = param 0 + tid * @shift-scaled; common prologue. */
#define PRO(SHIFT) SREG(0, VGPU_SR_TID_X), OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 0, SHIFT), \
	LDP(VGPU_T_U64, 2, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 2)

static struct setup one_block(const struct vgpu_insn *code, unsigned int n,
			      unsigned int threads, const void *params)
{
	struct setup s = { code, n, { .nregs = 8, .npreds = 2, .param_bytes = 8,
				      .shared_bytes = 512, .local_bytes = 16 },
			   { 2, 1 }, { threads, 1, 1 }, params, NULL, NULL, 0 };

	return s;
}

#define RUN(name, code, threads, params, want) do { \
	struct setup s_ = one_block(code, sizeof(code) / sizeof(code[0]), threads, params); \
	CHECK(agree(name, &s_, want)); \
} while (0)

static void faults_match(void)
{
	uint64_t near_end = WIN_VA + WIN_BYTES - 20, win = WIN_VA, ro = RO_VA;
	/* a store running off the window's end at lane 5: lanes 0-4 land */
	const struct vgpu_insn off_end[] = {
		PRO(2), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0), EXIT(),
	};
	/* misaligned u32 loads */
	const struct vgpu_insn misaligned[] = {
		PRO(2), LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 1, 2), EXIT(),
	};
	/* a store to a read-only range */
	const struct vgpu_insn read_only[] = {
		PRO(3), ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 1, 0, 0), EXIT(),
	};
	/* shared memory past its 512 bytes from thread 3 on */
	const struct vgpu_insn shared_oob[] = {
		SREG(0, VGPU_SR_TID_X), OPI(VGPU_OP_SHL, VGPU_T_U32, 1, 0, 2),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, 1, 500, 0), EXIT(),
	};
	/* a trap in thread 37 (the second warp) */
	const struct vgpu_insn trap[] = {
		SREG(0, VGPU_SR_TID_X), SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 37),
		INSN(.op = VGPU_OP_TRAP, .guard = 0), PRO(2),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0), EXIT(),
	};
	/* the second warp's loads fall in the gap after the window */
	const struct vgpu_insn second_warp[] = {
		PRO(7), LD(VGPU_SPACE_GLOBAL, VGPU_T_U64, 3, 1, 0),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 1, 8, 3), EXIT(),
	};
	/* local memory round trip, then a parameter read out of bounds */
	const struct vgpu_insn local_then_param[] = {
		SREG(0, VGPU_SR_TID_X), ST(VGPU_SPACE_LOCAL, VGPU_T_U32, VGPU_NO_REG, 4, 0),
		LD(VGPU_SPACE_LOCAL, VGPU_T_U32, 3, VGPU_NO_REG, 4), PRO(2),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 3),
		OPI(VGPU_OP_AND, VGPU_T_U64, 4, 0, 8),
		LD(VGPU_SPACE_PARAM, VGPU_T_U64, 5, 4, 0), EXIT(),
	};
	/* the constant bank, which these launches do not have */
	const struct vgpu_insn no_consts[] = {
		LD(VGPU_SPACE_CONST, VGPU_T_U32, 3, VGPU_NO_REG, 0), EXIT(),
	};
	/* generic addresses in the shared and local windows */
	const struct vgpu_insn generic[] = {
		PRO(2), MOVI(VGPU_T_U64, 4, VGPU_SHARED_WINDOW),
		OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 0, 2), OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 5),
		ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 4, 0, 0),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 6, 5, 0),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 6),
		MOVI(VGPU_T_U64, 4, VGPU_LOCAL_WINDOW + 16), ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 4, 0, 0),
		EXIT(),
	};

	/*
	 * The first warp loops past its turn (512 instructions) before its
	 * bad store, the second stores at once: the second's fault is the
	 * one reported, as warps take turns alike on both engines.
	 */
	const struct vgpu_insn turns[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X), MOVI(VGPU_T_U32, 3, 400),
		/* 2 */ SETPI(VGPU_T_U32, VGPU_CMP_GE, 0, 0, 32), BRA_IF(0, 7),
		/* 4: loop */ OPI(VGPU_OP_SUB, VGPU_T_U32, 3, 3, 1),
		/* 5 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 3, 0), BRA_IF(1, 4),
		/* 7 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 4, 0, 2),
		/* 8 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 4, 0, 0), EXIT(),
	};

	RUN("turns of warps", turns, 64, &win, VGPU_FAULT_ADDRESS);
	RUN("store off the end", off_end, 64, &near_end, VGPU_FAULT_ADDRESS);
	RUN("misaligned", misaligned, 32, &win, VGPU_FAULT_MISALIGNED);
	RUN("read-only", read_only, 32, &ro, VGPU_FAULT_ADDRESS);
	RUN("shared out of bounds", shared_oob, 32, &win, VGPU_FAULT_ADDRESS);
	RUN("trap", trap, 64, &win, VGPU_FAULT_TRAP);
	near_end = WIN_VA + WIN_BYTES - 32 * 128;
	RUN("second warp", second_warp, 64, &near_end, VGPU_FAULT_ADDRESS);
	RUN("local, then parameters", local_then_param, 32, &win, VGPU_FAULT_ADDRESS);
	RUN("no constants", no_consts, 32, &win, VGPU_FAULT_ADDRESS);
	RUN("generic windows", generic, 40, &win, VGPU_FAULT_ADDRESS);
}

/*
 * Divergence: each thread loops tid % 7 times, with a nested branch on
 * the parity of the trip; lanes meet again after the loop.
 */
static void divergent_loops(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		/* 0 */ PRO(2), MOVI(VGPU_T_U32, 3, 0),
		/* 5 */ INSN(.op = VGPU_OP_REM, .type = VGPU_T_U32, .dst = 4, .a = 0,
			     .flags = VGPU_IF_B_IMM, .imm = 7),
		/* 6: loop */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 4, 0),
		/* 7 */ BRA_IF(0, 14),
		/* 8 */ OPI(VGPU_OP_AND, VGPU_T_U32, 5, 4, 1),
		/* 9 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 5, 0),
		/* 10 */ BRA_IF(1, 12),
		/* 11 */ OPI(VGPU_OP_MUL, VGPU_T_U32, 3, 3, 3),
		/* 12 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 5),
		/* 13 */ INSN(.op = VGPU_OP_SUB, .type = VGPU_T_U32, .dst = 4, .a = 4,
			      .flags = VGPU_IF_B_IMM, .imm = 1),
		/* 14 */ BRA_UNLESS(0, 6),
		/* 15 */ INSN(.op = VGPU_OP_ACTIVEMASK, .type = VGPU_T_U32, .dst = 6),
		/* 16 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 3),
		/* 17 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 4096, 6),
		/* 18 */ EXIT(),
	};

	RUN("divergent loops", code, 50, &win, VGPU_FAULT_NONE);
}

/*
 * Forward progress: lane 0 of each warp spins on a word that the last
 * warp's lane 31 sets after a long detour, and another lane of the same
 * warp spins on one that lane 1 sets: the engine must hand over both
 * between warps (yielding) and between the lanes of a warp (the
 * interpreter's fairness rule).
 */
static void spinning_makes_progress(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X), LDP(VGPU_T_U64, 2, 0),
		/* 2 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 0),
		/* 3 */ BRA_UNLESS(0, 7),
		/* 4: spin */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 2, 0),
		/* 5 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 3, 0),
		/* 6 */ BRA_IF(1, 4),
		/* 7 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 95),
		/* 8 */ BRA_UNLESS(0, 14),
		/* 9 */ MOVI(VGPU_T_U32, 4, 3000),
		/* 10: detour */ OPI(VGPU_OP_SUB, VGPU_T_U32, 4, 4, 1),
		/* 11 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 4, 0),
		/* 12 */ BRA_IF(1, 10),
		/* 13 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 0, 0),
		/* 14 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 0, 2),
		/* 15 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 5, 5, 2),
		/* 16 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 64, 0),
		/* 17 */ EXIT(),
	};
	uint8_t *init = calloc(1, WIN_BYTES);
	struct setup s = one_block(code, sizeof(code) / sizeof(code[0]), 96, &win);

	s.init = init;
	init[0] = 0;
	/* word 0 starts 0 and lane 95 stores its tid (95) there */
	CHECK(agree("spinning", &s, VGPU_FAULT_NONE));
	free(init);
}

/*
 * A warp's turn ends only where a branch ran or its group changed, never
 * inside a straight run, on both engines: warp 0 stores 1, 2, ... 300 to
 * a shared word in one run of 600 instructions (past VGPU_WARP_SLICE),
 * branches, and stores 1000; warp 1 reads the word when it first runs.
 * It must find 300: the turn ran past its count to the branch and ended
 * there, before the 1000.
 */
static void turns_end_between_runs(void)
{
	enum { STORES = 300 };
	uint64_t win = WIN_VA;
	unsigned int n = 0, k;
	struct vgpu_insn *code = calloc(2 * STORES + 16, sizeof(*code));
	struct setup s;

	CHECK(code);
	if (!code)
		return;
	code[n++] = SREG(0, VGPU_SR_TID_X);
	code[n++] = SETPI(VGPU_T_U32, VGPU_CMP_GE, 0, 0, 32);
	code[n++] = BRA_IF(0, 0);	/* to warp 1's code: below */
	for (k = 1; k <= STORES; k++) {
		code[n++] = MOVI(VGPU_T_U32, 3, k);
		code[n++] = ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 0, 3);
	}
	code[n++] = SETP(VGPU_T_U32, VGPU_CMP_EQ, 1, 0, 0);
	code[n] = BRA_IF(1, n + 1);
	n++;
	code[n++] = MOVI(VGPU_T_U32, 3, 1000);
	code[n++] = ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 0, 3);
	code[n++] = EXIT();
	/* warp 1: the word, to its threads' slots */
	code[2].imm = n;
	code[n++] = LD(VGPU_SPACE_SHARED, VGPU_T_U32, 4, VGPU_NO_REG, 0);
	code[n++] = OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 0, 2);
	code[n++] = LDP(VGPU_T_U64, 6, 0);
	code[n++] = OP3(VGPU_OP_ADD, VGPU_T_U64, 5, 5, 6);
	code[n++] = ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 0, 4);
	code[n++] = EXIT();

	s = one_block(code, n, 64, &win);
	s.grid[0] = 1;
	CHECK(verified(&s));
	interp_reads(&s, 32, 64, STORES);
	CHECK(agree("a turn past its count", &s, VGPU_FAULT_NONE));
	free(code);
}

/*
 * A warp splits at a forward branch and at a loop's exit, the halves meet
 * again where the interpreter has them meet (the mask of active lanes
 * there tells), and part of a warp reaches a barrier before the rest, as
 * in a tree reduction's last steps; the other warp arrives whole.
 */
static void divergence_around_barriers(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		/* 0 */ PRO(2), MOVI(VGPU_T_U32, 7, 16),
		/* 5: odd lanes skip ahead, even lanes meet them at 8 */
		OPI(VGPU_OP_AND, VGPU_T_U32, 3, 0, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 3, 0), BRA_IF(0, 9),
		/* 8 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 0, 100),
		/* 9 */ INSN(.op = VGPU_OP_ACTIVEMASK, .type = VGPU_T_U32, .dst = 5),
		/* 10: loop: lanes below r7 work, then all meet at the barrier */
		SETP(VGPU_T_U32, VGPU_CMP_LT, 1, 0, 7), BRA_UNLESS(1, 14),
		/* 12 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 7),
		INSN(.op = VGPU_OP_ACTIVEMASK, .type = VGPU_T_U32, .dst = 6),
		/* 14 */ BAR(), OPI(VGPU_OP_SHR, VGPU_T_U32, 7, 7, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 7, 0), BRA_IF(1, 10),
		/* 18 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0x400, 5),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0x800, 6), EXIT(),
	};

	RUN("divergence around barriers", code, 64, &win, VGPU_FAULT_NONE);
}

/* Barriers with counts across warps, and one that can never complete. */
static void barriers_across_warps(void)
{
	uint64_t win = WIN_VA;
	/* each warp writes shared, all meet, each reads a word of another */
	const struct vgpu_insn exchange[] = {
		PRO(2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2),
		OPI(VGPU_OP_MUL, VGPU_T_U32, 4, 0, 3),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 0, 4), BAR(),
		OPI(VGPU_OP_XOR, VGPU_T_U32, 5, 3, 0x80),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 6, 5, 0), BAR_N(1, 96),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 6), EXIT(),
	};
	/* warp 1 exits early: warps that have exited are not waited for */
	const struct vgpu_insn early_exit[] = {
		PRO(2), SETPI(VGPU_T_U32, VGPU_CMP_GE, 0, 0, 32),
		SETPI(VGPU_T_U32, VGPU_CMP_LT, 1, 0, 64),
		INSN(.op = VGPU_OP_AND, .type = VGPU_T_PRED, .dst = 0, .a = 0, .b = 1),
		INSN(.op = VGPU_OP_EXIT, .guard = 0), BAR(),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0), EXIT(),
	};
	/* only the first warp reaches a barrier of 64 threads: deadlock */
	const struct vgpu_insn stuck[] = {
		PRO(2), SETPI(VGPU_T_U32, VGPU_CMP_GE, 0, 0, 32),
		BRA_IF(0, 7), BAR_N(2, 64),
		/* 7 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0), EXIT(),
	};

	/*
	 * a barrier whose number and thread count come from 32-bit
	 * registers, which its helper reads from the register file at the
	 * lowest arriving lane: thread 0 has exited, so that is lane 1 of
	 * the first warp, whose count differs from its neighbours'
	 */
	const struct vgpu_insn by_regs[] = {
		PRO(2), SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 0),
		INSN(.op = VGPU_OP_EXIT, .guard = 0),
		/* 6: 96 in lanes 0 and 1 (mod 4), 128 in lanes 2 and 3 */
		OPI(VGPU_OP_AND, VGPU_T_U32, 3, 0, 2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 3, 4),
		OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 96), MOVI(VGPU_T_U32, 4, 5),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 0, 0),
		INSN(.op = VGPU_OP_BAR, .mod2 = VGPU_BAR_COUNT | VGPU_BAR_ID_REG,
		     .b = 3, .c = 4),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, VGPU_NO_REG, 0),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 5, 3),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 5, 4),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 5), EXIT(),
	};
	/*
	 * predicates set before barriers guard stores after them, in a
	 * program without BAR_RED (whose barriers leave predicates be)
	 */
	const struct vgpu_insn preds_across[] = {
		PRO(2), OPI(VGPU_OP_AND, VGPU_T_U32, 3, 0, 5),
		SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 3, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_GE, 1, 0, 40), BAR(),
		INSN(.op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		     .guard = 0, .a = 1, .b = 0),
		BAR(), INSN(.op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			    .guard = 1, .a = 1, .b = 3, .imm = 0x400),
		EXIT(),
	};
	/*
	 * the first warp exits whole mid-program, the second waits for 64
	 * threads: the deadlock names the first warp's pc after its exit
	 */
	const struct vgpu_insn first_gone[] = {
		SREG(0, VGPU_SR_TID_X), SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 32),
		INSN(.op = VGPU_OP_EXIT, .guard = 0), BAR_N(2, 64), EXIT(),
	};

	/* barrier reductions: a count, an and, an or of per-thread predicates */
	const struct vgpu_insn reduce_preds[] = {
		PRO(4), OPI(VGPU_OP_REM, VGPU_T_U32, 3, 0, 3),
		SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 3, 0),
		INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_U32, .mod = VGPU_BAR_POPC,
		     .dst = 4, .a = 0),
		INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_OR,
		     .dst = 1, .a = 0),
		INSN(.op = VGPU_OP_SELP, .type = VGPU_T_U32, .dst = 5, .a = 0,
		     .flags = VGPU_IF_B_IMM, .imm = 7, .c = 1),
		INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_AND,
		     .dst = 1, .a = 0),
		INSN(.op = VGPU_OP_SELP, .type = VGPU_T_U32, .dst = 6, .a = 0,
		     .flags = VGPU_IF_B_IMM, .imm = 9, .c = 1),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 4, 5),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 8, 6), EXIT(),
	};

	RUN("barrier reductions", reduce_preds, 80, &win, VGPU_FAULT_NONE);
	RUN("barrier exchange", exchange, 96, &win, VGPU_FAULT_NONE);
	RUN("early exit", early_exit, 96, &win, VGPU_FAULT_NONE);
	RUN("barrier that cannot complete", stuck, 64, &win, VGPU_FAULT_DEADLOCK);
	RUN("deadlock after the first warp exits", first_gone, 64, &win, VGPU_FAULT_DEADLOCK);
	RUN("barrier number and count from registers", by_regs, 96, &win, VGPU_FAULT_NONE);
	RUN("predicates across barriers", preds_across, 64, &win, VGPU_FAULT_NONE);
}

/*
 * Registers start as zeros in every block: one never written, one written
 * only where a guard holds. (The engine clears just these.)
 */
static void unwritten_registers_read_zero(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		PRO(3), SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 5),
		INSN(.op = VGPU_OP_MOV, .type = VGPU_T_U64, .dst = 5, .guard = 0,
		     .flags = VGPU_IF_B_IMM, .imm = 0x1234567890ULL),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 5, 7),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 1, 0, 6),
		MOVI(VGPU_T_U64, 7, 99), EXIT(),
	};

	RUN("unwritten registers", code, 40, &win, VGPU_FAULT_NONE);
}

/*
 * Accesses the one-vector path does not take but that are in bounds: a
 * partial warp at consecutive words whose 32 would run past shared
 * memory's end, and lanes with lane 0 idle; they gather and scatter and
 * must land as the interpreter's. Then the same near the end of a
 * global range, and one word past it, which faults at its lane.
 */
static void accesses_off_the_vector_path(void)
{
	uint64_t win = WIN_VA, near_end = WIN_VA + WIN_BYTES - 40 * 4;
	const struct vgpu_insn shared_tail[] = {
		PRO(2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2),
		OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 352),
		/* 6 */ OPI(VGPU_OP_MUL, VGPU_T_U32, 4, 0, 7),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 0, 4),
		/* odd lanes only: lane 0 idle */
		OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 5, 0),
		INSN(.op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_SHARED,
		     .guard = 0, .a = 3, .b = 0),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 6, 3, 0),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 6), EXIT(),
	};
	/* 40 threads at the last 40 words of the window, then one further */
	const struct vgpu_insn global_tail[] = {
		PRO(2), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0),
		LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 1, 0),
		OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 1000),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 3),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 4, 3), EXIT(),
	};

	RUN("shared, partial warp and idle lane 0", shared_tail, 40, &win, VGPU_FAULT_NONE);
	RUN("global tail, then one past", global_tail, 40, &near_end, VGPU_FAULT_ADDRESS);
}

/*
 * Shared accesses through a 32-bit index register and an offset, which
 * the native code checks in 32-bit lanes: loads at lanes (tid & 15) * 4
 * (a 16-wide tile's row read twice, as a matrix multiply does: two
 * vector loads of 16), in a partial warp too (a gather), at (tid >> 4) * 4
 * (one element a row: two loads of one) and at (tid & 15) * 8 (a
 * gather); then
 * indices whose sum with the offset passes 2^32 (no wrapping: every lane
 * faults), an offset that takes lanes 16 and up past the end of shared
 * memory (512 bytes), for a load and for a store, and one that misaligns
 * every lane.
 */
static void shared_through_narrow_indices(void)
{
	uint64_t win = WIN_VA;
/* Each thread's tid * 3 to shared word tid; then a load at r5 + 64, to global. */
#define SHARED_FILL PRO(2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2), \
	OPI(VGPU_OP_MUL, VGPU_T_U32, 4, 0, 3), ST(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 0, 4)
#define SHARED_READ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 6, 5, 64), \
	ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 6), EXIT()
	const struct vgpu_insn rows[] = {
		SHARED_FILL, OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 15),
		OPI(VGPU_OP_SHL, VGPU_T_U32, 5, 5, 2), SHARED_READ,
	};
	const struct vgpu_insn column[] = {
		SHARED_FILL, OPI(VGPU_OP_SHR, VGPU_T_U32, 5, 0, 4),
		OPI(VGPU_OP_SHL, VGPU_T_U32, 5, 5, 2), SHARED_READ,
	};
	const struct vgpu_insn stride_two[] = {
		SHARED_FILL, OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 15),
		OPI(VGPU_OP_SHL, VGPU_T_U32, 5, 5, 3), SHARED_READ,
	};
#undef SHARED_FILL
#undef SHARED_READ
	const struct vgpu_insn past_4g[] = {
		PRO(2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2),
		OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 0xffffff00),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 4, 3, 0x100),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	const struct vgpu_insn past_end_load[] = {
		PRO(2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 4, 3, 448),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	const struct vgpu_insn past_end_store[] = {
		PRO(2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 448, 0), EXIT(),
	};
	const struct vgpu_insn misaligned[] = {
		PRO(2), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 4, 3, 2),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};

	RUN("a tile's row read twice", rows, 64, &win, VGPU_FAULT_NONE);
	RUN("a tile's row read twice, a partial warp", rows, 40, &win, VGPU_FAULT_NONE);
	RUN("a tile's column, an element a row", column, 64, &win, VGPU_FAULT_NONE);
	RUN("rows at every other element", stride_two, 64, &win, VGPU_FAULT_NONE);
	RUN("index and offset past 2^32", past_4g, 32, &win, VGPU_FAULT_ADDRESS);
	RUN("offset past the end, loading", past_end_load, 32, &win, VGPU_FAULT_ADDRESS);
	RUN("offset past the end, storing", past_end_store, 32, &win, VGPU_FAULT_ADDRESS);
	RUN("offset misaligning", misaligned, 32, &win, VGPU_FAULT_MISALIGNED);
}

/*
 * The block function's affine copies (native_affine.c) hold only while no
 * narrow index wraps, or crosses its sign, between the first lane and the
 * last (of the block, or of the warp), and while TID_X is the thread's
 * index (a block of one row) or consecutive in the warp. Here a u32 index
 * wraps, and an s32 one turns negative, at lane 16: the addresses jump
 * there, and lane 16 faults. Then a partial last warp, whose idle lanes'
 * TID_X starts over, with every access in range; a block's accesses
 * checked once for the block, where the second block's do not all fit;
 * and a block of 16 x 4 threads.
 */
static void affine_indices_that_wrap(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn wrap_u32[] = {
		SREG(0, VGPU_SR_TID_X), OPI(VGPU_OP_ADD, VGPU_T_U32, 1, 0, 0xfffffff0),
		INSN(.op = VGPU_OP_MUL, .type = VGPU_T_U32, .mod = VGPU_MUL_WIDE, .dst = 3, .a = 1,
		     .flags = VGPU_IF_B_IMM, .imm = 4),
		OPI(VGPU_OP_ADD, VGPU_T_U64, 3, 3, -(0xfffffff0ULL * 4)),
		LDP(VGPU_T_U64, 2, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 3, 3, 2),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 0, 0), EXIT(),
	};
	const struct vgpu_insn sign_s32[] = {
		SREG(0, VGPU_SR_TID_X), OPI(VGPU_OP_ADD, VGPU_T_U32, 1, 0, 0x7ffffff0),
		INSN(.op = VGPU_OP_MUL, .type = VGPU_T_S32, .mod = VGPU_MUL_WIDE, .dst = 3, .a = 1,
		     .flags = VGPU_IF_B_IMM, .imm = 4),
		OPI(VGPU_OP_ADD, VGPU_T_U64, 3, 3, -(0x7ffffff0ULL * 4)),
		LDP(VGPU_T_U64, 2, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 3, 3, 2),
		LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 4, 3, 0), EXIT(),
	};
	const struct vgpu_insn partial[] = {
		PRO(2), LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 1, 0),
		OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 7), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 3),
		EXIT(),
	};
	/* Thread ctaid * ntid + tid's word, each block's words in one range (or not). */
	const struct vgpu_insn per_block[] = {
		SREG(0, VGPU_SR_TID_X), SREG(2, VGPU_SR_CTAID_X), SREG(3, VGPU_SR_NTID_X),
		INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 4, .a = 2, .b = 3, .c = 0),
		OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 4, 2), LDP(VGPU_T_U64, 2, 0),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 2), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0),
		EXIT(),
	};
	/* Each thread's word copied 64 words on: two accesses, two ranges. */
	const struct vgpu_insn copy_on[] = {
		SREG(0, VGPU_SR_TID_X), SREG(2, VGPU_SR_CTAID_X), SREG(3, VGPU_SR_NTID_X),
		INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 4, .a = 2, .b = 3, .c = 0),
		OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 4, 2), LDP(VGPU_T_U64, 2, 0),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 2), LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 1, 0),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 256, 5), EXIT(),
	};
	/* A 16 x 4 block: TID_X is not the thread's index; its value is stored. */
	const struct vgpu_insn rows[] = {
		SREG(0, VGPU_SR_TID_X), SREG(5, VGPU_SR_TID_Y),
		OPI(VGPU_OP_SHL, VGPU_T_U32, 6, 5, 4), OP3(VGPU_OP_ADD, VGPU_T_U32, 6, 6, 0),
		OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 6, 2), LDP(VGPU_T_U64, 2, 0),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 2), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0),
		EXIT(),
	};
	/* The second block's last 10 words past the window's end. */
	uint64_t tail = WIN_VA + WIN_BYTES - 70 * 4;
	/* The second block's loads in range, its last 10 stores past the end. */
	uint64_t copy_tail = WIN_VA + WIN_BYTES - 70 * 4 - 256;
	struct setup s2d = one_block(rows, sizeof(rows) / sizeof(rows[0]), 16, &win);
	unsigned int before = fuzz_straight;

	RUN("u32 index wrapping inside a warp", wrap_u32, 64, &win, VGPU_FAULT_ADDRESS);
	RUN("s32 index turning negative inside a warp", sign_s32, 64, &win, VGPU_FAULT_ADDRESS);
	RUN("partial last warp", partial, 48, &win, VGPU_FAULT_NONE);
	/*
	 * The first block leaves its range in the instruction's site; the
	 * second's words do not all fit it, so its warps are checked.
	 */
	RUN("blocks in range", per_block, 40, &win, VGPU_FAULT_NONE);
	RUN("second block past the end", per_block, 40, &tail, VGPU_FAULT_ADDRESS);
	/*
	 * Only a block whose accesses all fit goes unchecked: the second
	 * block's loads do, its stores do not.
	 */
	RUN("second block's stores past the end", copy_on, 40, &copy_tail, VGPU_FAULT_ADDRESS);
	s2d.block[1] = 4;
	CHECK(agree("16 x 4 block", &s2d, VGPU_FAULT_NONE));
	CHECK(fuzz_straight == before + 7);
}

/*
 * Atomics in a straight run (the block function's): lanes that have left
 * (odd threads, and a partial last warp's idle lanes) take no part, each
 * lane gets the old value in the interpreter's order, and an atomic at a
 * bad address faults at its lane.
 */
static void atomics_in_a_straight_run(void)
{
	uint64_t win = WIN_VA, bad = WIN_VA + WIN_BYTES;
	const struct vgpu_insn count[] = {
		PRO(2), OPI(VGPU_OP_AND, VGPU_T_U32, 3, 0, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 3, 0), INSN(.op = VGPU_OP_EXIT, .guard = 0),
		LDP(VGPU_T_U64, 4, 0),
		INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		     .mod2 = VGPU_ATOM_ADD, .dst = 5, .a = 4, .b = 0, .imm = 4096),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 5), EXIT(),
	};
	/* lanes the guard leaves out keep their value of the destination */
	const struct vgpu_insn guarded[] = {
		PRO(2), OPI(VGPU_OP_AND, VGPU_T_U32, 3, 0, 2),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 3, 0), MOVI(VGPU_T_U32, 5, 77),
		LDP(VGPU_T_U64, 4, 0),
		INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		     .mod2 = VGPU_ATOM_ADD, .guard = 0, .dst = 5, .a = 4, .b = 0, .imm = 4096),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 5), EXIT(),
	};
	unsigned int before = fuzz_straight;

	RUN("atomic add by the even threads", count, 45, &win, VGPU_FAULT_NONE);
	RUN("guarded atomic", guarded, 64, &win, VGPU_FAULT_NONE);
	RUN("atomic at a bad address", count, 45, &bad, VGPU_FAULT_ADDRESS);
	CHECK(fuzz_straight == before + 3);
}

/*
 * Runs between barriers (the phased block function's): warps take each
 * phase in the interpreter's order, the warp that completed the barrier
 * first; registers, predicates and lanes live across barriers; a block
 * that loops on a barrier past a call's phases goes on in the next call.
 */
static void phases_in_turn(void)
{
	uint64_t win = WIN_VA;
	/*
	 * three trips, each thread's rank in a shared atomic count stored
	 * per trip: the order the warps ran each phase in
	 */
	const struct vgpu_insn ranks[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 3), MOVI(VGPU_T_U64, 7, 0), MOVI(VGPU_T_U32, 3, 0),
		MOVI(VGPU_T_U32, 4, 1),
		/* 8 */ INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_SHARED,
			     .mod2 = VGPU_ATOM_ADD, .dst = 5, .a = 3, .b = 4),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 2, 1, 7), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 0, 5),
		BAR(), OPI(VGPU_OP_ADD, VGPU_T_U64, 7, 7, 512),
		OPI(VGPU_OP_SUB, VGPU_T_U32, 6, 6, 1), SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 6, 0),
		BRA_IF(0, 8), EXIT(),
	};
	/*
	 * the second warp leaves before the barrier and lanes of the first
	 * after it; a divergent branch over a masked run, a predicate and a
	 * register set before a barrier and used after it
	 */
	const struct vgpu_insn leave[] = {
		PRO(2), SETPI(VGPU_T_U32, VGPU_CMP_GE, 0, 0, 32),
		SETPI(VGPU_T_U32, VGPU_CMP_LT, 1, 0, 64),
		INSN(.op = VGPU_OP_AND, .type = VGPU_T_PRED, .dst = 0, .a = 0, .b = 1),
		INSN(.op = VGPU_OP_EXIT, .guard = 0), OPI(VGPU_OP_AND, VGPU_T_U32, 3, 0, 3),
		SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 3, 0), OPI(VGPU_OP_MUL, VGPU_T_U32, 4, 0, 7),
		SREG(5, VGPU_SR_CTAID_X), OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 5),
		BAR(), SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 5),
		INSN(.op = VGPU_OP_EXIT, .guard = 0),
		/* 16: r4 kept across the barrier where the masked run does not write it */
		BRA_IF(1, 19), MOVI(VGPU_T_U32, 4, 1000),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 0, 0),
		/* 19 */ BAR(), LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, VGPU_NO_REG, 0),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 5),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	/* 5000 trips around a barrier: more phases than one call runs */
	const struct vgpu_insn long_loop[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 5000), MOVI(VGPU_T_U32, 4, 0),
		/* 6 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 3), BAR(),
		OPI(VGPU_OP_SUB, VGPU_T_U32, 6, 6, 1), SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 6, 0),
		BRA_IF(0, 6), OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 0),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	/*
	 * nvcc 13's tree reduction (as the JIT lowers it): registers that
	 * hold a thread's value and later the block's loop bound
	 */
	const struct vgpu_insn nvcc_reduce[] = {
		LDP(VGPU_T_U64, 0, 0), LDP(VGPU_T_U64, 1, 8), LDP(VGPU_T_U32, 2, 16),
		SREG(3, VGPU_SR_NTID_X), SREG(4, VGPU_SR_CTAID_X), SREG(5, VGPU_SR_TID_X),
		INSN(.op = VGPU_OP_MAD, .type = VGPU_T_S32, .dst = 6, .a = 4, .b = 3, .c = 5),
		SETP(VGPU_T_U32, VGPU_CMP_GE, 1, 6, 2), MOVI(VGPU_T_F32, 2, 0), BRA_IF(1, 13),
		/* 10 */ INSN(.op = VGPU_OP_MUL, .type = VGPU_T_U32, .mod = VGPU_MUL_WIDE,
			      .dst = 2, .a = 6, .flags = VGPU_IF_B_IMM, .imm = 4),
		OP3(VGPU_OP_ADD, VGPU_T_S64, 0, 0, 2), LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 2, 0, 0),
		/* 13 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 0, 5, 2), MOVI(VGPU_T_U32, 6, 0),
		OP3(VGPU_OP_ADD, VGPU_T_S32, 0, 6, 0), ST(VGPU_SPACE_SHARED, VGPU_T_F32, 0, 0, 2),
		BAR(), OPI(VGPU_OP_SHR, VGPU_T_U32, 2, 3, 1),
		SETPI(VGPU_T_S32, VGPU_CMP_EQ, 2, 2, 0), BRA_IF(2, 33),
		/* 21 */ SETP(VGPU_T_U32, VGPU_CMP_GE, 3, 5, 2), BRA_IF(3, 29),
		OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 2, 2), OP3(VGPU_OP_ADD, VGPU_T_S32, 3, 0, 3),
		LD(VGPU_SPACE_SHARED, VGPU_T_F32, 6, 0, 0), LD(VGPU_SPACE_SHARED, VGPU_T_F32, 3, 3, 0),
		OP3(VGPU_OP_ADD, VGPU_T_F32, 3, 3, 6), ST(VGPU_SPACE_SHARED, VGPU_T_F32, 0, 0, 3),
		/* 29 */ BAR(), OPI(VGPU_OP_SHR, VGPU_T_U32, 2, 2, 1),
		SETPI(VGPU_T_S32, VGPU_CMP_NE, 4, 2, 0), BRA_IF(4, 21),
		/* 33 */ SETPI(VGPU_T_S32, VGPU_CMP_NE, 5, 5, 0), BRA_IF(5, 39),
		LD(VGPU_SPACE_SHARED, VGPU_T_F32, 0, VGPU_NO_REG, 0),
		INSN(.op = VGPU_OP_MUL, .type = VGPU_T_U32, .mod = VGPU_MUL_WIDE, .dst = 2, .a = 4,
		     .flags = VGPU_IF_B_IMM, .imm = 4),
		OP3(VGPU_OP_ADD, VGPU_T_S64, 1, 1, 2), ST(VGPU_SPACE_GLOBAL, VGPU_T_F32, 1, 0, 0),
		/* 39 */ EXIT(),
	};
	/*
	 * a thread's value reaches a branch on one path (block 0's) and the
	 * block's on the other: the branch is divergent, a masked run
	 */
	const struct vgpu_insn one_path[] = {
		PRO(2), SREG(3, VGPU_SR_CTAID_X), SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 3, 0),
		OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 0, 0), BRA_IF(0, 9), SREG(4, VGPU_SR_NTID_X),
		/* 9 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 1, 4, 40), BRA_IF(1, 12),
		MOVI(VGPU_T_U32, 4, 7),
		/* 12: block 0's results (block 1 would write the same words) */
		BAR(), INSN(.op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			    .guard = 0, .a = 1, .b = 4),
		EXIT(),
	};
	struct { uint64_t in, out; uint32_t n; } rp = { WIN_VA, WIN_VA + 0x8000, 200 };
	struct setup s = one_block(ranks, sizeof(ranks) / sizeof(ranks[0]), 128, &win);
	unsigned int before = fuzz_phased, mores = native_mores, p, t;
	struct outcome o;
	uint32_t got;

	CHECK(agree("ranks per phase", &s, VGPU_FAULT_NONE));
	/* Phase p runs warp (4 - p) % 4 first, the rest in turn after it. */
	run_interp(&s, &o);
	for (p = 0; p < 3; p++) {
		for (t = 0; t < 128; t++) {
			memcpy(&got, o.mem + p * 512 + t * 4, 4);
			if (got != p * 128 + ((t / 32 + p) % 4) * 32 + t % 32) {
				TAP_FAIL("phase %u thread %u: rank %u", p, t, got);
				break;
			}
		}
	}
	outcome_free(&o);
	RUN("ranks per phase, a partial warp", ranks, 100, &win, VGPU_FAULT_NONE);
	RUN("lanes leaving around barriers", leave, 96, &win, VGPU_FAULT_NONE);
	RUN("lanes leaving around barriers, one warp", leave, 20, &win, VGPU_FAULT_NONE);
	RUN("a long loop of barriers", long_loop, 64, &win, VGPU_FAULT_NONE);
	RUN("a thread's value on one path to a branch", one_path, 64, &win, VGPU_FAULT_NONE);
	s = (struct setup){ nvcc_reduce, sizeof(nvcc_reduce) / sizeof(nvcc_reduce[0]),
			    { .nregs = 7, .npreds = 6, .param_bytes = 20, .shared_bytes = 1024 },
			    { 2, 1 }, { 128, 1, 1 }, &rp, random_window(), NULL, 0 };
	CHECK(agree("nvcc's tree reduction", &s, VGPU_FAULT_NONE));
	free((void *)s.init);
	CHECK(fuzz_phased == before + 7);
	CHECK(native_mores > mores);
}

/*
 * Phases where only threads below a block-wide bound run a masked run:
 * the warps past it may skip the phase, which must change nothing. Each
 * kernel below breaks one condition for skipping, or keeps them all.
 */
static void idle_warps_skip_phases(void)
{
	uint64_t win = WIN_VA;
	/*
	 * a tree's bound halving each phase (s in r6, block-wide); the
	 * threads below it add it up in r4, and every thread adds the last
	 * bound, 0, read after warps past the bound skipped phases
	 */
	const struct vgpu_insn halving[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 128), MOVI(VGPU_T_U32, 4, 0),
		/* 6 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 6), BRA_UNLESS(0, 9),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6),
		/* 9 */ BAR(), OPI(VGPU_OP_SHR, VGPU_T_U32, 6, 6, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0), BRA_IF(1, 6),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4),
		EXIT(),
	};
	/* as above, but each phase also sets a thread's value (r5) read after it */
	const struct vgpu_insn thread_value[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 128), MOVI(VGPU_T_U32, 4, 0),
		/* 6 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 6), BRA_UNLESS(0, 9),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6),
		/* 9 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 0, 6), BAR(),
		OPI(VGPU_OP_SHR, VGPU_T_U32, 6, 6, 1), SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0),
		BRA_IF(1, 6), OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 5),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	/*
	 * r5 gets the bound beside the masked run, and TID_X in it: a
	 * thread's value after the barrier, stored at the end
	 */
	const struct vgpu_insn both[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 128),
		/* 5 */ OP3(VGPU_OP_MOV, VGPU_T_U32, 5, 0, 6),
		SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 6), BRA_UNLESS(0, 9),
		OP3(VGPU_OP_MOV, VGPU_T_U32, 5, 0, 0),
		/* 9 */ BAR(), OPI(VGPU_OP_SHR, VGPU_T_U32, 6, 6, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0), BRA_IF(1, 5),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 5), EXIT(),
	};
	/* as above, but each phase stores the bound to a thread's shared word */
	const struct vgpu_insn stores[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 128), MOVI(VGPU_T_U32, 4, 0),
		OPI(VGPU_OP_SHL, VGPU_T_U32, 7, 0, 2),
		/* 7 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 6), BRA_UNLESS(0, 10),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6),
		/* 10 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 7, 0, 6), BAR(),
		OPI(VGPU_OP_SHR, VGPU_T_U32, 6, 6, 1), SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0),
		BRA_IF(1, 7), LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, 7, 0),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 5), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4),
		EXIT(),
	};
	/*
	 * a signed bound (70, 32, then below zero), the masked run where
	 * TID_X <= it (the branch over it taken where TID_X > it)
	 */
	const struct vgpu_insn signed_le[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 70), MOVI(VGPU_T_U32, 4, 0),
		/* 6 */ SETP(VGPU_T_S32, VGPU_CMP_GT, 0, 0, 6), BRA_IF(0, 9),
		OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 9 */ BAR(), OPI(VGPU_OP_SUB, VGPU_T_U32, 6, 6, 38),
		SETPI(VGPU_T_S32, VGPU_CMP_GT, 1, 6, (uint64_t)-100), BRA_IF(1, 6),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	/* 5000 phases with a fixed bound of 40: more than one call runs */
	const struct vgpu_insn many[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 5000), MOVI(VGPU_T_U32, 4, 0),
		/* 6 */ SETPI(VGPU_T_U32, VGPU_CMP_GE, 0, 0, 40), BRA_IF(0, 9),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6),
		/* 9 */ BAR(), OPI(VGPU_OP_SUB, VGPU_T_U32, 6, 6, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0), BRA_IF(1, 6),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4),
		EXIT(),
	};
	/*
	 * the halving tree in a block of 16 x 8 threads, where every warp
	 * holds threads with a small TID_X: none may skip (each thread's
	 * word at its place in the block)
	 */
	const struct vgpu_insn rows[] = {
		SREG(0, VGPU_SR_TID_X), SREG(3, VGPU_SR_TID_Y), OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 3, 4),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 0), OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 3, 2),
		LDP(VGPU_T_U64, 2, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 2),
		MOVI(VGPU_T_U32, 6, 8), MOVI(VGPU_T_U32, 4, 0),
		/* 9 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 6), BRA_UNLESS(0, 12),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6),
		/* 12 */ BAR(), OPI(VGPU_OP_SHR, VGPU_T_U32, 6, 6, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0), BRA_IF(1, 9),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	/*
	 * the bound against a register TID_X is written to only in block 0;
	 * block 1 (whose results are the ones left) reads it as zero: all
	 * its threads run the masked run
	 */
	const struct vgpu_insn zero_tid[] = {
		PRO(2), SREG(3, VGPU_SR_CTAID_X), SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 3, 0),
		BRA_IF(1, 8), SREG(5, VGPU_SR_TID_X),
		/* 8 */ MOVI(VGPU_T_U32, 6, 128), MOVI(VGPU_T_U32, 4, 0),
		/* 10 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 5, 6), BRA_UNLESS(0, 13),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 6),
		/* 13 */ BAR(), OPI(VGPU_OP_SHR, VGPU_T_U32, 6, 6, 1),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0), BRA_IF(1, 10),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
	};
	/*
	 * the last warp leaves first; then 10 phases in which the threads
	 * below a bound of 128 take ranks from a shared count, stored per
	 * phase: the order the warps ran in, which starts each phase where
	 * the last ended (the warps past the bound, and the last of their
	 * row, gone or not, decide where)
	 */
	const struct vgpu_insn ranks_gone[] = {
		PRO(2), SETPI(VGPU_T_U32, VGPU_CMP_GE, 1, 0, 224),
		INSN(.op = VGPU_OP_EXIT, .guard = 1), MOVI(VGPU_T_U32, 6, 10),
		MOVI(VGPU_T_U64, 7, 0), MOVI(VGPU_T_U32, 3, 0), MOVI(VGPU_T_U32, 4, 1),
		/* 10 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 128), BRA_UNLESS(0, 15),
		INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_SHARED,
		     .mod2 = VGPU_ATOM_ADD, .dst = 5, .a = 3, .b = 4),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 2, 1, 7), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 0, 5),
		/* 15 */ BAR(), OPI(VGPU_OP_ADD, VGPU_T_U64, 7, 7, 1024),
		OPI(VGPU_OP_SUB, VGPU_T_U32, 6, 6, 1), SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 6, 0),
		BRA_IF(1, 10), EXIT(),
	};
	unsigned int before = fuzz_phased, mores = native_mores;
	struct setup s;

	RUN("a halving bound", halving, 256, &win, VGPU_FAULT_NONE);
	RUN("ranks past a bound, the last warp gone", ranks_gone, 256, &win, VGPU_FAULT_NONE);
	RUN("a halving bound, a partial warp", halving, 200, &win, VGPU_FAULT_NONE);
	RUN("a thread's value set beside the bound", thread_value, 256, &win, VGPU_FAULT_NONE);
	RUN("a block's value beside the bound, a thread's in the run", both, 256, &win,
	    VGPU_FAULT_NONE);
	RUN("a store beside the bound", stores, 128, &win, VGPU_FAULT_NONE);
	RUN("a signed bound, TID_X at most it", signed_le, 128, &win, VGPU_FAULT_NONE);
	RUN("a bound over many phases", many, 128, &win, VGPU_FAULT_NONE);
	RUN("a bound against a register read before written", zero_tid, 256, &win,
	    VGPU_FAULT_NONE);
	s = one_block(rows, sizeof(rows) / sizeof(rows[0]), 128, &win);
	s.block[0] = 16;
	s.block[1] = 8;
	CHECK(agree("a bound in a block of rows", &s, VGPU_FAULT_NONE));
	CHECK(fuzz_phased == before + 10);
	CHECK(native_mores > mores);
}

/*
 * Loads for some lanes of a warp, lane 0 among them, at consecutive
 * words: the lanes that do not load keep their registers, from shared
 * memory (read as a whole vector) and from global memory.
 */
static void loads_keep_idle_lanes(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		PRO(2), MOVI(VGPU_T_U32, 6, 0x5a5a),
		/* 5 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 3, 0, 2),
		OPI(VGPU_OP_MUL, VGPU_T_U32, 4, 0, 3),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 0, 4),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0x800, 4),
		/* lanes 3, 7, 11, ... idle */
		OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 3),
		SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 5, 3),
		INSN(.op = VGPU_OP_LD, .type = VGPU_T_U32, .mod = VGPU_SPACE_SHARED,
		     .guard = 0, .dst = 6, .a = 3),
		INSN(.op = VGPU_OP_LD, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		     .guard = 0, .dst = 7, .a = 1, .imm = 0x800),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 6),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0x400, 7), EXIT(),
	};

	RUN("loads keep idle lanes", code, 64, &win, VGPU_FAULT_NONE);
}

/*
 * Values generated code keeps out of the register file between inline
 * instructions: two warps loop past several turns (512 instructions) in
 * a run of inline instructions of a length prime to the turn, so turns
 * end inside the run with values kept (stored on the way out) and resume
 * there (loaded on the way in); then a load for no lane of the second
 * warp into a register just written (kept): it keeps that value.
 */
static void kept_values_across_turns(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		/* 0 */ PRO(2), MOVI(VGPU_T_U32, 3, 300),
		/* 5 */ MOVI(VGPU_T_U32, 4, 1), OPI(VGPU_OP_ADD, VGPU_T_U32, 5, 0, 0),
		/* 7: loop */ OPI(VGPU_OP_MUL, VGPU_T_U32, 6, 4, 3),
		/* 8 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 6, 6, 5),
		/* 9 */ OP3(VGPU_OP_XOR, VGPU_T_U32, 4, 6, 3),
		/* 10 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 5, 5, 1),
		/* 11 */ OPI(VGPU_OP_SUB, VGPU_T_U32, 3, 3, 1),
		/* 12 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 3, 0), BRA_IF(0, 7),
		/* 14 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4),
		/* 15 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0x400, 5),
		/* 16 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 1, 0, 32),
		/* 17 */ MOVI(VGPU_T_U32, 7, 0x77),
		/* 18 */ INSN(.op = VGPU_OP_LD, .type = VGPU_T_U32, .mod = VGPU_SPACE_SHARED,
			      .guard = 1, .dst = 7, .a = VGPU_NO_REG, .imm = 8),
		/* 19 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0x800, 7), EXIT(),
	};

	RUN("kept values across turns", code, 64, &win, VGPU_FAULT_NONE);
}

/*
 * The second block reads, in each kind of operand slot (an address, a
 * value to store, an addend), registers that only the first block wrote:
 * they must read zero there, not what the first block left.
 */
static void registers_cleared_per_block(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		PRO(3), SREG(3, VGPU_SR_CTAID_X),
		/* 5 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 3, 0), BRA_IF(0, 11),
		/* 7 */ MOVI(VGPU_T_U64, 4, 0x40), MOVI(VGPU_T_U64, 5, 0x55),
		/* 9 */ MOVI(VGPU_T_U64, 6, 0x66), MOVI(VGPU_T_U64, 7, 0x77),
		/* 11 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U64, 3, 4, WIN_VA + 0x1000),
		INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U64, .dst = 3, .a = 3, .b = 0, .c = 6),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 3, 3, 5),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 1, 0x1000, 3),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 1, 0x2000, 7), EXIT(),
	};

	RUN("registers cleared per block", code, 40, &win, VGPU_FAULT_NONE);
}

/*
 * Registers the code writes before it reads them need no clearing when
 * a block starts: the bench kernels have none (operand fields that an
 * operation does not have are no reads).
 */
static void bench_kernels_clear_nothing(void)
{
	const struct { const struct vgpu_insn *code; unsigned int n; struct vgpu_func f; } ks[] = {
		{ saxpy, sizeof(saxpy) / sizeof(saxpy[0]), { .nregs = 10, .npreds = 1,
							    .param_bytes = 24 } },
		{ matmul, sizeof(matmul) / sizeof(matmul[0]), { .nregs = 27, .npreds = 2,
							       .param_bytes = 28,
							       .shared_bytes = 2048 } },
		{ reduce, sizeof(reduce) / sizeof(reduce[0]), { .nregs = 15, .npreds = 3,
							       .param_bytes = 16,
							       .shared_bytes = 1024 } },
	};
	unsigned int i;

	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		struct vgpu_program prog = { ks[i].code, ks[i].n, &ks[i].f, 1 };
		char why[160];
		struct vgpu_native_kernel *k = vgpu_native_compile(&prog, 0, why, sizeof(why));

		if (!k) {
			TAP_FAIL("kernel %u refused: %s", i, why);
			continue;
		}
		CHECK(k->nzero == 0);
		vgpu_native_kernel_free(k);
	}
}

/*
 * A shuffle reads the register of lanes that went another way and
 * exited, where they wrote it last: lanes 16-31 wait at the SHFL for
 * lanes 0-15, which branch around it, set r3 to 77 and exit (r3 is dead
 * for them there, but not for the shuffle). Each of 16-31 reads 77.
 */
static void shuffle_from_lanes_gone(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		/* 0 */ PRO(2), SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 16),
		/* 5 */ MOVI(VGPU_T_U32, 3, 5), BRA_IF(0, 10),
		/* 7 */ INSN(.op = VGPU_OP_SHFL, .type = VGPU_T_U32, .mod = VGPU_SHFL_BFLY,
			     .dst = 4, .a = 3, .b = 16, .c = 0x1f,
			     .flags = VGPU_IF_B_IMM | VGPU_IF_C_IMM, .imm = 0xffffffff),
		/* 8 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 4), EXIT(),
		/* 10: r3 kept as a value along the run */
		MOVI(VGPU_T_U32, 3, 77), MOVI(VGPU_T_U32, 5, 1), EXIT(),
	};
	struct setup s = one_block(code, sizeof(code) / sizeof(code[0]), 32, &win);

	s.grid[0] = 1;
	CHECK(verified(&s));
	interp_reads(&s, 16, 32, 77);
	CHECK(agree("a shuffle from lanes gone", &s, VGPU_FAULT_NONE));
}

/* Shuffles, votes, matches and warp barriers, in full, partial and divergent warps. */
static void warp_synchronous(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		/* 0 */ PRO(5), OP3(VGPU_OP_MOV, VGPU_T_U32, 3, 0, 0),
		/* 5 */ INSN(.op = VGPU_OP_SHFL, .type = VGPU_T_U32, .mod = VGPU_SHFL_DOWN,
			     .mod2 = 1, .dst = 4, .a = 3, .b = 16, .c = 0x1f,
			     .flags = VGPU_IF_B_IMM | VGPU_IF_C_IMM, .imm = 0xffffffff),
		/* 6 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 4),
		/* 7 */ INSN(.op = VGPU_OP_SHFL, .type = VGPU_T_U32, .mod = VGPU_SHFL_BFLY,
			     .dst = 4, .a = 3, .b = 1, .c = 0x1f,
			     .flags = VGPU_IF_B_IMM | VGPU_IF_C_IMM, .imm = 0xffffffff),
		/* 8 */ OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 1),
		/* 9 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 5, 0),
		/* 10 */ INSN(.op = VGPU_OP_VOTE, .type = VGPU_T_U32, .mod = VGPU_VOTE_BALLOT,
			      .dst = 6, .a = 1, .imm = 0xffffffff),
		/* 11 */ INSN(.op = VGPU_OP_MATCH, .type = VGPU_T_U32, .mod = VGPU_MATCH_ANY,
			      .dst = 7, .a = 5, .imm = 0xffffffff),
		/* 12 */ BRA_IF(1, 14),
		/* 13 */ INSN(.op = VGPU_OP_NOP),
		/* 14 */ INSN(.op = VGPU_OP_WARPSYNC, .imm = 0xffffffff),
		/* 15 */ INSN(.op = VGPU_OP_VOTE, .type = VGPU_T_PRED, .mod = VGPU_VOTE_ANY,
			      .dst = 1, .a = 0, .imm = 0xffffffff),
		/* 16 */ INSN(.op = VGPU_OP_SELP, .type = VGPU_T_U32, .dst = 2, .a = 0,
			      .flags = VGPU_IF_B_IMM, .imm = 0xffff, .c = 1),
		/* 17 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 3),
		/* 18 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 4, 4),
		/* 19 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 8, 6),
		/* 20 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 12, 7),
		/* 21 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 16, 2),
		/* 22 */ EXIT(),
	};

	RUN("warp-synchronous, full warps", code, 64, &win, VGPU_FAULT_NONE);
	RUN("warp-synchronous, a partial warp", code, 45, &win, VGPU_FAULT_NONE);
}

/*
 * The host changes the ranges a block reaches: an access that hit a
 * range before (and cached it) faults once the range is gone, and works
 * again when it is back.
 */
static void ranges_change(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		PRO(2), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0), EXIT(),
	};
	struct setup s = one_block(code, sizeof(code) / sizeof(code[0]), 32, &win);
	struct vgpu_program prog = { code, s.n, &s.f, 1 };
	uint32_t *mem = calloc(1, WIN_BYTES);
	struct vgpu_range r = { .va = WIN_VA, .size = WIN_BYTES, .ptr = (uint8_t *)mem,
				.writable = true };
	struct vgpu_launch l = launch_of(&s, &prog, NULL);
	struct vgpu_native_kernel *k;
	struct vgpu_native_block *b;
	char why[160];

	k = vgpu_native_compile(&prog, 0, why, sizeof(why));
	b = k ? vgpu_native_block_new(k, &l, &r, 1) : NULL;
	CHECK(b != NULL);
	if (!b)
		return;
	vgpu_native_block_start(b, 0);
	CHECK(vgpu_native_block_run(b, 100000) == VGPU_RUN_DONE);
	CHECK(mem[31] == 31);
	CHECK(vgpu_native_block_set_ranges(b, &r, 0) == 0);
	vgpu_native_block_start(b, 0);
	CHECK(vgpu_native_block_run(b, 100000) == VGPU_RUN_FAULT);
	CHECK(vgpu_native_block_fault(b)->kind == VGPU_FAULT_ADDRESS &&
	      vgpu_native_block_fault(b)->addr == WIN_VA);
	CHECK(vgpu_native_block_set_ranges(b, &r, 1) == 0);
	mem[31] = 0;
	vgpu_native_block_start(b, 0);
	CHECK(vgpu_native_block_run(b, 100000) == VGPU_RUN_DONE);
	CHECK(mem[31] == 31);
	vgpu_native_block_free(b);
	vgpu_native_kernel_free(k);
	free(mem);
}

/*
 * A kernel followed by code it never reaches (the next kernel of its
 * module): after its EXIT the warp picks its next group, as at the end
 * of a program; each warp runs, not only the first.
 */
static void code_after_exit(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		PRO(2), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0), EXIT(),
		/* another kernel's code */
		PRO(2), MOVI(VGPU_T_U32, 3, 7), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 3),
		EXIT(),
	};

	struct setup s = one_block(code, sizeof(code) / sizeof(code[0]), 256, &win);

	s.next_entry = 6;
	CHECK(agree("code after the kernel's exit", &s, VGPU_FAULT_NONE));
}

/* The host's answers to a block that learns its memory (lookup_asked). */
struct asked {
	struct vgpu_range r;
	unsigned int calls;
};

static bool lookup_asked(void *arg, u64 va, struct vgpu_range *r)
{
	struct asked *a = arg;

	a->calls++;
	if (va - a->r.va >= a->r.size)
		return false;
	*r = a->r;
	return true;
}

/*
 * A block given no ranges asks the host for the memory it reaches: once
 * for a range (the answer is kept), and an address the host knows
 * nothing of faults as one outside every range does.
 */
static void ranges_learned(void)
{
	uint64_t win = WIN_VA;
	const struct vgpu_insn code[] = {
		PRO(2), ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0), EXIT(),
	};
	struct setup s = one_block(code, sizeof(code) / sizeof(code[0]), 64, &win);
	struct vgpu_program prog = { code, s.n, &s.f, 1 };
	uint32_t *mem = calloc(1, WIN_BYTES);
	struct asked a = { .r = { .va = WIN_VA, .size = WIN_BYTES, .ptr = (uint8_t *)mem,
				  .writable = true } };
	struct vgpu_launch l = launch_of(&s, &prog, NULL);
	struct vgpu_native_kernel *k;
	struct vgpu_native_block *b;
	char why[160];

	k = vgpu_native_compile(&prog, 0, why, sizeof(why));
	b = k ? vgpu_native_block_new(k, &l, NULL, 0) : NULL;
	CHECK(b != NULL);
	if (!b)
		return;
	vgpu_native_block_set_lookup(b, lookup_asked, &a);
	vgpu_native_block_start(b, 0);
	CHECK(vgpu_native_block_run(b, 100000) == VGPU_RUN_DONE);
	CHECK(mem[0] == 0 && mem[31] == 31 && mem[63] == 63);
	CHECK(a.calls == 1);
	/* The host no longer knows the memory: the block forgets it too. */
	a.r.size = 0;
	CHECK(vgpu_native_block_set_ranges(b, NULL, 0) == 0);
	vgpu_native_block_start(b, 0);
	CHECK(vgpu_native_block_run(b, 100000) == VGPU_RUN_FAULT);
	CHECK(vgpu_native_block_fault(b)->kind == VGPU_FAULT_ADDRESS &&
	      vgpu_native_block_fault(b)->addr == WIN_VA);
	CHECK(a.calls == 2);
	vgpu_native_block_free(b);
	vgpu_native_kernel_free(k);
	free(mem);
}

/* What the engine does not compile yet is refused with a reason. */
static void refuses_cleanly(void)
{
	const struct vgpu_insn code[] = {
		LDP(VGPU_T_U64, 1, 0),
		INSN(.op = VGPU_OP_MALLOC, .type = VGPU_T_U64, .dst = 2, .a = 1),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 4, .param_bytes = 8 };
	struct vgpu_program prog = { code, 3, &f, 1 };
	struct vgpu_native_kernel *k;
	struct setup s = { code, 3, f, { 1, 1 }, { 32, 1, 1 }, NULL, NULL, NULL, 0 };
	char why[160] = "";

	CHECK(verified(&s));
	k = vgpu_native_compile(&prog, 0, why, sizeof(why));
	CHECK(!k);
	CHECK(strstr(why, "device heap") != NULL);
	printf("# refused: %s\n", why);
	k = vgpu_native_compile(&prog, 1, why, sizeof(why));
	CHECK(!k);
}

/* --- random programs --------------------------------------------------------- */

/*
 * Registers of the generated programs: r0 the thread index, r1 and r2 the
 * thread's input and output rows, r3..r11 the values operated on, r12 a
 * loop counter, r13 an address, r14 the scratch area. p3 is the loops';
 * p0..p2 are the ones random SETPs write.
 */
#define F_NREGS 15
#define F_NPREDS 4
#define F_UREG F_NREGS		/* the phased programs' own */
#define F_UPRED F_NPREDS
#define F_VAL0 3
#define F_NVAL 9
#define F_MAXN 400
#define F_IN 0x0ULL		/* window offsets */
#define F_OUT 0x10000ULL
#define F_SCRATCH 0x20000ULL

struct gen {
	struct vgpu_insn code[F_MAXN];
	unsigned int n;
	bool faults;		/* the program may reach for unmapped memory */
	bool bars;		/* it may use barriers */
	/*
	 * One straight run: no loop, no branch but to the final EXIT, no
	 * barrier or warp-synchronous instruction (the engine's block
	 * function runs it).
	 */
	bool straight;
	/*
	 * Runs between barriers (the phased block function's): no loop
	 * but with a barrier in it and a trip count the whole block
	 * shares (register F_UREG, predicate F_UPRED, which nothing else
	 * writes), no warp-synchronous instruction.
	 */
	bool phased;
};

static void emit(struct gen *g, struct vgpu_insn in)
{
	if (g->n < F_MAXN)
		g->code[g->n++] = in;
}

/* Is @in, alone, an instruction the verifier accepts? */
static bool insn_ok(struct vgpu_insn in)
{
	struct vgpu_insn prog[2] = { in, EXIT() };
	struct vgpu_func f = { .nregs = F_NREGS, .npreds = F_NPREDS, .param_bytes = 24,
			       .shared_bytes = 512 };
	struct setup s = { prog, 2, f, { 1, 1 }, { 32, 1, 1 }, NULL, NULL, NULL, 0 };

	return verified(&s);
}

static u32 rval(void)
{
	return F_VAL0 + rnd() % F_NVAL;
}

static u8 rint_type(void)
{
	static const u8 t[] = { VGPU_T_U8, VGPU_T_S8, VGPU_T_U16, VGPU_T_S16, VGPU_T_U32,
				VGPU_T_S32, VGPU_T_U64, VGPU_T_S64, VGPU_T_U32, VGPU_T_S32 };

	return t[rnd() % (sizeof(t) / sizeof(t[0]))];
}

static u8 rany_type(void)
{
	static const u8 t[] = { VGPU_T_U8, VGPU_T_S8, VGPU_T_U16, VGPU_T_S16, VGPU_T_U32,
				VGPU_T_S32, VGPU_T_U64, VGPU_T_S64, VGPU_T_F16, VGPU_T_F32,
				VGPU_T_F64 };

	return t[rnd() % (sizeof(t) / sizeof(t[0]))];
}

/* One random computing instruction the verifier accepts. */
static struct vgpu_insn random_alu(const struct gen *g)
{
	static const u8 int_ops[] = {
		VGPU_OP_ADD, VGPU_OP_SUB, VGPU_OP_MUL, VGPU_OP_MAD, VGPU_OP_DIV, VGPU_OP_REM,
		VGPU_OP_MIN, VGPU_OP_MAX, VGPU_OP_ABS, VGPU_OP_NEG, VGPU_OP_AND, VGPU_OP_OR,
		VGPU_OP_XOR, VGPU_OP_NOT, VGPU_OP_SHL, VGPU_OP_SHR,
	};
	static const u8 f_ops[] = {
		VGPU_OP_ADD, VGPU_OP_SUB, VGPU_OP_MUL, VGPU_OP_FMA, VGPU_OP_ADD, VGPU_OP_FMA,
		VGPU_OP_MIN, VGPU_OP_MAX, VGPU_OP_ABS, VGPU_OP_NEG, VGPU_OP_DIV, VGPU_OP_SQRT,
		VGPU_OP_RCP, VGPU_OP_RSQRT, VGPU_OP_EX2, VGPU_OP_LG2, VGPU_OP_SIN,
		VGPU_OP_TANH, VGPU_OP_COPYSIGN,
	};
	unsigned int tries;

	for (tries = 0; tries < 1000; tries++) {
		struct vgpu_insn in = INSN(.dst = rval(), .a = rval(), .b = rval(), .c = rval());
		unsigned int kind = rnd() % (g->straight || g->phased ? 18 : 19);

		if (kind < 6) {
			in.op = int_ops[rnd() % (sizeof(int_ops) / sizeof(int_ops[0]))];
			/* 32-bit often: registers the engine keeps in 32-bit lanes */
			in.type = rnd() % 2 ? VGPU_T_U32 : rint_type();
			if (in.op == VGPU_OP_MUL || in.op == VGPU_OP_MAD)
				in.mod = rnd() % 3;
		} else if (kind < 10) {
			in.op = f_ops[rnd() % (sizeof(f_ops) / sizeof(f_ops[0]))];
			in.type = rnd() % 4 ? VGPU_T_F32 : VGPU_T_F64;
			in.mod = rnd() % 3 ? VGPU_RND_RN : rnd() % 10;
			if (rnd() % 4 == 0)
				in.flags |= VGPU_IF_FTZ;
			if (rnd() % 6 == 0)
				in.flags |= VGPU_IF_SAT;
		} else if (kind < 12) {
			in.op = VGPU_OP_SETP;
			in.dst = rnd() % 3;
			in.mod = rnd() % VGPU_CMP_COUNT;
			in.type = rnd() % 3 ? rint_type() : (rnd() % 2 ? VGPU_T_F32 : VGPU_T_F64);
		} else if (kind == 12) {
			in.op = VGPU_OP_CVT;
			in.type = rany_type();
			in.stype = rany_type();
			in.mod = rnd() % 8;
			if (rnd() % 4 == 0)
				in.flags |= VGPU_IF_FTZ;
			if (rnd() % 6 == 0)
				in.flags |= VGPU_IF_SAT;
		} else if (kind == 13) {
			in.op = VGPU_OP_SELP;
			in.type = rint_type();
			in.c = rnd() % F_NPREDS;
		} else if (kind == 14) {
			in.op = VGPU_OP_MOV;
			in.type = rint_type();
			if (rnd() % 2) {
				in.flags |= VGPU_IF_B_IMM;
				in.imm = rnd_value();
				in.b = 0;
			}
		} else if (kind == 18) {	/* warp-synchronous, a mask of all or some */
			u64 mask = rnd() % 3 ? 0xffffffffULL : (u32)rnd();

			switch (rnd() % 4) {
			case 0:
				in = INSN(.op = VGPU_OP_SHFL, .type = VGPU_T_U32, .mod = rnd() % 4,
					  .mod2 = rnd() % 2 ? 1 + rnd() % 3 : 0, .dst = rval(),
					  .a = rval(), .b = rnd() % 32, .c = rnd() % 2 ? 0x1f : 0x1c1f,
					  .flags = VGPU_IF_B_IMM | VGPU_IF_C_IMM, .imm = mask);
				break;
			case 1:
				in = INSN(.op = VGPU_OP_VOTE, .type = VGPU_T_PRED,
					  .mod = rnd() % 3, .dst = rnd() % 3,
					  .a = rnd() % F_NPREDS, .imm = mask);
				if (rnd() % 2) {
					in.type = VGPU_T_U32;
					in.mod = VGPU_VOTE_BALLOT;
					in.dst = rval();
				}
				break;
			case 2:
				in = INSN(.op = VGPU_OP_MATCH, .type = rnd() % 2 ? VGPU_T_U32 : VGPU_T_U64,
					  .mod = rnd() % 2, .dst = rval(), .a = rval(), .imm = mask);
				if (in.mod == VGPU_MATCH_ALL && rnd() % 2)
					in.mod2 = 1 + rnd() % 3;
				break;
			default:
				in = INSN(.op = VGPU_OP_WARPSYNC, .imm = mask);
				break;
			}
			if (insn_ok(in))
				return in;
			continue;
		} else if (kind >= 16) {
			static const u8 bit_ops[] = { VGPU_OP_POPC, VGPU_OP_CLZ, VGPU_OP_BREV,
						      VGPU_OP_BFIND, VGPU_OP_BFE, VGPU_OP_PRMT };

			in.op = bit_ops[rnd() % 6];
			in.type = in.op == VGPU_OP_PRMT ? VGPU_T_U32 : rint_type();
			in.mod = in.op == VGPU_OP_PRMT ? rnd() % 7 :
				 in.op == VGPU_OP_BFIND ? rnd() % 2 : 0;
		} else {
			in.op = rnd() % 4 == 0 ? VGPU_OP_ACTIVEMASK :
				(u8[]){ VGPU_OP_AND, VGPU_OP_OR, VGPU_OP_XOR, VGPU_OP_NOT }[rnd() % 4];
			in.type = in.op == VGPU_OP_ACTIVEMASK ? VGPU_T_U32 : VGPU_T_PRED;
			if (in.type == VGPU_T_PRED) {
				in.dst = rnd() % 3;
				in.a = rnd() % F_NPREDS;
				in.b = rnd() % F_NPREDS;
			}
		}
		if (kind < 6 && rnd() % 8 == 0) {	/* carries, saturation */
			if (rnd() % 3 == 0) {
				in.op = rnd() % 2 ? VGPU_OP_ADD : VGPU_OP_SUB;
				in.type = VGPU_T_S32;
				in.flags |= VGPU_IF_SAT;
			} else {
				in.op = (u8[]){ VGPU_OP_ADD, VGPU_OP_SUB, VGPU_OP_MAD }[rnd() % 3];
				in.type = (u8[]){ VGPU_T_U32, VGPU_T_S32, VGPU_T_U64 }[rnd() % 3];
				in.flags |= (u8[]){ VGPU_IF_CC_OUT, VGPU_IF_CC_IN,
						    VGPU_IF_CC_IN | VGPU_IF_CC_OUT }[rnd() % 3];
			}
		}
		if (in.op != VGPU_OP_MOV && in.type != VGPU_T_PRED && rnd() % 4 == 0) {
			in.flags |= VGPU_IF_B_IMM;
			in.imm = rnd_value();
			in.b = 0;
		}
		if (rnd() % 3 == 0) {
			in.guard = rnd() % F_NPREDS;
			if (rnd() % 2)
				in.flags |= VGPU_IF_GUARD_NOT;
		}
		/* Operands the operation does not read must be 0. */
		{
			struct vgpu_insn t = in;
			int cut;

			for (cut = 0; cut < 8 && !insn_ok(t); cut++) {
				t = in;
				if (cut & 1)
					t.c = 0;
				if (cut & 2)
					t.b = (t.flags & VGPU_IF_B_IMM) ? 0 : 0;
				if (cut & 4)
					t.a = 0;
			}
			if (insn_ok(t))
				return t;
		}
	}
	return INSN(.op = VGPU_OP_NOP);
}

/* A load or store of a random type at an address made from a value. */
static void random_mem(struct gen *g)
{
	static const u8 t[] = { VGPU_T_U8, VGPU_T_S8, VGPU_T_U16, VGPU_T_S16, VGPU_T_U32,
				VGPU_T_S32, VGPU_T_U64, VGPU_T_F32, VGPU_T_U32, VGPU_T_U64 };
	u8 type = t[rnd() % (sizeof(t) / sizeof(t[0]))];
	bool shared = rnd() % 3 == 0, store = rnd() % 2;
	u64 mask = shared ? 0x1f8 : 0xff8;
	struct vgpu_insn in;

	if (g->faults && rnd() % 6 == 0)
		mask = rnd() % 2 ? 0xfff : ~0ULL;	/* misaligned, or anywhere */
	if (g->straight && !shared && rnd() % 2) {
		/*
		 * A thread's element, as compiled CUDA indexes: lanes at
		 * consecutive addresses (the block function's one vector move).
		 */
		u32 len = vgpu_type_bits(type) / 8, sh = __builtin_ctz(len);
		u8 it = rnd() % 2 ? VGPU_T_U32 : VGPU_T_S32;

		if (rnd() % 2) {
			emit(g, OPI(VGPU_OP_SHL, VGPU_T_U64, 13, 0, sh));
		} else {
			emit(g, SREG(12, VGPU_SR_NTID_X));
			emit(g, SREG(13, VGPU_SR_CTAID_X));
			emit(g, INSN(.op = VGPU_OP_MAD, .type = it, .dst = 13, .a = 13, .b = 12,
				     .c = 0));
			emit(g, INSN(.op = VGPU_OP_MUL, .type = it, .mod = VGPU_MUL_WIDE, .dst = 13,
				     .a = 13, .flags = VGPU_IF_B_IMM, .imm = len));
		}
		emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 13, 13, 14));
		/* Past the window, or misaligned, now and then. */
		if (g->faults && rnd() % 4 == 0)
			emit(g, OPI(VGPU_OP_ADD, VGPU_T_U64, 13, 13,
				    rnd() % 2 ? WIN_BYTES - F_SCRATCH - 64 * len : 1));
	} else {
		emit(g, OPI(VGPU_OP_AND, VGPU_T_U64, 13, rval(), mask));
		if (!shared)
			emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 13, 13, 14));
	}
	if (rnd() % 4 == 0) {	/* an atomic */
		static const u8 at[] = { VGPU_T_U32, VGPU_T_S32, VGPU_T_U64, VGPU_T_S64,
					 VGPU_T_F32, VGPU_T_U32 };
		unsigned int tries;

		for (tries = 0; tries < 50; tries++) {
			in = INSN(.op = VGPU_OP_ATOM, .type = at[rnd() % 6],
				  .mod = shared ? VGPU_SPACE_SHARED : VGPU_SPACE_GLOBAL,
				  .mod2 = rnd() % VGPU_ATOM_COUNT, .dst = rval(), .a = 13,
				  .b = rval(), .c = rnd() % 2 ? rval() : 0);
			if (insn_ok(in))
				break;
		}
		if (tries == 50)
			return;
	} else if (store)
		in = ST(shared ? VGPU_SPACE_SHARED : VGPU_SPACE_GLOBAL, type, 13, 0, rval());
	else
		in = LD(shared ? VGPU_SPACE_SHARED : VGPU_SPACE_GLOBAL, type, rval(), 13, 0);
	if (rnd() % 4 == 0) {
		in.guard = rnd() % F_NPREDS;
		if (rnd() % 2)
			in.flags |= VGPU_IF_GUARD_NOT;
	}
	emit(g, in);
}

/* A straight run of @n random instructions. */
static void random_run(struct gen *g, unsigned int n)
{
	while (n--) {
		if (rnd() % 5 == 0)
			random_mem(g);
		else
			emit(g, random_alu(g));
	}
}

/*
 * A random program: a prologue that loads each thread's values, blocks of
 * straight code, forward branches (divergent where their guard differs
 * between lanes), loops whose trip count depends on the thread, guarded
 * exits and barriers, and an epilogue that stores the values and
 * predicates (the registers of record).
 */
static unsigned int random_program(struct gen *g)
{
	unsigned int k, blocks = 2 + rnd() % 5, b, nexits = 0, exits[8];

	g->n = 0;
	emit(g, SREG(0, VGPU_SR_TID_X));
	emit(g, OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 0, 7));
	emit(g, OP3(VGPU_OP_MOV, VGPU_T_U64, 2, 0, 1));
	emit(g, LDP(VGPU_T_U64, 12, 0));
	emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 12));
	emit(g, LDP(VGPU_T_U64, 12, 8));
	emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 2, 2, 12));
	emit(g, LDP(VGPU_T_U64, 14, 16));
	/* Some values 32-bit, which the engine may keep in 32-bit lanes. */
	for (k = 0; k < F_NVAL; k++)
		emit(g, LD(VGPU_SPACE_GLOBAL, rnd() % 2 ? VGPU_T_U64 : VGPU_T_U32,
			   F_VAL0 + k, 1, k * 8));
	for (k = 0; k < 3; k++)
		emit(g, SETPI(VGPU_T_U32, VGPU_CMP_LT, k, F_VAL0 + k, rnd() % 64 ? (u32)rnd() : 0));
	emit(g, OPI(VGPU_OP_AND, VGPU_T_U32, 12, 0, 5));
	emit(g, SETPI(VGPU_T_U32, VGPU_CMP_NE, 3, 12, 0));
	for (b = 0; b < blocks; b++) {
		unsigned int kind = rnd() % 5;

		if (g->straight && kind == 0 && nexits < 8) {
			/* to the final EXIT: those lanes end */
			struct vgpu_insn br = BRA_IF(rnd() % F_NPREDS, 0);

			if (rnd() % 2)
				br.flags |= VGPU_IF_GUARD_NOT;
			exits[nexits++] = g->n;
			emit(g, br);
			continue;
		}
		if (g->straight && kind == 1)
			kind = 3;
		if (g->phased && kind == 1) {
			/* 1 to 4 trips, the same for the block, a barrier in each */
			unsigned int top;

			emit(g, SREG(F_UREG, rnd() % 2 ? VGPU_SR_NTID_X : VGPU_SR_CTAID_X));
			emit(g, OPI(VGPU_OP_AND, VGPU_T_U32, F_UREG, F_UREG, 3));
			emit(g, OPI(VGPU_OP_ADD, VGPU_T_U32, F_UREG, F_UREG, 1));
			top = g->n;
			random_run(g, rnd() % 4);
			emit(g, BAR());
			random_run(g, rnd() % 3);
			emit(g, OPI(VGPU_OP_SUB, VGPU_T_U32, F_UREG, F_UREG, 1));
			emit(g, SETPI(VGPU_T_U32, VGPU_CMP_NE, F_UPRED, F_UREG, 0));
			emit(g, BRA_IF(F_UPRED, top));
			continue;
		}
		if (g->phased && kind == 4 && rnd() % 2) {
			/*
			 * the block's register and predicate now a thread's:
			 * a branch on them is divergent (a masked run) until
			 * a later loop or branch makes them the block's again
			 */
			unsigned int at;

			emit(g, SREG(F_UREG, VGPU_SR_TID_X));
			emit(g, SETPI(VGPU_T_U32, VGPU_CMP_LT, F_UPRED, F_UREG, 1 + rnd() % 40));
			at = g->n;
			emit(g, BRA_IF(F_UPRED, 0));
			random_run(g, 1 + rnd() % 3);
			g->code[at].imm = g->n;
			continue;
		}
		if (g->phased && kind == 4 && rnd() % 2) {
			/* a branch the whole block takes or not, over a barrier */
			unsigned int at;

			emit(g, SREG(F_UREG, VGPU_SR_CTAID_X));
			emit(g, SETPI(VGPU_T_U32, VGPU_CMP_EQ, F_UPRED, F_UREG, rnd() % 2));
			at = g->n;
			emit(g, BRA_IF(F_UPRED, 0));
			random_run(g, rnd() % 3);
			emit(g, BAR());
			random_run(g, rnd() % 3);
			g->code[at].imm = g->n;
			continue;
		}
		switch (kind) {
		case 0: {	/* if: a forward branch over a run */
			unsigned int at = g->n, len = 1 + rnd() % 6;
			struct vgpu_insn br = BRA_IF(rnd() % F_NPREDS, 0);

			if (rnd() % 2)
				br.flags |= VGPU_IF_GUARD_NOT;
			emit(g, br);
			random_run(g, len);
			g->code[at].imm = g->n;
			break;
		}
		case 1: {	/* a loop of 1 to 4 trips, by thread */
			unsigned int top;

			emit(g, OPI(VGPU_OP_AND, VGPU_T_U32, 12, 0, rnd() % 2 ? 3 : 1));
			emit(g, OPI(VGPU_OP_ADD, VGPU_T_U32, 12, 12, 1));
			top = g->n;
			random_run(g, 1 + rnd() % 5);
			emit(g, OPI(VGPU_OP_SUB, VGPU_T_U32, 12, 12, 1));
			emit(g, SETPI(VGPU_T_U32, VGPU_CMP_NE, 3, 12, 0));
			emit(g, BRA_IF(3, top));
			break;
		}
		case 2:		/* a guarded exit, or a barrier */
			if (g->bars && rnd() % 2) {
				emit(g, BAR());
			} else if (rnd() % 3 == 0) {
				struct vgpu_insn ex = INSN(.op = VGPU_OP_EXIT, .guard = rnd() % 3);

				emit(g, ex);
			}
			break;
		default:
			random_run(g, 1 + rnd() % 8);
			break;
		}
	}
	for (k = 0; k < F_NVAL; k++)
		emit(g, ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 2, k * 8, F_VAL0 + k));
	for (k = 0; k < F_NPREDS; k++) {
		emit(g, INSN(.op = VGPU_OP_SELP, .type = VGPU_T_U32, .dst = 13, .a = 0,
			     .flags = VGPU_IF_B_IMM, .imm = 0xffff, .c = k));
		emit(g, ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 2, 72 + k * 8, 13));
	}
	/* (Past the end when the EXIT finds no room: the verifier refuses.) */
	for (k = 0; k < nexits; k++)
		g->code[exits[k]].imm = g->n;
	emit(g, EXIT());
	return g->n;
}

static unsigned int fuzz_runs, fuzz_faults, fuzz_wsync;

/*
 * One random program on both engines: 2 blocks of @threads threads (a
 * partial warp when not a multiple of 32).
 */
static bool fuzz_one(uint64_t seed, bool verbose)
{
	static struct gen g;
	struct { uint64_t in, out, scratch; } p = {
		WIN_VA + F_IN, WIN_VA + F_OUT, WIN_VA + F_SCRATCH,
	};
	unsigned int threads;
	uint8_t *init;
	struct setup s;
	char what[64];
	bool ok;

	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	g.faults = rnd() % 4 == 0;
	g.straight = rnd() % 3 == 0;
	g.phased = !g.straight && rnd() % 2 == 0;
	g.bars = !g.straight && (g.phased || rnd() % 2 == 0);
	threads = (u32[]){ 32, 64, 45, 96, 7, 128 }[rnd() % 6];
	random_program(&g);
	init = random_window();
	s = (struct setup){ g.code, g.n,
			    { .nregs = F_NREGS + g.phased, .npreds = F_NPREDS + g.phased,
			      .param_bytes = 24, .shared_bytes = 512 },
			    { 2, 1 }, { threads, 1, 1 }, &p, init, NULL, 0 };
	/* Half the programs have another kernel after them, as in a module. */
	if (rnd() % 2 && g.n < F_MAXN) {
		s.next_entry = g.n;
		emit(&g, EXIT());
		s.n = g.n;
	}
	if (!verified(&s)) {
		free(init);
		return true;	/* not a program; the generator's miss */
	}
	snprintf(what, sizeof(what), "fuzz seed %llu", (unsigned long long)seed);
	{
		unsigned int i;

		for (i = 0; i < g.n; i++)
			fuzz_wsync += g.code[i].op >= VGPU_OP_SHFL &&
				      g.code[i].op <= VGPU_OP_WARPSYNC;
	}
	{
		struct outcome a;

		run_interp(&s, &a);
		fuzz_faults += a.ret != VGPU_RUN_DONE;
		fuzz_runs++;
		ok = agree(what, &s, a.ret == VGPU_RUN_DONE ? VGPU_FAULT_NONE : a.fault.kind);
		outcome_free(&a);
	}
	if (!ok && verbose) {
		unsigned int i;

		for (i = 0; i < g.n; i++)
			printf("#  %u: op %u type %u stype %u mod %u flags %#x guard %u d %u a %u b %u c %u imm %#llx\n",
			       i, g.code[i].op, g.code[i].type, g.code[i].stype, g.code[i].mod,
			       g.code[i].flags, g.code[i].guard, g.code[i].dst, g.code[i].a,
			       g.code[i].b, g.code[i].c, (unsigned long long)g.code[i].imm);
	}
	free(init);
	return ok;
}

/*
 * Seeds whose programs once found something: LLVM 19's DAG combiner
 * looped for ever on 5180341797's phased block function where the code
 * was made with AVX-512BW (the test then ends at its time limit).
 */
static const uint64_t fuzz_found[] = { 5180341797ULL };

static void fuzz_fixed_seeds(void)
{
	uint64_t seed;
	size_t i;

	for (seed = 1; seed <= 40; seed++)
		if (!fuzz_one(seed, true))
			break;
	for (i = 0; i < sizeof(fuzz_found) / sizeof(fuzz_found[0]); i++)
		if (!fuzz_one(fuzz_found[i], true))
			break;
	printf("# %u programs ran, %u of them faulted; %u warp-synchronous instructions;"
	       " %u natively through the block function, %u through the phased one\n",
	       fuzz_runs, fuzz_faults, fuzz_wsync, fuzz_straight, fuzz_phased);
	CHECK(fuzz_runs >= 30 && fuzz_faults > 0 && fuzz_straight >= 5 && fuzz_phased >= 5);
}

static void fuzz_for_seconds(void)
{
	struct timespec ts;
	double end, t;
	uint64_t seed;
	unsigned int n = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = getenv("VGPU_FUZZ_SEED") ? strtoull(getenv("VGPU_FUZZ_SEED"), NULL, 0) :
	       (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20);
	/*
	 * The first seed, before any program runs: a program that hangs (or
	 * a run past TAP_TIMEOUT) leaves no other trace, and the seeds run
	 * in order from it.
	 */
	printf("# seeds from %llu (VGPU_FUZZ_SEED=%llu runs them again)\n",
	       (unsigned long long)seed, (unsigned long long)seed);
	fflush(stdout);
	/* VGPU_FUZZ_SECONDS runs longer (by hand; make check takes 4), or 0 one program. */
	end = ts.tv_sec + ts.tv_nsec * 1e-9 +
	      (getenv("VGPU_FUZZ_SECONDS") ? atof(getenv("VGPU_FUZZ_SECONDS")) : 4);
	do {
		if (!fuzz_one(seed, true)) {
			printf("# failing seed %llu\n", (unsigned long long)seed);
			break;
		}
		seed++;
		n++;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = ts.tv_sec + ts.tv_nsec * 1e-9;
	} while (t < end);
	printf("# %u random programs, %u ran, %u faulted, %u phased\n", n, fuzz_runs, fuzz_faults,
	       fuzz_phased);
}

/* The code level the host's own vectors give, at most @cap's. */
static const char *host_level(const char *cap)
{
	bool sse = cap && !strcmp(cap, "sse"), avx2 = cap && !strcmp(cap, "avx2");

	__builtin_cpu_init();
	if (!sse && !avx2 && __builtin_cpu_supports("avx512f"))
		return "avx512";
	if (!sse && __builtin_cpu_supports("avx2"))
		return "avx2";
	return "sse";
}

/*
 * VGPU_NATIVE_ISA=avx2 or sse caps the vectors the code is made for (the
 * second run of this test in make check is for AVX2): the engine says so.
 */
static void isa_capped(void)
{
	const char *level;
	char why[160];

	CHECK(vgpu_native_init(why, sizeof(why)) == 0);
	level = vgpu_native_isa_level();
	printf("# code for %s\n", level);
	CHECK(!strcmp(level, host_level(getenv("VGPU_NATIVE_ISA"))));
}

/*
 * A VGPU_NATIVE_ISA the engine does not know is said once on stderr, and
 * the code is the host's own: a fresh process of this program (LLVM is
 * set up once a process) prints its level.
 */
static void isa_unknown_said(void)
{
	char self[512], cmd[600], out[512] = "", want[32], *said;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *f;
	size_t n;

	CHECK(len > 0);
	if (len <= 0)
		return;
	self[len] = 0;
	CHECK(!strchr(self, '\''));	/* quoted for the shell below */
	snprintf(cmd, sizeof(cmd), "VGPU_NATIVE_ISA=avx '%s' --isa-level 2>&1", self);
	f = popen(cmd, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	CHECK(pclose(f) == 0);
	said = strstr(out, "VGPU_NATIVE_ISA=avx is not avx2 or sse");
	CHECK(said != NULL);
	CHECK(!said || !strstr(said + 1, "VGPU_NATIVE_ISA=avx is not"));
	snprintf(want, sizeof(want), "level %s\n", host_level(NULL));
	CHECK(strstr(out, want) != NULL);
	if (!said)
		printf("# said: %s\n", out);
}

static const struct tap_test tests[] = {
	TAP_TEST(bench_kernels_agree),
	TAP_TEST(isa_capped),
	TAP_TEST(isa_unknown_said),
	TAP_TEST(object_cache),
	TAP_TEST(fork_while_compiling),
	TAP_TEST(faults_match),
	TAP_TEST(accesses_off_the_vector_path),
	TAP_TEST(loads_keep_idle_lanes),
	TAP_TEST(kept_values_across_turns),
	TAP_TEST(divergent_loops),
	TAP_TEST(spinning_makes_progress),
	TAP_TEST(barriers_across_warps),
	TAP_TEST(divergence_around_barriers),
	TAP_TEST(unwritten_registers_read_zero),
	TAP_TEST(registers_cleared_per_block),
	TAP_TEST(bench_kernels_clear_nothing),
	TAP_TEST(warp_synchronous),
	TAP_TEST(shuffle_from_lanes_gone),
	TAP_TEST(shared_through_narrow_indices),
	TAP_TEST(ranges_change),
	TAP_TEST(ranges_learned),
	TAP_TEST(code_after_exit),
	TAP_TEST(refuses_cleanly),
	TAP_TEST(affine_indices_that_wrap),
	TAP_TEST(atomics_in_a_straight_run),
	TAP_TEST(phases_in_turn),
	TAP_TEST(idle_warps_skip_phases),
	TAP_TEST(turns_end_between_runs),
	TAP_TEST(fuzz_fixed_seeds),
	TAP_TEST(fuzz_for_seconds),
};

int main(int argc, char **argv)
{
	char why[160];

	/* isa_unknown_said()'s fresh process: the level the engine took. */
	if (argc == 2 && !strcmp(argv[1], "--isa-level")) {
		if (vgpu_native_init(why, sizeof(why)))
			return 1;
		printf("level %s\n", vgpu_native_isa_level());
		return 0;
	}
	/* The cache is object_cache()'s alone: nothing lands in the user's. */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
