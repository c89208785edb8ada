// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own fault injection (CONFIG_FAILSLAB, FAIL_PAGE_ALLOC,
 * FAULT_INJECTION_USERCOPY: the VM's debug kernel has them) over each
 * ioctl, open() and mmap() of the module: the call is made again and
 * again, with its 1st, 2nd, ... fault point failed, every allocation of
 * slab or pages and every user copy, in the module and in what it calls
 * (maple trees, xarrays, vmalloc, pinning), until it makes fewer than
 * that. Each failure must be refused cleanly: with -ENOMEM or -EFAULT,
 * or, where the kernel absorbed the failure (a fallback of its own), as a
 * success; nothing the call made may stay behind (device mem_used and the
 * machine's pinned pages back where they were; kmemleak's report of the
 * debug run for the rest), and the context goes on working.
 *
 * The n-th point is chosen with /proc/thread-self/fail-nth, which counts
 * this thread's fault points alone, rather than a capability's shared
 * interval and times, which count every task's. Skips where the kernel
 * has no fault injection (the stock kernels).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define DEV "/dev/vgpu0"
#define DEBUGFS "/sys/kernel/debug"
#define FAIL_NTH "/proc/thread-self/fail-nth"
#define MEM_USED "/sys/class/vgpu/vgpu0/mem_used"
#define WIN_BASE (1ULL << 44)
#define MAX_POINTS 5000

/*
 * What the capabilities must be set to for fail-nth to reach every
 * allocation (by default they pass over those that may sleep, and pages
 * of order 0), and quiet (each failure would print a stack otherwise).
 * The probability stays 0: nothing fails but the n-th point.
 */
static const struct { const char *file, *value; } fi_setup[] = {
	{ "failslab/ignore-gfp-wait", "N" },
	{ "failslab/verbose", "0" },
	{ "fail_page_alloc/ignore-gfp-wait", "N" },
	{ "fail_page_alloc/ignore-gfp-highmem", "N" },
	{ "fail_page_alloc/min-order", "0" },
	{ "fail_page_alloc/verbose", "0" },
	{ "fail_usercopy/verbose", "0" },
};

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static long mem_used(void)
{
	char buf[32];

	return read_str(MEM_USED, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 0);
}

/* Pages pinned by pin_user_pages() and not yet unpinned, machine-wide. */
static long pins_held(void)
{
	char line[128];
	long acq = -1, rel = -1, v;
	FILE *f;

	/* The counters are per CPU until folded: fold them first. */
	if (write_str("/proc/sys/vm/stat_refresh", "1"))
		return -1;
	f = fopen("/proc/vmstat", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "nr_foll_pin_acquired %ld", &v) == 1)
			acq = v;
		else if (sscanf(line, "nr_foll_pin_released %ld", &v) == 1)
			rel = v;
	}
	fclose(f);
	return acq < 0 || rel < 0 ? -1 : acq - rel;
}

/*
 * The file of this thread's fail-nth, opened before the walk: opening it
 * in the window would spend fault points of its own.
 */
static int nth_fd = -1;

static int nth_arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(nth_fd, buf, len, 0) == len ? 0 : -1;
}

/*
 * Whether the armed point was spent, and disarmed either way. Reading
 * and writing fail-nth copy to and from user space, each a fault point
 * too: one that fails (-EFAULT) spent what was left.
 */
static bool nth_spent(void)
{
	char buf[16] = "";
	bool spent;
	int i;

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) < 0)
		spent = false;	/* the read spent it: the call did not */
	else
		spent = atoi(buf) == 0;
	for (i = 0; i < 8 && pwrite(nth_fd, "0", 1, 0) != 1; i++)
		;
	return spent;
}

struct fctx {
	int fd;
	void *status;
	struct chan c;
};

static int fctx_open(struct fctx *f)
{
	f->fd = open_ctx(&f->status, WIN_BASE);
	if (f->fd < 0)
		return -1;
	return chan_open(f->fd, &f->c, f->status);
}

static void fctx_close(struct fctx *f)
{
	if (f->status && f->status != MAP_FAILED)
		munmap(f->status, 4096);
	if (f->fd > 0)
		close(f->fd);
	free(f->c.ring);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static const struct vgpu_insn exit_prog[] = { EXIT() };
static const struct vgpu_func exit_func = { .nregs = 1 };

/*
 * An operation: @prep readies what the call needs (outside the window),
 * @call is the one call walked (its result: 0 or -errno), @undo takes
 * back what a successful call made.
 */
struct op_state {
	struct fctx *f;
	struct fctx own;	/* a context of the call's own, if it needs one */
	void *mem;
	size_t size;
	__u64 handle;
};

static int op_open_call(struct op_state *s)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	s->handle = fd;
	return 0;
}

static void op_open_undo(struct op_state *s)
{
	close((int)s->handle);
}

