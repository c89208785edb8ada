// SPDX-License-Identifier: MIT
// Atomic intrinsics from many threads of many blocks: the integer
// read-modify-writes (add, sub, exch, max, min, inc, dec, CAS, and, or,
// xor) on int and unsigned, float and double additions, and the 64-bit
// add, CAS and max, each on global memory and again on a block's shared
// memory. The host folds the same operations in its own order and the
// answers must agree, since every one of them commutes.
#include "rt.h"

#define BLOCKS 24
#define THREADS 128
#define N (BLOCKS * THREADS)

// The slots each kernel works on; one set in global memory for the whole
// grid, and one per block for the shared-memory kernel.
enum {
	I_ADD, I_SUB, I_EXCH, I_MAX, I_MIN, I_CAS, I_AND, I_OR, I_XOR,
	I_COUNT
};
enum {
	U_ADD, U_SUB, U_EXCH, U_MAX, U_MIN, U_INC, U_DEC, U_CAS, U_AND, U_OR,
	U_XOR, U_COUNT
};
enum { L_ADD, L_CAS, L_MAX, L_COUNT };

struct slots {
	int i[I_COUNT];
	unsigned int u[U_COUNT];
	float f;
	double d;
	unsigned long long l[L_COUNT];
};

#define INC_WRAP 17u
#define DEC_WRAP 137u

// The operands thread @t contributes; host and device share them.
__host__ __device__ static int ival(int t)
{
	return (t * 37) % 1001 - 500;
}

__host__ __device__ static unsigned int uval(int t)
{
	return (unsigned int)t * 2654435761u;
}

__host__ __device__ static unsigned long long lval(int t)
{
	return ((unsigned long long)uval(t) << 29) + (unsigned int)t;
}

// Each slot starts from what its operation leaves alone.
__host__ __device__ static void init_slots(struct slots *s)
{
	int k;

	for (k = 0; k < I_COUNT; k++)
		s->i[k] = 0;
	for (k = 0; k < U_COUNT; k++)
		s->u[k] = 0;
	s->i[I_MAX] = -1000;
	s->i[I_MIN] = 1000;
	s->i[I_AND] = -1;
	s->i[I_EXCH] = -1;
	s->u[U_MIN] = 0xffffffffu;
	s->u[U_AND] = 0xffffffffu;
	s->u[U_EXCH] = 0xffffffffu;
	s->f = 0;
	s->d = 0;
	for (k = 0; k < L_COUNT; k++)
		s->l[k] = 0;
}

// Thread @t's operations on @s. What atomicExch returns is kept in
// @old_i / @old_u: the values swapped out are every thread's own but one,
// plus the initial value, a permutation the host can check.
__device__ static void apply(struct slots *s, int t, int *old_i,
			     unsigned int *old_u)
{
	int iv = ival(t), seen, want;
	unsigned int uv = uval(t), useen;
	unsigned long long lseen;

	atomicAdd(&s->i[I_ADD], iv);
	atomicSub(&s->i[I_SUB], iv);
	*old_i = atomicExch(&s->i[I_EXCH], t);
	atomicMax(&s->i[I_MAX], iv);
	atomicMin(&s->i[I_MIN], iv);
	// An addition built from compare-and-swap, retried until it lands.
	seen = s->i[I_CAS];
	do {
		want = seen;
		seen = atomicCAS(&s->i[I_CAS], want, want + iv);
	} while (seen != want);
	atomicAnd(&s->i[I_AND], ~(1 << (t % 29)));
	atomicOr(&s->i[I_OR], 1 << (t % 23));
	atomicXor(&s->i[I_XOR], iv);

	atomicAdd(&s->u[U_ADD], uv);
	atomicSub(&s->u[U_SUB], uv);
	*old_u = atomicExch(&s->u[U_EXCH], (unsigned int)t);
	atomicMax(&s->u[U_MAX], uv);
	atomicMin(&s->u[U_MIN], uv);
	atomicInc(&s->u[U_INC], INC_WRAP);
	atomicDec(&s->u[U_DEC], DEC_WRAP);
	useen = s->u[U_CAS];
	for (;;) {
		unsigned int prev = atomicCAS(&s->u[U_CAS], useen, useen ^ uv);

		if (prev == useen)
			break;
		useen = prev;
	}
	atomicAnd(&s->u[U_AND], uv | 0x80000001u);
	atomicOr(&s->u[U_OR], uv & 0x00f0f0f0u);
	atomicXor(&s->u[U_XOR], uv);

	// Quarters add exactly in any order: the sums stay far below 2^24.
	atomicAdd(&s->f, (float)(t % 8) * 0.25f);
	atomicAdd(&s->d, (double)iv * 0.5);

	atomicAdd(&s->l[L_ADD], lval(t));
	lseen = s->l[L_CAS];
	for (;;) {
		unsigned long long prev =
			atomicCAS(&s->l[L_CAS], lseen, lseen + lval(t));

		if (prev == lseen)
			break;
		lseen = prev;
	}
	atomicMax(&s->l[L_MAX], lval(t));
}

