/*
 * Probe of NVIDIA's IPC calls on a real GPU: cuIpcGetMemHandle of each
 * kind of memory and pointer, cuIpcOpenMemHandle and cuIpcCloseMemHandle
 * in the exporting process and in another one (a child started with
 * exec, which gets the handles through a pipe), a forged handle, a handle
 * of memory freed meanwhile, the flags, and the event calls
 * (cuIpcGetEventHandle, cuIpcOpenEventHandle) with an event waited on
 * across the processes. Output: one "name = value" per line. Not built by
 * the tree: it needs NVIDIA's cuda.h and libcuda. Run on an H100 (CUDA
 * 13.0) as  gcc h100_ipc.c -I/usr/local/cuda/include -lcuda -o ipc &&
 * ./ipc ; its output is h100_ipc.log, which tests/e2e/ipc_api.c follows.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

struct msg {
	CUipcMemHandle mem, freed, forged, managed_h;
	CUipcEventHandle ev;
};

static void setup(CUcontext *ctx)
{
	CUdevice dev;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(ctx, dev);
	cuCtxSetCurrent(*ctx);
}

static int child(int rfd, int wfd)
{
	CUdeviceptr p = 0, p2 = 0;
	CUcontext ctx;
	CUevent ev;
	struct msg m;
	unsigned int v = 0;
	char c = 1;

	setup(&ctx);
	if (read(rfd, &m, sizeof(m)) != sizeof(m))
		return 1;
	R("child open", cuIpcOpenMemHandle(&p, m.mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
	R("child read", cuMemcpyDtoH(&v, p, 4));
	printf("child value = 0x%x\n", v);
	R("child open again", cuIpcOpenMemHandle(&p2, m.mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
	printf("child open again same = %d\n", p == p2);
	R("child close again", cuIpcCloseMemHandle(p2));
	R("child read after one close", cuMemcpyDtoH(&v, p, 4));
	p2 = 0;
	R("child open flags 0", cuIpcOpenMemHandle(&p2, m.mem, 0));
	printf("child open flags 0 set = %d\n", p2 != 0);
	p2 = 0;
	R("child open flags 2", cuIpcOpenMemHandle(&p2, m.mem, 2));
	printf("child open flags 2 set = %d\n", p2 != 0);
	R("child open null", cuIpcOpenMemHandle(NULL, m.mem, 1));
	R("child open freed", cuIpcOpenMemHandle(&p2, m.freed, 1));
	R("child open forged", cuIpcOpenMemHandle(&p2, m.forged, 1));
	memset(&m.forged, 0, sizeof(m.forged));
	R("child open zeros", cuIpcOpenMemHandle(&p2, m.forged, 1));
	R("child write", cuMemsetD32(p + 4, 0xc41d, 1));
	R("child sync", cuCtxSynchronize());
	R("child base range", cuMemGetAddressRange(&p2, NULL, p + 8));
	printf("child range base same = %d\n", p2 == p);
	R("child open event", cuIpcOpenEventHandle(&ev, m.ev));
	R("child event query", cuEventQuery(ev));
	/* Tell the parent; it records the event after a delay. */
	if (write(wfd, &c, 1) != 1)
		return 1;
	R("child event sync", cuEventSynchronize(ev));
	R("child event query after", cuEventQuery(ev));
	R("child event destroy", cuEventDestroy(ev));
	R("child close", cuIpcCloseMemHandle(p));
	R("child close twice", cuIpcCloseMemHandle(p));
	R("child close null", cuIpcCloseMemHandle(0));
	return 0;
}

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry spin(.param .u64 ns)\n{\n"
	"\t.reg .u64 %rd<5>;\n\t.reg .pred %p1;\n"
	"\tld.param.u64 %rd1, [ns];\n\tmov.u64 %rd2, %globaltimer;\n"
	"L:\tmov.u64 %rd3, %globaltimer;\n\tsub.u64 %rd4, %rd3, %rd2;\n"
	"\tsetp.lt.u64 %p1, %rd4, %rd1;\n\t@%p1 bra L;\n\tret;\n}\n";

int main(int argc, char **argv)
{
	CUdeviceptr a, b, freed, managed, p;
	CUipcMemHandle h, h2;
	CUipcEventHandle eh;
	CUfunction spin;
	CUmodule mod;
	CUcontext ctx;
	CUevent ev, ev_plain;
	CUstream s;
	struct msg m;
	unsigned int v = 0xfeedf00d;
	unsigned long long ns = 500000000ull;
	void *args[] = { &ns };
	int to_child[2], from_child[2], st;
	char rfd[16], wfd[16], c;
	pid_t pid;

	if (argc == 4 && !strcmp(argv[1], "child"))
		return child(atoi(argv[2]), atoi(argv[3]));
	setup(&ctx);
	cuModuleLoadData(&mod, ptx);
	cuModuleGetFunction(&spin, mod, "spin");
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);

	cuMemAlloc(&a, 1 << 20);
	cuMemAlloc(&b, 4096);
	cuMemAlloc(&freed, 64 << 20);
	cuMemAllocManaged(&managed, 65536, CU_MEM_ATTACH_GLOBAL);
	cuMemcpyHtoD(a, &v, 4);
	/* A copy from pageable memory may return before it lands. */
	cuCtxSynchronize();

	R("get", cuIpcGetMemHandle(&h, a));
	R("get again", cuIpcGetMemHandle(&h2, a));
	printf("get again same = %d\n", !memcmp(&h, &h2, sizeof(h)));
	R("get interior", cuIpcGetMemHandle(&h2, a + 4096));
	printf("get interior same = %d\n", !memcmp(&h, &h2, sizeof(h)));
	R("get small", cuIpcGetMemHandle(&h2, b));
	R("get managed", cuIpcGetMemHandle(&m.managed_h, managed));
	R("get host", cuIpcGetMemHandle(&h2, (CUdeviceptr)(uintptr_t)&v));
	R("get zero", cuIpcGetMemHandle(&h2, 0));
	R("get null", cuIpcGetMemHandle(NULL, a));
	R("open own", cuIpcOpenMemHandle(&p, h, 1));
	R("close not opened", cuIpcCloseMemHandle(a));
	R("get freed", cuIpcGetMemHandle(&m.freed, freed));
	R("free freed", cuMemFree(freed));
	m.mem = h;
	m.forged = h;
	memset(m.forged.reserved, 0x5a, sizeof(m.forged.reserved));

	R("event get plain", cuEventCreate(&ev_plain, 0) ? -1 : cuIpcGetEventHandle(&eh, ev_plain));
	R("event create ipc no disable", cuEventCreate(&ev, CU_EVENT_INTERPROCESS));
	R("event create ipc", cuEventCreate(&ev, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
	R("event get", cuIpcGetEventHandle(&m.ev, ev));
	R("event get null", cuIpcGetEventHandle(NULL, ev));
	R("event open own", cuIpcOpenEventHandle(&ev_plain, m.ev));

	if (pipe(to_child) || pipe(from_child))
		return 1;
	snprintf(rfd, sizeof(rfd), "%d", to_child[0]);
	snprintf(wfd, sizeof(wfd), "%d", from_child[1]);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "child", rfd, wfd, (char *)NULL);
		_exit(127);
	}
	if (write(to_child[1], &m, sizeof(m)) != sizeof(m))
		return 1;
	if (read(from_child[0], &c, 1) != 1)
		return 1;
	/* The child waits on the event: a kernel of half a second, then it. */
	R("launch spin", cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
	R("event record", cuEventRecord(ev, s));
	waitpid(pid, &st, 0);
	printf("child status = %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	v = 0;
	R("read child write", cuMemcpyDtoH(&v, a + 4, 4));
	printf("child wrote = 0x%x\n", v);
	R("event destroy", cuEventDestroy(ev));
	R("free a", cuMemFree(a));
	R("sync", cuCtxSynchronize());
	return 0;
}
