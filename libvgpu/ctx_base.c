// SPDX-License-Identifier: MIT
/*
 * The context base every other file of libvgpu sits on, calling none of
 * them: vg_lock, context references, a call's move from vg_lock to a
 * context's lock (vg_ctx_begin/end), the sticky error, and each thread's
 * stack of current contexts.
 *
 * Locking: vg_lock protects the context registry, context reference
 * counts and state, host registrations, the primary-context table, the
 * stream and event registries, and virtual memory's handles, reservations
 * and mappings (vmm.c, vmm_track.c). Each context's own lock
 * (CUctx_st.lock) protects its channels (rings, fences, stream and event
 * points) and the sticky error; long waits for the device drop it
 * (vg_wait_unlocked()), so one thread's synchronization never holds up
 * another's work. A copy through the staging buffer holds the context's
 * stage_lock, taken first. Order: library.c's vg_lib_lock (loads of
 * libraries into contexts), vg_lock, stage_lock, a context's lock,
 * hostfn_lock; a call plans under vg_lock and moves to the context's lock
 * with vg_ctx_begin(). Closing a context's file takes vg_lock and its lock.
 * module.c's vg_mod_lock (the registry of module handles) is a leaf, taken
 * under any of them and nothing under it.
 *
 * Lifetime: a regular context holds one reference for being alive (dropped
 * by cuCtxDestroy), one per stack slot of any thread, and one for each
 * call between vg_ctx_begin() and vg_ctx_end(); it is freed when the last
 * goes. A destroyed context stays on the stacks that hold it, as on
 * NVIDIA's driver, where work submitted through it fails with
 * CUDA_ERROR_CONTEXT_IS_DESTROYED. Primary contexts are never freed.
 * A call on a context (vg_ctx_hold() to vg_ctx_release(), which
 * vg_ctx_begin() and vg_ctx_end() include) keeps its file and channels
 * open: destroying or resetting the context from another thread first
 * wakes the call's waits, which fail with CUDA_ERROR_CONTEXT_IS_DESTROYED,
 * and waits for it to end (vg_ctx_close()).
 */
#include <pthread.h>
#include <stdlib.h>

#include "vg.h"

pthread_mutex_t vg_lock = PTHREAD_MUTEX_INITIALIZER;

/* A thread's current contexts, the top one current; each slot a reference. */
struct vg_stack {
	struct CUctx_st **slot;
	unsigned int depth;
	unsigned int cap;
};

static pthread_key_t vg_stack_key;
static pthread_once_t vg_stack_once = PTHREAD_ONCE_INIT;

/* Primary contexts are not counted: they are never freed. */
void vg_ctx_ref(struct CUctx_st *ctx)
{
	if (!ctx->primary)
		ctx->refs++;
}

void vg_ctx_locks_init(struct CUctx_st *ctx)
{
	pthread_mutex_init(&ctx->lock, NULL);
	pthread_mutex_init(&ctx->hostfn_lock, NULL);
	pthread_mutex_init(&ctx->stage_lock, NULL);
	pthread_cond_init(&ctx->drained, NULL);
	pthread_cond_init(&ctx->calls_done, NULL);
}

void vg_ctx_locks_destroy(struct CUctx_st *ctx)
{
	pthread_mutex_destroy(&ctx->lock);
	pthread_mutex_destroy(&ctx->hostfn_lock);
	pthread_mutex_destroy(&ctx->stage_lock);
	pthread_cond_destroy(&ctx->drained);
	pthread_cond_destroy(&ctx->calls_done);
}

/* The last reference frees the context, whose file is closed by then. */
void vg_ctx_unref(struct CUctx_st *ctx)
{
	if (!ctx->primary && --ctx->refs == 0) {
		vg_ctx_locks_destroy(ctx);
		free(ctx);
	}
}

/*
 * With vg_lock held on an open context: a call on it begins. The context
 * stays allocated, and its file and channels open, until the call ends
 * (vg_ctx_release()), even while the call holds neither lock: closing
 * the context waits for its calls (vg_ctx_close()).
 */
void vg_ctx_hold(struct CUctx_st *ctx)
{
	vg_ctx_ref(ctx);
	ctx->calls++;
}

/* Ends what vg_ctx_hold() began; with vg_lock held. */
void vg_ctx_release(struct CUctx_st *ctx)
{
	if (--ctx->calls == 0 && ctx->closing)
		pthread_cond_broadcast(&ctx->calls_done);
	vg_ctx_unref(ctx);
}

