// SPDX-License-Identifier: MIT
/*
 * Failures the module injects (its debugfs knobs), as a CUDA program sees
 * them: device memory it cannot get is CUDA_ERROR_OUT_OF_MEMORY, pages it
 * cannot pin make cuMemHostRegister CUDA_ERROR_OUT_OF_MEMORY (one of the
 * results NVIDIA documents for it), a module it cannot load is
 * CUDA_ERROR_OUT_OF_MEMORY; none of these harm the context, whose next
 * call succeeds. Faults of the engines are sticky, as NVIDIA's are: a
 * launch faulting is CUDA_ERROR_ILLEGAL_ADDRESS, a memset faulting too,
 * memory a launch cannot get is CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, and
 * every later call of the context says the same. A stalled engine never
 * keeps a process from exiting or being killed. Device memory is back to
 * where it was after each. Skips where the module has no knobs. The
 * knobs act on the module's SMs, so the launches run there whatever
 * VGPU_ENGINE says.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define KNOBS "/sys/kernel/debug/vgpu/vgpu0/"
#define MEM_USED "/sys/class/vgpu/vgpu0/mem_used"

static const char exit_ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry nothing()\n{\n\tret;\n}\n";

static int knob_set(const char *name, long val)
{
	char path[128], buf[32];
	int fd, n, ret;

	snprintf(path, sizeof(path), KNOBS "%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%ld\n", val);
	ret = write(fd, buf, n) == n ? 0 : -1;
	close(fd);
	return ret;
}

static long read_long(const char *path)
{
	char buf[32] = "";
	long v = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		v = strtol(buf, NULL, 0);
	close(fd);
	return v;
}

static long knob_get(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), KNOBS "%s", name);
	return read_long(path);
}

/*
 * Skips the test where there are no knobs (mounting debugfs if need be);
 * disarms what an earlier test may have left armed.
 */
static void need_knobs(void)
{
	static const char *const all[] = {
		"fail_mem", "fail_pin", "fail_module", "fail_launch",
		"fail_block", "fault_ce", "fault_compute", "stall_compute",
	};
	size_t i;

	if (access("/dev/vgpu0", F_OK))
		TAP_SKIP("no vgpu device");
	if (access(KNOBS "fail_mem", W_OK)) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		if (access(KNOBS "fail_mem", W_OK))
			TAP_SKIP("no fault-injection knobs (debugfs)");
	}
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		knob_set(all[i], 0);
}

static CUcontext ctx_create(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	return c;
}

static CUfunction load_nothing(void)
{
	CUmodule m;
	CUfunction f;

	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, exit_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "nothing"));
	return f;
}

static CUresult launch(CUfunction f)
{
	return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
}

/* Not sticky: the failed allocation leaves nothing, the next one works. */
static void mem_alloc_out_of_memory(void)
{
	CUcontext c;
	CUdeviceptr d;
	long base;

	need_knobs();
	c = ctx_create();
	base = read_long(MEM_USED);
	REQUIRE_RES(0, knob_set("fail_mem", 1));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&d, 4 << 20));
	CHECK(knob_get("fail_mem") == 0);
	knob_set("fail_mem", 0);
	CHECK(read_long(MEM_USED) == base);
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4 << 20));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d, 7, 1 << 20));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemFree(d));
	CHECK(read_long(MEM_USED) == base);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

static void host_register_pin_fails(void)
{
	size_t size = 1 << 20;
	void *p = NULL;
	CUcontext c;

	need_knobs();
	c = ctx_create();
	REQUIRE_RES(0, posix_memalign(&p, 4096, size) ? 1 : 0);
	memset(p, 1, size);
	REQUIRE_RES(0, knob_set("fail_pin", 1));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemHostRegister(p, size, 0));
	CHECK(knob_get("fail_pin") == 0);
	knob_set("fail_pin", 0);
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(p, size, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(p));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	free(p);
}

static void module_load_out_of_memory(void)
{
	CUcontext c;
	CUmodule m;

	need_knobs();
	c = ctx_create();
	REQUIRE_RES(0, knob_set("fail_module", 1));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuModuleLoadData(&m, exit_ptx));
	CHECK(knob_get("fail_module") == 0);
	knob_set("fail_module", 0);
	load_nothing();
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