static int mem_alloc_call(struct op_state *s, __u64 size)
{
	struct vgpu_mem_alloc a = { .size = size };

	if (ioctl(s->f->fd, VGPU_IOCTL_MEM_ALLOC, &a))
		return -errno;
	s->handle = a.va;
	return 0;
}

static int op_mem_small_call(struct op_state *s)
{
	return mem_alloc_call(s, 4096);
}

static int op_mem_large_call(struct op_state *s)
{
	return mem_alloc_call(s, 4 * MIB);
}

static void op_mem_undo(struct op_state *s)
{
	struct vgpu_mem_free mf = { .va = s->handle };

	ioctl(s->f->fd, VGPU_IOCTL_MEM_FREE, &mf);
}

static int op_own_ctx_prep(struct op_state *s)
{
	return fctx_open(&s->own);
}

static void op_own_ctx_undo(struct op_state *s)
{
	fctx_close(&s->own);
}

static int op_heap_call(struct op_state *s)
{
	struct vgpu_heap_create hc = { .size = 4 * MIB };

	return ioctl(s->own.fd, VGPU_IOCTL_HEAP_CREATE, &hc) ? -errno : 0;
}

static int op_register_prep(struct op_state *s)
{
	s->size = 8192;
	s->mem = mmap(NULL, s->size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->mem == MAP_FAILED)
		return -1;
	memset(s->mem, 1, s->size);	/* no page faults inside the pin */
	return 0;
}

static int op_register_call(struct op_state *s)
{
	struct vgpu_host_register hr = {
		.addr = (uintptr_t)s->mem, .size = s->size,
	};

	return ioctl(s->f->fd, VGPU_IOCTL_HOST_REGISTER, &hr) ? -errno : 0;
}

static void op_register_undo(struct op_state *s)
{
	struct vgpu_host_unregister hu = { .addr = (uintptr_t)s->mem };

	ioctl(s->f->fd, VGPU_IOCTL_HOST_UNREGISTER, &hu);
}

static void op_register_fini(struct op_state *s)
{
	munmap(s->mem, s->size);
}

static int op_host_alloc_call(struct op_state *s)
{
	struct vgpu_host_alloc ha = { .size = 8192 };

	if (ioctl(s->own.fd, VGPU_IOCTL_HOST_ALLOC, &ha))
		return -errno;
	s->handle = ha.offset;
	return 0;
}

/* A HOST_ALLOC waiting for its mmap(), in a context of the call's own. */
static int op_host_map_prep(struct op_state *s)
{
	if (op_own_ctx_prep(s))
		return -1;
	return op_host_alloc_call(s);
}

static int op_host_map_call(struct op_state *s)
{
	s->mem = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED,
		      s->own.fd, s->handle);
	return s->mem == MAP_FAILED ? -errno : 0;
}

static void op_host_map_undo(struct op_state *s)
{
	munmap(s->mem, 8192);
}

static int op_chan_create_call(struct op_state *s)
{
	struct vgpu_chan_create cc = {
		.ring_size = RING, .ring = (uintptr_t)s->f->c.ring,
	};

	if (ioctl(s->f->fd, VGPU_IOCTL_CHAN_CREATE, &cc))
		return -errno;
	s->handle = cc.handle;
	return 0;
}

static void op_chan_create_undo(struct op_state *s)
{
	struct vgpu_chan_destroy cd = { .handle = s->handle };

	ioctl(s->f->fd, VGPU_IOCTL_CHAN_DESTROY, &cd);
}

static int op_submit_prep(struct op_state *s)
{
	slot(&s->f->c)->op = VGPU_CMD_NOP;
	return 0;
}

static int op_submit_call(struct op_state *s)
{
	return submit(&s->f->c) ? -errno : 0;
}

/* Failed, the slot was never taken; else its NOP is waited for. */
static void op_submit_undo(struct op_state *s)
{
	wait_for(&s->f->c, s->f->c.put);
}

static void op_submit_fini_failed(struct op_state *s)
{
	s->f->c.put--;
}

static int op_module_call(struct op_state *s)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)exit_prog, .funcs = (uintptr_t)&exit_func,
		.ninsns = 1, .nfuncs = 1,
	};

	if (ioctl(s->f->fd, VGPU_IOCTL_MODULE_LOAD, &ml))
		return -errno;
	s->handle = ml.handle;
	return 0;
}

static void op_module_undo(struct op_state *s)
{
	struct vgpu_module_unload mu = { .handle = s->handle };

	ioctl(s->f->fd, VGPU_IOCTL_MODULE_UNLOAD, &mu);
}

FIXTURE(nth) {
	struct fctx f;
};

/*
 * @prep: before each call, outside the window; @undo: after a call that
 * succeeded; @failed: after one that failed; @fini: after either.
 */
