// SPDX-License-Identifier: MIT
/*
 * libvgpu.so exports exactly the driver API: every name of the version
 * script resolves, libvgpu's internal helpers do not, and every entry point
 * of unsupported.c answers CUDA_ERROR_NOT_SUPPORTED. Run from the top of
 * the tree (reads libvgpu/libvgpu.map and libvgpu/unsupported.c, loads
 * build/lib/libvgpu.so.1).
 */
#include <ctype.h>
#include <dlfcn.h>

#include "tap.h"

static void *open_lib(void)
{
	void *h = dlopen("build/lib/libvgpu.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		TAP_FAIL("dlopen: %s", dlerror());
	return h;
}

static void map_names_resolve(void)
{
	FILE *f = fopen("libvgpu/libvgpu.map", "r");
	void *h = open_lib();
	char line[256];
	int n = 0;

	if (!f || !h) {
		TAP_FAIL("cannot read the map or load the library");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e;

		while (isspace((unsigned char)*s))
			s++;
		if (strncmp(s, "cu", 2))
			continue;
		e = strchr(s, ';');
		if (!e)
			continue;
		*e = '\0';
		n++;
		if (!dlsym(h, s))
			TAP_FAIL("%s is not exported", s);
	}
	fclose(f);
	CHECK(n > 30);
}

static void internals_hidden(void)
{
	static const char *const hidden[] = {
		"vg_attribute", "vg_parse_visible", "vg_lock", "vg_devices",
		"vg_ctx_open", "vg_error_name", "vg_bus_id_parse",
		"vg_occupancy_smem", "vg_ctx_config_init",
	};
	void *h = open_lib();
	size_t i;

	for (i = 0; h && i < sizeof(hidden) / sizeof(hidden[0]); i++)
		if (dlsym(h, hidden[i]))
			TAP_FAIL("%s is exported", hidden[i]);
}

/*
 * Each stub is called without arguments: it reads none, and the calling
 * convention leaves unpassed arguments unread.
 */
static void unsupported_answer_not_supported(void)
{
	FILE *f = fopen("libvgpu/unsupported.c", "r");
	void *h = open_lib();
	char line[256];
	int n = 0, bodies = 0;

	if (!f || !h) {
		TAP_FAIL("cannot read unsupported.c or load the library");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		CUresult (*fn)(void);
		char name[128];
		void *sym;

		if (strstr(line, "return CUDA_ERROR_NOT_SUPPORTED;"))
			bodies++;
		if (sscanf(line, "CUresult %127[A-Za-z0-9_](", name) != 1)
			continue;
		n++;
		sym = dlsym(h, name);
		if (!sym) {
			TAP_FAIL("%s is not exported", name);
			continue;
		}
		memcpy(&fn, &sym, sizeof(fn));
		if (fn() != CUDA_ERROR_NOT_SUPPORTED)
			TAP_FAIL("%s does not answer CUDA_ERROR_NOT_SUPPORTED",
				 name);
	}
	fclose(f);
	/* Every stub's name was read: one per body. */
	CHECK(n > 0 && n == bodies);
}

static const struct tap_test tests[] = {
	TAP_TEST(map_names_resolve),
	TAP_TEST(internals_hidden),
	TAP_TEST(unsupported_answer_not_supported),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