/*
 * Whether the context is closing while calls on it are in progress: a
 * wait on its device gives up (CUDA_ERROR_CONTEXT_IS_DESTROYED).
 */
bool vg_ctx_closing(const struct CUctx_st *ctx)
{
	return __atomic_load_n(&ctx->closing, __ATOMIC_ACQUIRE);
}

/*
 * Called with vg_lock held on an open context: begins a call on it
 * (vg_ctx_hold()), takes its lock and drops vg_lock for the channel work.
 */
void vg_ctx_begin(struct CUctx_st *ctx)
{
	vg_ctx_hold(ctx);
	pthread_mutex_lock(&ctx->lock);
	pthread_mutex_unlock(&vg_lock);
}

/* Ends what vg_ctx_begin() started; takes neither lock on return. */
void vg_ctx_end(struct CUctx_st *ctx)
{
	pthread_mutex_unlock(&ctx->lock);
	pthread_mutex_lock(&vg_lock);
	vg_ctx_release(ctx);
	pthread_mutex_unlock(&vg_lock);
}

/* The context's sticky error; written under its lock, read under either. */
CUresult vg_ctx_sticky(const struct CUctx_st *ctx)
{
	return __atomic_load_n(&ctx->sticky, __ATOMIC_RELAXED);
}

/* @r becomes the context's sticky error (CUDA_SUCCESS: none); its lock held. */
void vg_ctx_set_sticky(struct CUctx_st *ctx, CUresult r)
{
	__atomic_store_n(&ctx->sticky, r, __ATOMIC_RELAXED);
}

/* Thread exit: the stack's references go with it. */
static void vg_stack_free(void *p)
{
	struct vg_stack *s = p;

	pthread_mutex_lock(&vg_lock);
	while (s->depth)
		vg_ctx_unref(s->slot[--s->depth]);
	pthread_mutex_unlock(&vg_lock);
	free(s->slot);
	free(s);
}

static void vg_stack_key_init(void)
{
	if (pthread_key_create(&vg_stack_key, vg_stack_free))
		abort();
}

/* The calling thread's stack; NULL only when @create is false or on ENOMEM. */
static struct vg_stack *vg_stack_get(bool create)
{
	struct vg_stack *s;

	pthread_once(&vg_stack_once, vg_stack_key_init);
	s = pthread_getspecific(vg_stack_key);
	if (s || !create)
		return s;
	s = calloc(1, sizeof(*s));
	if (s && pthread_setspecific(vg_stack_key, s)) {
		free(s);
		s = NULL;
	}
	return s;
}

/* Pushes @ctx (taking a reference); called with vg_lock held. */
CUresult vg_ctx_push(struct CUctx_st *ctx)
{
	struct vg_stack *s = vg_stack_get(true);

	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (s->depth == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 8;
		struct CUctx_st **slot = realloc(s->slot, cap * sizeof(*slot));

		if (!slot)
			return CUDA_ERROR_OUT_OF_MEMORY;
		s->slot = slot;
		s->cap = cap;
	}
	vg_ctx_ref(ctx);
	s->slot[s->depth++] = ctx;
	return CUDA_SUCCESS;
}

/* The calling thread's current context, destroyed or not, or NULL. */
struct CUctx_st *vg_ctx_current(void)
{
	struct vg_stack *s = vg_stack_get(false);

	return s && s->depth ? s->slot[s->depth - 1] : NULL;
}

/*
 * Pops the calling thread's current context, whose reference passes to
 * the caller; NULL when the stack is empty.
 */
struct CUctx_st *vg_ctx_pop(void)
{
	struct vg_stack *s = vg_stack_get(false);

	return s && s->depth ? s->slot[--s->depth] : NULL;
}

/*
 * Makes @ctx current in place of the current one (NULL: pops it), as
 * cuCtxSetCurrent; called with vg_lock held. On failure nothing changes.
 */
CUresult vg_ctx_set_current(struct CUctx_st *ctx)
{
	struct vg_stack *s;
	struct CUctx_st *old = NULL;
	CUresult r = CUDA_SUCCESS;

	s = vg_stack_get(ctx != NULL);
	if (s && s->depth)
		old = s->slot[--s->depth];
	if (ctx)
		r = vg_ctx_push(ctx);
	if (r == CUDA_SUCCESS && old)
		vg_ctx_unref(old);
	else if (old)
		s->slot[s->depth++] = old;	/* push failed: undo */
	return r;
}