FIXTURE_VARIANT(nth) {
	int (*prep)(struct op_state *s);
	int (*call)(struct op_state *s);
	void (*undo)(struct op_state *s);
	void (*failed)(struct op_state *s);
	void (*fini)(struct op_state *s);
};

FIXTURE_VARIANT_ADD(nth, open) {
	.call = op_open_call, .undo = op_open_undo,
};

FIXTURE_VARIANT_ADD(nth, mem_alloc_small) {
	.call = op_mem_small_call, .undo = op_mem_undo,
};

FIXTURE_VARIANT_ADD(nth, mem_alloc_large) {
	.call = op_mem_large_call, .undo = op_mem_undo,
};

FIXTURE_VARIANT_ADD(nth, heap_create) {
	.prep = op_own_ctx_prep, .call = op_heap_call,
	.fini = op_own_ctx_undo,
};

FIXTURE_VARIANT_ADD(nth, host_register) {
	.prep = op_register_prep, .call = op_register_call,
	.undo = op_register_undo, .fini = op_register_fini,
};

FIXTURE_VARIANT_ADD(nth, host_alloc) {
	.prep = op_own_ctx_prep, .call = op_host_alloc_call,
	.fini = op_own_ctx_undo,
};

FIXTURE_VARIANT_ADD(nth, host_alloc_mmap) {
	.prep = op_host_map_prep, .call = op_host_map_call,
	.undo = op_host_map_undo, .fini = op_own_ctx_undo,
};

FIXTURE_VARIANT_ADD(nth, chan_create) {
	.call = op_chan_create_call, .undo = op_chan_create_undo,
};

FIXTURE_VARIANT_ADD(nth, chan_submit) {
	.prep = op_submit_prep, .call = op_submit_call,
	.undo = op_submit_undo, .failed = op_submit_fini_failed,
};

FIXTURE_VARIANT_ADD(nth, module_load) {
	.call = op_module_call, .undo = op_module_undo,
};

FIXTURE_SETUP(nth)
{
	unsigned int i;
	char path[128];

	self->f.fd = -1;
	if (access(DEBUGFS "/failslab", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (access(DEBUGFS "/failslab", F_OK) || access(FAIL_NTH, W_OK))
		SKIP(return, "no fault injection in this kernel");
	for (i = 0; i < sizeof(fi_setup) / sizeof(fi_setup[0]); i++) {
		snprintf(path, sizeof(path), DEBUGFS "/%s", fi_setup[i].file);
		ASSERT_EQ(0, write_str(path, fi_setup[i].value)) TH_LOG("%s", path);
	}
	ASSERT_EQ(0, fctx_open(&self->f));
	nth_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, nth_fd);
}

FIXTURE_TEARDOWN(nth)
{
	if (nth_fd >= 0)
		close(nth_fd);
	fctx_close(&self->f);
}

TEST_F(nth, each_fault_point_unwinds)
{
	long mem_base = mem_used(), pins_base = pins_held();
	unsigned int n, refused = 0;
	struct op_state s;
	bool spent = true;
	int ret;

	ASSERT_LE(0, mem_base);
	for (n = 1; spent && n <= MAX_POINTS; n++) {
		memset(&s, 0, sizeof(s));
		s.f = &self->f;
		s.own.fd = -1;
		ASSERT_EQ(0, variant->prep ? variant->prep(&s) : 0);
		ASSERT_EQ(0, nth_arm(n));
		ret = variant->call(&s);
		spent = nth_spent();
		if (!ret && variant->undo)
			variant->undo(&s);
		if (ret && variant->failed)
			variant->failed(&s);
		if (variant->fini)
			variant->fini(&s);
		if (spent) {
			EXPECT_TRUE(!ret || ret == -ENOMEM || ret == -EFAULT)
				TH_LOG("point %u: %s", n, strerror(-ret));
			refused += ret != 0;
		} else {
			/* Past the last point: the call as it always goes. */
			EXPECT_EQ(0, ret) TH_LOG("point %u: %s", n, strerror(-ret));
		}
		EXPECT_EQ(mem_base, mem_used()) TH_LOG("point %u", n);
		if (pins_base >= 0)
			EXPECT_EQ(pins_base, pins_held()) TH_LOG("point %u", n);
		if (_metadata->passed == 0)
			break;
	}
	EXPECT_FALSE(spent) TH_LOG("more than %u fault points", MAX_POINTS);
	/* Something of the call's own failed it, at least once. */
	EXPECT_LT(0, refused);
	TH_LOG("%u fault points, %u refused", n - 2, refused);
	/* The context that saw the failures still works. */
	slot(&self->f.c)->op = VGPU_CMD_NOP;
	EXPECT_EQ(0, submit(&self->f.c));
	EXPECT_EQ(0, wait_for(&self->f.c, self->f.c.put));
}

TEST_HARNESS_MAIN
