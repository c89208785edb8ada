// SPDX-License-Identifier: MIT
/*
 * Math functions: f64 sin, exp, sqrt and pow (math.cu, libdevice's
 * algorithms in PTX) against the host's libm to within 2 ulp, and the
 * f32 fast-math forms (math_fast.cu, approximate instructions) within
 * their documented error.
 */
#include "sample.h"

enum { N = 2000 };

static double ulps(double got, double want)
{
	double u = nextafter(fabs(want), INFINITY) - fabs(want);

	return fabs(got - want) / u;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "math");
	char path[4096];
	static double in[N], out[4 * N];
	static float inf[N], outf[4 * N];
	int n = N, i, bad = 0;
	double worst = 0, worstf = 0;
	CUdeviceptr din, dout;
	CUmodule fast;
	void *args[] = { &din, &dout, &n };

	for (i = 0; i < N; i++) {
		in[i] = (double)i / 100.0 - 10.0;
		inf[i] = (float)in[i];
	}
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&dout, sizeof(out)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	TRY(cuLaunchKernel(sample_func(mod, "math64"), (N + 127) / 128, 1, 1, 128, 1, 1,
			   0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	for (i = 0; i < N; i++) {
		double x = in[i], want[4] = { sin(x), exp(x / 4), sqrt(fabs(x)),
					      pow(fabs(x) + 0.5, 1.7) };
		int j;

		for (j = 0; j < 4; j++) {
			double e = ulps(out[4 * i + j], want[j]);

			/* A NaN is no number within 2 ulp, and stays the worst. */
			worst = isnan(e) || e > worst ? e : worst;
			bad += isnan(e) || e > 2;
		}
	}
	snprintf(path, sizeof(path), "%s/math_fast.ptx", PTX_DIR);
	TRY(cuModuleLoad(&fast, argc > 2 ? argv[2] : path));
	TRY(cuMemcpyHtoD(din, inf, sizeof(inf)));
	TRY(cuLaunchKernel(sample_func(fast, "math32"), (N + 127) / 128, 1, 1, 128, 1, 1,
			   0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(outf, dout, sizeof(outf)));
	for (i = 0; i < N; i++) {
		float x = inf[i];
		double want[4] = { sin(x), exp(x / 4.0), sqrt(fabs(x)),
				   x / (fabs(x) + 1.5) };
		int j;

		for (j = 0; j < 4; j++) {
			/*
			 * sin.approx: absolute error under 2^-18 over [-10, 10];
			 * the rest: relative error under 2^-19.
			 */
			double e = fabs(outf[4 * i + j] - want[j]);
			double lim = j == 0 ? ldexp(1, -18) : ldexp(fabs(want[j]), -19);
			double r = e / (lim ? lim : 1);

			worstf = isnan(r) || r > worstf ? r : worstf;
			bad += isnan(e) || e > lim;
		}
	}
	printf("math64: worst %.2f ulp; math32 (fast): worst %.2f of the bound\n",
	       worst, worstf);
	bad += sample_output("math", "math64", out, sizeof(out), 0);
	bad += sample_output("math", "math32", outf, sizeof(outf), 1.0 / (1 << 19));
	return sample_result(bad);
}
