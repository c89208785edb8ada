// SPDX-License-Identifier: MIT
/*
 * What the real driver's cuGetProcAddress answers: for every name of the
 * toolkit's cudaTypedefs.h, every flag and a grid of cudaVersion values, the
 * CUresult, the symbolStatus and which exported symbol the pointer is.
 *
 * Run once on an H100 with the CUDA 13.0 driver (cuDriverGetVersion 13000)
 * to write procaddr_h100.log beside it, which tests/unit/test_procaddr.c
 * holds libvgpu to; built against NVIDIA's cuda.h and libcuda there:
 *
 *   gcc procaddr_probe.c -I/usr/local/cuda/include -lcuda -ldl -o probe
 *   ./probe [/usr/local/cuda/include/cudaTypedefs.h] > procaddr_h100.log
 *
 * Output lines (one space between fields):
 *   export SYMBOL                       each function libcuda exports
 *   early NAME VERSION FLAGS RC/STATUS/SYMBOL   before cuInit
 *   v1 NAME VERSION FLAGS RC SYMBOL     through cuGetProcAddress (4 args)
 *   case WHAT RC STATUS SYMBOL          NULL arguments, bad flags
 *   case WHAT signal N                  the call crashed (run in a child)
 *   map NAME FLAGS V=RC/STATUS/SYMBOL ...  the grid, only where the answer
 *                                       changes from the previous version
 * SYMBOL is "-" for NULL, "=" when *pfn was left as it was, the exported
 * names at that address joined by '|', or "?" for an address no export has.
 * STATUS is 99 when the call left it as it was.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define UNTOUCHED ((void *)0x1)

struct sym {
	void *addr;
	char name[96];
};

static struct sym *syms;
static int nsyms;
static void *libcuda;

typedef CUresult (*getproc_v2_fn)(const char *, void **, int, cuuint64_t,
				  CUdriverProcAddressQueryResult *);
typedef CUresult (*getproc_v1_fn)(const char *, void **, int, cuuint64_t);
static getproc_v2_fn getproc_v2;
static getproc_v1_fn getproc_v1;

static void add_sym(const char *name)
{
	void *a = dlsym(libcuda, name);
	int i;

	if (!a)
		return;
	for (i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, name))
			return;
	syms = realloc(syms, (nsyms + 1) * sizeof(*syms));
	syms[nsyms].addr = a;
	snprintf(syms[nsyms].name, sizeof(syms[nsyms].name), "%s", name);
	nsyms++;
}

/* Every function libcuda.so.1 exports, from its .dynsym section. */
static void read_exports(void)
{
	Dl_info info;
	FILE *f;
	long size;
	char *buf;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	int i;

	if (!dladdr(dlsym(libcuda, "cuInit"), &info)) {
		printf("# dladdr failed\n");
		return;
	}
	printf("# libcuda %s\n", info.dli_fname);
	f = fopen(info.dli_fname, "rb");
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size);
	if (fread(buf, 1, size, f) != (size_t)size) {
		fclose(f);
		return;
	}
	fclose(f);
	eh = (Elf64_Ehdr *)buf;
	sh = (Elf64_Shdr *)(buf + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Sym *s;
		const char *str;
		size_t n, j;

		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		s = (Elf64_Sym *)(buf + sh[i].sh_offset);
		str = buf + sh[sh[i].sh_link].sh_offset;
		n = sh[i].sh_size / sizeof(*s);
		for (j = 0; j < n; j++)
			if (s[j].st_shndx != SHN_UNDEF &&
			    ELF64_ST_TYPE(s[j].st_info) == STT_FUNC)
				add_sym(str + s[j].st_name);
	}
	free(buf);
}

static void sym_name(void *p, char *out, size_t len)
{
	int i, any = 0;

	if (!p) {
		snprintf(out, len, "-");
		return;
	}
	if (p == UNTOUCHED) {
		snprintf(out, len, "=");
		return;
	}
	out[0] = '\0';
	for (i = 0; i < nsyms; i++) {
		if (syms[i].addr != p)
			continue;
		if (any)
			strncat(out, "|", len - strlen(out) - 1);
		strncat(out, syms[i].name, len - strlen(out) - 1);
		any = 1;
	}
	if (!any)
		snprintf(out, len, "?");
}

