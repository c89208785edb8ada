// SPDX-License-Identifier: GPL-2.0
/*
 * The module's fault-injection knobs (debugfs vgpu/vgpu0/), and through
 * them every allocation and pin site of the module that a process can
 * reach: each row of the walk table arms one kind's countdown at 1, 2,
 * ... for one operation, until the operation makes fewer calls of that
 * kind than the countdown; it must make exactly the calls the row names
 * (so a site that moves or goes is noticed), each failure must reach the
 * caller as the row's errno, the next call must succeed, and the
 * device's mem_used must be back where it was. Then the engines: an
 * injected fault on the n-th command of a copy engine and on a launch,
 * reported as real ones are, and a stalled engine that holds its command
 * until released, yet lets its process exit or be killed. Leaks of kernel
 * memory show in kmemleak's report of a debug kernel run. Skips where the
 * module has no knobs (no debugfs).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define DEV "/dev/vgpu0"
#define DEBUGFS "/sys/kernel/debug"
#define KNOBS DEBUGFS "/vgpu/vgpu0/"
#define MEM_USED "/sys/class/vgpu/vgpu0/mem_used"
#define WIN_BASE (1ULL << 44)

static const char *const all_knobs[] = {
	"fail_ctx", "fail_mem", "fail_host", "fail_pin", "fail_chan",
	"fail_module", "fail_heap", "fail_launch", "fail_block", "fault_ce",
	"fault_compute", "stall_ce", "stall_compute",
};

/* Whether the knobs are there, mounting debugfs if nobody has. */
static bool knobs_present(void)
{
	if (!access(KNOBS "fail_mem", W_OK))
		return true;
	if (access(DEV, F_OK))
		return false;	/* no module: nothing to mount debugfs for */
	mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	return !access(KNOBS "fail_mem", W_OK);
}

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

static void knobs_clear(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(all_knobs) / sizeof(all_knobs[0]); i++)
		knob_set(all_knobs[i], 0);
}

static long mem_used(void)
{
	return read_long(MEM_USED);
}

/* Pages pinned by pin_user_pages() and not yet unpinned, machine-wide. */
static long pins_held(void)
{
	char line[128];
	long acq = -1, rel = -1, v;
	FILE *f;
	int fd;

	/* The counters are per CPU until folded: fold them first. */
	fd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "1", 1) != 1) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
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

/* A context of the test: its file, status page, a channel. */
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
	if (f->fd >= 0)
		close(f->fd);
	free(f->c.ring);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static const struct vgpu_insn exit_prog[] = { EXIT() };
static const struct vgpu_func exit_func = { .nregs = 1 };

static int load_exit(int fd, __u32 *handle)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)exit_prog, .funcs = (uintptr_t)&exit_func,
		.ninsns = 1, .nfuncs = 1,
	};

	if (ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml))
		return -errno;
	*handle = ml.handle;
	return 0;
}

static void cmd_launch1(struct chan *c, __u32 module, __u64 grid_sync)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = module;
	cmd->launch.grid[0] = cmd->launch.grid[1] = cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = cmd->launch.block[1] = cmd->launch.block[2] = 1;
	cmd->launch.grid_sync = grid_sync;
}

static __u32 fault_kind(struct fctx *f)
{
	struct vgpu_chan_fault cf = { .handle = f->c.handle };

	return ioctl(f->fd, VGPU_IOCTL_CHAN_FAULT, &cf) ? ~0U : cf.kind;
}

/*
 * The operations the walk fails. Each returns 0, having undone what it
 * made, or -errno. Those that fail a context for good, or cannot undo
 * what they made, bring a context of their own.
 */
static int op_open(struct fctx *f)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int mem_alloc_free(struct fctx *f, __u64 size)
{
	struct vgpu_mem_alloc a = { .size = size };
	struct vgpu_mem_free mf = { 0 };

	if (ioctl(f->fd, VGPU_IOCTL_MEM_ALLOC, &a))
		return -errno;
	mf.va = a.va;
	return ioctl(f->fd, VGPU_IOCTL_MEM_FREE, &mf) ? -1000 : 0;
}

/* Small: a record, and a new shared chunk (the context has none). */
static int op_mem_small(struct fctx *f)
{
	return mem_alloc_free(f, 4096);
}

static int op_mem_large(struct fctx *f)
{
	return mem_alloc_free(f, 4 * MIB);
}

