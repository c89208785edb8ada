// SPDX-License-Identifier: MIT
/*
 * vgpu-as: reads the text form of the vgpu ISA (one instruction per line,
 * ".kernel" lines for kernels, ';' starting a comment) and writes a
 * program file. Errors name the line.
 * Usage: vgpu-as [INPUT] -o OUTPUT   (standard input without INPUT)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_text.h"

static int parse_kernel(char *s, struct vgpu_func *f)
{
	static const char *const keys[] = {
		"entry", "nregs", "npreds", "param", "shared", "local", "maxthreads",
	};
	__u32 *fields[] = {
		&f->entry, &f->nregs, &f->npreds, &f->param_bytes,
		&f->shared_bytes, &f->local_bytes, &f->max_threads,
	};
	char *tok, *save, *eq, *end;
	unsigned int i;

	memset(f, 0, sizeof(*f));
	for (tok = strtok_r(s, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			return -1;
		*eq++ = 0;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(tok, keys[i]))
				break;
		if (i == sizeof(keys) / sizeof(keys[0]))
			return -1;
		*fields[i] = (__u32)strtoul(eq, &end, 0);
		if (*end)
			return -1;
	}
	return 0;
}

static const char usage[] =
	"usage: vgpu-as [INPUT] -o OUTPUT\n"
	"Assembles the text form of the vgpu ISA (standard input without INPUT)\n"
	"into a program file that vgpu-dis reads back.\n"
	"  -o OUTPUT   the program file to write\n"
	"  -h, --help  this text\n";

int main(int argc, char **argv)
{
	struct vgpu_insn *insns = NULL;
	struct vgpu_func *funcs = NULL;
	struct vgpu_isa_file h = { .magic = VGPU_ISA_FILE_MAGIC };
	const char *in_name = NULL, *out_name = NULL;
	char line[512], err[128], *semi, *p;
	unsigned int lineno = 0, ni = 0, nf = 0;
	FILE *in, *out;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out_name = argv[++i];
		else
			in_name = argv[i];
	}
	if (!out_name) {
		fputs(usage, stderr);
		return 2;
	}
	in = in_name ? fopen(in_name, "r") : stdin;
	if (!in) {
		perror(in_name);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		semi = strchr(line, ';');
		if (semi)
			*semi = 0;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (!*p || *p == '\n')
			continue;
		if (!strncmp(p, ".kernel", 7)) {
			funcs = realloc(funcs, (nf + 1) * sizeof(*funcs));
			if (parse_kernel(p + 7, &funcs[nf])) {
				fprintf(stderr, "%s:%u: bad .kernel line\n",
					in_name ? in_name : "<stdin>", lineno);
				return 1;
			}
			nf++;
			continue;
		}
		insns = realloc(insns, (ni + 1) * sizeof(*insns));
		if (vgpu_isa_parse(p, &insns[ni], err, sizeof(err))) {
			fprintf(stderr, "%s:%u: %s\n", in_name ? in_name : "<stdin>",
				lineno, err);
			return 1;
		}
		ni++;
	}
	h.ninsns = ni;
	h.nfuncs = nf;
	out = fopen(out_name, "wb");
	if (!out || fwrite(&h, sizeof(h), 1, out) != 1 ||
	    (nf && fwrite(funcs, sizeof(*funcs), nf, out) != nf) ||
	    (ni && fwrite(insns, sizeof(*insns), ni, out) != ni) || fclose(out)) {
		perror(out_name);
		return 1;
	}
	free(insns);
	free(funcs);
	return 0;
}
