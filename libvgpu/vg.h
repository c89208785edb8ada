/* SPDX-License-Identifier: MIT */
/*
 * libvgpu internals shared between its files: the device table filled by
 * cuInit, contexts and the per-thread context stack, and the pure helpers
 * that unit tests call directly.
 *
 * Locking: the locks, what each protects and the order they nest in are
 * described at the top of ctx_base.c, which owns vg_lock. The device
 * table is written once, by cuInit under vg_lock, and is read-only after
 * vg_initialized becomes true.
 */
#ifndef VG_H
#define VG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuda.h"
#include "jit/jit.h"
#include "../uapi/vgpu.h"
#include "../uapi/vgpu_tex.h"

#define VG_MAX_DEVICES VGPU_MAX_DEVICES	/* the module's limit */

/* A device visible to this process (after CUDA_VISIBLE_DEVICES). */
struct vg_device {
	int minor;		/* N of /dev/vgpuN */
	struct vgpu_info info;	/* GET_INFO at cuInit */
	struct CUctx_st *primary;	/* created at cuInit, lives forever */
	unsigned int primary_refs;	/* cuDevicePrimaryCtxRetain count */
	unsigned int primary_flags;	/* as set by PrimaryCtxSetFlags */
};

#define VG_PARAM_CHUNKS 16
#define VG_PARAM_CHUNK (64u << 10)	/* holds the largest parameter block */

/*
 * Channels of a context (channel.c): the legacy default stream's, the one
 * host functions release their waiters on, and up to VG_STREAM_CHANS_MAX
 * that created streams share (CUDA_DEVICE_MAX_CONNECTIONS, default 8).
 */
#define VG_CHAN_LEGACY 0
#define VG_CHAN_HOSTFN 1
#define VG_STREAM_CHANS_MAX 32
#define VG_MAX_CHANS (2 + VG_STREAM_CHANS_MAX)

struct vg_hostfn_queue;

/*
 * One channel. Another channel waits for a point of this one through the
 * context's fence word for it: the channel's SEM_RELEASE commands write
 * their own sequence number there, so the word only grows, and once it
 * reaches q every command up to q has completed.
 */
struct vg_chan {
	struct CUctx_st *ctx;
	struct vgpu_cmd *ring;
	const volatile struct vgpu_chan_status *status;
	uint32_t handle;
	uint32_t index;		/* in ctx->chans */
	uint64_t put;		/* commands written to the ring */
	/*
	 * Commands the module has been told of (CHAN_SUBMIT's put): put,
	 * or less while a batch (vg_batch_begin()) holds the doorbell back.
	 * Written under @bell, a leaf lock: waits ring it without the
	 * context's lock (vg_chan_sleep()).
	 */
	uint64_t posted;
	pthread_mutex_t bell;
	uint64_t marked;	/* the last fence-word release's number */
	uint64_t waited[VG_MAX_CHANS];	/* points of others already waited for */
	unsigned int streams;	/* streams placed on it */
	bool nonblocking;	/* carries CU_STREAM_NON_BLOCKING streams */
	uint64_t hostfn_token;	/* host functions queued (callback.c) */
	struct vg_hostfn_queue *hostfn;
};

/* A point in a channel: done once its @seqno commands have completed. */
struct vg_fence {
	struct vg_chan *ch;
	uint64_t seqno;
};

/*
 * A stream (stream.c): a channel it shares, and its last command there.
 * The legacy default stream is embedded in its context.
 */
struct CUstream_st {
	uint32_t magic;		/* VG_STREAM_MAGIC while it lives */
	struct CUctx_st *ctx;
	struct vg_chan *ch;
	uint64_t last;		/* ch's number of the stream's last command */
	uint64_t id;		/* unique in the process: cuStreamGetId */
	unsigned int flags;	/* CU_STREAM_* */
	int priority;		/* CUDA's: 0 (least) to -5 (greatest) */
	/* The other attributes (stream_attr.c), under vg_lock. */
	CUaccessPolicyWindow window;
	int sync_policy;	/* CUsynchronizationPolicy, or -1: none set */
	int mem_sync_domain;	/* CUlaunchMemSyncDomain */
	CUlaunchMemSyncDomainMap domain_map;
	bool legacy;
	bool per_thread;
	pthread_t owner;	/* a per-thread stream's thread */
	struct vg_cap_stream *capture;	/* capture.h, or NULL */
	struct CUstream_st *next;	/* ctx->streams */
};

/* An event (event.c). */
struct CUevent_st {
	uint32_t magic;		/* VG_EVENT_MAGIC while it lives */
	struct CUctx_st *ctx;
	unsigned int flags;	/* CU_EVENT_* */
	uint32_t slot;		/* its timestamp in the sync area */
	bool recorded;
	struct vg_fence at;	/* the last record */
	struct CUevent_st *next;	/* vg_events */
	struct vg_ipc_event *ipc;	/* interprocess: ipc_event.c */
	struct vg_cap_event *capture;	/* recorded in a capture (capture.h) */
};

/*
 * A context: one open file of /dev/vgpuN. Regular contexts are freed when
 * destroyed and no thread's stack holds them any more; the primary context
 * of a device lives as long as the process and is (re)activated by retain.
 */
