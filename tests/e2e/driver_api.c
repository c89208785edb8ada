// SPDX-License-Identifier: MIT
/*
 * Driver-API behaviour of libvgpu against the real module: initialization,
 * devices, CUDA_VISIBLE_DEVICES, contexts and the context stack, primary
 * contexts, errors. Expected results are those of NVIDIA's driver on an
 * H100 where it defines them. Needs two devices (num_devices=2).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static void read_sysfs(int minor, const char *attr, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/vgpu/vgpu%d/%s", minor, attr);
	f = fopen(path, "r");
	if (!f || !fgets(buf, (int)len, f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* Open files of this process on /dev/vgpu@minor. */
static int count_device_files(int minor)
{
	char dev[32], link[300], target[64];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	snprintf(dev, sizeof(dev), "/dev/vgpu%d", minor);
	while (d && (e = readdir(d))) {
		ssize_t len;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		n += strcmp(target, dev) == 0;
	}
	if (d)
		closedir(d);
	return n;
}

static void format_uuid(char *buf, size_t len, const CUuuid *u)
{
	const unsigned char *b = (const unsigned char *)u->bytes;

	snprintf(buf, len,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
}

static void calls_before_init(void)
{
	CUcontext c;
	CUdevice d;
	int n, v = 0;
	const char *s = NULL;

	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&n));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGet(&d, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetCurrent(&c));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDevicePrimaryCtxRetain(&c, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxCreate(&c, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuDriverGetVersion(&v));
	CHECK(v == 13000);
	CHECK_RES(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s));
	CHECK(s && strcmp(s, "CUDA_ERROR_INVALID_VALUE") == 0);
}

static void init_rejects_flags(void)
{
	int n;

	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuInit(1));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&n));
	CHECK_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetCount(&n));
}

static void device_count_and_ordinals(void)
{
	CUdevice d = -7;
	int n = -1;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetCount(&n));
	CHECK(n == 2);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(NULL));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGet(&d, 1));
	CHECK(d == 1);
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&d, 2));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&d, -1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGet(NULL, 0));
}

static void device_properties_match_sysfs(void)
{
	char name[128], buf[128], want[128];
	size_t mem = 0;
	int dev, v, major, minor;
	CUuuid u;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (dev = 0; dev < 2; dev++) {
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetName(name, sizeof(name), dev));
		read_sysfs(dev, "name", buf, sizeof(buf));
		CHECK(strcmp(name, buf) == 0);
		CHECK_RES(CUDA_SUCCESS, cuDeviceTotalMem(&mem, dev));
		read_sysfs(dev, "mem_size", buf, sizeof(buf));
		CHECK(mem == strtoull(buf, NULL, 10));
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
		read_sysfs(dev, "sm_count", buf, sizeof(buf));
		CHECK(v == atoi(buf));
		CHECK_RES(CUDA_SUCCESS, cuDeviceComputeCapability(&major, &minor, dev));
		read_sysfs(dev, "compute_capability", buf, sizeof(buf));
		snprintf(want, sizeof(want), "%d.%d", major, minor);
		CHECK(strcmp(want, buf) == 0);
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
		CHECK(v == major);
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetUuid(&u, dev));
		format_uuid(want, sizeof(want), &u);
		read_sysfs(dev, "uuid", buf, sizeof(buf));
		CHECK(strcmp(want, buf) == 0);
	}
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceTotalMem(&mem, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceTotalMem(NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetUuid(NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetUuid(&u, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceComputeCapability(NULL, &minor, 0));
}

static void device_name_truncates(void)
{
	char name[16];

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	memset(name, 'x', sizeof(name));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetName(name, 5, 0));
	CHECK(strlen(name) == 4 && strncmp(name, "vgpu", 4) == 0);
	CHECK(name[5] == 'x');
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(name, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(NULL, 5, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetName(name, 16, 2));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetName(name, 16, -1));
}

static void attributes_cover_cuda13(void)
{
	int a, v;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++)
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)9999, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 2));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
	CHECK(v == 32);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 0));
	CHECK(v == 64);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 0));
	CHECK(v == 0x7fffffff);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 0));
	CHECK(v == 2);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 0));
	CHECK(v == 1);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, 0));
	CHECK(v == 1);
}

