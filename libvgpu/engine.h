/* SPDX-License-Identifier: MIT */
/*
 * Which engine runs a launch (engine.c) and the user-mode SMs that run
 * the native engine's launches (usm.c). libcuda.so reaches the native
 * engine (libvgpu/native, LLVM) through libvgpu-native.so.1, loaded the
 * first time a launch may run natively.
 */
#ifndef VG_ENGINE_H
#define VG_ENGINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core.h"
#include "native.h"
#include "vg.h"

/* The native engine's entry points (native.h), from libvgpu-native.so.1. */
struct vg_native_api {
	int (*init)(char *why, size_t why_len);
	struct vgpu_native_kernel *(*compile)(const struct vgpu_program *prog,
					      u32 func, char *why, size_t why_len);
	void (*kernel_free)(struct vgpu_native_kernel *k);
	bool (*kernel_straight)(const struct vgpu_native_kernel *k);
	struct vgpu_native_block *(*block_new)(struct vgpu_native_kernel *k,
					       const struct vgpu_launch *l,
					       const struct vgpu_range *ranges,
					       u32 nranges);
	void (*block_set_lookup)(struct vgpu_native_block *b,
				 vgpu_native_lookup_fn lookup, void *arg);
	void (*block_start)(struct vgpu_native_block *b, u32 block_index);
	int (*block_run)(struct vgpu_native_block *b, u32 budget);
	const struct vgpu_fault *(*block_fault)(const struct vgpu_native_block *b);
	void (*block_free)(struct vgpu_native_block *b);
};

/* The loaded engine; only read once vg_engine_user_sm() said yes. */
extern const struct vg_native_api *vg_native;

/*
 * The engine lock: each context's table of native kernels and its
 * user-mode SMs (ctx->usm). A leaf: nothing is taken under it.
 */
extern pthread_mutex_t vg_engine_lock;

#define VG_NFN_COMPILING 0
#define VG_NFN_READY 1
#define VG_NFN_REFUSED 2

/*
 * struct vg_nfn - one kernel of a loaded module as the native engine runs
 * it: a copy of the module's program as the device holds it (relocated),
 * and its compiled code once @state is VG_NFN_READY.
 * @refs: the function's, the compile queue's, and each SM thread's that
 *	runs a block of it (atomic).
 * @listed: in its context's table (usm.c), under vg_engine_lock.
 */
struct vg_nfn {
	uint32_t module;	/* MODULE_LOAD's handle */
	uint32_t func;		/* the kernel's index in the module */
	unsigned int refs;
	int state;		/* VG_NFN_*, atomic */
	bool listed;
	struct vgpu_program prog;
	struct vgpu_native_kernel *k;
	struct vg_nfn *next;	/* in the table, or the compile queue */
};

void vg_nfn_put(struct vg_nfn *n);

/* usm.c, with vg_engine_lock held; vg_usm_stop() is in vg.h. */
int vg_usm_start(struct CUctx_st *ctx);		/* 0 or -errno */
void vg_usm_list(struct CUctx_st *ctx, struct vg_nfn *n);
void vg_usm_unlist(struct CUctx_st *ctx, struct vg_nfn *n);

#endif /* VG_ENGINE_H */