/*
 * A link from one context to another (peer.c): the other as it was when
 * linked (@serial tells a reopened one apart), whether the module lets
 * this context's kernels reach it, and whether cuCtxEnablePeerAccess
 * asked for that.
 */
struct vg_peer_link {
	struct CUctx_st *ctx;
	uint64_t serial;
	bool access;
	bool enabled;
};

#define VG_MAX_PEER_LINKS VGPU_MAX_PEERS

struct vg_tex_pool;
struct vg_usm;
struct vg_nfn;

struct CUctx_st {
	struct CUctx_st *next;	/* registry of live regular contexts */
	int dev;		/* visible ordinal */
	int fd;			/* -1 once destroyed or while inactive */
	uint64_t serial;	/* unique in the process, per open: cuCtxGetId */
	uint64_t va_base;	/* device-address window reserved in this */
	uint64_t va_size;	/* process while the context is open */
	pthread_mutex_t lock;	/* the channels and state below */
	void *status_page;
	struct vg_chan *chans[VG_MAX_CHANS];
	unsigned int nchans;	/* chans[0, nchans) exist */
	struct CUstream_st legacy;	/* the legacy default stream */
	struct CUstream_st *streams;	/* created streams */
	/*
	 * Pinned memory the engines write (sync.c): fence words, host
	 * function tokens, and event timestamps.
	 */
	unsigned char *sync;
	uint32_t *slot_free;	/* free event slots, a stack */
	uint32_t nslot_free;
	struct CUevent_st *dead_events;	/* destroyed, a record pending */
	pthread_mutex_t hostfn_lock;	/* the VG_CHAN_HOSTFN channel */
	pthread_mutex_t stage_lock;	/* taken before @lock, for a copy */
	unsigned char *stage;	/* pinned staging buffer, two halves */
	struct vg_fence stage_fence[2];	/* each half's last use */
	CUresult sticky;	/* a fault's error, returned ever after */
	struct vg_fence waits_for;	/* cuCtxWaitEvent's: new channels wait */
	/* Launch parameters (launch.c): pinned chunks reused by fence. */
	unsigned char *params;
	uint32_t param_chunk;	/* the chunk being filled */
	uint32_t param_off;	/* bytes used in it */
	/* Each chunk's last launch on each channel. */
	uint64_t param_seq[VG_PARAM_CHUNKS][VG_MAX_CHANS];
	struct CUmod_st *modules;	/* loaded, for printf (module.c) */
	/*
	 * Cooperative launches' grid workspaces (launch.c): device memory
	 * of an 8-byte slot per channel, allocated on first use, or 0.
	 */
	uint64_t grid_ws;
	bool draining;		/* a printf drain is running (printf.c) */
	pthread_cond_t drained;	/* signalled, under @lock, when it ends */
	/*
	 * Threads in a call on the context (vg_ctx_hold()), under vg_lock,
	 * and whether its closing waits for them (vg_ctx_close()): set under
	 * vg_lock, read without it by waits, which then give up.
	 * @calls_done is signalled, under vg_lock, as the last call ends.
	 */
	unsigned int calls;
	bool closing;
	pthread_cond_t calls_done;
	/*
	 * Settings, under vg_lock: the CU_CTX_* flags in effect (creation's,
	 * the primary's, or cuCtxSetFlags's; the scheduling bits are read
	 * without a lock when waiting), and ctx_config.c's.
	 */
	unsigned int flags;
	size_t limits[CU_LIMIT_MAX];
	int cache_config;	/* CUfunc_cache */
	bool printf_launched;	/* the printf FIFO's size is fixed */
	bool heap_created;	/* the malloc heap exists, its size fixed */
	uint64_t heap_va;	/* where it is, once created */
	uint64_t heap_size;
	/*
	 * The printf FIFO (printf.c), under @lock; 0 until a kernel prints.
	 * Host pages mapped at the same address here and in the device, so
	 * that it is read even once a fault stopped every channel.
	 */
	CUdeviceptr printf_fifo;
	uint64_t printf_cap;
	size_t printf_map;	/* bytes mapped */
	unsigned int refs;	/* registry + stack slots */
	unsigned int usage;	/* users (ctx_attach.c), under vg_lock */
	bool primary;
	bool abi_v1;		/* made by the first ABI's cuCtxCreate */
	/* Links to other contexts (peer.c), under vg_lock. */
	struct vg_peer_link peers[VG_MAX_PEER_LINKS];
	unsigned int npeers;
	struct vg_tex_pool *texpool;	/* texture descriptors (texobj.c), vg_lock */
	struct vg_usm *usm;	/* user-mode SMs (usm.c), vg_engine_lock */
	/*
	 * The context has memory the user-mode SMs cannot reach (MEM_IMPORT:
	 * another driver's or device's) or must not (managed memory, whose
	 * residency and fault counts the module keeps as kernels touch it):
	 * its launches stay on the module's SMs. Set once, atomic.
	 */
	bool interp_only;
};

/*
 * A loaded module (module.c): its JIT image, the device block of its
 * variables, and one CUfunction per kernel. It belongs to @ctx.
 */