__global__ void on_global(struct slots *s, int *old_i, unsigned int *old_u,
			  int *ticket)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	apply(s, t, &old_i[t], &old_u[t]);
	// What atomicAdd returns: each thread its own ticket.
	ticket[t] = atomicAdd(&ticket[N], 1);
}

// The same on shared memory; each block's slots end in @out[block].
__global__ void on_shared(struct slots *out, int *old_i,
			  unsigned int *old_u)
{
	__shared__ struct slots s;
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	if (threadIdx.x == 0)
		init_slots(&s);
	__syncthreads();
	apply(&s, threadIdx.x, &old_i[t], &old_u[t]);
	__syncthreads();
	if (threadIdx.x == 0)
		out[blockIdx.x] = s;
}

// The host's fold of threads 0 to @n - 1, in the order of their numbers.
static void fold(struct slots *s, int n)
{
	int t;

	init_slots(s);
	for (t = 0; t < n; t++) {
		int iv = ival(t);
		unsigned int uv = uval(t);

		s->i[I_ADD] += iv;
		s->i[I_SUB] -= iv;
		s->i[I_MAX] = iv > s->i[I_MAX] ? iv : s->i[I_MAX];
		s->i[I_MIN] = iv < s->i[I_MIN] ? iv : s->i[I_MIN];
		s->i[I_CAS] += iv;
		s->i[I_AND] &= ~(1 << (t % 29));
		s->i[I_OR] |= 1 << (t % 23);
		s->i[I_XOR] ^= iv;
		s->u[U_ADD] += uv;
		s->u[U_SUB] -= uv;
		s->u[U_MAX] = uv > s->u[U_MAX] ? uv : s->u[U_MAX];
		s->u[U_MIN] = uv < s->u[U_MIN] ? uv : s->u[U_MIN];
		s->u[U_INC] = s->u[U_INC] >= INC_WRAP ? 0 : s->u[U_INC] + 1;
		s->u[U_DEC] = s->u[U_DEC] == 0 || s->u[U_DEC] > DEC_WRAP ?
			DEC_WRAP : s->u[U_DEC] - 1;
		s->u[U_CAS] ^= uv;
		s->u[U_AND] &= uv | 0x80000001u;
		s->u[U_OR] |= uv & 0x00f0f0f0u;
		s->u[U_XOR] ^= uv;
		s->f += (float)(t % 8) * 0.25f;
		s->d += (double)iv * 0.5;
		s->l[L_ADD] += lval(t);
		s->l[L_CAS] += lval(t);
		s->l[L_MAX] = lval(t) > s->l[L_MAX] ? lval(t) : s->l[L_MAX];
	}
}

static const char *const iname[I_COUNT] = {
	"atomicAdd", "atomicSub", "atomicExch", "atomicMax", "atomicMin",
	"atomicCAS", "atomicAnd", "atomicOr", "atomicXor",
};
static const char *const uname[U_COUNT] = {
	"atomicAdd", "atomicSub", "atomicExch", "atomicMax", "atomicMin",
	"atomicInc", "atomicDec", "atomicCAS", "atomicAnd", "atomicOr",
	"atomicXor",
};
static const char *const lname[L_COUNT] = {
	"atomicAdd", "atomicCAS", "atomicMax",
};

// Whether @old[0..n-1] and the slot's final value @last are the values
// threads 0 to @n - 1 wrote plus the initial @init, each once.
static bool exchanged(const unsigned int *old, int n, unsigned int last,
		      unsigned int init)
{
	static char seen[N + 1];
	int k;

	memset(seen, 0, sizeof(seen));
	for (k = 0; k <= n; k++) {
		unsigned int v = k < n ? old[k] : last;
		int at = v == init ? n : (int)v;

		if (v != init && v >= (unsigned int)n)
			return false;
		if (seen[at]++)
			return false;
	}
	return true;
}