/* Runs cuInit with CUDA_VISIBLE_DEVICES=@env in a child; returns the count
 * (or -CUresult) and the UUID text of visible device 0. */
static int visible(const char *env, char *uuid0, size_t len)
{
	int fds[2], n = -1;
	pid_t pid;

	if (pipe(fds))
		return -1000;
	pid = fork();
	if (pid == 0) {
		CUresult r;
		CUuuid u;
		char text[64] = "";

		setenv("CUDA_VISIBLE_DEVICES", env, 1);
		r = cuInit(0);
		if (r == CUDA_SUCCESS && cuDeviceGetCount(&n) == CUDA_SUCCESS &&
		    cuDeviceGetUuid(&u, 0) == CUDA_SUCCESS)
			format_uuid(text, sizeof(text), &u);
		else
			n = -(int)r;
		if (write(fds[1], &n, sizeof(n)) != sizeof(n) ||
		    write(fds[1], text, sizeof(text)) != sizeof(text))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &n, sizeof(n)) != sizeof(n) ||
	    read(fds[0], uuid0, len) != (ssize_t)len)
		n = -1000;
	close(fds[0]);
	waitpid(pid, NULL, 0);
	return n;
}

static void visible_devices(void)
{
	char u0[64], u1[64], got[64], prefix[64];

	read_sysfs(0, "uuid", u0, sizeof(u0));
	read_sysfs(1, "uuid", u1, sizeof(u1));
	CHECK(visible("1", got, 64) == 1 && strcmp(got, u1) == 0);
	CHECK(visible("1,0", got, 64) == 2 && strcmp(got, u1) == 0);
	CHECK(visible(" 0 , 1 ", got, 64) == 2 && strcmp(got, u0) == 0);
	CHECK(visible("0,7,1", got, 64) == 1);
	CHECK(visible("01", got, 64) == 1 && strcmp(got, u1) == 0);
	CHECK(visible("0,0", got, 64) == -CUDA_ERROR_INVALID_DEVICE);
	CHECK(visible("", got, 64) == -CUDA_ERROR_NO_DEVICE);
	CHECK(visible("x,0", got, 64) == -CUDA_ERROR_NO_DEVICE);
	CHECK(visible("-1", got, 64) == -CUDA_ERROR_NO_DEVICE);
	CHECK(visible("2", got, 64) == -CUDA_ERROR_NO_DEVICE);
	CHECK(visible(u1, got, 64) == 1 && strcmp(got, u1) == 0);
	/* A prefix both UUIDs share names neither. */
	snprintf(prefix, sizeof(prefix), "%.12s", u0);
	CHECK(visible(prefix, got, 64) == -CUDA_ERROR_NO_DEVICE);
	CHECK(visible("GPU-", got, 64) == -CUDA_ERROR_NO_DEVICE);
}

static void ctx_create_makes_current(void)
{
	CUcontext c = NULL, cur = NULL;
	CUdevice d = -1;
	unsigned int flags = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK(count_device_files(0) == 0);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, CU_CTX_SCHED_BLOCKING_SYNC, 0));
	CHECK(count_device_files(0) == 1);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	CHECK(cur == c);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetDevice(&d));
	CHECK(d == 0);
	/* A created context's flags are its own: no MAP_HOST, as on an H100. */
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&flags));
	CHECK(flags == CU_CTX_SCHED_BLOCKING_SYNC);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetApiVersion(c, &flags));
	CHECK(flags == 3020);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK(count_device_files(0) == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	CHECK(cur == NULL);
}

static void ctx_create_bad_arguments(void)
{
	CUexecAffinityParam aff = { CU_EXEC_AFFINITY_TYPE_SM_COUNT, { { 1 } } };
	CUctxCreateParams params = { &aff, 1, NULL };
	CUctxCreateParams empty = { NULL, 0, NULL };
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(NULL, NULL, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&c, NULL, 0x100, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&c, NULL, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&c, NULL, 7, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&c, NULL, 0, 2));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&c, NULL, 0, -1));
	CHECK_RES(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, cuCtxCreate(&c, &params, 0, 0));
	CHECK(count_device_files(0) == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxCreate(&c, &empty, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

static void ctx_calls_without_current(void)
{
	CUcontext c = (CUcontext)1;
	CUdevice d;
	unsigned int f;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&c));
	CHECK(c == NULL);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetCurrent(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&d));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetFlags(&f));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&c));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxPushCurrent(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxDestroy(NULL));
}