struct CUmod_st {
	struct CUctx_st *ctx;
	uint64_t serial;	/* ctx's when loaded: a later open has another */
	struct CUlib_st *lib;	/* the library it loads into @ctx, or NULL */
	uint32_t handle;	/* MODULE_LOAD's */
	CUdeviceptr globals;	/* __device__ and __constant__ data, or 0 */
	CUdeviceptr *managed;	/* each __managed__ variable's storage */
	uint32_t nmanaged;
	struct vg_jit_image *img;
	struct CUfunc_st *funcs;
	struct CUmod_st *next;	/* in ctx->modules */
	struct CUmod_st *next_all;	/* the registry of handles (module.c) */
};

/*
 * The state the old launch calls (launch_old.c) keep on a function. Like
 * NVIDIA's, it is one thread's to set: the calls take no lock for it.
 */
#define VG_PARAM_MAX 32764	/* bytes of parameters a kernel takes */
struct vg_old_launch {
	unsigned int block[3];	/* 0, 0, 0: never set, one thread */
	unsigned int shared;	/* dynamic shared memory, bytes */
	unsigned int size;	/* cuParamSetSize's */
	unsigned char *params;	/* VG_PARAM_MAX bytes, from the first set */
};

struct CUfunc_st {
	uint32_t magic;		/* VG_FUNC_MAGIC while the module lives */
	uint32_t index;		/* the kernel's index in the program */
	struct CUmod_st *mod;
	const struct vg_jit_kernel *k;
	uint32_t max_dyn_shared;	/* cuFuncSetAttribute's limit */
	int carveout;		/* shared memory carveout, -1: the default */
	int cache_config;	/* CUfunc_cache, as set */
	int cluster[5];		/* the cluster attributes, width to policy */
	struct vg_old_launch old;	/* cuFuncSetBlockShape, cuParamSet* */
	bool uses_heap;		/* its code calls malloc or free (heap.c) */
	struct vg_nfn *native;	/* its native code (engine.c), ctx's lock */
};

/*
 * ctx_base.c: the context base, which calls nothing else of libvgpu.
 * Reference counts change under vg_lock; vg_ctx_begin() is called with
 * vg_lock held and returns with the context's lock held instead, until
 * vg_ctx_end(). The stack functions act on the calling thread's stack.
 */
extern pthread_mutex_t vg_lock;
void vg_ctx_ref(struct CUctx_st *ctx);
void vg_ctx_unref(struct CUctx_st *ctx);
void vg_ctx_hold(struct CUctx_st *ctx);
void vg_ctx_release(struct CUctx_st *ctx);
void vg_ctx_begin(struct CUctx_st *ctx);
void vg_ctx_end(struct CUctx_st *ctx);
void vg_ctx_locks_init(struct CUctx_st *ctx);
void vg_ctx_locks_destroy(struct CUctx_st *ctx);
bool vg_ctx_closing(const struct CUctx_st *ctx);
CUresult vg_ctx_sticky(const struct CUctx_st *ctx);
void vg_ctx_set_sticky(struct CUctx_st *ctx, CUresult r);
struct CUctx_st *vg_ctx_current(void);
CUresult vg_ctx_push(struct CUctx_st *ctx);
struct CUctx_st *vg_ctx_pop(void);
CUresult vg_ctx_set_current(struct CUctx_st *ctx);

extern bool vg_initialized;
extern int vg_device_count;
extern struct vg_device vg_devices[VG_MAX_DEVICES];

/* init.c */
CUresult vg_check_init(void);
CUresult vg_check_device(CUdevice dev);

/* visible.c: parse CUDA_VISIBLE_DEVICES against the present devices. */
#define VG_VISIBLE_DUPLICATE (-1)
int vg_parse_visible(const char *env, const uint8_t (*uuids)[VGPU_UUID_LEN],
		     int present, int *order);
void vg_format_uuid(char *buf, size_t len, const uint8_t *uuid);

/* attributes.c */
CUresult vg_attribute(const struct vgpu_info *info, int attrib, int *value);

/* device.c */
unsigned int vg_texture_channels(int format);

/* busid.c */
bool vg_bus_id_parse(const char *s, unsigned int *domain, unsigned int *bus,
		     unsigned int *device, unsigned int *function);

/* ctx_config.c */
void vg_ctx_config_init(struct CUctx_st *ctx);
bool vg_ctx_config_launch(struct CUctx_st *ctx, const struct vg_jit_kernel *k);

/* context.c */
#define VG_API_VERSION 3020	/* cuCtxGetApiVersion: contexts since 3.2 */
#define VG_API_VERSION_V1 3010	/* and those of the first ABI */
#define VG_CTX_FLAGS_KEPT (CU_CTX_SCHED_MASK | CU_CTX_LMEM_RESIZE_TO_MAX | \
			   CU_CTX_SYNC_MEMOPS)
CUresult vg_ctx_create(CUcontext *pctx, CUctxCreateParams *params,
		       unsigned int flags, CUdevice dev, bool abi_v1);
CUresult vg_ctx_open(struct CUctx_st *ctx);
void vg_ctx_close(struct CUctx_st *ctx);
bool vg_ctx_alive(const struct CUctx_st *ctx);
struct CUctx_st *vg_ctx_by_address(uint64_t va);
struct CUctx_st *vg_ctx_next(const struct CUctx_st *prev);
CUresult vg_errno_result(int err);