static int op_heap(struct fctx *unused)
{
	struct vgpu_heap_create hc = { .size = 4 * MIB };
	struct fctx f;
	int ret = 0;

	if (fctx_open(&f))
		return -1000;
	if (ioctl(f.fd, VGPU_IOCTL_HEAP_CREATE, &hc))
		ret = -errno;
	fctx_close(&f);
	return ret;
}

/*
 * Memory objects (vgpu_vmm.c, vgpu_dmabuf.c), stage by stage in a context
 * of their own: create; reserve; map; export; import. @stages: how many.
 */
static int op_vmm(int stages)
{
	struct vgpu_mem_create mc = { .size = 2 * MIB };
	struct vgpu_va_reserve r = { .size = 2 * MIB };
	struct vgpu_mem_map m = { .size = 2 * MIB };
	struct vgpu_mem_export e = { .fd = -1 };
	struct vgpu_mem_import im = { 0 };
	struct fctx f;
	int ret = 0;

	if (fctx_open(&f))
		return -1000;
	if (ioctl(f.fd, VGPU_IOCTL_MEM_CREATE, &mc))
		ret = -errno;
	if (!ret && stages > 1 && ioctl(f.fd, VGPU_IOCTL_VA_RESERVE, &r))
		ret = -errno;
	m.va = r.va;
	m.handle = mc.handle;
	if (!ret && stages > 2 && ioctl(f.fd, VGPU_IOCTL_MEM_MAP, &m))
		ret = -errno;
	e.handle = mc.handle;
	if (!ret && stages > 3 && ioctl(f.fd, VGPU_IOCTL_MEM_EXPORT, &e))
		ret = -errno;
	im.fd = e.fd;
	if (!ret && stages > 4 && ioctl(f.fd, VGPU_IOCTL_MEM_IMPORT, &im))
		ret = -errno;
	if (e.fd >= 0)
		close(e.fd);
	fctx_close(&f);
	return ret;
}

static int op_vmm_create(struct fctx *unused)
{
	return op_vmm(1);
}

static int op_vmm_reserve(struct fctx *unused)
{
	return op_vmm(2);
}

static int op_vmm_map(struct fctx *unused)
{
	return op_vmm(3);
}

static int op_vmm_export(struct fctx *unused)
{
	return op_vmm(4);
}

static int op_vmm_import(struct fctx *unused)
{
	return op_vmm(5);
}

/* IPC (vgpu_ipc.c): an allocation exported by one context, opened by another. */
static int op_ipc(struct fctx *unused)
{
	struct vgpu_mem_alloc a = { .size = 4096 };
	struct vgpu_ipc_export x = { 0 };
	struct vgpu_ipc_open o = { 0 };
	struct vgpu_va_window w = { .base = WIN_BASE + (1ULL << 32),
				    .size = 1ULL << 32 };
	struct fctx f;
	int ret = 0, fd;

	if (fctx_open(&f))
		return -1000;
	fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w))
		ret = -1000;
	if (!ret && ioctl(f.fd, VGPU_IOCTL_MEM_ALLOC, &a))
		ret = -errno;
	x.va = a.va;
	if (!ret && ioctl(f.fd, VGPU_IOCTL_IPC_EXPORT, &x))
		ret = -errno;
	o.token[0] = x.token[0];
	o.token[1] = x.token[1];
	if (!ret && ioctl(fd, VGPU_IOCTL_IPC_OPEN, &o))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	fctx_close(&f);
	return ret;
}

/* Peers (vgpu_peer.c): one context linked to another. */
static int op_peer(struct fctx *unused)
{
	struct vgpu_peer_set p = { .flags = VGPU_PEER_ACCESS };
	struct fctx f;
	int ret = 0;

	if (fctx_open(&f))
		return -1000;
	p.fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	if (p.fd < 0)
		ret = -1000;
	if (!ret && ioctl(f.fd, VGPU_IOCTL_PEER_SET, &p))
		ret = -errno;
	if (p.fd >= 0)
		close(p.fd);
	fctx_close(&f);
	return ret;
}

static int host_register(struct fctx *f, size_t size)
{
	struct vgpu_host_register hr = { .size = size };
	struct vgpu_host_unregister hu = { 0 };
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret = 0;

	if (p == MAP_FAILED)
		return -1000;
	hr.addr = (uintptr_t)p;
	if (ioctl(f->fd, VGPU_IOCTL_HOST_REGISTER, &hr)) {
		ret = -errno;
	} else {
		hu.addr = hr.addr;
		if (ioctl(f->fd, VGPU_IOCTL_HOST_UNREGISTER, &hu))
			ret = -1000;
	}
	munmap(p, size);
	return ret;
}

