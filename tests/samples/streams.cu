// The kernel of "CUDA by Example", chapter 10: each output is the average
// of two three-point averages, one over a and one over b (indices wrap
// within groups of 256).
#define N (16 * 1024)

extern "C" __global__ void kernel(const int *a, const int *b, float *c)
{
	int idx = threadIdx.x + blockIdx.x * blockDim.x;

	if (idx < N) {
		int idx1 = (idx + 1) % 256;
		int idx2 = (idx + 2) % 256;
		float as = (a[idx] + a[idx1] + a[idx2]) / 3.0f;
		float bs = (b[idx] + b[idx1] + b[idx2]) / 3.0f;

		c[idx] = (as + bs) / 2;
	}
}
