// SPDX-License-Identifier: MIT
/*
 * Memory pools between two processes: a pool made shareable as a POSIX
 * file descriptor, exported and imported by a second process (this
 * program again, started with exec), pointers of it exported with
 * cuMemPoolExportPointer and imported there with cuMemPoolImportPointer,
 * read and written from both sides and freed, and bad calls. Every answer
 * is held to an H100's for the same sequence
 * (tests/e2e/ref/h100_pool_ipc.log, from ref/h100_pool_ipc.c there).
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_pool_ipc.log"
#include "h100_log.h"

/* A call's result against the H100's; a value's likewise. */
#define R(name, call) CHECK_RES(h100(name), call)
#define V(name, value) CHECK((long long)(value) == h100(name))
#define X(name, value) \
	CHECK((value) == (unsigned int)strtoul(h100_line(name), NULL, 0))

struct msg {
	CUmemPoolPtrExportData a, freed, plain;
};

static void setup(CUcontext *ctx)
{
	CUdevice dev;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(*ctx));
}

static int child(int fd, int rfd, int wfd)
{
	CUmemoryPool pool = NULL, def;
	CUdeviceptr p = 0, p2 = 0;
	CUcontext ctx;
	CUstream s;
	struct msg m;
	unsigned int v = 0;
	unsigned long long av;
	char c = 1;

	setup(&ctx);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	if (read(rfd, &m, sizeof(m)) != sizeof(m))
		return 100;
	R("child import bad type", cuMemPoolImportFromShareableHandle(&pool,
	  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_NONE, 0));
	R("child import flags", cuMemPoolImportFromShareableHandle(&pool,
	  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
	R("child import null", cuMemPoolImportFromShareableHandle(NULL,
	  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	R("child import", cuMemPoolImportFromShareableHandle(&pool,
	  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	R("child import again", cuMemPoolImportFromShareableHandle(&def,
	  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	V("child import again same", def == pool);
	R("child alloc from imported", cuMemAllocFromPoolAsync(&p2, 4096, pool, s));
	R("child attr threshold", cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &av));
	R("child import ptr", cuMemPoolImportPointer(&p, pool, &m.a));
	R("child read", cuMemcpyDtoH(&v, p, 4));
	X("child value", v);
	R("child import ptr again", cuMemPoolImportPointer(&p2, pool, &m.a));
	V("child import ptr again same", p == p2);
	/*
	 * The exporter freed it and synchronized. An H100 still had the
	 * block (its pools reserve 32 MiB at a time, and the chunk held a
	 * live allocation) and mapped it; vgpu gives a free block back to
	 * the module at the synchronizing call, which ends its token.
	 */
	CHECK(h100("child import freed") == CUDA_SUCCESS);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&p2, pool, &m.freed));
	R("child import plain", cuMemPoolImportPointer(&p2, pool, &m.plain));
	cuDeviceGetDefaultMemPool(&def, 0);
	R("child import ptr default pool", cuMemPoolImportPointer(&p2, def, &m.a));
	R("child import ptr null", cuMemPoolImportPointer(NULL, pool, &m.a));
	R("child import ptr null data", cuMemPoolImportPointer(&p2, pool, NULL));
	R("child write", cuMemsetD32(p + 4, 0xc41d, 1));
	R("child sync", cuCtxSynchronize());
	R("child range", cuMemGetAddressRange(&p2, NULL, p + 8));
	V("child range same", p2 == p);
	R("child ptr pool", cuPointerGetAttribute(&def, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p));
	V("child ptr pool is imported", def == pool);
	R("child free", cuMemFree(p));
	R("child free again", cuMemFree(p));
	R("child destroy imported", cuMemPoolDestroy(pool));
	if (write(wfd, &c, 1) != 1)
		return 101;
	return tap_failed;
}

static void pools(void)
{
	CUmemoryPool pool, plainpool, def;
	CUmemPoolProps props;
	CUmemPoolPtrExportData d;
	CUdeviceptr a, freed, plain, b;
	CUcontext ctx;
	CUstream s;
	struct msg m;
	unsigned int v = 0xfeedf00d;
	int fd = -1, fd2, to_child[2], from_child[2], st;
	char sfd[16], rfd[16], wfd[16], c;
	pid_t pid;

	setup(&ctx);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = 0;
	R("create plain", cuMemPoolCreate(&plainpool, &props));
	R("export plain", cuMemPoolExportToShareableHandle(&fd, plainpool,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	cuDeviceGetDefaultMemPool(&def, 0);
	R("export default", cuMemPoolExportToShareableHandle(&fd, def,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	R("create shareable", cuMemPoolCreate(&pool, &props));
	R("export null", cuMemPoolExportToShareableHandle(NULL, pool,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	R("export flags", cuMemPoolExportToShareableHandle(&fd, pool,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
	R("export none type", cuMemPoolExportToShareableHandle(&fd, pool,
	  CU_MEM_HANDLE_TYPE_NONE, 0));
	R("export", cuMemPoolExportToShareableHandle(&fd, pool,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	V("export cloexec", (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
	R("export again", cuMemPoolExportToShareableHandle(&fd2, pool,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	V("export again same fd", fd2 == fd);
	R("import own", cuMemPoolImportFromShareableHandle(&def,
	  (void *)(uintptr_t)fd2, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	V("import own same", def == pool);

	R("alloc a", cuMemAllocFromPoolAsync(&a, 65536, pool, s));
	R("alloc freed", cuMemAllocFromPoolAsync(&freed, 4096, pool, s));
	R("alloc plain", cuMemAllocFromPoolAsync(&plain, 4096, plainpool, s));
	R("memcpy a", cuMemcpyHtoDAsync(a, &v, 4, s));
	cuStreamSynchronize(s);
	R("export ptr", cuMemPoolExportPointer(&m.a, a));
	R("export ptr interior", cuMemPoolExportPointer(&d, a + 256));
	V("export ptr interior same", memcmp(&d, &m.a, sizeof(d)) == 0);
	R("export ptr plain pool", cuMemPoolExportPointer(&m.plain, plain));
	R("export ptr freed", cuMemPoolExportPointer(&m.freed, freed));
	R("free freed", cuMemFreeAsync(freed, s));
	cuStreamSynchronize(s);
	cuMemAlloc(&b, 4096);
	R("export ptr cuMemAlloc", cuMemPoolExportPointer(&d, b));
	R("export ptr null", cuMemPoolExportPointer(NULL, a));
	R("export ptr zero", cuMemPoolExportPointer(&d, 0));
	R("import ptr own", cuMemPoolImportPointer(&b, pool, &m.a));

	fcntl(fd, F_SETFD, 0);
	REQUIRE_RES(0, pipe(to_child) || pipe(from_child));
	snprintf(sfd, sizeof(sfd), "%d", fd);
	snprintf(rfd, sizeof(rfd), "%d", to_child[0]);
	snprintf(wfd, sizeof(wfd), "%d", from_child[1]);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", "pool_ipc_api", "child", sfd, rfd, wfd,
		      (char *)NULL);
		_exit(127);
	}
	CHECK(write(to_child[1], &m, sizeof(m)) == sizeof(m));
	CHECK(read(from_child[0], &c, 1) == 1);
	waitpid(pid, &st, 0);
	V("child status", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	v = 0;
	R("read child write", cuMemcpyDtoH(&v, a + 4, 4));
	X("child wrote", v);
	R("free a", cuMemFreeAsync(a, s));
	R("sync", cuStreamSynchronize(s));
	R("destroy", cuMemPoolDestroy(pool));
	close(fd);
	close(to_child[1]);
	close(from_child[0]);
}

int main(int argc, char **argv)
{
	static const struct tap_test tests[] = {
		TAP_TEST(pools),
	};

	if (argc == 5 && !strcmp(argv[1], "child"))
		return child(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