static void query(const char *name, int ver, cuuint64_t flags, char *out,
		  size_t len)
{
	CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)99;
	void *p = UNTOUCHED;
	char s[512];
	CUresult rc = getproc_v2(name, &p, ver, flags, &st);

	sym_name(p, s, sizeof(s));
	snprintf(out, len, "%d/%d/%s", (int)rc, (int)st, s);
}

/* Base names of cudaTypedefs.h's PFN typedefs, each once. */
static char **names;
static int nnames;
static int *versions;
static int nversions;

static void add_version(int v)
{
	int i;

	for (i = 0; i < nversions; i++)
		if (versions[i] == v)
			return;
	versions = realloc(versions, (nversions + 1) * sizeof(int));
	versions[nversions++] = v;
}

static void add_name(const char *n)
{
	int i;

	for (i = 0; i < nnames; i++)
		if (!strcmp(names[i], n))
			return;
	names = realloc(names, (nnames + 1) * sizeof(char *));
	names[nnames++] = strdup(n);
}

static void read_typedefs(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2048];

	if (!f) {
		printf("# cannot read %s\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "*PFN_"), *e, *v;

		if (!p)
			continue;
		p += 5;
		e = strchr(p, ')');
		if (!e)
			continue;
		*e = '\0';
		if (strlen(p) > 5 && (!strcmp(p + strlen(p) - 5, "_ptds") ||
				      !strcmp(p + strlen(p) - 5, "_ptsz")))
			p[strlen(p) - 5] = '\0';
		v = strrchr(p, '_');
		if (!v || v[1] != 'v')
			continue;
		add_version(atoi(v + 2));
		add_version(atoi(v + 2) - 1);
		*v = '\0';
		add_name(p);
	}
	fclose(f);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

static void early(const char *name, int ver, cuuint64_t flags)
{
	char r[600];

	query(name, ver, flags, r, sizeof(r));
	printf("early %s %d %llu %s\n", name, ver, (unsigned long long)flags, r);
}

static void v1(const char *name, int ver, cuuint64_t flags)
{
	void *p = UNTOUCHED;
	char s[512];
	CUresult rc = getproc_v1(name, &p, ver, flags);

	sym_name(p, s, sizeof(s));
	printf("v1 %s %d %llu %d %s\n", name, ver, (unsigned long long)flags,
	       (int)rc, s);
}

static void one_case(const char *what, const char *name, int null_pfn,
		     int null_status, int ver, cuuint64_t flags)
{
	CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)99;
	void *p = UNTOUCHED;
	char s[512];
	CUresult rc;
	pid_t pid;
	int ws;

	fflush(stdout);
	pid = fork();
	if (pid) {
		waitpid(pid, &ws, 0);
		if (WIFSIGNALED(ws))
			printf("case %s signal %d\n", what, WTERMSIG(ws));
		return;
	}
	rc = getproc_v2(name, null_pfn ? NULL : &p, ver, flags,
			null_status ? NULL : &st);
	sym_name(p, s, sizeof(s));
	printf("case %s %d %d %s\n", what, (int)rc, (int)st, s);
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	static const char *const extra[] = {
		"cuNoSuchFunction", "", "cuinit", "cuCtxCreate_v2",
		"cuMemAlloc_v2", "cuLaunchKernel_ptsz", "cuGetProcAddress_v2",
		"cuMemcpyHtoD_v2_ptds", "cuGetProcAddress_v2_ptsz",
	};
	static const cuuint64_t flagset[] = { 0, 1, 2 };
	static const char *const flagname[] = { "D", "L", "P" };
	static const cuuint64_t badflags[] = {
		3, 4, 8, 0x100, 1ull << 32, ~0ull,
	};
	static const int extra_versions[] = {
		INT_MIN, -1, 0, 1, 999, 1000, 12070, 13010, 13020, 13999,
		14000, 99999, INT_MAX,
	};
	const char *hdr = argc > 1 ? argv[1] :
		"/usr/local/cuda/include/cudaTypedefs.h";
	int drv = 0, i, j, k;
	size_t b;
	char r[600], prev[600];

	setvbuf(stdout, NULL, _IOLBF, 0);
	libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!libcuda)
		libcuda = dlopen("libcuda.so.1", RTLD_NOW);
	getproc_v2 = (getproc_v2_fn)dlsym(libcuda, "cuGetProcAddress_v2");
	getproc_v1 = (getproc_v1_fn)dlsym(libcuda, "cuGetProcAddress");
	if (!getproc_v2 || !getproc_v1) {
		printf("# no cuGetProcAddress(_v2)\n");
		return 1;
	}
	read_exports();
	read_typedefs(hdr);

	/* Before cuInit: which answers need it. */
	early("cuInit", 13000, 0);
	early("cuCtxCreate", 13000, 0);
	early("cuLaunchKernel", 13000, 2);
	early("cuNoSuchFunction", 13000, 0);
	early("cuLaunchKernel", 3020, 0);
	early("cuInit", 14000, 0);
	early("cuInit", 13000, 3);
	early("cuInit", 13000, 4);
	one_case("early-null-pfn", "cuInit", 1, 0, 13000, 0);
	one_case("early-null-status", "cuInit", 0, 1, 13000, 0);

	printf("# cuInit %d\n", (int)cuInit(0));
	cuDriverGetVersion(&drv);
	printf("# driver version %d\n", drv);
	printf("# exports %d typedef-names %d\n", nsyms, nnames);
	for (i = 0; i < nsyms; i++)
		printf("export %s\n", syms[i].name);

	/* NULL arguments and bad flags. */
	one_case("null-symbol", NULL, 0, 0, 13000, 0);
	one_case("null-pfn", "cuInit", 1, 0, 13000, 0);
	one_case("null-pfn-unknown", "cuNoSuchFunction", 1, 0, 13000, 0);
	one_case("null-status", "cuInit", 0, 1, 13000, 0);
	one_case("null-status-unknown", "cuNoSuchFunction", 0, 1, 13000, 0);
	one_case("null-status-old", "cuLaunchKernel", 0, 1, 3020, 0);
	one_case("null-status-14000", "cuInit", 0, 1, 14000, 0);
	one_case("null-symbol-pfn", NULL, 1, 0, 13000, 0);
	one_case("null-all", NULL, 1, 1, 13000, 0);
	one_case("null-symbol-14000", NULL, 0, 0, 14000, 0);
	one_case("null-pfn-14000", "cuInit", 1, 0, 14000, 0);
	one_case("null-pfn-badflags", "cuInit", 1, 0, 13000, 4);
	one_case("badflags-14000", "cuInit", 0, 0, 14000, 4);
	one_case("badflags-unknown", "cuNoSuchFunction", 0, 0, 13000, 4);
	one_case("badflags-old", "cuLaunchKernel", 0, 0, 3020, 4);
	for (b = 0; b < sizeof(badflags) / sizeof(badflags[0]); b++) {
		char what[64];
		const char *const bn[] = { "cuInit", "cuLaunchKernel",
					   "cuMemcpyHtoD" };

		for (k = 0; k < 3; k++) {
			snprintf(what, sizeof(what), "flags-%llx-%s",
				 (unsigned long long)badflags[b], bn[k]);
			one_case(what, bn[k], 0, 0, 13000, badflags[b]);
		}
	}

	/* The 4-argument cuGetProcAddress. */
	v1("cuInit", 13000, 0);
	v1("cuCtxCreate", 13000, 0);
	v1("cuCtxCreate", 3020, 0);
	v1("cuLaunchKernel", 13000, 2);
	v1("cuLaunchKernel", 3020, 0);
	v1("cuNoSuchFunction", 13000, 0);
	v1("cuInit", 14000, 0);
	v1("cuInit", 13000, 4);
	v1("cuGetProcAddress", 13000, 0);
	v1("cuGetProcAddress", 11030, 0);

	/* The grid. */
	for (i = 0; i < (int)(sizeof(extra_versions) / sizeof(int)); i++)
		add_version(extra_versions[i]);
	qsort(versions, nversions, sizeof(int), cmp_int);
	printf("# versions");
	for (i = 0; i < nversions; i++)
		printf(" %d", versions[i]);
	printf("\n");
	for (i = 0; i < (int)(sizeof(extra) / sizeof(extra[0])); i++)
		add_name(extra[i]);
	for (i = 0; i < nnames; i++) {
		for (k = 0; k < 3; k++) {
			printf("map %s %s", names[i][0] ? names[i] : "\"\"",
			       flagname[k]);
			prev[0] = '\0';
			for (j = 0; j < nversions; j++) {
				query(names[i], versions[j], flagset[k], r,
				      sizeof(r));
				if (strcmp(r, prev))
					printf(" %d=%s", versions[j], r);
				strcpy(prev, r);
			}
			printf("\n");
		}
	}
	return 0;
}