/* peer.c */
CUresult vg_peer_reach(struct CUctx_st *ctx, struct CUctx_st *peer);
void vg_peer_ctx_opened(struct CUctx_st *ctx);
CUresult vg_peer_drain(CUstream hs, uint64_t a, uint64_t b, bool *cross);

/* channel.c */
#define VG_STAGE_SIZE (2u << 20)
CUresult vg_chans_open(struct CUctx_st *ctx);
void vg_chans_close(struct CUctx_st *ctx);
void vg_chans_wake(struct CUctx_st *ctx);
CUresult vg_fence_sleep(struct vg_fence f);
CUresult vg_chan_add(struct CUctx_st *ctx, struct vg_chan **pch);
CUresult vg_chan_push(struct vg_chan *ch, const struct vgpu_cmd *cmd,
		      uint64_t *seqno);
CUresult vg_chan_wait(struct vg_chan *ch, uint64_t seqno, bool blocking);
bool vg_chan_reached(const struct vg_chan *ch, uint64_t seqno);
CUresult vg_wait_unlocked(struct vg_chan *ch, uint64_t seqno, bool blocking);
CUresult vg_fence_wait(struct vg_fence f);
CUresult vg_chan_mark(struct vg_chan *c);
int vg_chan_ring(struct vg_chan *ch, uint64_t put);
void vg_batch_begin(void);
CUresult vg_batch_end(void);
struct vg_chain;
void vg_chain_begin(struct vg_chain **saved);
CUresult vg_chain_sync(void);
CUresult vg_chain_end(struct vg_chain *saved);
void vg_chain_suspend(struct vg_chain **saved);
void vg_chain_resume(struct vg_chain *saved);
CUresult vg_chan_after(struct vg_chan *ch, struct vg_chan *c, uint64_t seqno);
CUresult vg_ctx_check(struct CUctx_st *ctx);
CUresult vg_ctx_error(struct CUctx_st *ctx);
CUresult vg_ctx_idle(struct CUctx_st *ctx);
CUresult vg_ctx_sync(struct CUctx_st *ctx);
CUresult vg_stage_take(struct CUctx_st *ctx, unsigned char **stage);
void vg_stage_give(struct CUctx_st *ctx);

/* sync.c: the pinned area of fence words, tokens and timestamps. */
#define VG_SYNC_SIZE (1u << 20)
#define VG_SYNC_SLOT0 128	/* first event slot (16 bytes each) */
CUresult vg_sync_get(struct CUctx_st *ctx);
void vg_sync_free(struct CUctx_st *ctx);
volatile uint64_t *vg_sync_fence(struct CUctx_st *ctx, unsigned int chan);
volatile uint64_t *vg_sync_token(struct CUctx_st *ctx, unsigned int chan);
volatile uint64_t *vg_sync_slot(struct CUctx_st *ctx, uint32_t slot);
CUresult vg_slot_alloc(struct CUctx_st *ctx, uint32_t *slot);
void vg_slot_free(struct CUctx_st *ctx, uint32_t slot);

/* stream.c */
#define VG_STREAM_MAGIC 0x5354524dU
CUresult vg_stream_resolve(CUstream h, struct CUctx_st **pctx,
			   struct CUstream_st **pst);
CUresult vg_stream_enter(struct CUstream_st *st);
CUresult vg_push(struct CUstream_st *st, const struct vgpu_cmd *cmd,
		 uint64_t *seqno);
CUresult vg_stream_wait(struct CUstream_st *st, uint64_t seqno);
CUresult vg_stream_flush(struct CUstream_st *st);
void vg_streams_close(struct CUctx_st *ctx);
void vg_stream_init_legacy(struct CUctx_st *ctx);
int vg_stream_priority(int priority);
extern bool vg_launch_blocking;

/* callback.c */
void vg_hostfn_stop(struct CUctx_st *ctx);

/* event.c */
#define VG_EVENT_MAGIC 0x45564e54U
struct CUevent_st *vg_event_find(CUevent e);
CUresult vg_event_wait_other(struct CUevent_st *e, struct CUctx_st *ctx,
			     bool engine, bool *slept);
void vg_event_add(struct CUevent_st *e);

/* ipc_event.c */
struct vg_ipc_event;
CUresult vg_ipc_event_create(struct CUctx_st *ctx, struct CUevent_st *e);
void vg_ipc_event_free(struct CUevent_st *e, bool registered);
CUresult vg_ipc_event_record(struct CUevent_st *e, struct CUstream_st *st);
bool vg_ipc_event_done(const struct CUevent_st *e);
void vg_ipc_event_sleep(const struct CUevent_st *e);
CUresult vg_ipc_event_wait(struct CUevent_st *e, struct CUstream_st *st);
void vg_event_point_begin(struct CUevent_st *e, struct CUctx_st *ctx,
			  bool *recorded, struct vg_fence *at);
CUresult vg_event_record(struct CUevent_st *e, struct CUstream_st *st);
void vg_events_close(struct CUctx_st *ctx);

/*
 * copy.c. vg_copy, vg_memcpy, vg_copy2d and vg_copy3d: one copy on stream
 * @hs (NULL: the legacy stream), synchronous unless @async, with the
 * checks of its call (vg_copy2d: after vg_check_init()); vg_memset2d: one
 * fill, the same way; ptds.c's entry points are wrappers over them.
 */
