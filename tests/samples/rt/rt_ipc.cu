// SPDX-License-Identifier: MIT
// Two processes sharing device memory and an event, the simpleIPC kind:
// the parent fills a buffer with a kernel and records an interprocess
// event behind it, then hands the memory's and the event's IPC handles
// to a child (this program again, started with exec). The child's stream
// waits for the event, its kernel turns each element i into 2i + 1 in
// place, and it records the same event behind that; the parent's stream
// waits for the event in turn and copies the buffer back. Neither side
// synchronizes with the other but through the event: each says only that
// it has recorded, over a pipe. Then the calls' answers for bad handles
// (cudaIpcGetEventHandle with a NULL handle dies of SIGSEGV in NVIDIA's
// runtime, so it is left out).
#include <sys/wait.h>
#include <unistd.h>

#include "rt.h"

#define N (1 << 20)

struct handles {
	cudaIpcMemHandle_t mem;
	cudaIpcEventHandle_t ev;
};

__global__ void fill(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = i;
}

__global__ void twice_plus_one(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = 2 * p[i] + 1;
}

static int child(int rfd, int wfd)
{
	struct handles h;
	cudaEvent_t ev;
	cudaStream_t s;
	int *p;
	char c = 1;

	if (read(rfd, &h, sizeof(h)) != sizeof(h))
		return 2;
	TRY(cudaSetDevice(0));
	TRY(cudaIpcOpenMemHandle((void **)&p, h.mem,
				 cudaIpcMemLazyEnablePeerAccess));
	TRY(cudaIpcOpenEventHandle(&ev, h.ev));
	TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	TRY(cudaStreamWaitEvent(s, ev, 0));
	twice_plus_one<<<N / 256, 256, 0, s>>>(p, N);
	TRY(cudaGetLastError());
	TRY(cudaEventRecord(ev, s));
	if (write(wfd, &c, 1) != 1)
		return 3;
	printf("child: recorded the event behind its kernel\n");
	// The memory stays open until the kernel is done with it.
	TRY(cudaEventSynchronize(ev));
	TRY(cudaStreamDestroy(s));
	TRY(cudaEventDestroy(ev));
	TRY(cudaIpcCloseMemHandle(p));
	fflush(stdout);
	return rt_failures;
}

static void share(const char *self)
{
	int to_child[2], from_child[2], status, wrong = 0, i;
	char rfd[16], wfd[16], c;
	struct handles h;
	cudaEvent_t ev;
	cudaStream_t s;
	int *d, *host;
	pid_t pid;

	TRY(cudaSetDevice(0));
	TRY(cudaMalloc(&d, N * sizeof(int)));
	TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	TRY(cudaEventCreateWithFlags(&ev, cudaEventInterprocess |
				     cudaEventDisableTiming));
	TRY(cudaIpcGetMemHandle(&h.mem, d));
	TRY(cudaIpcGetEventHandle(&h.ev, ev));
	fill<<<N / 256, 256, 0, s>>>(d, N);
	TRY(cudaGetLastError());
	TRY(cudaEventRecord(ev, s));

	if (pipe(to_child) || pipe(from_child)) {
		rt_failures++;
		return;
	}
	snprintf(rfd, sizeof(rfd), "%d", to_child[0]);
	snprintf(wfd, sizeof(wfd), "%d", from_child[1]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl(self, self, "child", rfd, wfd, (char *)NULL);
		_exit(127);
	}
	if (write(to_child[1], &h, sizeof(h)) != sizeof(h) ||
	    read(from_child[0], &c, 1) != 1) {
		rt_failures++;
		return;
	}
	// The event's last record is now the child's.
	TRY(cudaStreamWaitEvent(s, ev, 0));
	host = (int *)malloc(N * sizeof(int));
	TRY(cudaMemcpyAsync(host, d, N * sizeof(int), cudaMemcpyDeviceToHost,
			    s));
	TRY(cudaStreamSynchronize(s));
	for (i = 0; i < N; i++)
		wrong += host[i] != 2 * i + 1;
	printf("parent: %d of %d elements are 2i + 1 after the child's kernel\n",
	       N - wrong, N);
	EXPECT_TRUE(wrong == 0);
	EXPECT(cudaSuccess, cudaEventQuery(ev));
	waitpid(pid, &status, 0);
	printf("child exit status %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(host);
	TRY(cudaEventDestroy(ev));
	TRY(cudaStreamDestroy(s));
	TRY(cudaFree(d));
}

// The answers for handles that name nothing of another process.
static void bad_handles(void)
{
	cudaIpcEventHandle_t eh;
	cudaEvent_t ev, plain, opened;

	TRY(cudaEventCreate(&plain));
	printf("cudaIpcGetEventHandle of a timing event: %s\n",
	       cudaGetErrorName(cudaIpcGetEventHandle(&eh, plain)));
	TRY(cudaEventDestroy(plain));
	printf("cudaEventCreateWithFlags(interprocess, timing): %s\n",
	       cudaGetErrorName(cudaEventCreateWithFlags(&ev,
							 cudaEventInterprocess)));
	TRY(cudaEventCreateWithFlags(&ev, cudaEventInterprocess |
				     cudaEventDisableTiming));
	TRY(cudaIpcGetEventHandle(&eh, ev));
	printf("cudaIpcOpenEventHandle of this process's own: %s\n",
	       cudaGetErrorName(cudaIpcOpenEventHandle(&opened, eh)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
	TRY(cudaEventDestroy(ev));
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "child"))
		return child(atoi(argv[2]), atoi(argv[3]));
	rt_check_library();
	share("/proc/self/exe");
	bad_handles();
	return rt_result();
}
