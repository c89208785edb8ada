/* SPDX-License-Identifier: MIT */
/*
 * libvgpu internals shared between its files: the device table filled by
 * cuInit, contexts and the per-thread context stack, and the pure helpers
 * that unit tests call directly.
 *
 * Locking: vg_lock protects the context registry, context reference
 * counts and state, host registrations and the primary-context table.
 * Each context's own lock (CUctx_st.lock) protects its channel: the ring,
 * the staging buffer and the sticky error; it is held across channel
 * work, which may wait for the device, so a copy in one context never
 * holds up the rest of the process. Order: vg_lock, then a context's
 * lock; a call plans under vg_lock and moves to the context's lock with
 * vg_ctx_begin(). Closing a context's file takes both. The device table
 * is written once, by cuInit under vg_lock, and is read-only after
 * vg_initialized becomes true.
 */
#ifndef VG_H
#define VG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuda.h"
#include "jit.h"
#include "../uapi/vgpu.h"

#define VG_MAX_DEVICES 16	/* matches the module's limit */

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
 * A context: one open file of /dev/vgpuN. Regular contexts are freed when
 * destroyed and no thread's stack holds them any more; the primary context
 * of a device lives as long as the process and is (re)activated by retain.
 */
struct CUctx_st {
	struct CUctx_st *next;	/* registry of live regular contexts */
	int dev;		/* visible ordinal */
	int fd;			/* -1 once destroyed or while inactive */
	uint64_t va_base;	/* device-address window reserved in this */
	uint64_t va_size;	/* process while the context is open */
	pthread_mutex_t lock;	/* the channel state below */
	/* The default channel (channel.c), while the context is open. */
	struct vgpu_cmd *ring;
	uint32_t chan;
	uint64_t put;		/* commands submitted */
	void *status_page;
	const volatile struct vgpu_chan_status *status;
	unsigned char *stage;	/* pinned staging buffer, two halves */
	uint64_t stage_seq[2];	/* fence of each half's last use */
	CUresult sticky;	/* a fault's error, returned ever after */
	/* Launch parameters (launch.c): pinned chunks reused by fence. */
	unsigned char *params;
	uint32_t param_chunk;	/* the chunk being filled */
	uint32_t param_off;	/* bytes used in it */
	uint64_t param_seq[VG_PARAM_CHUNKS];	/* last launch using each */
	struct CUmod_st *modules;	/* loaded, for printf (module.c) */
	unsigned int flags;	/* CU_CTX_* as given at creation */
	unsigned int refs;	/* registry + stack slots */
	bool primary;
};

/*
 * A loaded module (module.c): its JIT image, the device block of its
 * variables, and one CUfunction per kernel. It belongs to @ctx.
 */
struct CUmod_st {
	struct CUctx_st *ctx;
	uint32_t handle;	/* MODULE_LOAD's */
	CUdeviceptr globals;	/* __device__ and __constant__ data, or 0 */
	struct vg_jit_image *img;
	struct CUfunc_st *funcs;
	struct CUmod_st *next;	/* in ctx->modules */
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
};

extern pthread_mutex_t vg_lock;
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

/* context.c */
CUresult vg_ctx_open(struct CUctx_st *ctx);
void vg_ctx_close(struct CUctx_st *ctx);
void vg_ctx_ref(struct CUctx_st *ctx);
void vg_ctx_unref(struct CUctx_st *ctx);
void vg_ctx_begin(struct CUctx_st *ctx);
void vg_ctx_end(struct CUctx_st *ctx);
CUresult vg_ctx_sticky(const struct CUctx_st *ctx);
struct CUctx_st *vg_ctx_current(void);
bool vg_ctx_alive(const struct CUctx_st *ctx);
struct CUctx_st *vg_ctx_by_address(uint64_t va);
CUresult vg_errno_result(int err);

/* channel.c */
#define VG_STAGE_SIZE (2u << 20)
CUresult vg_chan_open(struct CUctx_st *ctx);
void vg_chan_close(struct CUctx_st *ctx);
CUresult vg_chan_push(struct CUctx_st *ctx, const struct vgpu_cmd *cmd,
		      uint64_t *seqno);
CUresult vg_chan_wait(struct CUctx_st *ctx, uint64_t seqno);
CUresult vg_chan_sync(struct CUctx_st *ctx);
CUresult vg_stage_get(struct CUctx_st *ctx, unsigned char **stage);

/* copy.c */
CUresult vg_htod(struct CUctx_st *ctx, CUdeviceptr dst, const void *src,
		 size_t n, bool pinned, bool async);
CUresult vg_dtoh(struct CUctx_st *ctx, void *dst, CUdeviceptr src, size_t n,
		 bool pinned, bool async);

/* file.c */
char *vg_read_file(const char *path, size_t *len);

/* fault.c */
CUresult vg_chan_failed(struct CUctx_st *ctx);

/* printf.c */
void vg_printf_drain(struct CUctx_st *ctx);
size_t vg_printf_format(char *out, size_t size, const char *fmt,
			const unsigned char *args, size_t nargs,
			size_t (*str)(void *arg, uint64_t addr, char *buf,
				      size_t len), void *str_arg);
bool vg_stream_ok(CUstream s);

/* module.c */
struct CUfunc_st *vg_func_check(CUfunction f);

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

/* memory.c */
CUresult vg_current_open(struct CUctx_st **pctx);

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
	struct CUctx_st *ctx;
};
bool vg_host_lookup(uintptr_t p, struct vg_host_info *info);

/* errors.c */
const char *vg_error_name(CUresult error);

#endif /* VG_H */
