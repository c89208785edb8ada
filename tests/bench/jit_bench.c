// SPDX-License-Identifier: MIT
/*
 * The JIT's benchmark: the host CPU time cuModuleLoadData spends before
 * its load ioctl, that is vg_jit_compile, on one module of an empty
 * kernel, saxpy and the Programming Guide's tiled matrix multiply
 * (tests/bench/jit_bench.cu, compiled to PTX by nvcc at build time).
 * Prints lines "NAME: VALUE":
 *   jit_cold_ms       compiling the module, no cache (best of REPS runs)
 *   jit_cache_hit_ms  finding it in the on-disk cache instead
 * It links libvgpu's objects, as the library exports only the CUDA API.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jit_cache.h"

#define REPS 20

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static char *read_ptx(size_t *len)
{
	FILE *f = fopen(JIT_BENCH_PTX, "rb");
	char *buf = NULL;
	long n = -1;

	if (f && !fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n >= 0 && !fseek(f, 0, SEEK_SET))
		buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "jit_bench: cannot read %s\n", JIT_BENCH_PTX);
		exit(1);
	}
	fclose(f);
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/vgpu-jit-bench-XXXXXX", err[512], cmd[64];
	double cold = 1e9, hit = 1e9, t;
	struct vg_jit_image *img;
	size_t len;
	char *ptx = read_ptx(&len);
	int i;

	for (i = 0; i < REPS; i++) {
		t = cpu_ms();
		if (vg_jit_compile(ptx, len, &img, err, sizeof(err))) {
			fprintf(stderr, "jit_bench: %s\n", err);
			return 1;
		}
		t = cpu_ms() - t;
		if (t < cold)
			cold = t;
		if (i == 0 && img->nkernels != 3) {
			fprintf(stderr, "jit_bench: %u kernels, expected 3\n",
				img->nkernels);
			return 1;
		}
		vg_jit_free(img);
	}
	printf("jit_cold_ms: %.2f\n", cold);
	if (!mkdtemp(dir))
		return 1;
	setenv("CUDA_CACHE_PATH", dir, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	if (vg_jit_compile_cached(ptx, len, &img, err, sizeof(err)))
		return 1;
	vg_jit_free(img);
	for (i = 0; i < REPS; i++) {
		t = cpu_ms();
		img = vg_jit_cache_lookup(ptx, len);
		t = cpu_ms() - t;
		if (!img) {
			fprintf(stderr, "jit_bench: no cache entry in %s\n", dir);
			return 1;
		}
		if (t < hit)
			hit = t;
		vg_jit_free(img);
	}
	printf("jit_cache_hit_ms: %.3f\n", hit);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	free(ptx);
	return system(cmd) ? 1 : 0;
}
