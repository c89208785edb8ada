// SPDX-License-Identifier: MIT
/*
 * IPC between two processes: cuIpcGetMemHandle of each kind of memory and
 * pointer, cuIpcOpenMemHandle and cuIpcCloseMemHandle in the exporting
 * process and in another one (this program again, started with exec,
 * which gets the handles through a pipe): the memory read and written
 * from both sides, opening twice, the flags, a forged handle, a handle of
 * memory freed meanwhile; an interprocess event opened by the other
 * process, which waits for the exporter's record (on the host, and with
 * a stream whose copy then sees what the exporter's kernel wrote before
 * the record). Every answer is held to an H100's for the same sequence
 * (tests/e2e/ref/h100_ipc.log, from ref/h100_ipc.c there).
 */
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_ipc.log"
#include "h100_log.h"

struct msg {
	CUipcMemHandle mem, freed, forged;
	CUipcEventHandle ev;
};

/* put(p, v): *p = v. */
static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry put(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

static const char *self_path;

static void setup(void)
{
	CUcontext ctx;
	CUdevice dev;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
}

/* The other process: its checks' failures are its exit status. */
static int child(int rfd, int wfd)
{
	CUdeviceptr p = 0, p2 = 0;
	struct msg m;
	unsigned int v = 0;
	CUstream s;
	CUevent ev;
	char c = 1;

	setup();
	if (read(rfd, &m, sizeof(m)) != sizeof(m))
		return 100;
	CHECK_RES(h100("child open"), cuIpcOpenMemHandle(&p, m.mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
	CHECK_RES(h100("child read"), cuMemcpyDtoH(&v, p, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("child value"), NULL, 0));
	CHECK_RES(h100("child open again"), cuIpcOpenMemHandle(&p2, m.mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
	CHECK((p == p2) == h100("child open again same"));
	CHECK_RES(h100("child close again"), cuIpcCloseMemHandle(p2));
	CHECK_RES(h100("child read after one close"), cuMemcpyDtoH(&v, p, 4));
	p2 = 0;
	CHECK_RES(h100("child open flags 0"), cuIpcOpenMemHandle(&p2, m.mem, 0));
	CHECK((p2 != 0) == h100("child open flags 0 set"));
	p2 = 0;
	CHECK_RES(h100("child open flags 2"), cuIpcOpenMemHandle(&p2, m.mem, 2));
	CHECK((p2 != 0) == h100("child open flags 2 set"));
	CHECK_RES(h100("child open null"), cuIpcOpenMemHandle(NULL, m.mem, 1));
	CHECK_RES(h100("child open freed"), cuIpcOpenMemHandle(&p2, m.freed, 1));
	CHECK_RES(h100("child open forged"), cuIpcOpenMemHandle(&p2, m.forged, 1));
	memset(&m.forged, 0, sizeof(m.forged));
	CHECK_RES(h100("child open zeros"), cuIpcOpenMemHandle(&p2, m.forged, 1));
	CHECK_RES(h100("child write"), cuMemsetD32(p + 4, 0xc41d, 1));
	CHECK_RES(h100("child sync"), cuCtxSynchronize());
	CHECK_RES(h100("child base range"), cuMemGetAddressRange(&p2, NULL, p + 8));
	CHECK((p2 == p) == h100("child range base same"));
	/* Not an allocation of this process: cuMemFree refuses it. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(p));

	CHECK_RES(h100("child open event"), cuIpcOpenEventHandle(&ev, m.ev));
	CHECK_RES(h100("child event query"), cuEventQuery(ev));
	/*
	 * Tell the parent, which records the event after a kernel, and wait
	 * until it has: a wait for an event not recorded yet returns at once,
	 * and the query after it would find the record in flight.
	 */
	if (write(wfd, &c, 1) != 1)
		return 101;
	if (read(rfd, &c, 1) != 1)
		return 102;
	CHECK_RES(h100("child event sync"), cuEventSynchronize(ev));
	CHECK_RES(h100("child event query after"), cuEventQuery(ev));
	/*
	 * Beyond the H100's sequence: a stream that waits for the event sees
	 * what its kernel wrote first.
	 */
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s, ev, 0));
	v = 0;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(&v, p + 8, 4, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(v == 0x5eed);
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(ev));
	CHECK_RES(CUDA_SUCCESS, cuEventQuery(ev));
	/* This process records it too; the parent sees that. */
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(p + 12, 0xbee, 1, s));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
	CHECK_RES(h100("child event destroy"), cuEventDestroy(ev));
	CHECK_RES(h100("child close"), cuIpcCloseMemHandle(p));
	CHECK_RES(h100("child close twice"), cuIpcCloseMemHandle(p));
	CHECK_RES(h100("child close null"), cuIpcCloseMemHandle(0));
	return tap_failed;
}

static void memory(void)
{
	CUdeviceptr a, b, freed, managed, p;
	CUipcMemHandle h, h2;
	CUevent ev, ev_own;
	CUfunction put;
	CUmodule mod;
	CUstream s;
	struct msg m;
	unsigned int v = 0xfeedf00d;
	int to_child[2], from_child[2], st;
	char rfd[16], wfd[16], c;
	pid_t pid;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, 1 << 20));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&freed, 64 << 20));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&managed, 65536, CU_MEM_ATTACH_GLOBAL));
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyHtoD(a, &v, 4));

	CHECK_RES(h100("get"), cuIpcGetMemHandle(&h, a));
	CHECK_RES(h100("get again"), cuIpcGetMemHandle(&h2, a));
	CHECK((memcmp(&h, &h2, sizeof(h)) == 0) == h100("get again same"));
	CHECK_RES(h100("get interior"), cuIpcGetMemHandle(&h2, a + 4096));
	CHECK((memcmp(&h, &h2, sizeof(h)) == 0) == h100("get interior same"));
	CHECK_RES(h100("get small"), cuIpcGetMemHandle(&h2, b));
	CHECK_RES(h100("get managed"), cuIpcGetMemHandle(&h2, managed));
	CHECK_RES(h100("get host"), cuIpcGetMemHandle(&h2, (CUdeviceptr)(uintptr_t)&v));
	CHECK_RES(h100("get zero"), cuIpcGetMemHandle(&h2, 0));
	CHECK_RES(h100("get null"), cuIpcGetMemHandle(NULL, a));
	CHECK_RES(h100("open own"), cuIpcOpenMemHandle(&p, h, 1));
	CHECK_RES(h100("close not opened"), cuIpcCloseMemHandle(a));
	CHECK_RES(h100("get freed"), cuIpcGetMemHandle(&m.freed, freed));
	CHECK_RES(h100("free freed"), cuMemFree(freed));
	m.mem = h;
	m.forged = h;
	memset(m.forged.reserved, 0x5a, sizeof(m.forged.reserved));

	CHECK_RES(CUDA_SUCCESS, cuEventCreate(&ev, 0));
	CHECK_RES(h100("event get plain"), cuIpcGetEventHandle(&m.ev, ev));
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(ev));
	CHECK_RES(h100("event create ipc no disable"),
		  cuEventCreate(&ev, CU_EVENT_INTERPROCESS));
	CHECK_RES(h100("event create ipc"),
		  cuEventCreate(&ev, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
	CHECK_RES(h100("event get"), cuIpcGetEventHandle(&m.ev, ev));
	CHECK_RES(h100("event get null"), cuIpcGetEventHandle(NULL, ev));
	CHECK_RES(h100("event open own"), cuIpcOpenEventHandle(&ev_own, m.ev));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&put, mod, "put"));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

	REQUIRE_RES(0, pipe(to_child) || pipe(from_child));
	snprintf(rfd, sizeof(rfd), "%d", to_child[0]);
	snprintf(wfd, sizeof(wfd), "%d", from_child[1]);
	pid = fork();
	if (pid == 0) {
		execl(self_path, self_path, "child", rfd, wfd, (char *)NULL);
		_exit(127);
	}
	REQUIRE_RES(1, pid > 0);
	CHECK(write(to_child[1], &m, sizeof(m)) == sizeof(m));
	CHECK(read(from_child[0], &c, 1) == 1);
	/* The child waits on the event: a kernel, then the record. */
	{
		CUdeviceptr at = a + 8;
		unsigned int val = 0x5eed;
		void *args[] = { &at, &val };

		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(put, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
	}
	CHECK_RES(h100("event record"), cuEventRecord(ev, s));
	CHECK(write(to_child[1], &c, 1) == 1);
	CHECK(waitpid(pid, &st, 0) == pid);
	/* The child's record, after its fill: reached, and the fill seen. */
	CHECK_RES(CUDA_SUCCESS, cuEventQuery(ev));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s, ev, 0));
	v = 0;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(&v, a + 12, 4, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(v == 0xbee);
	CHECK_RES(h100("event destroy"), cuEventDestroy(ev));
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == h100("child status"));
	v = 0;
	CHECK_RES(h100("read child write"), cuMemcpyDtoH(&v, a + 4, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("child wrote"), NULL, 0));
	CHECK_RES(h100("free a"), cuMemFree(a));
	CHECK_RES(h100("sync"), cuCtxSynchronize());
	close(to_child[1]);
	close(from_child[0]);
}

int main(int argc, char **argv)
{
	static const struct tap_test tests[] = {
		TAP_TEST(memory),
	};

	if (argc == 4 && !strcmp(argv[1], "child"))
		return child(atoi(argv[2]), atoi(argv[3]));
	self_path = "/proc/self/exe";
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