/* Sticky: the failed launch's error is every later call's. */
static void sticky(CUresult want)
{
	CUdeviceptr d;

	CHECK_RES(want, cuCtxSynchronize());
	CHECK_RES(want, cuCtxSynchronize());
	CHECK_RES(want, cuMemAlloc(&d, 4));
}

static void launch_fault_is_illegal_address(void)
{
	CUfunction f;

	need_knobs();
	ctx_create();
	f = load_nothing();
	REQUIRE_RES(0, knob_set("fault_compute", 1));
	CHECK_RES(CUDA_SUCCESS, launch(f));
	sticky(CUDA_ERROR_ILLEGAL_ADDRESS);
	CHECK(knob_get("fault_compute") == 0);
}

static void memset_fault_is_illegal_address(void)
{
	CUdeviceptr d;

	need_knobs();
	ctx_create();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	REQUIRE_RES(0, knob_set("fault_ce", 1));
	cuMemsetD32Async(d, 5, 1024, NULL);
	sticky(CUDA_ERROR_ILLEGAL_ADDRESS);
	CHECK(knob_get("fault_ce") == 0);
}

/* The launch's own record, or a block's state, could not be had. */
static void launch_memory_is_out_of_resources(const char *knob)
{
	CUfunction f;

	need_knobs();
	ctx_create();
	f = load_nothing();
	REQUIRE_RES(0, knob_set(knob, 1));
	CHECK_RES(CUDA_SUCCESS, launch(f));
	sticky(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
	CHECK(knob_get(knob) == 0);
}

static void launch_record_out_of_resources(void)
{
	launch_memory_is_out_of_resources("fail_launch");
}

static void block_state_out_of_resources(void)
{
	launch_memory_is_out_of_resources("fail_block");
}

/*
 * A process whose launch the engine holds, exiting without waiting
 * (@kill_it false) or killed while it waits: gone within seconds.
 */
static void stalled_process_ends(bool kill_it)
{
	long base;
	pid_t pid;
	int status = 0, i;

	need_knobs();
	base = read_long(MEM_USED);
	REQUIRE_RES(0, knob_set("stall_compute", 1));
	pid = fork();
	if (pid == 0) {
		CUdeviceptr d;
		CUfunction f;

		ctx_create();
		f = load_nothing();
		if (cuMemAlloc(&d, 1 << 20) || launch(f))
			_exit(2);
		if (kill_it)
			cuCtxSynchronize();	/* until killed */
		_exit(0);
	}
	REQUIRE_RES(0, pid < 0);
	if (kill_it) {
		usleep(500000);
		kill(pid, SIGKILL);
	}
	for (i = 0; i < 1000 && waitpid(pid, &status, WNOHANG) != pid; i++)
		usleep(10000);
	if (i == 1000) {
		kill(pid, SIGKILL);
		TAP_FAIL("the process did not end while its launch was held");
	}
	CHECK(knob_get("stall_compute") == 1);
	knob_set("stall_compute", 0);
	CHECK(kill_it ? WIFSIGNALED(status) :
	      WIFEXITED(status) && !WEXITSTATUS(status));
	CHECK(read_long(MEM_USED) == base);
}

static void stalled_process_exits(void)
{
	stalled_process_ends(false);
}

static void stalled_process_killed(void)
{
	stalled_process_ends(true);
}

/* Held until released, then done. */
static void stall_then_release(void)
{
	CUfunction f;
	CUstream s;

	need_knobs();
	ctx_create();
	f = load_nothing();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	REQUIRE_RES(0, knob_set("stall_compute", 1));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s,
					       NULL, NULL));
	usleep(300000);
	CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
	knob_set("stall_compute", 0);
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
}

static const struct tap_test tests[] = {
	TAP_TEST(mem_alloc_out_of_memory),
	TAP_TEST(host_register_pin_fails),
	TAP_TEST(module_load_out_of_memory),
	TAP_TEST(launch_fault_is_illegal_address),
	TAP_TEST(memset_fault_is_illegal_address),
	TAP_TEST(launch_record_out_of_resources),
	TAP_TEST(block_state_out_of_resources),
	TAP_TEST(stalled_process_exits),
	TAP_TEST(stalled_process_killed),
	TAP_TEST(stall_then_release),
};

int main(void)
{
	/* The knobs act on the module's SMs: the launches run there. */
	setenv("VGPU_ENGINE", "interp", 1);
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
