/*
 * H100 probe: cuMemcpy and cuMemcpyAsync between two host pointers, one
 * of them bad (unmapped, PROT_NONE, read-only, a small integer), each in
 * a child process: "NAME = CODE [then CODE of cuCtxSynchronize]" or
 * "NAME = signal N" when the call killed the process.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void run(const char *name, int which)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		CUcontext c;
		CUstream s;
		long pg = sysconf(_SC_PAGESIZE);
		unsigned char *ok = malloc(1 << 16), *ro, *none, *gone;
		CUresult r = 0;

		cuInit(0);
		cuCtxCreate(&c, NULL, 0, 0);
		cuStreamCreate(&s, 0);
		memset(ok, 7, 1 << 16);
		ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		none = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		gone = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(gone, pg);
		switch (which) {
		case 0: r = cuMemcpy((CUdeviceptr)ok, (CUdeviceptr)(ok + 4096), 64); break;
		case 1: r = cuMemcpy((CUdeviceptr)ok, (CUdeviceptr)gone, 64); break;
		case 2: r = cuMemcpy((CUdeviceptr)ok, (CUdeviceptr)none, 64); break;
		case 3: r = cuMemcpy((CUdeviceptr)ro, (CUdeviceptr)ok, 64); break;
		case 4: r = cuMemcpy((CUdeviceptr)gone, (CUdeviceptr)ok, 64); break;
		case 5: r = cuMemcpyAsync((CUdeviceptr)ok, (CUdeviceptr)gone, 64, s);
			if (!r) r = cuStreamSynchronize(s); break;
		case 6: r = cuMemcpyAsync((CUdeviceptr)ro, (CUdeviceptr)ok, 64, s);
			if (!r) r = cuStreamSynchronize(s); break;
		case 7: r = cuMemcpy((CUdeviceptr)ok, (CUdeviceptr)8, 64); break;
		case 8: r = cuMemcpy((CUdeviceptr)ok, (CUdeviceptr)gone, 0); break;
		case 9: r = cuMemcpyHtoD(0, ok, 0); break;
		}
		printf("%s = %d", name, (int)r);
		if (!r) printf(" then %d", (int)cuCtxSynchronize());
		printf("\n");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st))
		printf("%s = signal %d\n", name, WTERMSIG(st));
}

int main(void)
{
	run("h2h ok", 0);
	run("h2h src unmapped", 1);
	run("h2h src PROT_NONE", 2);
	run("h2h dst read-only", 3);
	run("h2h dst unmapped", 4);
	run("h2h async src unmapped", 5);
	run("h2h async dst read-only", 6);
	run("h2h src 8", 7);
	run("h2h src unmapped 0 bytes", 8);
	run("htod dst 0 0 bytes", 9);
	return 0;
}
