// SPDX-License-Identifier: MIT
/*
 * vgpu-ptxas: compiles PTX offline into vgpu's compiled-module format,
 * which cuModuleLoad and cuModuleLoadData load without running the JIT.
 * With -v it reports what each kernel uses, in the shape of ptxas -v;
 * with -S it lists the vgpu ISA it wrote (the text form of vgpu-as and
 * vgpu-dis), kernel by kernel, instead of writing a module, which the
 * JIT's golden tests compare (tests/jit).
 * Errors read "input.ptx:LINE:COL: message", exit status 1.
 * Usage: vgpu-ptxas [-v] [-S] [-o OUTPUT] INPUT.ptx
 *   (OUTPUT defaults to INPUT with .ptx replaced by .vgpumod)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit_cache.h"
#include "vg.h"
#include "tools/isa_text.h"

/* Instructions of kernel @k: its code runs up to the next kernel's entry. */
static uint32_t kernel_insns(const struct vg_jit_image *img, uint32_t k)
{
	uint32_t end = img->ninsns, i, e = img->kernels[k].f.entry;

	for (i = 0; i < img->nkernels; i++)
		if (img->kernels[i].f.entry > e && img->kernels[i].f.entry < end)
			end = img->kernels[i].f.entry;
	return end - e;
}

/* What ptxas -v says, with vgpu's numbers: registers are 64-bit ones. */
static void report(const struct vg_jit_image *img)
{
	uint64_t gmem = 0, cmem = 0;
	uint32_t i;

	for (i = 0; i < img->nvars; i++)
		*(img->vars[i].is_const ? &cmem : &gmem) += img->vars[i].size;
	printf("vgpu-ptxas info    : %llu bytes gmem, %llu bytes cmem%s\n",
	       (unsigned long long)gmem, (unsigned long long)cmem,
	       img->has_printf ? ", printf buffer" : "");
	for (i = 0; i < img->nkernels; i++) {
		const struct vg_jit_kernel *k = &img->kernels[i];

		printf("vgpu-ptxas info    : Compiling entry function '%s' for 'vgpu'\n",
		       k->name);
		printf("vgpu-ptxas info    : Function properties for %s\n", k->name);
		printf("    %u bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n",
		       k->f.local_bytes);
		printf("vgpu-ptxas info    : Used %u registers, %u bytes smem, %u bytes lmem, %u bytes params, %u instructions\n",
		       k->f.nregs, k->f.shared_bytes, k->f.local_bytes,
		       k->f.param_bytes, kernel_insns(img, i));
	}
}

/* The program as text: each kernel's header, then numbered instructions. */
static int listing(const struct vg_jit_image *img)
{
	char line[256];
	uint32_t i, k;

	for (i = 0; i < img->ninsns; i++) {
		for (k = 0; k < img->nkernels; k++)
			if (img->kernels[k].f.entry == i)
				printf("kernel %s: regs=%u preds=%u params=%u shared=%u local=%u\n",
				       img->kernels[k].name, img->kernels[k].f.nregs,
				       img->kernels[k].f.npreds,
				       img->kernels[k].f.param_bytes,
				       img->kernels[k].f.shared_bytes,
				       img->kernels[k].f.local_bytes);
		if (vgpu_isa_print(&img->insns[i], line, sizeof(line)) < 0)
			return 1;
		printf("%5u  %s\n", i, line);
	}
	return 0;
}

static char *default_output(const char *in)
{
	size_t n = strlen(in);
	char *out;

	if (n > 4 && !strcmp(in + n - 4, ".ptx"))
		n -= 4;
	out = malloc(n + sizeof(".vgpumod"));
	if (out) {
		memcpy(out, in, n);
		strcpy(out + n, ".vgpumod");
	}
	return out;
}

static const char usage[] =
	"usage: vgpu-ptxas [-v] [-S] [-o OUTPUT] INPUT.ptx\n"
	"Compiles PTX into vgpu's compiled-module format, which cuModuleLoad\n"
	"loads without running the JIT.\n"
	"  -o OUTPUT   the module to write (default: INPUT with .ptx replaced\n"
	"              by .vgpumod)\n"
	"  -v          report what each kernel uses, as ptxas -v does\n"
	"  -S          list the vgpu ISA written instead of writing a module\n"
	"  -h, --help  this text\n";

int main(int argc, char **argv)
{
	const char *in_name = NULL, *out_name = NULL;
	struct vg_jit_image *img = NULL;
	char *ptx, *out_alloc = NULL, err[512];
	unsigned char *mod;
	bool verbose = false, list = false, bad = false;
	size_t len, mod_len;
	FILE *out;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-v"))
			verbose = true;
		else if (!strcmp(argv[i], "-S"))
			list = true;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out_name = argv[++i];
		else if (argv[i][0] == '-' || in_name)
			bad = true;
		else
			in_name = argv[i];
	}
	if (bad || !in_name) {
		fputs(usage, stderr);
		return 2;
	}
	ptx = vg_read_file(in_name, &len);
	if (!ptx) {
		perror(in_name);
		return 1;
	}
	if (vg_jit_compile(ptx, len, &img, err, sizeof(err))) {
		fprintf(stderr, "%s:%s\n", in_name, err);
		free(ptx);
		return 1;
	}
	free(ptx);
	if (verbose)
		report(img);
	if (list && !out_name) {
		i = listing(img);
		vg_jit_free(img);
		return i;
	}
	if (!out_name)
		out_name = out_alloc = default_output(in_name);
	if (!out_name || vg_modfile_save(img, &mod, &mod_len)) {
		fprintf(stderr, "vgpu-ptxas: out of memory\n");
		return 1;
	}
	vg_jit_free(img);
	out = fopen(out_name, "wb");
	i = !out || fwrite(mod, 1, mod_len, out) != mod_len;
	if ((out && fclose(out)) || i) {
		perror(out_name);
		i = 1;
	}
	free(mod);
	free(out_alloc);
	return i;
}
