/* SPDX-License-Identifier: MIT */
/*
 * Reading an H100 probe's log of "NAME = VALUE" lines, which the e2e tests
 * hold vgpu's answers to. The including file defines H100_LOG, the log's
 * path from the top of the tree, before including this (after tap.h).
 */
#ifndef VGPU_TESTS_H100_LOG_H
#define VGPU_TESTS_H100_LOG_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What follows "@name = " in the H100's log, or NULL (a failed check). */
static inline const char *h100_line(const char *name)
{
	static char line[256];
	size_t n = strlen(name);
	FILE *f = fopen(H100_LOG, "r");
	const char *found = NULL;

	if (!f) {
		TAP_FAIL("cannot read %s", H100_LOG);
		return NULL;
	}
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && !strncmp(line + n, " = ", 3))
			found = line + n + 3;
	fclose(f);
	if (!found)
		TAP_FAIL("no case \"%s\" in %s", name, H100_LOG);
	return found;
}

/* The code (or number) the H100 gave for @name; -1 when there is none. */
static inline long long h100(const char *name)
{
	const char *v = h100_line(name);

	return v ? atoll(v) : -1;
}

/*
 * The number after "@key " or "@key=" in the H100's line for @name; with
 * an empty @key, the number the line starts with.
 */
static inline long long h100_value(const char *name, const char *key)
{
	const char *v = h100_line(name), *k;
	size_t n = strlen(key);

	if (v && !n)
		return atoll(v);
	k = v ? strstr(v, key) : NULL;
	if (!k || (k[n] != ' ' && k[n] != '=')) {
		TAP_FAIL("no \"%s\" for \"%s\" in %s", key, name, H100_LOG);
		return -1;
	}
	return atoll(k + n + 1);
}

#define CHECK_H100(name, call) CHECK_RES((CUresult)h100(name), call)

/* The entry point libvgpu exports as @name (a failed check if none). */
static inline void *sym(const char *name)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (!p)
		TAP_FAIL("%s is not exported", name);
	return p;
}

#endif /* VGPU_TESTS_H100_LOG_H */
