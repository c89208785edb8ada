// SPDX-License-Identifier: MIT
/*
 * cuMemcpy between two host pointers, one of them bad: an H100's driver
 * copies on the host and the process dies of SIGSEGV, as it would in
 * memcpy; vgpu does the same (an error code here would be a behaviour
 * programs never meet on CUDA). Zero bytes touch nothing. The H100's
 * answers: tests/e2e/ref/h100_h2h.log, from ref/h100_h2h.c.
 */
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_h2h.log"
#include "h100_log.h"

enum { OK, SRC_GONE, SRC_NONE, DST_RO, DST_GONE, ASYNC_SRC_GONE, ASYNC_DST_RO,
       SRC_8, GONE_0, HTOD_0 };

static const char *const names[] = {
	[OK] = "h2h ok",
	[SRC_GONE] = "h2h src unmapped",
	[SRC_NONE] = "h2h src PROT_NONE",
	[DST_RO] = "h2h dst read-only",
	[DST_GONE] = "h2h dst unmapped",
	[ASYNC_SRC_GONE] = "h2h async src unmapped",
	[ASYNC_DST_RO] = "h2h async dst read-only",
	[SRC_8] = "h2h src 8",
	[GONE_0] = "h2h src unmapped 0 bytes",
	[HTOD_0] = "htod dst 0 0 bytes",
};

/* Case @which in a child: what it printed, or "signal N", in @out. */
static void outcome(int which, char *out, size_t len)
{
	int p[2], st;
	ssize_t n;
	pid_t pid;

	out[0] = 0;
	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		long pg = sysconf(_SC_PAGESIZE);
		unsigned char *ok = malloc(1 << 16), *ro, *none, *gone;
		CUcontext c;
		CUstream s;
		CUresult r = CUDA_SUCCESS;
		char buf[64];
		int k;

		if (cuInit(0) || cuCtxCreate(&c, NULL, 0, 0) || cuStreamCreate(&s, 0))
			_exit(1);
		memset(ok, 7, 1 << 16);
		ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		none = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		gone = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(gone, pg);
		switch (which) {
		case OK: r = cuMemcpy((uintptr_t)ok, (uintptr_t)(ok + 4096), 64); break;
		case SRC_GONE: r = cuMemcpy((uintptr_t)ok, (uintptr_t)gone, 64); break;
		case SRC_NONE: r = cuMemcpy((uintptr_t)ok, (uintptr_t)none, 64); break;
		case DST_RO: r = cuMemcpy((uintptr_t)ro, (uintptr_t)ok, 64); break;
		case DST_GONE: r = cuMemcpy((uintptr_t)gone, (uintptr_t)ok, 64); break;
		case ASYNC_SRC_GONE:
			r = cuMemcpyAsync((uintptr_t)ok, (uintptr_t)gone, 64, s);
			if (!r)
				r = cuStreamSynchronize(s);
			break;
		case ASYNC_DST_RO:
			r = cuMemcpyAsync((uintptr_t)ro, (uintptr_t)ok, 64, s);
			if (!r)
				r = cuStreamSynchronize(s);
			break;
		case SRC_8: r = cuMemcpy((uintptr_t)ok, 8, 64); break;
		case GONE_0: r = cuMemcpy((uintptr_t)ok, (uintptr_t)gone, 0); break;
		case HTOD_0: r = cuMemcpyHtoD(0, ok, 0); break;
		}
		k = snprintf(buf, sizeof(buf), "%d", (int)r);
		if (!r)
			snprintf(buf + k, sizeof(buf) - k, " then %d",
				 (int)cuCtxSynchronize());
		if (write(p[1], buf, strlen(buf)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], out, len - 1);
	out[n > 0 ? n : 0] = 0;
	close(p[0]);
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st))
		snprintf(out, len, "signal %d", WTERMSIG(st));
}

static void host_to_host_as_on_h100(void)
{
	char got[64], want[64];
	const char *line;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		line = h100_line(names[i]);
		if (!line)
			continue;
		snprintf(want, sizeof(want), "%.*s", (int)strcspn(line, "\n"), line);
		outcome((int)i, got, sizeof(got));
		if (strcmp(got, want))
			TAP_FAIL("%s: %s, the H100: %s", names[i], got, want);
	}
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(host_to_host_as_on_h100),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
