/* SPDX-License-Identifier: MIT */
/*
 * A probe that ran on NVIDIA's driver (tests/e2e/ref/h200_NAME.c, whose
 * main the including file renames), run here on vgpu: what it prints must
 * be what it printed there (ref/h200_NAME.log), line for line, but for the
 * handles and addresses, each process's own: "0x" and 16 hex digits
 * compare as such, and lines that start with @skip (unless NULL) are left
 * out. The probe gets a directory of its own for files as its argument.
 * Include after tap.h.
 */
#ifndef VGPU_TESTS_PROBE_RUN_H
#define VGPU_TESTS_PROBE_RUN_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* @line with every "0x" and 16 hex digits made "0x?". */
static inline void probe_mask(char *line)
{
	char *p = line, *q;

	while ((p = strstr(p, "0x"))) {
		size_t n = strspn(p + 2, "0123456789ABCDEF");

		if (n != 16) {
			p += 2;
			continue;
		}
		p[2] = '?';
		q = p + 18;
		memmove(p + 3, q, strlen(q) + 1);
		p += 3;
	}
}

/* The next line to compare of @f, masked, or NULL at its end. */
static inline char *probe_line(FILE *f, char *buf, size_t size, const char *skip)
{
	while (fgets(buf, (int)size, f)) {
		if (skip && !strncmp(buf, skip, strlen(skip)))
			continue;
		probe_mask(buf);
		return buf;
	}
	return NULL;
}

static inline void probe_matches(int (*probe)(int, char **), const char *ref,
				 const char *skip)
{
	char dir[] = "/tmp/vgpu_probe_XXXXXX", out[64], cmd[64], a[1024], b[1024];
	char *argv[] = { "probe", dir, NULL };
	unsigned int line = 0;
	FILE *got = NULL, *want = NULL;
	int saved, fd;

	if (!mkdtemp(dir)) {
		TAP_FAIL("no directory for the probe");
		return;
	}
	snprintf(out, sizeof(out), "%s/probe.log", dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (saved >= 0 && fd >= 0) {
		dup2(fd, 1);
		probe(2, argv);
		fflush(stdout);
		dup2(saved, 1);
		got = fopen(out, "r");
		want = fopen(ref, "r");
	}
	if (fd >= 0)
		close(fd);
	if (saved >= 0)
		close(saved);
	if (!got || !want)
		TAP_FAIL("cannot run the probe or read %s", ref);
	while (got && want) {
		char *w = probe_line(want, a, sizeof(a), skip);
		char *g = probe_line(got, b, sizeof(b), skip);

		line++;
		if (!w && !g)
			break;
		if (!w || !g || strcmp(w, g)) {
			TAP_FAIL("line %u differs: H200 \"%s\", vgpu \"%s\"", line,
				 w ? strtok(w, "\n") : "(end)", g ? strtok(g, "\n") : "(end)");
			break;
		}
	}
	if (got)
		fclose(got);
	if (want)
		fclose(want);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		TAP_FAIL("cannot remove %s", dir);
}

#endif /* VGPU_TESTS_PROBE_RUN_H */
