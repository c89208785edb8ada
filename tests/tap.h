/* SPDX-License-Identifier: MIT */
/*
 * A small test runner for host unit tests and driver-API programs: each test
 * runs in its own child process (libvgpu's process-wide state, cuInit
 * included, starts fresh), and results are printed as TAP lines
 * "ok N name", "not ok N name", or "ok N name # SKIP reason" for a test
 * that found nothing to check (TAP_SKIP).
 */
#ifndef VGPU_TAP_H
#define VGPU_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda.h"

struct tap_test {
	const char *name;
	void (*fn)(void);
};

static int tap_failed;
/* Shared with the test's child: why it skipped, or empty. */
static char *tap_skip_why;
#define TAP_SKIP_LEN 256

#define TAP_FAIL(...) do { \
	fprintf(stdout, "# %s:%d: ", __FILE__, __LINE__); \
	fprintf(stdout, __VA_ARGS__); \
	fprintf(stdout, "\n"); \
	tap_failed = 1; \
} while (0)

/* Asserts a CUresult; a test goes on after a failed check. */
#define CHECK_RES(want, call) do { \
	CUresult _got = (call); \
	if (_got != (CUresult)(want)) \
		TAP_FAIL("%s returned %d, expected %d", #call, (int)_got, (int)(want)); \
} while (0)

#define CHECK(cond) do { \
	if (!(cond)) \
		TAP_FAIL("check failed: %s", #cond); \
} while (0)

/* Ends the test as skipped, for the reason given (printf-style). */
#define TAP_SKIP(...) do { \
	snprintf(tap_skip_why, TAP_SKIP_LEN, __VA_ARGS__); \
	fflush(stdout); \
	_exit(tap_failed); \
} while (0)

/* Stops the test: later checks depend on this one. */
#define REQUIRE_RES(want, call) do { \
	CUresult _got = (call); \
	if (_got != (CUresult)(want)) { \
		TAP_FAIL("%s returned %d, expected %d", #call, (int)_got, (int)(want)); \
		exit(1); \
	} \
} while (0)

/*
 * Seconds a test may take before it counts as hung: 60, or TAP_TIMEOUT's
 * (a run whose first launches compile with LLVM under emulation).
 */
static inline unsigned int tap_timeout(void)
{
	const char *t = getenv("TAP_TIMEOUT");

	return t && atoi(t) > 0 ? (unsigned int)atoi(t) : 60;
}

static int tap_run(const struct tap_test *tests, size_t n)
{
	size_t i;
	int failures = 0;

	tap_skip_why = mmap(NULL, TAP_SKIP_LEN, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tap_skip_why == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("TAP version 13\n1..%zu\n", n);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		int status = 0;
		pid_t pid;

		tap_skip_why[0] = 0;
		pid = fork();

		if (pid == 0) {
			alarm(tap_timeout());
			tests[i].fn();
			fflush(stdout);
			_exit(tap_failed);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			status = -1;
		if (WIFSIGNALED(status))
			printf("# killed by signal %d\n", WTERMSIG(status));
		if (status == 0 && tap_skip_why[0]) {
			tap_skip_why[TAP_SKIP_LEN - 1] = 0;
			printf("ok %zu %s # SKIP %s\n", i + 1, tests[i].name,
			       tap_skip_why);
		} else if (status == 0) {
			printf("ok %zu %s\n", i + 1, tests[i].name);
		} else {
			printf("not ok %zu %s\n", i + 1, tests[i].name);
			failures++;
		}
		fflush(stdout);
	}
	return failures ? 1 : 0;
}

#define TAP_TEST(fn) { #fn, fn }

#endif /* VGPU_TAP_H */