static int op_host_register(struct fctx *f)
{
	return host_register(f, 8192);
}

/* 4 MiB: two batches of the module's pins, the second undoing the first. */
static int op_host_register_4m(struct fctx *f)
{
	return host_register(f, 4 * MIB);
}

/*
 * HOST_ALLOC of two pages, managed memory with @flags, then its mmap()
 * (which places the range).
 */
static int host_alloc(__u32 flags)
{
	struct vgpu_host_alloc ha = { .size = 8192, .flags = flags };
	struct fctx f;
	void *p;
	int ret = 0;

	if (fctx_open(&f))
		return -1000;
	if (ioctl(f.fd, VGPU_IOCTL_HOST_ALLOC, &ha)) {
		ret = -errno;
	} else {
		p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd,
			 ha.offset);
		if (p == MAP_FAILED)
			ret = -errno;
		else
			munmap(p, 8192);
	}
	fctx_close(&f);
	return ret;
}

static int op_host_alloc(struct fctx *unused)
{
	return host_alloc(0);
}

static int op_host_alloc_managed(struct fctx *unused)
{
	return host_alloc(VGPU_HOST_ALLOC_MANAGED);
}

static int op_chan_create(struct fctx *f)
{
	struct vgpu_chan_create cc = { .ring_size = RING };
	struct vgpu_chan_destroy cd = { 0 };

	cc.ring = (uintptr_t)f->c.ring;
	if (ioctl(f->fd, VGPU_IOCTL_CHAN_CREATE, &cc))
		return -errno;
	cd.handle = cc.handle;
	return ioctl(f->fd, VGPU_IOCTL_CHAN_DESTROY, &cd) ? -1000 : 0;
}

static int op_submit(struct fctx *f)
{
	slot(&f->c)->op = VGPU_CMD_NOP;
	if (submit(&f->c)) {
		int err = errno;

		f->c.put--;	/* the slot was never taken */
		return -err;
	}
	return wait_for(&f->c, f->c.put) ? -1000 : 0;
}

static int op_module(struct fctx *f)
{
	struct vgpu_module_unload mu = { 0 };
	int ret = load_exit(f->fd, &mu.handle);

	if (ret)
		return ret;
	return ioctl(f->fd, VGPU_IOCTL_MODULE_UNLOAD, &mu) ? -1000 : 0;
}

/*
 * One launch of one block in a context of its own (a failed launch fails
 * its context): 0, -EIO when it failed as out of resources (what the
 * module reports for memory it could not get), -1000 otherwise.
 */
static int launch_one(bool gang)
{
	struct vgpu_mem_alloc ws = { .size = 4096 };
	struct fctx f;
	__u32 module;
	int ret = -1000;

	if (fctx_open(&f) || load_exit(f.fd, &module) ||
	    ioctl(f.fd, VGPU_IOCTL_MEM_ALLOC, &ws))
		goto out;
	cmd_launch1(&f.c, module, gang ? ws.va : 0);
	if (submit(&f.c))
		goto out;
	if (!wait_for(&f.c, 1))
		ret = 0;
	else if (errno == EIO &&
		 f.c.status->error == VGPU_CHAN_LAUNCH_FAULT &&
		 fault_kind(&f) == VGPU_KFAULT_RESOURCES)
		ret = -EIO;
out:
	fctx_close(&f);
	return ret;
}

static int op_launch(struct fctx *unused)
{
	return launch_one(false);
}

static int op_gang(struct fctx *unused)
{
	return launch_one(true);
}

FIXTURE(walk) {
	struct fctx f;
	long mem_base;
	long pins_base;
};

/*
 * @knob: the countdown; @sites: the calls of its kind @op makes; @err:
 * what each of them failing returns.
 */
FIXTURE_VARIANT(walk) {
	const char *knob;
	int sites;
	int err;
	int (*op)(struct fctx *f);
};

/* open(): the context, its status page. */
FIXTURE_VARIANT_ADD(walk, ctx_open) {
	.knob = "fail_ctx", .sites = 2, .err = ENOMEM, .op = op_open,
};

/*
 * The record, the shared chunk, its object, the object's memory, granule
 * map, place; the record's place.
 */
FIXTURE_VARIANT_ADD(walk, mem_alloc_small) {
	.knob = "fail_mem", .sites = 7, .err = ENOMEM, .op = op_mem_small,
};

