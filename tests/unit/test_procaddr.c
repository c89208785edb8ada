// SPDX-License-Identifier: MIT
/*
 * cuGetProcAddress answers as NVIDIA's driver did on an H100
 * (tests/unit/data/procaddr_h100.log, written by procaddr_probe.c beside
 * it): for every name of cudaTypedefs.h, each flag and a grid of versions,
 * the same CUresult, symbolStatus and symbol. Where the driver returned a
 * symbol that libvgpu does not export yet, libvgpu answers
 * CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND. Where the driver crashed (a NULL
 * symbol or pfn), libvgpu returns CUDA_ERROR_INVALID_VALUE. Run from the
 * top of the tree: loads build/lib/libvgpu.so.1, whose exported symbols the
 * addresses are compared with.
 *
 * Built as a per-thread default stream program, so that cuGetProcAddress
 * is cuda.h's cuGetProcAddress_v2_ptsz here.
 */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM
#include <dlfcn.h>

#include "tap.h"

#define REF "tests/unit/data/procaddr_h100.log"
#define UNTOUCHED ((void *)0x1)
#define STATUS_UNTOUCHED 99

typedef CUresult (*getproc_v2_fn)(const char *, void **, int, cuuint64_t,
				  CUdriverProcAddressQueryResult *);
typedef CUresult (*getproc_v1_fn)(const char *, void **, int, cuuint64_t);

static void *lib;
static getproc_v2_fn getproc_v2;
static getproc_v1_fn getproc_v1;
static char *ref;		/* the whole reference log */
static int compared, resolved, missing, differ;

