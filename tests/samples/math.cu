// SPDX-License-Identifier: MIT
// f64 math functions (libdevice, inlined by nvcc) over an array.
extern "C" __global__ void math64(const double *in, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		double x = in[i];

		out[4 * i] = sin(x);
		out[4 * i + 1] = exp(x / 4);
		out[4 * i + 2] = sqrt(fabs(x));
		out[4 * i + 3] = pow(fabs(x) + 0.5, 1.7);
	}
}
