/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu.ko private definitions: the device, the per-open context, and the
 * entry points each file of the module provides to the others.
 *
 * Locking: the module's locks and the order they nest in, outermost
 * first. A lock may be taken while those above it are held, never while
 * one below it is. What each protects is written at its declaration.
 *
 *   0. vgpu_peer_lock (mutex, vgpu_peer.c): the links between contexts;
 *      takes 4 of one context at a time, never two at once.
 *   1. vgpu_ctx.chan_lock (mutex): a context's channel table.
 *   2. vgpu_chan.lock (mutex): one channel's queue, counters, state and
 *      error. Never two channels' at once.
 *   3. mmap_lock (the process's, not ours): taken inside 1 and 2 when
 *      CHAN_SUBMIT's copy of the ring faults; held by the kernel around
 *      mmap() and around closing a mapping of host memory.
 *   4. vgpu_vm.lock (rw_semaphore): a context's address space. Written by
 *      the ioctls that change it and by mmap() and munmap() of host
 *      allocations (inside 3); read by the engines around each command
 *      (vgpu_exec(), vgpu_read()) and by the SM workers around each slice
 *      of a block.
 *
 * Leaves, inside which nothing is taken:
 *   - vgpu_engine.lock (spinlock): an engine's run list; inside 2
 *     (vgpu_engine_queue()) or alone (the engine's work item).
 *   - vgpu_compute.lock (spinlock): the active launches, and the
 *     user-mode SMs of every context with the blocks they hold
 *     (vgpu_usm.c); always alone (vgpu_compute_start(), the SM workers,
 *     the user-mode SMs' ioctls and watchdog). The SM workers have no
 *     lock of their own: they wait on vgpu_compute.wq for blocks, user-mode
 *     SMs on their context's usm_wq.
 *   - vgpu_usm.lock (mutex): one user-mode SM's calls, one at a time;
 *     outermost while it is held (it is not nested with 0 to 4).
 *   - the xarray lock of vgpu_ctx.modules: the table of loaded modules;
 *     alone.
 *   - the xarray locks of vgpu_ctx.mobjs (a context's memory object
 *     handles) and of the IPC registry (both vgpu_mobj.c): alone, or
 *     inside 4 (the registry, as allocations come and go).
 *   - the internal locks of vgpu_vm's maple trees and xarray: inside 4.
 *     A lookup in a maple tree takes only RCU's read side; the tree of
 *     host ranges is in RCU mode, so vgpu_vm_is_host() may look without
 *     4 (inside 2) for placing work.
 *   - vgpu_heap.lock (spinlock): a device heap's bitmaps; inside 4,
 *     held for reading by the SM workers that malloc and free.
 *   - the internal locks of wait queues and workqueues.
 *
 * What follows from the order:
 *   - vgpu_vm.lock is let go before a command is handed back to its
 *     channel (vgpu_chan_done()) and before an SM worker reports a fault
 *     (vgpu_chan_set_fault()), both of which take 2.
 *   - mmap_lock is never taken inside vgpu_vm.lock: host memory is
 *     charged and pinned outside it (vgpu_host.c), and the engines reach
 *     host memory through its pages, never through user addresses.
 *   - an SM worker holds vgpu_vm.lock for reading across its FPU section
 *     (kernel_fpu_begin() to kernel_fpu_end(), preemption off), where
 *     nothing may sleep: the core's lookups there (vgpu_core_lookup())
 *     take no lock beyond the maple tree's RCU read side.
 *   - the shadow mapping's pages (vgpu_shadow.c) leave the process's
 *     page tables under 4 held for writing, by whatever takes device
 *     memory out of the address space; its fault handler, under
 *     mmap_lock, takes 4 for reading (3 before 4, as the order says) and
 *     inserts the page before it lets go, so a page freed after the
 *     lookup is never left mapped.
 *   - managed memory's pages leave the process's page tables
 *     (unmap_mapping_range(), which takes the file's i_mmap_rwsem) under
 *     4 held for reading, after the engine work that touched them and
 *     outside every other lock here (vgpu_managed.c); the mapping's fault
 *     handler, under mmap_lock, takes none of the module's locks.
 *   - an engine reaching a peer's memory (vgpu_peer.c) holds only its own
 *     context's vgpu_vm.lock, and RCU's read side while it uses what it
 *     found there; it never takes the peer's vgpu_vm.lock.
 */
#ifndef _VGPU_DRV_H
#define _VGPU_DRV_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "../uapi/vgpu.h"
#include "../core/core.h"
#include "vgpu_fault_inject.h"

/*
 * The dispatcher's buffer (vgpu_file.c): large enough for every argument
 * structure, and for what a handler keeps after it for its commit or undo
 * (never copied to user space). vgpu_ioctl() refuses, with a warning, a
 * command whose structure outgrows it; a handler that keeps more checks
 * at build time.
 */
#define VGPU_IOCTL_MAX_ARG 256

/* The copy engines of a device (vgpu_engine.c). */
enum {
	VGPU_CE_H2D,		/* copies that read host memory */
	VGPU_CE_D2H,		/* copies that write it */
	VGPU_NUM_CE
};

/*
 * struct vgpu_engine - one engine (vgpu_engine.c), a copy engine or the
 * compute engine's front end: a run list of channels whose next command
 * is this engine's, served in turn by one work item.
 */
struct vgpu_engine {
	spinlock_t lock;	/* protects @ready, @queued, the channels' @node */
	struct list_head ready;
	unsigned int queued;
	struct work_struct work;
	struct workqueue_struct *wq;
};

/*
 * struct vgpu_compute - the compute engine (vgpu_compute.c): a front end
 * that starts the launches of channels in order, and SM workers that run
 * the blocks of every started launch.
 */
struct vgpu_compute {
	struct vgpu_engine front;
	spinlock_t lock;	/* protects @active, @runs, each launch's blocks */
	struct list_head active;	/* launches with blocks to hand out */
	wait_queue_head_t wq;	/* SM workers wait here for blocks */
	unsigned int nsm;
	u64 runs;		/* launches so far; under @lock */
	struct task_struct **sm;
	struct delayed_work usm_watch;	/* vgpu_usm.c's watchdog */
};

/*
 * struct vgpu_device - one virtual GPU, /dev/vgpuN.
 *
 * Everything here is set up before the character device goes live. Then
 * @props never changes, so it is read without locks; @mem_used is atomic;
 * the engines have their own locks. The embedded struct device owns the
 * lifetime: its release frees the structure once the last open file
 * (through the cdev) and the module have dropped their references.
 */
struct vgpu_device {
	struct device dev;
	struct cdev cdev;
	struct vgpu_info props;	/* what GET_INFO reports; flags/pad zero */
	atomic64_t mem_used;	/* device memory held by all contexts */
	atomic64_t kmem_used;	/* their vgpu_ctx.kmem together */
	atomic64_t managed_faults_device;	/* vgpu_managed.c */
	atomic64_t managed_faults_host;
	struct workqueue_struct *engine_wq;	/* runs the engines' work */
	struct vgpu_engine ce[VGPU_NUM_CE];
	struct vgpu_compute compute;
	struct vgpu_fi fi;	/* fault injection (vgpu_fault_inject.c) */
};

/*
 * A range of device memory: one object (one kernel mapping), one place in
 * the window; or, @mobj NULL, a reservation (vgpu_vmm.c), a place without
 * memory, which, @ipc, holds one mapping IPC_OPEN made (vgpu_ipc.c).
 */
struct vgpu_mobj;

struct vgpu_chunk {
	u64 va;
	u64 size;
	struct vgpu_mobj *mobj;	/* a reference */
	bool ipc;
	/* Shared chunks only: granule map, granules in use, list link. */
	unsigned long *bitmap;
	unsigned int used;
	struct list_head link;
};

/*
 * struct vgpu_mobj - a memory object (vgpu_mobj.c): device memory apart
 * from any address, or, @foreign set, another driver's dma-buf imported
 * (vgpu_dmabuf.c), whose memory is that driver's. Held by handles,
 * mappings and exported dma-bufs; nothing in it changes after creation.
 */
struct dma_buf;

struct vgpu_mobj {
	struct kref ref;
	struct vgpu_device *vdev;	/* get_device()'d; charged there */
	u64 size;
	void *vaddr;		/* vmalloc'd, or @foreign's kernel mapping */
	struct dma_buf *foreign;	/* held, and vmap'd at @vaddr */
};

/*
 * One allocation, as user space sees it; or, @hidden, one the module made
 * for itself (the device heap), which kernels reach but MEM_QUERY and
 * MEM_FREE do not see; or, with @mobj, a mapping of a memory object
 * (vgpu_vmm.c), which MEM_FREE does not see either.
 */
struct vgpu_alloc {
	u64 va;
	u64 size;		/* as requested */
	u64 span;		/* as reserved: a multiple of the granule */
	struct vgpu_chunk *chunk;	/* an allocation's */
	bool hidden;
	struct vgpu_mobj *mobj;	/* a mapping's: holds a reference */
	u64 offset;		/* a mapping's first byte in @mobj */
	u32 prot;		/* a mapping's VGPU_PROT_* */
	u8 dev_prot[VGPU_MAX_DEVICES];	/* and other devices' (their index) */
	u64 ipc_id;		/* an allocation's IPC token number, or 0 */
};

/*
 * A host range mapped into a context: registered user memory (vgpu_host.c)
 * or memory the module allocated and user space maps (vgpu_host_alloc.c).
 */
struct vgpu_host_range {
	u64 addr;
	u64 size;
	struct page **pages;
	unsigned long npages;
	bool writable;
	struct mm_struct *mm;	/* registered: charged there; mmgrab()'d */
	refcount_t maps;	/* allocated: the mappings of it */
	bool allocated;
	u64 kmem;		/* allocated: charged to the context's budget */
	/* Managed memory (vgpu_managed.c): where each page lives. */
	bool managed;
	unsigned long *on_device;	/* pages the device has */
	unsigned long *unmap;	/* of those, still in the page tables */
	pgoff_t pgoff;		/* the mapping's offset in the file */
};

/*
 * struct vgpu_vm - a context's device address space (vgpu_mem.c).
 * @lock: protects the rest of the structure and the chunks, allocations
 *	and host ranges it holds: written by the ioctls that change the
 *	address space, read by the engines around each command and by SM
 *	workers around each slice, so engines work in one context at once.
 * @base: first address of the VA window.
 * @size: size of the VA window; 0 until user space sets it.
 * @chunks: chunks of device memory by address range.
 * @allocs: allocations by address range.
 * @shared: chunks that hold small allocations.
 * @hosts: host ranges mapped into the context, by address range.
 * @host_bufs: host memory allocated and not yet mapped, by id.
 * @heap: the device heap kernels malloc from, or NULL (vgpu_heap.c); set
 *	once, cleared only when HEAP_CREATE cannot report it.
 */
struct vgpu_heap;

struct vgpu_vm {
	struct rw_semaphore lock;	/* protects the fields below */
	u64 base;
	u64 size;
	struct maple_tree chunks;
	struct maple_tree allocs;
	struct list_head shared;
	struct maple_tree hosts;
	struct xarray host_bufs;
	struct vgpu_heap *heap;
	struct list_head peers;	/* links to other contexts (vgpu_peer.c) */
	bool managed_unmap;	/* managed pages wait to leave page tables */
	bool peer_target;	/* some context links here: vgpu_vm_retire() */
	u64 gen;		/* changes: vgpu_vm_write_unlock() */
};

/*
 * Ends a change of @vm: its generation moves on, which tells user-mode
 * SMs (USM_WAIT's @map_gen) that the ranges they learned may be stale.
 * Every writer unlocks so, whatever it changed.
 */
static inline void vgpu_vm_write_unlock(struct vgpu_vm *vm)
{
	lockdep_assert_held_write(&vm->lock);
	WRITE_ONCE(vm->gen, vm->gen + 1);
	up_write(&vm->lock);
}

/*
 * struct vgpu_heap - a context's device heap (vgpu_heap.c): @granules
 * units of VGPU_HEAP_ALIGN bytes from device address @va, a hidden
 * allocation. Set up before it is published in vgpu_vm.heap; then only
 * the fields under @lock change.
 */
struct vgpu_heap {
	u64 va;
	unsigned long granules;
	spinlock_t lock;	/* protects the fields below */
	unsigned long *used;	/* granules in blocks */
	unsigned long *start;	/* granules that start a block */
	unsigned long next;	/* where the next search begins */
};

/*
 * struct vgpu_ctx - one open file: a GPU context. Holds a reference on its
 * device for as long as it lives.
 * @running: channels on an engine (queued or executing); release waits
 *	for none (wait_var_event).
 * @busy: channels with commands not yet completed (poll()).
 * @blocked: channels waiting in a SEM_ACQUIRE.
 * @failed: a channel has failed: every channel skips its commands from
 *	then on (vgpu_chan_next()), and poll() reports it. Set under the
 *	failing channel's lock, read without one (release/acquire).
 * @memcg: the opener's memory cgroup (a reference), or NULL: what engines
 *	and SM workers allocate for the context is charged to it, as the
 *	allocations of its ioctls are to the caller's.
 * @sem_work: evaluates the blocked channels' waits again, periodically.
 * @poll_wq: woken at every completion, for poll().
 */
struct vgpu_chan;
struct mem_cgroup;

struct vgpu_ctx {
	struct vgpu_device *vdev;
	struct vgpu_vm vm;
	struct mutex chan_lock;	/* protects chans[] and their @closing */
	struct vgpu_chan *chans[VGPU_MAX_CHANNELS];
	struct page *status_page;	/* struct vgpu_chan_status[] */
	atomic_t running;
	atomic_t busy;
	atomic_t blocked;
	bool failed;
	struct mem_cgroup *memcg;
	struct mm_struct *mm;	/* the opener's (mmgrab()): pins charged there */
	struct delayed_work sem_work;
	wait_queue_head_t poll_wq;
	struct xarray modules;	/* loaded modules by handle (vgpu_module.c) */
	struct xarray mobjs;	/* memory objects by handle (vgpu_vmm.c) */
	atomic64_t kmem;	/* kernel memory held for it (vgpu_kmem.c) */
	struct list_head peered_by;	/* links to it (vgpu_peer.c) */
	struct address_space *mapping;	/* the file's, for unmapping pages */
	bool dying;		/* release has begun: skip queued work */
	struct file *file;	/* the context's own; user-mode SMs hold it */
	struct list_head usms;	/* user-mode SMs; under vgpu_compute.lock */
	u64 usm_gen;		/* bumped when blocks come for them; ditto */
	wait_queue_head_t usm_wq;	/* where they wait for blocks */
};

/* A loaded program (vgpu_module.c); launches hold references. */
struct vgpu_module {
	struct kref ref;
	struct vgpu_program prog;
	struct vgpu_insn *insns;
	struct vgpu_func *funcs;
	u8 *consts;
	u32 const_bytes;
	struct vgpu_ctx *ctx;	/* whose budget @kmem is charged to */
	u64 kmem;
};

/*
 * Where a channel is (vgpu_chan.state): at most on one engine at a time,
 * which keeps its commands in order.
 */
enum vgpu_chan_state {
	VGPU_CS_IDLE,		/* nothing to run, or not yet placed */
	VGPU_CS_QUEUED,	/* on an engine's list, or running there */
	VGPU_CS_BLOCKED,	/* its SEM_ACQUIRE is not satisfied yet */
};

/*
 * struct vgpu_chan - one channel (vgpu_chan.c).
 * @queue: ring_size slots; commands [completed, submitted) wait there.
 * @submitted: commands queued since creation.
 * @completed: commands done (also in the status page; CHAN_WAIT's sleep
 *	reads it without the lock).
 * @error: VGPU_CHAN_* of the first failure; later commands are skipped.
 * @closing: CHAN_DESTROY was called; the slot is reclaimed once idle.
 * @state: enum vgpu_chan_state.
 * @node: link in an engine's run list while QUEUED.
 */
struct vgpu_chan {
	struct kref ref;	/* the table's, an engine's, each waiter's */
	struct vgpu_ctx *ctx;
	u32 handle;
	u64 ring;
	u32 ring_size;
	bool closing;		/* under vgpu_ctx.chan_lock; CHAN_WAIT peeks */
	struct list_head node;	/* under the engine's vgpu_engine.lock */
	wait_queue_head_t wq;	/* woken at each completion */
	struct mutex lock;	/* protects the fields below */
	struct vgpu_cmd *queue;
	u64 submitted;
	u64 completed;
	u32 error;
	u64 error_seqno;
	enum vgpu_chan_state state;
	struct vgpu_chan_fault fault;	/* the first failed launch's report */
};

static inline struct vgpu_device *to_vgpu_device(struct device *dev)
{
	return container_of(dev, struct vgpu_device, dev);
}

/* vgpu_props.c */
int vgpu_props_parse_cc(const char *s, u32 *major, u32 *minor);
void vgpu_props_init(struct vgpu_info *p, unsigned int index, u64 mem_size,
		     u32 sm_count, u32 cc_major, u32 cc_minor);
int vgpu_ioctl_get_info(struct vgpu_ctx *ctx, void *data);
u64 vgpu_props_smem_optin(const struct vgpu_info *p);

/*
 * struct vgpu_vm_span - what a device address reaches (vgpu_vm_translate()):
 * @size bytes from device address @va, device memory the kernel sees at
 * @ptr, or a page of host memory, @page (@ptr NULL).
 */
struct vgpu_vm_span {
	u64 va;
	u64 size;
	void *ptr;
	struct page *page;
	bool writable;
};

/* vgpu_mem.c */
void vgpu_vm_init(struct vgpu_vm *vm);
void vgpu_vm_fini(struct vgpu_ctx *ctx);
u64 vgpu_mem_free_bytes(struct vgpu_device *vdev);
int vgpu_ioctl_set_va_window(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_alloc(struct vgpu_ctx *ctx, void *data);
void vgpu_mem_alloc_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_ioctl_mem_free(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_query(struct vgpu_ctx *ctx, void *data);
int vgpu_vm_translate(struct vgpu_vm *vm, u64 va, struct vgpu_vm_span *s);
int vgpu_vm_translate_device(struct vgpu_vm *vm, u64 va, int dev,
			     bool allocs, struct vgpu_vm_span *s);
void vgpu_vm_retire(struct vgpu_vm *vm);
int vgpu_vm_place(struct vgpu_ctx *ctx, struct vgpu_alloc *alloc);
void vgpu_vm_unplace(struct vgpu_ctx *ctx, struct vgpu_alloc *alloc);
bool vgpu_vm_is_host(struct vgpu_vm *vm, u64 va);
int vgpu_vm_find_gap(struct vgpu_vm *vm, u64 size, u64 align,
		     unsigned long *va);

/* vgpu_managed.c */
int vgpu_managed_init(struct vgpu_host_range *r);
void vgpu_managed_touch(struct vgpu_vm *vm, struct vgpu_host_range *h,
			unsigned long page);
void vgpu_managed_host_fault(struct vgpu_ctx *ctx, struct vgpu_host_range *r,
			     unsigned long page);
void vgpu_managed_unmap(struct vgpu_ctx *ctx);
int vgpu_ioctl_managed_prefetch(struct vgpu_ctx *ctx, void *data);

/* vgpu_peer.c */
void vgpu_peer_init(struct vgpu_ctx *ctx);
void vgpu_peer_fini(struct vgpu_ctx *ctx);
int vgpu_peer_set(struct vgpu_ctx *ctx, struct vgpu_ctx *to, u32 flags);
int vgpu_peer_translate(struct vgpu_vm *vm, u64 va, bool kernel,
			struct vgpu_vm_span *s);

/* vgpu_mobj.c */
struct vgpu_mobj *vgpu_mobj_create(struct vgpu_device *vdev, u64 size);
void vgpu_mobj_put(struct vgpu_mobj *mobj);
struct vgpu_mobj *vgpu_mobj_get(struct vgpu_ctx *ctx, u32 handle);
int vgpu_mobj_add(struct vgpu_ctx *ctx, struct vgpu_mobj *mobj, u32 *handle);
void vgpu_ipc_forget(u64 id);
int vgpu_ipc_name(struct vgpu_ctx *ctx, struct vgpu_mobj *mobj, u64 offset,
		  u64 size, u64 *id, u64 *token);
int vgpu_ipc_token(u64 id, u64 *token);
int vgpu_ipc_find(struct vgpu_ctx *ctx, const u64 *token,
		  struct vgpu_mobj **mobj, u64 *offset, u64 *size);

/* vgpu_vmm.c */
int vgpu_ioctl_mem_create(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_release(struct vgpu_ctx *ctx, void *data);
void vgpu_mem_handle_undo(struct vgpu_ctx *ctx, u32 handle);
void vgpu_mem_create_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_ioctl_va_reserve(struct vgpu_ctx *ctx, void *data);
void vgpu_va_reserve_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_ioctl_va_free(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_map(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_unmap(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_access(struct vgpu_ctx *ctx, void *data);
void vgpu_vmm_fini(struct vgpu_ctx *ctx);

/* vgpu_ipc.c */
int vgpu_ioctl_ipc_export(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_ipc_open(struct vgpu_ctx *ctx, void *data);
void vgpu_ipc_open_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_ioctl_ipc_close(struct vgpu_ctx *ctx, void *data);

/* vgpu_dmabuf.c */
int vgpu_ioctl_mem_export(struct vgpu_ctx *ctx, void *data);
void vgpu_mem_export_commit(struct vgpu_ctx *ctx, const void *data);
void vgpu_mem_export_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_ioctl_mem_import(struct vgpu_ctx *ctx, void *data);
void vgpu_dmabuf_foreign_put(struct vgpu_mobj *mobj);
void vgpu_mem_import_undo(struct vgpu_ctx *ctx, const void *data);

/* vgpu_heap.c */
int vgpu_ioctl_heap_create(struct vgpu_ctx *ctx, void *data);
void vgpu_heap_create_undo(struct vgpu_ctx *ctx, const void *data);
u64 vgpu_heap_malloc(struct vgpu_ctx *ctx, u64 size);
u32 vgpu_heap_free(struct vgpu_ctx *ctx, u64 va);
void vgpu_heap_fini(struct vgpu_vm *vm);

/* vgpu_host.c */

/*
 * Does [@addr, @addr + @size) reach the ISA's reserved generic addresses
 * (its shared and local windows)? A kernel's generic access there goes to
 * shared or local memory, never to a host page mapped at the same
 * address, so no host range may lie there. No user address of x86-64 or
 * arm64 does; on architectures whose user space reaches bit 63 this is
 * what keeps the windows apart from host memory.
 */
static inline bool vgpu_va_reserved(u64 addr, u64 size)
{
	return addr >= VGPU_RESERVED_BASE || size > VGPU_RESERVED_BASE - addr;
}

int vgpu_ioctl_host_register(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_host_unregister(struct vgpu_ctx *ctx, void *data);
void vgpu_host_fini(struct vgpu_vm *vm);
void vgpu_host_range_free(struct vgpu_host_range *r);

/* vgpu_kmem.c */
u64 vgpu_kmem_limit(void);
int vgpu_kmem_charge(struct vgpu_ctx *ctx, u64 bytes);
void vgpu_kmem_uncharge(struct vgpu_ctx *ctx, u64 bytes);

/* vgpu_host_alloc.c */
int vgpu_ioctl_host_alloc(struct vgpu_ctx *ctx, void *data);
void vgpu_host_alloc_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_host_mmap(struct vgpu_ctx *ctx, struct vm_area_struct *vma);
void vgpu_host_alloc_fini(struct vgpu_vm *vm);

/* vgpu_chan.c */
int vgpu_chan_init(struct vgpu_ctx *ctx);
void vgpu_chan_stop(struct vgpu_ctx *ctx);
void vgpu_chan_fini(struct vgpu_ctx *ctx);
int vgpu_chan_mmap(struct vgpu_ctx *ctx, struct vm_area_struct *vma);
int vgpu_ioctl_chan_create(struct vgpu_ctx *ctx, void *data);
void vgpu_chan_create_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_ioctl_chan_submit(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_chan_wait(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_chan_destroy(struct vgpu_ctx *ctx, void *data);
__poll_t vgpu_chan_poll(struct vgpu_ctx *ctx, struct file *file,
			poll_table *wait);
bool vgpu_chan_next(struct vgpu_chan *chan, struct vgpu_cmd *cmd, u64 *seqno);
void vgpu_chan_done(struct vgpu_chan *chan, int ret, u64 fault);
bool vgpu_chan_done_hold(struct vgpu_chan *chan, int ret, u64 fault,
			 struct vgpu_engine *hold);
void vgpu_chan_set_fault(struct vgpu_chan *chan,
			 const struct vgpu_chan_fault *f);
int vgpu_ioctl_chan_fault(struct vgpu_ctx *ctx, void *data);

/* vgpu_cmd.c */
int vgpu_cmd_check(struct vgpu_ctx *ctx, const struct vgpu_cmd *c);
int vgpu_launch_check(const struct vgpu_info *p,
		      const struct vgpu_cmd_launch *cl);

/* vgpu_engine.c */
void vgpu_engine_init(struct vgpu_engine *e, struct workqueue_struct *wq);
void vgpu_engine_queue(struct vgpu_engine *e, struct vgpu_chan *chan,
		       bool wake);
void vgpu_engine_wake(struct vgpu_engine *e);
bool vgpu_engine_run_one(struct vgpu_engine *e);
bool vgpu_engine_run_ctx(struct vgpu_engine *e, struct vgpu_ctx *ctx);

/* vgpu_copy.c */
int vgpu_exec(struct vgpu_ctx *ctx, const struct vgpu_cmd *cmd, u64 *fault);
int vgpu_read(struct vgpu_ctx *ctx, u64 va, void *buf, u64 len);

/* vgpu_module.c */
void vgpu_modules_init(struct vgpu_ctx *ctx);
void vgpu_modules_fini(struct vgpu_ctx *ctx);
int vgpu_ioctl_module_load(struct vgpu_ctx *ctx, void *data);
void vgpu_module_load_undo(struct vgpu_ctx *ctx, const void *data);
int vgpu_ioctl_module_unload(struct vgpu_ctx *ctx, void *data);
struct vgpu_module *vgpu_module_get(struct vgpu_ctx *ctx, u32 handle);
void vgpu_module_put(struct vgpu_module *m);

/* vgpu_compute.c */
int vgpu_compute_init(struct vgpu_device *vdev, unsigned int nsm);
void vgpu_compute_fini(struct vgpu_device *vdev);
int vgpu_compute_start(struct vgpu_chan *chan, const struct vgpu_cmd *cmd,
		       u64 seqno);

/* vgpu_usm.c */
void vgpu_usm_init(struct vgpu_ctx *ctx, struct file *file);
void vgpu_usm_watch(struct work_struct *work);
int vgpu_ioctl_usm_attach(struct vgpu_ctx *ctx, void *data);
void vgpu_usm_attach_commit(struct vgpu_ctx *ctx, const void *data);
void vgpu_usm_attach_undo(struct vgpu_ctx *ctx, const void *data);

/* vgpu_shadow.c */
int vgpu_shadow_mmap(struct vgpu_ctx *ctx, struct vm_area_struct *vma);
void vgpu_shadow_zap(struct vgpu_ctx *ctx, u64 va, u64 size);
void vgpu_compute_cancel(struct vgpu_ctx *ctx);

/* vgpu_file.c */
extern const struct file_operations vgpu_fops;

/* vgpu_sysfs.c */
extern const struct attribute_group *vgpu_dev_groups[];

#endif /* _VGPU_DRV_H */
