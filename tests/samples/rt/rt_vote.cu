// SPDX-License-Identifier: MIT
// Warp vote and shuffle intrinsics: __all_sync, __any_sync and
// __ballot_sync over data and over lane numbers, __activemask and ballots
// inside divergent branches and with partial masks, __popc of a ballot,
// and the four shuffles: a broadcast, a segmented broadcast, an inclusive
// scan with __shfl_up_sync and reductions with __shfl_down_sync and
// __shfl_xor_sync. Every lane writes what it saw; the host works out what
// each lane should have seen.
#include "rt.h"

#define BLOCKS 4
#define THREADS 128
#define N (BLOCKS * THREADS)
#define FULL 0xffffffffu

// What each lane records, one array of N per field.
enum {
	V_ALL, V_ANY, V_BALLOT, V_POPC, V_LOW_ACTIVE, V_LOW_BALLOT,
	V_HALF_BALLOT, V_ODD_ANY, V_BCAST, V_SEGMENT, V_SCAN, V_DOWN, V_XOR,
	V_COUNT
};

static const char *const vname[V_COUNT] = {
	"__all_sync over the data",
	"__any_sync over the data",
	"__ballot_sync over the data",
	"__popc of a ballot",
	"__activemask in lanes below 20",
	"__ballot_sync in lanes below 20",
	"__ballot_sync with the low half's mask",
	"__any_sync in the odd lanes",
	"__shfl_sync broadcast of lane 5",
	"__shfl_sync within 8-lane segments",
	"__shfl_up_sync inclusive scan",
	"__shfl_down_sync reduction",
	"__shfl_xor_sync reduction",
};

__global__ void vote(const int *in, unsigned int *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x % 32, v = in[t], k;
	unsigned int b;

	out[V_ALL * N + t] = __all_sync(FULL, v > 0);
	out[V_ANY * N + t] = __any_sync(FULL, v > 90);
	b = __ballot_sync(FULL, v % 3 == 0);
	out[V_BALLOT * N + t] = b;
	out[V_POPC * N + t] = __popc(b);

	// Only the lanes taking the branch vote, with the mask they are.
	out[V_LOW_ACTIVE * N + t] = 0;
	out[V_LOW_BALLOT * N + t] = 0;
	if (lane < 20) {
		unsigned int active = __activemask();

		out[V_LOW_ACTIVE * N + t] = active;
		out[V_LOW_BALLOT * N + t] = __ballot_sync(0xfffffu, v & 1);
	}
	out[V_HALF_BALLOT * N + t] = 0;
	if (lane < 16)
		out[V_HALF_BALLOT * N + t] = __ballot_sync(0xffffu, v > 50);
	out[V_ODD_ANY * N + t] = 0;
	if (lane & 1)
		out[V_ODD_ANY * N + t] = __any_sync(0xaaaaaaaau, v == lane);

	out[V_BCAST * N + t] = __shfl_sync(FULL, v, 5);
	out[V_SEGMENT * N + t] = __shfl_sync(FULL, v, 3, 8);

	// Inclusive scan: at each step a lane adds the value @k lanes down.
	int scan = v;
	for (k = 1; k < 32; k *= 2) {
		int up = __shfl_up_sync(FULL, scan, k);

		if (lane >= k)
			scan += up;
	}
	out[V_SCAN * N + t] = scan;

	// Tree reduction: lane 0 ends with the warp's sum.
	int sum = v;
	for (k = 16; k > 0; k /= 2)
		sum += __shfl_down_sync(FULL, sum, k);
	out[V_DOWN * N + t] = lane == 0 ? sum : 0;

	// Butterfly reduction: every lane ends with the warp's maximum.
	int max = v;
	for (k = 16; k > 0; k /= 2) {
		int other = __shfl_xor_sync(FULL, max, k);

		max = other > max ? other : max;
	}
	out[V_XOR * N + t] = max;
}

// The host's answer for field @f of thread @t.
static unsigned int expected(const int *in, int f, int t)
{
	int lane = t % 32, w = t - lane, k;
	unsigned int r = 0;

	switch (f) {
	case V_ALL:
		for (k = 0, r = 1; k < 32; k++)
			r &= in[w + k] > 0;
		return r;
	case V_ANY:
		for (k = 0; k < 32; k++)
			r |= in[w + k] > 90;
		return r;
	case V_BALLOT:
	case V_POPC:
		for (k = 0; k < 32; k++)
			r |= (unsigned int)(in[w + k] % 3 == 0) << k;
		return f == V_BALLOT ? r : __builtin_popcount(r);
	case V_LOW_ACTIVE:
		return lane < 20 ? 0xfffffu : 0;
	case V_LOW_BALLOT:
		for (k = 0; k < 20 && lane < 20; k++)
			r |= (unsigned int)(in[w + k] & 1) << k;
		return r;
	case V_HALF_BALLOT:
		for (k = 0; k < 16 && lane < 16; k++)
			r |= (unsigned int)(in[w + k] > 50) << k;
		return r;
	case V_ODD_ANY:
		for (k = 1; k < 32 && (lane & 1); k += 2)
			r |= in[w + k] == k;
		return r;
	case V_BCAST:
		return in[w + 5];
	case V_SEGMENT:
		return in[w + lane / 8 * 8 + 3];
	case V_SCAN:
		for (k = 0; k <= lane; k++)
			r += in[w + k];
		return r;
	case V_DOWN:
		for (k = 0; k < 32 && lane == 0; k++)
			r += in[w + k];
		return r;
	case V_XOR:
		for (k = 0; k < 32; k++)
			r = (int)r > in[w + k] ? r : in[w + k];
		return r;
	}
	return 0;
}

int main(void)
{
	unsigned int *d_out, *out;
	int *d_in, *in, f, t;

	rt_check_library();
	TRY(cudaSetDevice(0));
	in = (int *)malloc(N * sizeof(int));
	out = (unsigned int *)malloc(V_COUNT * N * sizeof(unsigned int));
	if (!in || !out)
		return 1;
	// Values from 1 to 100; warp 3 of each block holds no multiple of
	// three, warp 1 a zero, so that the votes come out both ways.
	for (t = 0; t < N; t++) {
		in[t] = (t * 7919 + 13) % 100 + 1;
		if (t / 32 % 4 == 3 && in[t] % 3 == 0)
			in[t]++;
		if (t % 128 == 40)
			in[t] = 0;
	}
	TRY(cudaMalloc((void **)&d_in, N * sizeof(int)));
	TRY(cudaMalloc((void **)&d_out, V_COUNT * N * sizeof(unsigned int)));
	TRY(cudaMemcpy(d_in, in, N * sizeof(int), cudaMemcpyHostToDevice));
	vote<<<BLOCKS, THREADS>>>(d_in, d_out);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, d_out, V_COUNT * N * sizeof(unsigned int),
		       cudaMemcpyDeviceToHost));
	for (f = 0; f < V_COUNT; f++) {
		int wrong = 0, set = 0;

		for (t = 0; t < N; t++) {
			wrong += out[f * N + t] != expected(in, f, t);
			set += out[f * N + t] != 0;
		}
		EXPECT_TRUE(wrong == 0);
		printf("%s: %d lanes not zero, %d wrong\n", vname[f], set,
		       wrong);
	}
	TRY(cudaFree(d_in));
	TRY(cudaFree(d_out));
	free(in);
	free(out);
	return rt_result();
}