enum vg_dir { VG_HTOD, VG_DTOH, VG_DTOD };
CUresult vg_copy(enum vg_dir dir, uint64_t dst, uint64_t src, size_t n,
		 bool async, CUstream hs);
CUresult vg_memcpy(CUdeviceptr dst, CUdeviceptr src, size_t n, bool async,
		   CUstream hs);
CUresult vg_copy2d(const CUDA_MEMCPY2D *p, bool async, CUstream hs);
CUresult vg_copy3d(const CUDA_MEMCPY3D *p, bool async, CUstream hs);
CUresult vg_memset2d(CUdeviceptr dst, size_t pitch, uint32_t value,
		     uint32_t elem, size_t width, size_t height, bool async,
		     CUstream hs);
CUresult vg_htod(struct CUstream_st *st, CUdeviceptr dst, const void *src,
		 size_t n, bool pinned, bool async);
CUresult vg_dtoh(struct CUstream_st *st, void *dst, CUdeviceptr src, size_t n,
		 bool pinned, bool async);

/* file.c */
char *vg_read_file(const char *path, size_t *len);

/* fault.c */
CUresult vg_chan_failed(struct vg_chan *ch);
bool vg_fault_assert(struct vg_chan *ch);
void vg_fault_report(struct vg_chan *ch);

/* printf.c */
void vg_printf_drain(struct CUctx_st *ctx);
CUresult vg_printf_bind(struct CUctx_st *ctx, struct CUstream_st *st);
void vg_printf_records(struct CUctx_st *ctx, const unsigned char *buf,
		       size_t n, uint64_t head, uint64_t cap);
size_t vg_printf_format(char *out, size_t size, const char *fmt,
			const unsigned char *args, size_t nargs,
			size_t (*str)(void *arg, uint64_t addr, char *buf,
				      size_t len), void *str_arg);

/* heap.c: the device heap of kernels' malloc and free */
bool vg_heap_used(const struct vg_jit_image *img, uint32_t kernel);
CUresult vg_heap_ready(struct CUctx_st *ctx, const struct CUfunc_st *f);
bool vg_heap_holds(const struct CUctx_st *ctx, CUdeviceptr va, size_t n);

/* launch.c: one kernel launch, as every launch call describes it. */
struct vg_launch {
	unsigned int grid[3];
	unsigned int block[3];
	unsigned int shared;	/* dynamic shared memory, bytes */
	CUstream stream;
	void **params;		/* kernelParams, or NULL */
	void **extra;		/* or a packed block, or NULL */
	bool has_priority;	/* @priority overrides the stream's */
	int priority;		/* CUDA's, clamped to the range */
	bool cooperative;	/* the grid must be co-resident */
	CUevent done[2];	/* recorded after the kernel, or NULL */
};
CUresult vg_launch(CUfunction f, const struct vg_launch *l);
/*
 * memop.c: whether a batch of @count stream memory operations @ops with
 * @flags can be queued in context @h, as cuStreamBatchMemOp checks it.
 */
CUresult vg_memops_valid(CUcontext h, unsigned int count,
			 const CUstreamBatchMemOpParams *ops, unsigned int flags);
/*
 * launch_ex.c: cuLaunchKernelEx's check of attribute @id's value @v on a
 * device of @info (graph kernel nodes' attributes take the same values).
 */
CUresult vg_launch_attr_check(const struct vgpu_info *info, CUlaunchAttributeID id,
			      const CUlaunchAttributeValue *v);

/* module.c */
#define VG_FUNC_MAGIC 0x66756e63u	/* "func": a live CUfunction */
/* The JIT options cuModuleLoadDataEx honours: the two log buffers. */
struct vg_jit_logs {
	char *info, *error;
	size_t info_size, error_size;
};
CUresult vg_jit_options(unsigned int n, const CUjit_option *opts,
			void **values, struct vg_jit_logs *logs);
CUresult vg_image_ptx(int dev, const void *image, const char **ptx,
		      size_t *len, char **owned, struct vg_jit_logs *logs);
CUresult vg_module_image(int dev, const void *image, struct vg_jit_image **img,
			 struct vg_jit_logs *logs);
CUresult vg_module_create(struct CUctx_st *ctx, const void *image,
			  struct vg_jit_logs *logs, struct CUmod_st **pmod);
bool vg_module_known(const struct CUmod_st *mod);
bool vg_module_live(const struct CUmod_st *mod);
CUresult vg_module_unload(struct CUmod_st *module);
CUresult vg_func_get(CUfunction f, struct CUfunc_st **pf);
CUresult vg_launch_func_get(CUfunction f, struct CUfunc_st **pf);
/* launch.c: a launch's shape against the device and the kernel; its parameters. */
CUresult vg_launch_check(const struct vgpu_info *info, const struct vg_jit_kernel *k,
			 const unsigned int grid[3], const unsigned int block[3],
			 unsigned int shared, uint32_t max_dyn);
CUresult vg_params_fill(const struct vg_jit_kernel *k, void **kernel_params,
			void **extra, unsigned char *slot);
CUresult vg_func_attribute(const struct CUfunc_st *f,
			   const struct vgpu_info *info,
			   CUfunction_attribute attrib, int *value);

