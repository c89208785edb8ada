// SPDX-License-Identifier: MIT
/*
 * vgpu-dis: prints a program file of the vgpu ISA (as vgpu-as writes it)
 * in the text form vgpu-as reads back, each instruction with its index.
 * Usage: vgpu-dis [FILE]   (standard input without FILE)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_text.h"

int main(int argc, char **argv)
{
	struct vgpu_isa_file h;
	struct vgpu_func fn;
	struct vgpu_insn in;
	char line[512];
	unsigned int i;
	FILE *f;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: vgpu-dis [FILE]\n"
		       "Prints a vgpu ISA program file (standard input without FILE) in\n"
		       "the text form vgpu-as reads, each instruction with its index.\n"
		       "  -h, --help  this text\n");
		return 0;
	}
	f = argc > 1 ? fopen(argv[1], "rb") : stdin;
	if (!f || fread(&h, sizeof(h), 1, f) != 1 ||
	    memcmp(h.magic, VGPU_ISA_FILE_MAGIC, 8)) {
		fprintf(stderr, "vgpu-dis: not a vgpu ISA program\n");
		return 1;
	}
	for (i = 0; i < h.nfuncs; i++) {
		if (fread(&fn, sizeof(fn), 1, f) != 1)
			goto truncated;
		printf(".kernel entry=%u nregs=%u npreds=%u param=%u shared=%u local=%u maxthreads=%u\n",
		       fn.entry, fn.nregs, fn.npreds, fn.param_bytes,
		       fn.shared_bytes, fn.local_bytes, fn.max_threads);
	}
	for (i = 0; i < h.ninsns; i++) {
		if (fread(&in, sizeof(in), 1, f) != 1)
			goto truncated;
		vgpu_isa_print(&in, line, sizeof(line));
		printf("\t%s\t; %u\n", line, i);
	}
	return 0;
truncated:
	fprintf(stderr, "vgpu-dis: truncated program\n");
	return 1;
}