static int setup(void)
{
	FILE *f = fopen(REF, "r");
	long n;

	lib = dlopen("build/lib/libvgpu.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib || !f) {
		TAP_FAIL("cannot load the library or read " REF);
		return -1;
	}
	getproc_v2 = (getproc_v2_fn)dlsym(lib, "cuGetProcAddress_v2");
	getproc_v1 = (getproc_v1_fn)dlsym(lib, "cuGetProcAddress");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	ref = calloc(1, n + 2);
	ref[0] = '\n';
	if (!getproc_v2 || !getproc_v1 || fread(ref + 1, 1, n, f) != (size_t)n) {
		TAP_FAIL("no cuGetProcAddress(_v2) or a short read");
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* The line of the reference that starts with key and a space, or NULL. */
static const char *ref_find(const char *key)
{
	char pat[256];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s ", key);
	p = strstr(ref, pat);
	return p ? p + strlen(pat) : NULL;
}

/* The address a symbol of the reference stands for: "-", "=" or a name. */
static int ref_pointer(const char *sym, void **want)
{
	if (!strcmp(sym, "-"))
		*want = NULL;
	else if (!strcmp(sym, "="))
		*want = UNTOUCHED;
	else if (!(*want = dlsym(lib, sym)))
		return -1;
	return 0;
}

/*
 * Compares one answer with the driver's "RC/STATUS/SYMBOL". A symbol that
 * libvgpu lacks is expected as not found.
 */
static void expect(const char *what, const char *want, CUresult rc, int st,
		   void *p)
{
	char sym[128];
	int wrc, wst;
	void *wp;

	if (sscanf(want, "%d/%d/%127[^ \n]", &wrc, &wst, sym) != 3) {
		TAP_FAIL("%s: cannot read the reference '%.40s'", what, want);
		return;
	}
	compared++;
	if (ref_pointer(sym, &wp)) {
		missing++;
		wst = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
		wp = NULL;
	} else if (wrc == CUDA_SUCCESS && wst == CU_GET_PROC_ADDRESS_SUCCESS) {
		resolved++;
	}
	if ((int)rc == wrc && st == wst && p == wp)
		return;
	/* The first few differences say enough. */
	if (++differ > 20)
		tap_failed = 1;
	else
		TAP_FAIL("%s: got %d/%d/%p, expected %d/%d/%p (driver: %s)",
			 what, (int)rc, st, p, wrc, wst, wp, sym);
}

static void query(const char *what, const char *want, const char *name,
		  int version, cuuint64_t flags)
{
	CUdriverProcAddressQueryResult st =
		(CUdriverProcAddressQueryResult)STATUS_UNTOUCHED;
	void *p = UNTOUCHED;
	CUresult rc = getproc_v2(name, &p, version, flags, &st);

	expect(what, want, rc, (int)st, p);
}

/* Every name, flag and version of the driver's grid. */
static void driver_grid(void)
{
	const char *v, *line;
	int versions[256], n = 0, k;

	if (setup())
		return;
	v = ref_find("# versions");
	while (v && *v != '\n' && n < 256) {
		char *end;

		versions[n++] = (int)strtol(v, &end, 10);
		v = end;
	}
	CHECK(n > 50);
	for (line = strstr(ref, "\nmap "); line; line = strstr(line, "\nmap ")) {
		char name[128], fl, want[256] = "", what[200];
		const char *p;
		cuuint64_t flags;
		int len;

		line += 5;
		if (sscanf(line, "%127s %c%n", name, &fl, &len) != 2) {
			TAP_FAIL("cannot read '%.40s'", line);
			return;
		}
		if (!strcmp(name, "\"\""))
			name[0] = '\0';
		flags = fl == 'P' ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM :
			fl == 'L' ? CU_GET_PROC_ADDRESS_LEGACY_STREAM :
			CU_GET_PROC_ADDRESS_DEFAULT;
		p = line + len;
		for (k = 0; k < n; k++) {
			char step[32];
			int sl = snprintf(step, sizeof(step), " %d=", versions[k]);

			/* The answer changes at the versions the line names. */
			if (!strncmp(p, step, sl)) {
				sscanf(p + sl, "%255s", want);
				p += sl + strlen(want);
			}
			snprintf(what, sizeof(what), "%s %c %d", name, fl,
				 versions[k]);
			query(what, want, name, versions[k], flags);
		}
		if (*p != '\n')
			TAP_FAIL("map %s %c: unread '%.40s'", name, fl, p);
	}
	printf("# %d answers compared: %d resolve, %d name a symbol libvgpu "
	       "lacks; %d differ\n", compared, resolved, missing, differ);
	CHECK(compared > 100000 && resolved > 1000);
}

/* NVIDIA's driver answers these before cuInit as after; so does libvgpu. */
static void before_init(void)
{
	const char *line;
	int n = 0;

	if (setup())
		return;
	for (line = strstr(ref, "\nearly "); line;
	     line = strstr(line + 1, "\nearly ")) {
		char name[128], want[256];
		unsigned long long flags;
		int version;

		if (sscanf(line, "\nearly %127s %d %llu %255s", name, &version,
			   &flags, want) != 4) {
			TAP_FAIL("cannot read '%.40s'", line + 1);
			return;
		}
		query(name, want, name, version, flags);
		n++;
	}
	CHECK(n >= 7);
}

/* The probe's "case" lines: NULL arguments and flags beyond the two. */
static const struct procaddr_case {
	const char *what, *name;
	int null_pfn, null_status, version;
	cuuint64_t flags;
} cases[] = {
	{ "early-null-pfn", "cuInit", 1, 0, 13000, 0 },
	{ "early-null-status", "cuInit", 0, 1, 13000, 0 },
	{ "null-symbol", NULL, 0, 0, 13000, 0 },
	{ "null-pfn", "cuInit", 1, 0, 13000, 0 },
	{ "null-pfn-unknown", "cuNoSuchFunction", 1, 0, 13000, 0 },
	{ "null-status", "cuInit", 0, 1, 13000, 0 },
	{ "null-status-unknown", "cuNoSuchFunction", 0, 1, 13000, 0 },
	{ "null-status-old", "cuLaunchKernel", 0, 1, 3020, 0 },
	{ "null-status-14000", "cuInit", 0, 1, 14000, 0 },
	{ "null-symbol-pfn", NULL, 1, 0, 13000, 0 },
	{ "null-all", NULL, 1, 1, 13000, 0 },
	{ "null-symbol-14000", NULL, 0, 0, 14000, 0 },
	{ "null-pfn-14000", "cuInit", 1, 0, 14000, 0 },
	{ "null-pfn-badflags", "cuInit", 1, 0, 13000, 4 },
	{ "badflags-14000", "cuInit", 0, 0, 14000, 4 },
	{ "badflags-unknown", "cuNoSuchFunction", 0, 0, 13000, 4 },
	{ "badflags-old", "cuLaunchKernel", 0, 0, 3020, 4 },
};

static void run_case(const struct procaddr_case *c)
{
	CUdriverProcAddressQueryResult st =
		(CUdriverProcAddressQueryResult)STATUS_UNTOUCHED;
	void *p = UNTOUCHED;
	char key[128], want[300], sym[128];
	const char *line;
	CUresult rc;
	int wrc, wst;

	snprintf(key, sizeof(key), "case %s", c->what);
	line = ref_find(key);
	if (!line) {
		TAP_FAIL("%s is not in " REF, key);
		return;
	}
	/* Where the driver crashed, libvgpu refuses the call. */
	if (!strncmp(line, "signal ", 7))
		snprintf(want, sizeof(want), "%d/%d/=",
			 CUDA_ERROR_INVALID_VALUE, STATUS_UNTOUCHED);
	else if (sscanf(line, "%d %d %127s", &wrc, &wst, sym) == 3)
		snprintf(want, sizeof(want), "%d/%d/%s", wrc, wst, sym);
	else
		snprintf(want, sizeof(want), "unreadable");
	rc = getproc_v2(c->name, c->null_pfn ? NULL : &p, c->version,
			c->flags, c->null_status ? NULL : &st);
	expect(c->what, want, rc, (int)st, p);
}

static void arguments(void)
{
	static const cuuint64_t flags[] = { 3, 4, 8, 0x100, 1ull << 32, ~0ull };
	static const char *const names[] = {
		"cuInit", "cuLaunchKernel", "cuMemcpyHtoD",
	};
	size_t i, j;

	if (setup())
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	/* Flags beyond the two, at 13000: "flags-HEX-NAME". */
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		for (j = 0; j < sizeof(names) / sizeof(names[0]); j++) {
			char what[64];
			struct procaddr_case c = {
				what, names[j], 0, 0, 13000, flags[i],
			};

			snprintf(what, sizeof(what), "flags-%llx-%s",
				 (unsigned long long)flags[i], names[j]);
			run_case(&c);
		}
	}
}

/* CUDA 11.3's cuGetProcAddress: CUDA_ERROR_NOT_FOUND, *pfn left alone. */
static void four_arguments(void)
{
	const char *line;
	int n = 0;

	if (setup())
		return;
	for (line = strstr(ref, "\nv1 "); line; line = strstr(line + 1, "\nv1 ")) {
		char name[128], sym[128], want[300];
		unsigned long long flags;
		int version, wrc;
		void *p = UNTOUCHED;
		CUresult rc;

		if (sscanf(line, "\nv1 %127s %d %llu %d %127s", name, &version,
			   &flags, &wrc, sym) != 5) {
			TAP_FAIL("cannot read '%.40s'", line + 1);
			return;
		}
		rc = getproc_v1(name, &p, version, flags);
		snprintf(want, sizeof(want), "%d/%d/%s", wrc, STATUS_UNTOUCHED,
			 sym);
		expect(name, want, rc, STATUS_UNTOUCHED, p);
		n++;
	}
	CHECK(n >= 10);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, getproc_v1("cuInit", NULL, 13000, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, getproc_v1(NULL, (void **)&line,
						       13000, 0));
}

/*
 * In a program linked to libvgpu (this one links its objects), the
 * address is the function the program calls by that name. Here
 * cuGetProcAddress is the per-thread inline of cuda.h: with no stream
 * flag, it asks for the per-thread forms.
 */
CUresult legacy_launch(void) __asm__("cuLaunchKernel");
CUresult getproc_symbol(void) __asm__("cuGetProcAddress_v2");

static void linked_addresses(void)
{
	CUdriverProcAddressQueryResult st;
	void *p;

	CHECK_RES(CUDA_SUCCESS, cuGetProcAddress("cuCtxCreate", &p, 13000,
						 0, &st));
	CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && p == (void *)cuCtxCreate);
	CHECK_RES(CUDA_SUCCESS, cuGetProcAddress("cuLaunchKernel", &p, 13000,
						 0, &st));
	CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && p == (void *)cuLaunchKernel);
	CHECK_RES(CUDA_SUCCESS, cuGetProcAddress("cuMemcpyHtoD", &p, 13000,
						 0, &st));
	CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && p == (void *)cuMemcpyHtoD);
	CHECK_RES(CUDA_SUCCESS, cuGetProcAddress("cuLaunchKernel", &p, 13000,
			CU_GET_PROC_ADDRESS_LEGACY_STREAM, &st));
	CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && p == (void *)legacy_launch);
	CHECK_RES(CUDA_SUCCESS, cuGetProcAddress("cuGetProcAddress", &p, 13000,
						 0, &st));
	CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && p == (void *)getproc_symbol);
}

static const struct tap_test tests[] = {
	TAP_TEST(driver_grid),
	TAP_TEST(before_init),
	TAP_TEST(arguments),
	TAP_TEST(four_arguments),
	TAP_TEST(linked_addresses),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
