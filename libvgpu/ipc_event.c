// SPDX-License-Identifier: MIT
/*
 * Events shared between processes (CU_EVENT_INTERPROCESS): the event's
 * state is a page of a memfd that every process using the event maps and
 * registers with its context, so each one's engines write and wait on the
 * same words:
 * - @issued, counted up by the host at each record, in any process;
 * - @done, written by the engine once a record is reached (a record first
 *   waits for the one before it, so @done only grows).
 * A query compares the two, a wait waits for @done to reach @issued as
 * the call found it; within the event's own context a stream waits on the
 * engine (SEM_ACQUIRE), elsewhere on the host. The handle names the
 * exporter's descriptor of the memfd (its pid and fd number, and the
 * memfd's inode to tell a reused number apart); another process opens it
 * through /proc, which the kernel allows only to processes that may
 * inspect the exporter (the same user, or root). An H100's answers:
 * tests/e2e/ref/h100_ipc.log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vg.h"

#define VG_IPC_EVENT_MAGIC 0x76674556u	/* "VEgv" */
#define VG_IPC_PAGE 4096

/* The shared page's words. */
struct vg_ipc_sem {
	uint64_t done;
	uint64_t issued;
};

/* What a CUipcEventHandle carries. */
struct vg_ipc_event_handle {
	uint32_t magic;
	int32_t pid;
	int32_t fd;
	uint32_t pad;
	uint64_t ino;
	uint64_t dev;
};

_Static_assert(sizeof(struct vg_ipc_event_handle) <=
	       sizeof(((CUipcEventHandle *)0)->reserved), "handle size");

struct vg_ipc_event {
	int fd;				/* the memfd */
	struct vg_ipc_sem *sem;		/* its page, mapped shared */
	struct stat st;			/* its identity */
};

/* Maps @fd's page and registers it with @ctx; takes @fd. */
static CUresult vg_ipc_event_attach(struct CUctx_st *ctx, int fd,
				    struct vg_ipc_event **pipc)
{
	struct vgpu_host_register hr = { .size = VG_IPC_PAGE };
	struct vg_ipc_event *ipc = calloc(1, sizeof(*ipc));
	void *p = MAP_FAILED;

	if (!ipc || fstat(fd, &ipc->st))
		goto err;
	p = mmap(NULL, VG_IPC_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		goto err;
	hr.addr = (uintptr_t)p;
	if (ioctl(ctx->fd, VGPU_IOCTL_HOST_REGISTER, &hr))
		goto err;
	ipc->fd = fd;
	ipc->sem = p;
	*pipc = ipc;
	return CUDA_SUCCESS;
err:
	if (p != MAP_FAILED)
		munmap(p, VG_IPC_PAGE);
	free(ipc);
	close(fd);
	return CUDA_ERROR_OUT_OF_MEMORY;
}

/* cuEventCreate of an interprocess event in @ctx. */
CUresult vg_ipc_event_create(struct CUctx_st *ctx, struct CUevent_st *e)
{
	int fd = memfd_create("vgpu-ipc-event", MFD_CLOEXEC);

	if (fd < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (ftruncate(fd, VG_IPC_PAGE)) {
		close(fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	return vg_ipc_event_attach(ctx, fd, &e->ipc);
}

/*
 * The event goes; with @registered, its context is still open and the
 * page's registration is taken back too.
 */
void vg_ipc_event_free(struct CUevent_st *e, bool registered)
{
	struct vgpu_host_unregister hu;

	if (!e->ipc)
		return;
	if (registered) {
		memset(&hu, 0, sizeof(hu));
		hu.addr = (uintptr_t)e->ipc->sem;
		ioctl(e->ctx->fd, VGPU_IOCTL_HOST_UNREGISTER, &hu);
	}
	munmap(e->ipc->sem, VG_IPC_PAGE);
	close(e->ipc->fd);
	free(e->ipc);
	e->ipc = NULL;
}

static uint64_t vg_ipc_load(const uint64_t *w)
{
	return __atomic_load_n(w, __ATOMIC_ACQUIRE);
}

/* Has the record @target been reached (0: none was made)? */
static bool vg_ipc_reached(const struct vg_ipc_sem *sem, uint64_t target)
{
	return (int64_t)(vg_ipc_load(&sem->done) - target) >= 0;
}

/*
 * The engine uses @e's page up to @st's last command: a destroyed event
 * keeps it until then (event.c).
 */
static void vg_ipc_event_used(struct CUevent_st *e, struct CUstream_st *st)
{
	st->last = st->ch->put;
	e->recorded = true;
	e->at = (struct vg_fence){ .ch = st->ch, .seqno = st->ch->put };
}

/*
 * cuEventRecord of an interprocess event on @st, whose context's lock is
 * held: after the one before it (in whichever process), the engine marks
 * this record reached.
 */
CUresult vg_ipc_event_record(struct CUevent_st *e, struct CUstream_st *st)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_SEM_ACQUIRE, .flags = VGPU_SEM_GEQ };
	struct vg_ipc_sem *sem = e->ipc->sem;
	CUresult r = vg_stream_enter(st);
	uint64_t n;

	if (r)
		return r;
	n = __atomic_add_fetch(&sem->issued, 1, __ATOMIC_ACQ_REL);
	cmd.sem.addr = (uintptr_t)&sem->done;
	cmd.sem.value = n - 1;
	r = vg_chan_push(st->ch, &cmd, NULL);
	cmd.op = VGPU_CMD_SEM_RELEASE;
	cmd.flags = 0;
	cmd.sem.value = n;
	if (r == CUDA_SUCCESS)
		r = vg_chan_push(st->ch, &cmd, NULL);
	if (r == CUDA_SUCCESS)
		vg_ipc_event_used(e, st);
	return r;
}

/* cuEventQuery: every record made so far has been reached. */
bool vg_ipc_event_done(const struct CUevent_st *e)
{
	return vg_ipc_reached(e->ipc->sem,
			      vg_ipc_load(&e->ipc->sem->issued));
}

/*
 * A host wait for the records made so far, with no lock held: polls,
 * backing off to a millisecond (the engine's write wakes nothing here).
 */
void vg_ipc_event_sleep(const struct CUevent_st *e)
{
	const struct vg_ipc_sem *sem = e->ipc->sem;
	uint64_t target = vg_ipc_load(&sem->issued);
	struct timespec ts = { 0, 1000 };

	while (!vg_ipc_reached(sem, target)) {
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 1000000)
			ts.tv_nsec *= 2;
	}
}

/*
 * cuStreamWaitEvent of an interprocess event of @st's own context (its
 * lock held): the engine waits for the records made so far.
 */
CUresult vg_ipc_event_wait(struct CUevent_st *e, struct CUstream_st *st)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_SEM_ACQUIRE, .flags = VGPU_SEM_GEQ };
	uint64_t target = vg_ipc_load(&e->ipc->sem->issued);
	CUresult r;

	if (!target)
		return CUDA_SUCCESS;
	cmd.sem.addr = (uintptr_t)&e->ipc->sem->done;
	cmd.sem.value = target;
	r = vg_chan_push(st->ch, &cmd, NULL);
	if (r == CUDA_SUCCESS)
		vg_ipc_event_used(e, st);
	return r;
}

