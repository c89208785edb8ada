// SPDX-License-Identifier: MIT
/*
 * The engines' yardstick: the bench kernels as plain C, one thread each.
 * Built on its own, so that the Makefile can give it -O3 -march=native
 * for the native engine's bench and the project's flags for the
 * interpreter's (which runs in the VM).
 */
#include <string.h>

#include "native_ref.h"

void ref_saxpy(float a, const float *x, float *y, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		y[i] = a * x[i] + y[i];
}

void ref_matmul(const float *a, const float *b, float *c, unsigned int n)
{
	unsigned int i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			float s = 0;

			for (k = 0; k < n; k++)
				s += a[i * n + k] * b[k * n + j];
			c[i * n + j] = s;
		}
}

void ref_reduce(const float *in, float *out, unsigned int blocks)
{
	float s[256];
	unsigned int bl, t, st;

	for (bl = 0; bl < blocks; bl++) {
		memcpy(s, in + bl * 256, sizeof(s));
		for (st = 128; st; st >>= 1)
			for (t = 0; t < st; t++)
				s[t] += s[t + st];
		out[bl] = s[0];
	}
}