/* func.c */
CUresult vg_func_set(struct CUfunc_st *f, const struct vgpu_info *info,
		     CUfunction_attribute attrib, int value);

/*
 * library.c: a library (cuLibraryLoadData) is loaded into a context, as a
 * module of its own, when one of its kernels or globals is first used
 * there (CUDA_MODULE_LOADING=LAZY, the default) or also into the live
 * contexts at once (EAGER). A CUkernel resolves to the function of the
 * current context.
 */
#define VG_KERN_MAGIC 0x6b65726eu	/* "kern": a live CUkernel */
struct CUkern_st;
CUresult vg_kernel_function(struct CUkern_st *k, struct CUfunc_st **pf);
CUresult vg_param_info(const struct vg_jit_kernel *k, size_t index,
		       size_t *offset, size_t *size);

/* occupancy.c: the occupancy calculator, on what it needs of a kernel. */
struct vg_occ_kernel {
	uint32_t regs;		/* per thread, as CU_FUNC_ATTRIBUTE_NUM_REGS */
	uint32_t shared_bytes;	/* static */
	uint32_t max_threads;	/* per block; 0: the device's limit */
};
int vg_occupancy(const struct vgpu_info *info, const struct vg_occ_kernel *k,
		 int block, size_t dyn);
void vg_occupancy_best(const struct vgpu_info *info,
		       const struct vg_occ_kernel *k,
		       size_t (*dyn_of)(int block), size_t dyn, int block_limit,
		       int *best_block, int *best_blocks);
bool vg_occupancy_smem(const struct vgpu_info *info,
		       const struct vg_occ_kernel *k, size_t max_dyn,
		       int blocks, int block, size_t *dyn);

/* memory.c: the allocation calls, and their bodies for the first ABI's */
CUresult vg_current_open(struct CUctx_st **pctx);
CUresult vg_current_check(void);
CUresult vg_mem_alloc(CUdeviceptr *dptr, size_t bytes);
CUresult vg_mem_alloc_pitch(CUdeviceptr *dptr, size_t *pitch, size_t width,
			    size_t height, unsigned int element_size);
CUresult vg_mem_free(CUdeviceptr dptr);
CUresult vg_mem_alloc_in(struct CUctx_st *ctx, CUdeviceptr *dptr,
			 size_t bytes);
void vg_mem_free_in(struct CUctx_st *ctx, CUdeviceptr dptr);

/*
 * CUDA arrays (array.c): device memory of their context in the layout of
 * uapi/vgpu_tex.h, reached by copies (array_copy.c) and by texture and
 * surface objects.
 */
/* What the texture unit needs of an array, or of a mipmapped array. */
struct vg_array_info {
	CUdeviceptr addr;	/* the first texel of level 0 (of the level, for a level's handle) */
	uint8_t kind;		/* VGPU_TEXK_* of uapi/vgpu_tex.h */
	uint8_t format;		/* VGPU_TEXF_* */
	uint8_t channels;	/* 1, 2 or 4 */
	uint8_t levels;		/* 1, or a mipmapped array's levels */
	bool norm;		/* a UNORM/SNORM format: read as normalized floats always */
	uint32_t width, height, depth;	/* texels; height 1 for 1D; depth: 3D depth, layer count (cubemaps: 6 per cube), 1 if none */
	unsigned int flags;	/* CUDA_ARRAY3D_* it was created with */
	CUarray_format cu_format;	/* as created */
	unsigned int cu_channels;	/* as created */
	struct CUctx_st *ctx;	/* its context */
};
/* Fills @info for @a; CUDA_ERROR_INVALID_HANDLE (NULL) or CUDA_ERROR_CONTEXT_IS_DESTROYED (not a live array), as cuArrayGetDescriptor answers. Takes vg_lock itself. */
CUresult vg_array_info(CUarray a, struct vg_array_info *info);
CUresult vg_mipmap_info(CUmipmappedArray m, struct vg_array_info *info);
/* The same, for callers that hold vg_lock. */
CUresult vg_array_info_locked(CUarray a, struct vg_array_info *info);
CUresult vg_mipmap_info_locked(CUmipmappedArray m, struct vg_array_info *info);
/* References that keep an array's (or mipmapped array's) memory after cuArrayDestroy/cuMipmappedArrayDestroy, until the last is dropped: texture and surface objects hold one, as on an H100 destroying an array under a texture object succeeds and the texture still reads. Take vg_lock themselves; vg_array_ref fails for a dead handle. */
CUresult vg_array_ref(CUarray a);
void vg_array_unref(CUarray a);
CUresult vg_mipmap_ref(CUmipmappedArray m);
void vg_mipmap_unref(CUmipmappedArray m);
/* With vg_lock held: taking one, and dropping one taken under the same hold or as the array's context closes (array.c says why no more). */
CUresult vg_array_ref_locked(CUarray a);
CUresult vg_mipmap_ref_locked(CUmipmappedArray m);
void vg_array_unref_locked(CUarray a);
void vg_mipmap_unref_locked(CUmipmappedArray m);
/*
 * For copies: where [@x, @x + @width) bytes of rows [@y, @y + @height) of
 * slices [@z, @z + @depth) of live array @a lie, *@addr its first texel,
 * *@pitch bytes a row and *@rows rows a slice; CUDA_ERROR_INVALID_VALUE
 * for a range outside it or a handle that is no live array. Takes
 * vg_lock. array_copy.c turns a copy's array sides into device memory so.
 */