CUresult cuIpcGetEventHandle(CUipcEventHandle *h, CUevent he)
{
	struct vg_ipc_event_handle x = { .magic = VG_IPC_EVENT_MAGIC };
	struct CUevent_st *e;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!h)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	e = vg_event_find(he);
	if (!e || !e->ipc) {
		r = CUDA_ERROR_INVALID_HANDLE;
	} else {
		x.pid = getpid();
		x.fd = e->ipc->fd;
		x.ino = e->ipc->st.st_ino;
		x.dev = e->ipc->st.st_dev;
	}
	pthread_mutex_unlock(&vg_lock);
	if (r == CUDA_SUCCESS) {
		memset(h, 0, sizeof(*h));
		memcpy(h->reserved, &x, sizeof(x));
	}
	return r;
}

/* The exporter's memfd, through /proc; -1 when it is not there. */
static int vg_ipc_event_fd(const struct vg_ipc_event_handle *x)
{
	char path[64];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", x->pid, x->fd);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_ino != x->ino || st.st_dev != x->dev) {
		close(fd);
		return -1;
	}
	return fd;
}

CUresult cuIpcOpenEventHandle(CUevent *pe, CUipcEventHandle h)
{
	struct vg_ipc_event_handle x;
	struct CUevent_st *e = NULL;
	struct CUctx_st *ctx;
	int fd;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pe)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(&x, h.reserved, sizeof(x));
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	/* An H100 refuses its own process's handle so. */
	if (r == CUDA_SUCCESS && x.magic == VG_IPC_EVENT_MAGIC &&
	    x.pid == getpid())
		r = CUDA_ERROR_INVALID_CONTEXT;
	if (r == CUDA_SUCCESS && (x.magic != VG_IPC_EVENT_MAGIC || x.pad ||
				  x.pid <= 0 || x.fd < 0))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS) {
		fd = vg_ipc_event_fd(&x);
		if (fd < 0)
			r = CUDA_ERROR_INVALID_VALUE;
	}
	if (r == CUDA_SUCCESS) {
		e = calloc(1, sizeof(*e));
		if (!e) {
			close(fd);
			r = CUDA_ERROR_OUT_OF_MEMORY;
		}
	}
	if (r == CUDA_SUCCESS)
		r = vg_ipc_event_attach(ctx, fd, &e->ipc);
	if (r == CUDA_SUCCESS) {
		e->flags = CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING;
		e->ctx = ctx;
		vg_event_add(e);
		*pe = e;
	} else {
		free(e);
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}