/* The record, a chunk of its own, its object, memory, place; the record's place. */
FIXTURE_VARIANT_ADD(walk, mem_alloc_large) {
	.knob = "fail_mem", .sites = 6, .err = ENOMEM, .op = op_mem_large,
};

/* An object, its memory, its handle. */
FIXTURE_VARIANT_ADD(walk, vmm_create) {
	.knob = "fail_mem", .sites = 3, .err = ENOMEM, .op = op_vmm_create,
};

/* Those; a reservation, its place. */
FIXTURE_VARIANT_ADD(walk, vmm_reserve) {
	.knob = "fail_mem", .sites = 5, .err = ENOMEM, .op = op_vmm_reserve,
};

/* Those; a mapping, its place. */
FIXTURE_VARIANT_ADD(walk, vmm_map) {
	.knob = "fail_mem", .sites = 7, .err = ENOMEM, .op = op_vmm_map,
};

/* Those; the dma-buf. */
FIXTURE_VARIANT_ADD(walk, vmm_export) {
	.knob = "fail_mem", .sites = 8, .err = ENOMEM, .op = op_vmm_export,
};

/* Those; the imported handle. */
FIXTURE_VARIANT_ADD(walk, vmm_import) {
	.knob = "fail_mem", .sites = 9, .err = ENOMEM, .op = op_vmm_import,
};

/*
 * A small allocation's seven; the token and its place; the opener's
 * reservation and mapping, and the places of both.
 */
FIXTURE_VARIANT_ADD(walk, ipc) {
	.knob = "fail_mem", .sites = 12, .err = ENOMEM, .op = op_ipc,
};

/* The link. */
FIXTURE_VARIANT_ADD(walk, peer) {
	.knob = "fail_mem", .sites = 1, .err = ENOMEM, .op = op_peer,
};

/* The heap, its two bitmaps, its hidden record. */
FIXTURE_VARIANT_ADD(walk, heap_create) {
	.knob = "fail_heap", .sites = 4, .err = ENOMEM, .op = op_heap,
};

/* The heap's device memory: a chunk, its object, memory, place; the record's place. */
FIXTURE_VARIANT_ADD(walk, heap_create_mem) {
	.knob = "fail_mem", .sites = 5, .err = ENOMEM, .op = op_heap,
};

/* The range, its page array, its place. */
FIXTURE_VARIANT_ADD(walk, host_register) {
	.knob = "fail_host", .sites = 3, .err = ENOMEM,
	.op = op_host_register,
};

/* Two batches of pins. */
FIXTURE_VARIANT_ADD(walk, host_register_pin) {
	.knob = "fail_pin", .sites = 2, .err = ENOMEM,
	.op = op_host_register_4m,
};

/* The range, its page array, two pages, its id; mmap(): its place. */
FIXTURE_VARIANT_ADD(walk, host_alloc) {
	.knob = "fail_host", .sites = 6, .err = ENOMEM, .op = op_host_alloc,
};

/* Those, and the managed range's page bitmaps. */
FIXTURE_VARIANT_ADD(walk, host_alloc_managed) {
	.knob = "fail_host", .sites = 7, .err = ENOMEM,
	.op = op_host_alloc_managed,
};

/* The channel, its queue. */
FIXTURE_VARIANT_ADD(walk, chan_create) {
	.knob = "fail_chan", .sites = 2, .err = ENOMEM, .op = op_chan_create,
};

/* The copy of the new commands. */
FIXTURE_VARIANT_ADD(walk, chan_submit) {
	.knob = "fail_chan", .sites = 1, .err = ENOMEM, .op = op_submit,
};

/*
 * The module, its instructions, functions, constants, the verifier's
 * verdict, seen map and stack, the handle.
 */
FIXTURE_VARIANT_ADD(walk, module_load) {
	.knob = "fail_module", .sites = 8, .err = ENOMEM, .op = op_module,
};

/* The launch's run and parameters: the launch fails, out of resources. */
FIXTURE_VARIANT_ADD(walk, launch) {
	.knob = "fail_launch", .sites = 2, .err = EIO, .op = op_launch,
};

/* A cooperative launch's run, parameters and blocks. */
FIXTURE_VARIANT_ADD(walk, launch_gang) {
	.knob = "fail_launch", .sites = 3, .err = EIO, .op = op_gang,
};

/* The SM worker's block state. */
FIXTURE_VARIANT_ADD(walk, launch_block) {
	.knob = "fail_block", .sites = 1, .err = EIO, .op = op_launch,
};