CUresult vg_array_side(CUarray a, size_t x, size_t y, size_t z, size_t width,
		       size_t height, size_t depth, CUdeviceptr *addr,
		       size_t *pitch, size_t *rows);
CUresult vg_array_sides2d(const CUDA_MEMCPY2D *p, CUDA_MEMCPY2D *c);
CUresult vg_array_sides3d(const CUDA_MEMCPY3D *p, CUDA_MEMCPY3D *c);
void vg_arrays_ctx_close(struct CUctx_st *ctx);

/*
 * Texture and surface objects (texobj.c) and references (texref.c): each
 * a descriptor of uapi/vgpu_tex.h in a pool of page-locked memory the
 * context's device reads at the same address (ctx->texpool); the handle
 * kernels get is that address.
 */
/* @t NULL: a surface. With vg_lock held; @ctx the context it is for. */
CUresult vg_tex_describe(struct CUctx_st *ctx, const CUDA_RESOURCE_DESC *r,
			 const CUDA_TEXTURE_DESC *t,
			 const CUDA_RESOURCE_VIEW_DESC *v, struct vgpu_tex_desc *d);
CUresult vg_tex_pool_slot(struct CUctx_st *ctx, struct vgpu_tex_desc **slot);
void vg_tex_pool_put(struct CUctx_st *ctx, struct vgpu_tex_desc *slot,
		     const struct vgpu_tex_desc *d);
void vg_tex_ctx_close(struct CUctx_st *ctx);
uint32_t vg_tex_texel_size(const struct vgpu_tex_desc *d);
CUresult vg_tex_format(CUarray_format f, int ch, struct vgpu_tex_desc *d);
void vg_texref_module_gone(const struct CUmod_st *mod);
void vg_texref_ctx_close(const struct CUctx_st *ctx);

/*
 * abi_v1.c: contexts of the first ABI, whose device addresses fit 32 bits
 * (a window below 4 GiB), the gate that refuses them the current ABI's
 * allocation calls, and the check that lets the first ABI's calls in.
 */
#define VG_V1_VA_END (1ULL << 32)
void *vg_v1_window_reserve(uint64_t *size);
bool vg_v1_current(void);
CUresult vg_v1_gate(void);
CUresult vg_v1_enter(unsigned int *a, unsigned int *b);

/*
 * engine.c: the launch flags of this launch of @f in @ctx (entered,
 * vg_ctx_begin()) for the engine: VGPU_LAUNCH_USER_SM when it goes to the
 * context's user-mode SMs (VGPU_ENGINE allows it, the kernel's native
 * code is ready, compiled in the background while the interpreter runs
 * its launches, and the SMs run), with VGPU_LAUNCH_USM_RUNS when the
 * kernel has no loop (an SM may take its blocks in runs); else 0.
 * vg_engine_prepare(), before a launch takes vg_lock: with
 * VGPU_ENGINE=native, waits for @f's kernel to compile. vg_engine_func_gone():
 * @f's module is going; its native code goes once no SM runs it.
 */
void vg_engine_prepare(struct CUfunc_st *f, bool cooperative);
uint32_t vg_engine_user_sm(struct CUctx_st *ctx, struct CUfunc_st *f,
			   bool cooperative);
void vg_engine_func_gone(struct CUfunc_st *f);
/* usm.c: the context closes; its user-mode SMs stop first. */
void vg_usm_stop(struct CUctx_st *ctx);

/* host.c */
void vg_host_forget(struct CUctx_st *ctx);
enum vg_host_use { VG_HOST_PAGEABLE, VG_HOST_PINNED, VG_HOST_OVERRUN };
enum vg_host_use vg_host_use(struct CUctx_st *ctx, uintptr_t p, size_t len);
struct vg_host_info {
	uintptr_t start;	/* the registration */
	size_t size;
	uintptr_t map_base;	/* the pages it touches */
	size_t map_size;
	bool read_only;
	bool managed;		/* by cuMemAllocManaged */
	bool module_var;	/* managed: a module's __managed__ variable */
	struct CUctx_st *ctx;
};
bool vg_host_lookup(uintptr_t p, struct vg_host_info *info);
CUresult vg_host_alloc(void **pp, size_t bytesize, unsigned int flags,
		       bool managed);
CUresult vg_managed_free(void *p);

/* mempool.c: stream-ordered allocation. */
bool vg_pool_lookup(CUdeviceptr ptr, uint64_t *start, uint64_t *size,
		    CUmemoryPool *pool);
int vg_pool_free_now(CUdeviceptr va);
void vg_pools_sync(struct CUctx_st *ctx);
void vg_pools_ctx_close(struct CUctx_st *ctx);
void vg_pools_ctx_opened(struct CUctx_st *ctx);
CUresult vg_managed_var_alloc(struct CUctx_st *ctx, void **pp, size_t size);
void vg_managed_var_free(void *p);
bool vg_managed_in(struct CUctx_st *ctx, uintptr_t p, size_t len);
bool vg_managed_range(CUdeviceptr p, size_t len);