// Compares the device's slots @got (@count sets, @n threads each) with the
// host's fold and prints one line per operation.
static void compare(const char *where, const struct slots *got, int count,
		    int n, const int *old_i, const unsigned int *old_u)
{
	struct slots want;
	int wrong, c, k;

	fold(&want, n);
	for (k = 0; k < I_COUNT; k++) {
		for (c = 0, wrong = 0; c < count; c++) {
			if (k == I_EXCH)
				wrong += !exchanged((const unsigned int *)
						    old_i + c * n, n,
						    got[c].i[k], 0xffffffffu);
			else
				wrong += got[c].i[k] != want.i[k];
		}
		EXPECT_TRUE(wrong == 0);
		printf("%s on %s int: %d wrong\n", iname[k], where, wrong);
	}
	for (k = 0; k < U_COUNT; k++) {
		for (c = 0, wrong = 0; c < count; c++) {
			if (k == U_EXCH)
				wrong += !exchanged(old_u + c * n, n,
						    got[c].u[k], 0xffffffffu);
			else
				wrong += got[c].u[k] != want.u[k];
		}
		EXPECT_TRUE(wrong == 0);
		printf("%s on %s unsigned: %d wrong\n", uname[k], where, wrong);
	}
	for (c = 0, wrong = 0; c < count; c++)
		wrong += got[c].f != want.f;
	EXPECT_TRUE(wrong == 0);
	printf("atomicAdd on %s float: %d wrong\n", where, wrong);
	for (c = 0, wrong = 0; c < count; c++)
		wrong += got[c].d != want.d;
	EXPECT_TRUE(wrong == 0);
	printf("atomicAdd on %s double: %d wrong\n", where, wrong);
	for (k = 0; k < L_COUNT; k++) {
		for (c = 0, wrong = 0; c < count; c++)
			wrong += got[c].l[k] != want.l[k];
		EXPECT_TRUE(wrong == 0);
		printf("%s on %s unsigned long long: %d wrong\n", lname[k],
		       where, wrong);
	}
}

int main(void)
{
	struct slots *ds, hs, *hb;
	int *old_i, *ticket, *h_old_i, *h_ticket, wrong;
	unsigned int *old_u, *h_old_u;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&ds, BLOCKS * sizeof(*ds)));
	TRY(cudaMalloc((void **)&old_i, N * sizeof(int)));
	TRY(cudaMalloc((void **)&old_u, N * sizeof(unsigned int)));
	TRY(cudaMalloc((void **)&ticket, (N + 1) * sizeof(int)));
	h_old_i = (int *)malloc(N * sizeof(int));
	h_old_u = (unsigned int *)malloc(N * sizeof(unsigned int));
	h_ticket = (int *)malloc((N + 1) * sizeof(int));
	hb = (struct slots *)malloc(BLOCKS * sizeof(*hb));
	if (!h_old_i || !h_old_u || !h_ticket || !hb)
		return 1;

	// The whole grid on one set of slots in global memory.
	init_slots(&hs);
	TRY(cudaMemcpy(ds, &hs, sizeof(hs), cudaMemcpyHostToDevice));
	TRY(cudaMemset(ticket, 0, (N + 1) * sizeof(int)));
	on_global<<<BLOCKS, THREADS>>>(ds, old_i, old_u, ticket);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	TRY(cudaMemcpy(&hs, ds, sizeof(hs), cudaMemcpyDeviceToHost));
	TRY(cudaMemcpy(h_old_i, old_i, N * sizeof(int),
		       cudaMemcpyDeviceToHost));
	TRY(cudaMemcpy(h_old_u, old_u, N * sizeof(unsigned int),
		       cudaMemcpyDeviceToHost));
	TRY(cudaMemcpy(h_ticket, ticket, (N + 1) * sizeof(int),
		       cudaMemcpyDeviceToHost));
	compare("global", &hs, 1, N, h_old_i, h_old_u);
	wrong = h_ticket[N] != N ||
		!exchanged((const unsigned int *)h_ticket, N, N, N);
	EXPECT_TRUE(wrong == 0);
	printf("atomicAdd's old values as tickets for %d threads: %d wrong\n",
	       N, wrong);

	// Every block on its own slots in shared memory.
	on_shared<<<BLOCKS, THREADS>>>(ds, old_i, old_u);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	TRY(cudaMemcpy(hb, ds, BLOCKS * sizeof(*hb), cudaMemcpyDeviceToHost));
	TRY(cudaMemcpy(h_old_i, old_i, N * sizeof(int),
		       cudaMemcpyDeviceToHost));
	TRY(cudaMemcpy(h_old_u, old_u, N * sizeof(unsigned int),
		       cudaMemcpyDeviceToHost));
	compare("shared", hb, BLOCKS, THREADS, h_old_i, h_old_u);

	TRY(cudaFree(ds));
	TRY(cudaFree(old_i));
	TRY(cudaFree(old_u));
	TRY(cudaFree(ticket));
	free(h_old_i);
	free(h_old_u);
	free(h_ticket);
	free(hb);
	return rt_result();
}