/*
 * A SKIP() here does not keep the harness (6.1's) from running the test:
 * each test returns first thing when skipped.
 */
FIXTURE_SETUP(walk)
{
	self->f.fd = -1;
	if (!knobs_present())
		SKIP(return, "no fault-injection knobs (debugfs)");
	knobs_clear();
	ASSERT_EQ(0, fctx_open(&self->f));
	self->mem_base = mem_used();
	ASSERT_LE(0, self->mem_base);
	self->pins_base = pins_held();
}

FIXTURE_TEARDOWN(walk)
{
	knobs_clear();
	fctx_close(&self->f);
}

TEST_F(walk, each_site_fails_cleanly)
{
	int n, ret;

	if (_metadata->skip)
		return;

	for (n = 1; n <= variant->sites + 1; n++) {
		bool hit;

		ASSERT_EQ(0, knob_set(variant->knob, n));
		ret = variant->op(&self->f);
		hit = knob_get(variant->knob) == 0;
		ASSERT_EQ(0, knob_set(variant->knob, 0));
		if (n <= variant->sites) {
			/* The n-th site failed, and the caller heard it. */
			EXPECT_TRUE(hit) TH_LOG("%s=%d was not reached", variant->knob, n);
			EXPECT_EQ(-variant->err, ret) TH_LOG("%s=%d", variant->knob, n);
		} else {
			/* No site left: the same call now succeeds. */
			EXPECT_FALSE(hit) TH_LOG("%s: more than %d sites", variant->knob,
						 variant->sites);
			EXPECT_EQ(0, ret);
		}
		EXPECT_EQ(self->mem_base, mem_used()) TH_LOG("%s=%d", variant->knob, n);
		if (self->pins_base >= 0)
			EXPECT_EQ(self->pins_base, pins_held()) TH_LOG("%s=%d",
								    variant->knob, n);
	}
	/* The context that saw the failures still works. */
	EXPECT_EQ(0, op_submit(&self->f));
}

FIXTURE(engine) {
	struct fctx f;
	long mem_base;
	__u64 dev;
};

FIXTURE_SETUP(engine)
{
	struct vgpu_mem_alloc a = { .size = 4096 };

	self->f.fd = -1;
	if (!knobs_present())
		SKIP(return, "no fault-injection knobs (debugfs)");
	knobs_clear();
	self->mem_base = mem_used();
	ASSERT_EQ(0, fctx_open(&self->f));
	ASSERT_EQ(0, ioctl(self->f.fd, VGPU_IOCTL_MEM_ALLOC, &a));
	self->dev = a.va;
}

FIXTURE_TEARDOWN(engine)
{
	knobs_clear();
	fctx_close(&self->f);
	if (!_metadata->skip)
		EXPECT_EQ(self->mem_base, mem_used());
}

/* The second command faults at its destination; the first ran. */
TEST_F(engine, copy_fault_on_nth_command)
{
	struct chan *c = &self->f.c;

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, knob_set("fault_ce", 2));
	cmd_memset(c, self->dev, 0x11, 1, 256);
	cmd_memset(c, self->dev + 256, 0x22, 1, 256);
	ASSERT_EQ(0, submit(c));
	EXPECT_EQ(0, wait_for(c, 1));
	EXPECT_EQ(-1, wait_for(c, 2));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, knob_get("fault_ce"));
	EXPECT_EQ(VGPU_CHAN_FAULT, c->status->error);
	EXPECT_EQ(2, c->status->error_seqno);
	EXPECT_EQ(self->dev + 256, c->status->error_addr);
	/* Sticky, as a real fault: the channel takes no more work. */
	slot(c)->op = VGPU_CMD_NOP;
	EXPECT_EQ(-1, submit(c));
	EXPECT_EQ(EIO, errno);
}

/* A launch faults as an illegal address, reported through CHAN_FAULT. */
TEST_F(engine, compute_fault)
{
	struct vgpu_chan_fault cf = { 0 };
	struct chan *c = &self->f.c;
	__u32 module;

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, load_exit(self->f.fd, &module));
	ASSERT_EQ(0, knob_set("fault_compute", 2));
	cmd_launch1(c, module, 0);
	cmd_launch1(c, module, 0);
	ASSERT_EQ(0, submit(c));
	EXPECT_EQ(0, wait_for(c, 1));
	EXPECT_EQ(-1, wait_for(c, 2));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, knob_get("fault_compute"));
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, c->status->error);
	cf.handle = c->handle;
	ASSERT_EQ(0, ioctl(self->f.fd, VGPU_IOCTL_CHAN_FAULT, &cf));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, cf.kind);
	EXPECT_EQ(module, cf.module);
	EXPECT_EQ(2, cf.seqno);
}