/*
 * managed.c: what cuMemAdvise and cuMemPrefetchAsync said of one page of
 * managed memory, which cuMemRangeGetAttribute reads back. Locations are
 * a CUmemLocationType (0: none) and an id as the queries give it.
 */
struct vg_mpage {
	int32_t pref_id, last_id;
	uint8_t pref_type, last_type;
	bool read_mostly;
	uint64_t accessed_by;	/* bit d: device d; VG_MPAGE_HOST: the host */
};
#define VG_MPAGE_HOST (1ull << 63)
void vg_mpages_init(struct vg_mpage *pages, size_t n);
struct vg_mpage *vg_managed_pages(uintptr_t p, size_t len, uintptr_t *base);
int vg_managed_fd(uintptr_t p);

/* host_copy.c: pageable rows to (@put) or from a packed staging buffer */
bool vg_host_rows(bool put, unsigned char *stage, uintptr_t host,
		  size_t pitch, size_t width, size_t rows);

/* pointer.c */
bool vg_pointer_in(struct CUctx_st *ctx, CUdeviceptr ptr, size_t len,
		   bool write);
bool vg_sync_memops(uint64_t ptr);
void vg_sync_forget(struct CUctx_st *ctx, uint64_t start);
void vg_sync_forget_ctx(struct CUctx_st *ctx);

/*
 * vmm.c and vmm_track.c: virtual memory management. A
 * CUmemGenericAllocationHandle is a struct vg_mem; vmm_track.c keeps the
 * reservations and their mappings. All of it under vg_lock.
 */
struct vg_mem_alias;
struct vg_mem {
	struct vg_mem *next;		/* every vg_mem not yet freed (vmm.c) */
	unsigned int refs;		/* the program's; 0: it let go */
	unsigned int maps;		/* mappings of it (vmm_track.c) */
	struct CUctx_st *ctx;		/* where @kh names it; NULL: gone */
	uint32_t kh;			/* the module's handle in @ctx */
	uint64_t size;
	CUmemAllocationProp prop;
	struct vg_mem_alias *aliases;	/* its handles in other contexts */
};
struct vg_mem *vg_mem_find(CUmemGenericAllocationHandle h);
CUresult vg_mem_handle_in(struct vg_mem *m, struct CUctx_st *ctx,
			  uint32_t *kh);
void vg_mem_unmapped(struct vg_mem *m);
void vg_mem_ctx_close(struct CUctx_st *ctx);
/* What vmm_track.c knows of an address in a reservation. */
struct vg_vmm_info {
	struct CUctx_st *ctx;
	uint64_t res_va, res_size;	/* the reservation */
	bool mapped;			/* the rest is the mapping's */
	uint64_t map_va, map_size;
	unsigned int access;		/* CU_POINTER_ATTRIBUTE_ACCESS_FLAG_* */
	uint64_t handle_types;		/* its handle's requested types */
	struct vg_mem *mem;
};
bool vg_vmm_lookup(uint64_t va, struct vg_vmm_info *info);
int vg_vmm_range(struct CUctx_st *ctx, uint64_t va, size_t n, bool write);
void vg_vmm_ctx_opened(struct CUctx_st *ctx);
void vg_vmm_ctx_close(struct CUctx_st *ctx);

/* extmem.c: buffers mapped from external memory, until cuMemFree. */
bool vg_ext_lookup(CUdeviceptr ptr, uint64_t *start, uint64_t *size);
int vg_ext_free_now(CUdeviceptr ptr);
void vg_ext_ctx_close(struct CUctx_st *ctx);
CUresult vg_ext_map_obj(struct CUctx_st *ctx, uint32_t handle, uint64_t real,
			uint64_t off, uint64_t size, uint64_t *va, uint64_t *span);
void vg_ext_unmap(struct CUctx_st *ctx, uint64_t va, uint64_t span);

/*
 * extsem.c: external semaphores. vg_sem_ops() signals (@signal) or waits
 * for @n of them on a stream; vg_sem_ops_valid() checks what a node holds.
 */
CUresult vg_sem_ops(CUstream hs, const CUexternalSemaphore *sems, const void *params,
		    unsigned int n, bool signal);
CUresult vg_sem_ops_valid(const CUexternalSemaphore *sems, const void *params,
			  unsigned int n, bool signal);
void vg_sem_ctx_close(struct CUctx_st *ctx);

/* mempool.c and mempool_ipc.c: pool export and import. */
CUresult vg_pool_export_info(CUmemoryPool pool, int *dev, uint64_t *serial);
CUresult vg_pool_ptr_info(CUdeviceptr ptr, int *dev, uint64_t *serial,
			  struct CUctx_st **ctx);
CUmemoryPool vg_pool_imported(int dev, uint64_t pid, uint64_t serial);
bool vg_pool_source(CUmemoryPool pool, int *dev, uint64_t *pid,
		    uint64_t *serial);
bool vg_pool_import_lookup(CUdeviceptr ptr, uint64_t *start, uint64_t *size,
			   CUmemoryPool *pool);
int vg_pool_import_free(CUdeviceptr va);
void vg_pool_imports_ctx_close(struct CUctx_st *ctx);

/* ipc.c */
void vg_ipc_ctx_close(struct CUctx_st *ctx);

/* errors.c */
const char *vg_error_name(CUresult error);

#endif /* VG_H */