static void ctx_stack_order(void)
{
	CUcontext a, b, o;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 1));
	CHECK(count_device_files(1) == 1);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&o));
	CHECK(o == b);
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(&o));
	CHECK(o == b);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&o));
	CHECK(o == a);
	CHECK_RES(CUDA_SUCCESS, cuCtxPushCurrent(b));
	CHECK_RES(CUDA_SUCCESS, cuCtxPushCurrent(b));	/* twice is allowed */
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(&o));
	CHECK(o == b);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(b));	/* replaces a */
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(&o));
	CHECK(o == b);
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&o));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	CHECK(count_device_files(0) == 0 && count_device_files(1) == 0);
}

static void ctx_destroy_rules(void)
{
	CUcontext a, b, o;
	unsigned int v;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	/* Not on top: destroyed, but stays on the stack beneath b. */
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
	CHECK(count_device_files(0) == 1);
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(a));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(a));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCurrent(a));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetApiVersion(a, &v));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&o));
	CHECK(o == b);
	/* On top: destroyed and popped. */
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&o));
	CHECK(o == a);
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(&o));
	CHECK(o == a);
	CHECK(count_device_files(0) == 0);
}

struct ctx_thread {
	CUcontext ctx;
	pthread_barrier_t *barrier;
	CUresult before, sync_after, device_after;
	CUcontext current_at_start;
};

static void *ctx_thread_main(void *arg)
{
	struct ctx_thread *t = arg;
	CUdevice d;

	cuCtxGetCurrent(&t->current_at_start);
	cuCtxPushCurrent(t->ctx);
	t->before = cuCtxSynchronize();
	pthread_barrier_wait(t->barrier);	/* main destroys the context */
	pthread_barrier_wait(t->barrier);
	t->sync_after = cuCtxSynchronize();
	t->device_after = cuCtxGetDevice(&d);
	cuCtxPopCurrent(NULL);
	return NULL;
}

static void ctx_destroyed_while_current_elsewhere(void)
{
	pthread_barrier_t barrier;
	struct ctx_thread t = { .barrier = &barrier };
	pthread_t th;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&t.ctx, NULL, 0, 0));
	pthread_barrier_init(&barrier, NULL, 2);
	pthread_create(&th, NULL, ctx_thread_main, &t);
	pthread_barrier_wait(&barrier);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(t.ctx));
	pthread_barrier_wait(&barrier);
	pthread_join(th, NULL);
	CHECK(t.current_at_start == NULL);	/* stacks are per thread */
	CHECK(t.before == CUDA_SUCCESS);
	CHECK(t.sync_after == CUDA_ERROR_CONTEXT_IS_DESTROYED);
	CHECK(t.device_after == CUDA_SUCCESS);
	CHECK(count_device_files(0) == 0);
}

static void primary_ctx_lifecycle(void)
{
	CUcontext p, q, o;
	unsigned int flags;
	int active;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	CHECK(flags == 0 && active == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxGetState(0, NULL, &active));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxGetState(2, &flags, &active));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(0));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, 0x100));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, 3));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, CU_CTX_MAP_HOST));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	CHECK(flags == CU_CTX_SCHED_BLOCKING_SYNC && active == 0);
	CHECK(count_device_files(0) == 0);

	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxRetain(NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRetain(&p, 2));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	CHECK(count_device_files(0) == 1);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&o));
	CHECK(o == NULL);	/* retain does not make it current */
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&q, 0));
	CHECK(p == q);
	CHECK(count_device_files(0) == 1);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_SPIN));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	CHECK(flags == CU_CTX_SCHED_SPIN && active == 1);
	CHECK_RES(CUDA_SUCCESS, cuCtxPushCurrent(p));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&flags));
	CHECK(flags == (CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(p));

	/* Reset: state gone, handle and retain count kept. */
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	CHECK(flags == 0 && active == 0);
	CHECK(count_device_files(0) == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&o));
	CHECK(o == p);
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&q, 0));
	CHECK(q == p);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());

	/* Three retains: the third release deactivates it. */
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	CHECK(active == 1);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	CHECK(active == 0);
	CHECK(count_device_files(0) == 0);
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(0));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSynchronize());
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRelease(2));
}