static int wait_ms(struct chan *c, __u64 seqno, unsigned int ms)
{
	struct vgpu_chan_wait w = {
		.seqno = seqno, .handle = c->handle,
		.deadline_ns = (__s64)(now_ns() + ms * 1000000ULL),
	};

	return ioctl(c->fd, VGPU_IOCTL_CHAN_WAIT, &w) ? errno : 0;
}

/* Held while the knob is set, run once it is cleared. */
static void stall_then_release(struct __test_metadata *_metadata,
			       struct fctx *f, const char *knob,
			       __u32 module, __u64 dev)
{
	struct chan *c = &f->c;

	ASSERT_EQ(0, knob_set(knob, 1));
	if (module)
		cmd_launch1(c, module, 0);
	else
		cmd_memset(c, dev, 0x33, 1, 256);
	ASSERT_EQ(0, submit(c));
	EXPECT_EQ(ETIME, wait_ms(c, c->put, 300));
	EXPECT_EQ(1, knob_get(knob));
	ASSERT_EQ(0, knob_set(knob, 0));
	EXPECT_EQ(0, wait_for(c, c->put));
	EXPECT_EQ(0, c->status->error);
}

TEST_F(engine, copy_stall)
{
	if (_metadata->skip)
		return;

	stall_then_release(_metadata, &self->f, "stall_ce", 0, self->dev);
}

TEST_F(engine, compute_stall)
{
	__u32 module;

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, load_exit(self->f.fd, &module));
	stall_then_release(_metadata, &self->f, "stall_compute", module, 0);
}

/*
 * A child whose command the engine holds: it exits (@kill 0) or, waiting
 * for the command, is killed. Either way it must be gone within seconds,
 * the stall still set: release lets go of a held command.
 */
static void stalled_child_ends(struct __test_metadata *_metadata,
			       const char *knob, bool launch, bool kill_it)
{
	int status, i;
	pid_t pid;

	ASSERT_EQ(0, knob_set(knob, 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct vgpu_mem_alloc a = { .size = 4096 };
		struct fctx f;
		__u32 module;

		if (fctx_open(&f) || load_exit(f.fd, &module) ||
		    ioctl(f.fd, VGPU_IOCTL_MEM_ALLOC, &a))
			_exit(2);
		if (launch)
			cmd_launch1(&f.c, module, 0);
		else
			cmd_memset(&f.c, a.va, 0x44, 1, 256);
		if (submit(&f.c))
			_exit(3);
		if (kill_it)
			wait_for(&f.c, f.c.put);	/* until killed */
		_exit(0);
	}
	if (kill_it) {
		usleep(300000);
		kill(pid, SIGKILL);
	}
	for (i = 0; i < 1000; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(10000);
	}
	ASSERT_GT(1000, i) {
		kill(pid, SIGKILL);
		TH_LOG("the process did not end while %s was held", knob);
	}
	EXPECT_EQ(1, knob_get(knob));	/* still held */
	if (kill_it) {
		EXPECT_TRUE(WIFSIGNALED(status));
	} else {
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
}

TEST_F(engine, copy_stall_exit)
{
	if (_metadata->skip)
		return;

	stalled_child_ends(_metadata, "stall_ce", false, false);
	/* Released, the engine serves the next context. */
	stall_then_release(_metadata, &self->f, "stall_ce", 0, self->dev);
}

TEST_F(engine, copy_stall_kill)
{
	if (_metadata->skip)
		return;

	stalled_child_ends(_metadata, "stall_ce", false, true);
	stall_then_release(_metadata, &self->f, "stall_ce", 0, self->dev);
}

TEST_F(engine, compute_stall_exit)
{
	__u32 module;

	if (_metadata->skip)
		return;

	stalled_child_ends(_metadata, "stall_compute", true, false);
	ASSERT_EQ(0, load_exit(self->f.fd, &module));
	stall_then_release(_metadata, &self->f, "stall_compute", module, 0);
}

TEST_F(engine, compute_stall_kill)
{
	__u32 module;

	if (_metadata->skip)
		return;

	stalled_child_ends(_metadata, "stall_compute", true, true);
	ASSERT_EQ(0, load_exit(self->f.fd, &module));
	stall_then_release(_metadata, &self->f, "stall_compute", module, 0);
}

TEST_HARNESS_MAIN
