// SPDX-License-Identifier: MIT
/*
 * External semaphores, held to an H200: the probe that ran there
 * (tests/e2e/ref/h200_extsem.c) runs here on vgpu (probe_run.h) and
 * prints what it printed there: imports of each handle type and of
 * descriptors that are no semaphore, binary and timeline semaphores made
 * of exported device memory signalled and waited for on streams (what
 * the memory holds after each), the codes of bad arguments, the graph
 * nodes (parameters, executable graphs, updates, the dot file) and
 * capture of the calls. Then what only vgpu can show: another driver's
 * buffer (vgem's) as a semaphore the CPU signals and reads, and one
 * semaphore shared by two processes.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "tap.h"
#include "probe_run.h"
#include "vgem.h"

#define main h200_extsem_main
#include "e2e/ref/h200_extsem.c"
#undef main

static void probe_prints_as_on_h200(void)
{
	probe_matches(h200_extsem_main, "tests/e2e/ref/h200_extsem.log", NULL);
}

/* Polls @st for up to 20 s: CUDA_SUCCESS once its work is done. */
static CUresult drained(CUstream st)
{
	CUresult r = CUDA_ERROR_NOT_READY;
	int i;

	for (i = 0; i < 2000 && r == CUDA_ERROR_NOT_READY; i++) {
		r = cuStreamQuery(st);
		if (r == CUDA_ERROR_NOT_READY)
			usleep(10000);
	}
	return r;
}

static void timeline_params(unsigned long long v, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *sp,
			    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *wp)
{
	memset(sp, 0, sizeof(*sp));
	memset(wp, 0, sizeof(*wp));
	sp->params.fence.value = v;
	wp->params.fence.value = v;
}

/*
 * A vgem buffer as a timeline semaphore: a stream's wait passes once the
 * CPU writes the value into vgem's mapping (found by the engines' periodic
 * look, no command completing), and a signal's value and time show there.
 */
static void vgem_buffer_as_semaphore(void)
{
	struct drm_mode_create_dumb cd = { .width = 1024, .height = 1, .bpp = 32 };
	struct drm_mode_map_dumb md = { 0 };
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
	CUexternalSemaphore sem;
	volatile uint64_t *w;
	CUcontext ctx;
	CUstream st;
	int vgem = open_vgem(), fd;

	if (vgem < 0) {
		TAP_SKIP("no vgem");
		return;
	}
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(0, drmIoctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &cd));
	md.handle = cd.handle;
	REQUIRE_RES(0, drmIoctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &md));
	w = mmap(NULL, cd.size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem, md.offset);
	REQUIRE_RES(1, w != MAP_FAILED);
	w[0] = 0;
	w[1] = 0;
	REQUIRE_RES(0, drmPrimeHandleToFD(vgem, cd.handle, DRM_CLOEXEC | DRM_RDWR, &fd));
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	d.handle.fd = fd;
	REQUIRE_RES(CUDA_SUCCESS, cuImportExternalSemaphore(&sem, &d));

	timeline_params(5, &sp, &wp);
	CHECK_RES(CUDA_SUCCESS, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	usleep(100000);
	CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(st));
	w[0] = 5;
	CHECK_RES(CUDA_SUCCESS, drained(st));

	timeline_params(9, &sp, &wp);
	CHECK_RES(CUDA_SUCCESS, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	CHECK(w[0] == 9);
	CHECK(w[1] != 0);
	CHECK_RES(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(st));
	munmap((void *)w, cd.size);
	drmCloseBufferHandle(vgem, cd.handle);
	close(vgem);
}

/*
 * The second process of two_processes(), run afresh by exec: it imports
 * descriptor @fd as the timeline semaphore, waits on its stream for each
 * odd value and signals the next even one. Its exit status says how it went.
 */
static int sem_child(int fd)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
	CUexternalSemaphore sem;
	unsigned long long v;
	CUcontext ctx;
	CUstream st;
	int bad = 0;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) || cuCtxSetCurrent(ctx) ||
	    cuStreamCreate(&st, CU_STREAM_NON_BLOCKING))
		return 2;
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	d.handle.fd = fd;
	if (cuImportExternalSemaphore(&sem, &d))
		return 3;
	for (v = 1; v <= 20; v += 2) {
		timeline_params(v, &sp, &wp);
		bad |= cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st);
		timeline_params(v + 1, &sp, &wp);
		bad |= cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st);
	}
	bad |= drained(st);
	bad |= cuDestroyExternalSemaphore(sem);
	return bad ? 4 : 0;
}

/*
 * One semaphore, two processes: the other one (sem_child()) waits for the
 * values this one signals and answers each; this one waits for the
 * answers.
 */
static void two_processes(void)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
	CUexternalSemaphore sem;
	CUcontext ctx;
	CUstream st;
	char arg[16];
	int fd, status = -1;
	unsigned long long v;
	pid_t pid;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	fd = mem_fd();	/* the probe's */
	REQUIRE_RES(1, fd >= 0);
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	d.handle.fd = dup(fd);	/* the child's, kept across exec */
	snprintf(arg, sizeof(arg), "%d", d.handle.fd);
	d.handle.fd = fd;
	REQUIRE_RES(CUDA_SUCCESS, cuImportExternalSemaphore(&sem, &d));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	fflush(stdout);
	pid = fork();
	REQUIRE_RES(1, pid >= 0);
	if (pid == 0) {
		execl("/proc/self/exe", "extsem_api", "--sem-child", arg, (char *)NULL);
		_exit(127);
	}
	close(atoi(arg));
	for (v = 1; v <= 20; v += 2) {
		timeline_params(v, &sp, &wp);
		CHECK_RES(CUDA_SUCCESS, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st));
		timeline_params(v + 1, &sp, &wp);
		CHECK_RES(CUDA_SUCCESS, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	}
	CHECK_RES(CUDA_SUCCESS, drained(st));
	CHECK_RES(pid, waitpid(pid, &status, 0));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_RES(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(st));
}

/*
 * A destroyed semaphore, which NVIDIA's driver takes silently (undefined
 * there): destroying it again, signalling it and adding it to a node are
 * refused, and a graph whose node names it fails its launch, queuing
 * nothing.
 */
static void destroyed_semaphore_refused(void)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
	CUDA_EXT_SEM_SIGNAL_NODE_PARAMS np;
	CUexternalSemaphore sem;
	CUgraphExec e;
	CUgraphNode n;
	CUcontext ctx;
	CUgraph g;
	CUstream st;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = mem_fd();	/* the probe's */
	REQUIRE_RES(CUDA_SUCCESS, cuImportExternalSemaphore(&sem, &d));
	timeline_params(1, &sp, &wp);
	memset(&np, 0, sizeof(np));
	np.extSemArray = &sem;
	np.paramsArray = &sp;
	np.numExtSems = 1;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, &np));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));

	CHECK_RES(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalSemaphore(sem));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, &np));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuGraphLaunch(e, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(e));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(st));
}

static const struct tap_test tests[] = {
	TAP_TEST(probe_prints_as_on_h200),
	TAP_TEST(vgem_buffer_as_semaphore),
	TAP_TEST(two_processes),
	TAP_TEST(destroyed_semaphore_refused),
};

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--sem-child"))
		return sem_child(atoi(argv[2]));
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