static void error_names_and_strings(void)
{
	const char *s = (const char *)1;

	CHECK_RES(CUDA_SUCCESS, cuGetErrorName(CUDA_SUCCESS, &s));
	CHECK(strcmp(s, "CUDA_SUCCESS") == 0);
	CHECK_RES(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_UNKNOWN, &s));
	CHECK(strcmp(s, "CUDA_ERROR_UNKNOWN") == 0);
	CHECK_RES(CUDA_SUCCESS, cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s));
	CHECK(strcmp(s, "invalid argument") == 0);
	CHECK_RES(CUDA_SUCCESS, cuGetErrorString(CUDA_SUCCESS, &s));
	CHECK(strcmp(s, "no error") == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorName((CUresult)12345, &s));
	CHECK(s == NULL);
	s = (const char *)1;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorString((CUresult)12345, &s));
	CHECK(s == NULL);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(CUDA_ERROR_INVALID_VALUE, NULL));
}

/* Programs built against older headers call the unversioned symbols. */
#undef cuCtxCreate
#undef cuCtxDestroy
#undef cuDeviceTotalMem
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxDestroy(CUcontext ctx);
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev);

static void older_abi_entry_points(void)
{
	CUcontext c, o;
	unsigned int small = 0;
	size_t big = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuCtxCreate_v2(&c, 0, 1));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&o));
	CHECK(o == c);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK_RES(CUDA_SUCCESS, cuDeviceTotalMem(&small, 0));
	CHECK_RES(CUDA_SUCCESS, cuDeviceTotalMem_v2(&big, 0));
	CHECK(small == big);
}

struct churn {
	int dev;
	int failures;
};

static void *churn_main(void *arg)
{
	struct churn *c = arg;
	int i;

	for (i = 0; i < 40; i++) {
		CUcontext ctx, p, o;

		c->failures += cuCtxCreate_v4(&ctx, NULL, 0, c->dev) != CUDA_SUCCESS;
		c->failures += cuDevicePrimaryCtxRetain(&p, c->dev) != CUDA_SUCCESS;
		c->failures += cuCtxPushCurrent(p) != CUDA_SUCCESS;
		c->failures += cuCtxPopCurrent(&o) != CUDA_SUCCESS || o != p;
		c->failures += cuCtxDestroy(ctx) != CUDA_SUCCESS;
		c->failures += cuDevicePrimaryCtxRelease(c->dev) != CUDA_SUCCESS;
	}
	return NULL;
}

static void threads_create_and_destroy(void)
{
	struct churn c[8];
	pthread_t t[8];
	int i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (i = 0; i < 8; i++) {
		c[i].dev = i % 2;
		c[i].failures = 0;
		pthread_create(&t[i], NULL, churn_main, &c[i]);
	}
	for (i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		CHECK(c[i].failures == 0);
	}
	CHECK(count_device_files(0) == 0 && count_device_files(1) == 0);
}

static const struct tap_test tests[] = {
	TAP_TEST(calls_before_init),
	TAP_TEST(init_rejects_flags),
	TAP_TEST(device_count_and_ordinals),
	TAP_TEST(device_properties_match_sysfs),
	TAP_TEST(device_name_truncates),
	TAP_TEST(attributes_cover_cuda13),
	TAP_TEST(visible_devices),
	TAP_TEST(ctx_create_makes_current),
	TAP_TEST(ctx_create_bad_arguments),
	TAP_TEST(ctx_calls_without_current),
	TAP_TEST(ctx_stack_order),
	TAP_TEST(ctx_destroy_rules),
	TAP_TEST(ctx_destroyed_while_current_elsewhere),
	TAP_TEST(primary_ctx_lifecycle),
	TAP_TEST(error_names_and_strings),
	TAP_TEST(older_abi_entry_points),
	TAP_TEST(threads_create_and_destroy),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
