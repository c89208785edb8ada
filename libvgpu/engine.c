// SPDX-License-Identifier: MIT
/*
 * Which engine runs a launch. VGPU_ENGINE=interp leaves every launch to the
 * module's SMs (the interpreter); native and auto send a launch to the
 * context's user-mode SMs (usm.c) once its kernel's native code is ready.
 * Kernels compile on a thread of their own, in order. native makes a
 * launch wait for its kernel's compile (outside the library's lock, so
 * other threads' calls go on), so every launch that can run natively does
 * (tests and benchmarks); auto never makes a launch wait for LLVM: the
 * interpreter runs the launches until the code is ready, and later ones
 * run natively. A kernel the native engine
 * refuses (native.h says which), a cooperative launch and a kernel that
 * uses the device heap stay on the interpreter.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

enum vg_engine_mode { VG_ENGINE_INTERP, VG_ENGINE_NATIVE, VG_ENGINE_AUTO };

const struct vg_native_api *vg_native;
pthread_mutex_t vg_engine_lock = PTHREAD_MUTEX_INITIALIZER;

static enum vg_engine_mode vg_engine_mode;
static pthread_once_t vg_engine_once = PTHREAD_ONCE_INIT;
static struct vg_native_api vg_native_table;

/* The background compiles (auto), in order, and their thread's state. */
static pthread_mutex_t vg_compile_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t vg_compile_cond = PTHREAD_COND_INITIALIZER;
static struct vg_nfn *vg_compile_head, **vg_compile_tail = &vg_compile_head;
static struct vg_nfn *vg_compile_current;	/* the one being compiled */
static bool vg_compile_started, vg_compile_busy, vg_compile_exiting;
static bool vg_compile_hooked;	/* the exit and fork handlers are set */

static const char vg_native_file[] = "libvgpu-native.so.1";

/* libvgpu-native.so.1 beside this library, else where the loader looks. */
static void *vg_native_open(void)
{
	char path[4096];
	Dl_info di;
	const char *slash;
	void *h;

	if (dladdr((void *)vg_native_open, &di) && di.dli_fname &&
	    (slash = strrchr(di.dli_fname, '/')) &&
	    (size_t)(slash - di.dli_fname) + sizeof(vg_native_file) + 1 < sizeof(path)) {
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - di.dli_fname),
			 di.dli_fname, vg_native_file);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	return dlopen(vg_native_file, RTLD_NOW | RTLD_LOCAL);
}

#define VG_NATIVE_SYM(field, name) \
	(*(void **)&t->field = dlsym(h, name)) != NULL

static bool vg_native_bind(void *h, struct vg_native_api *t)
{
	return VG_NATIVE_SYM(init, "vgpu_native_init") &&
	       VG_NATIVE_SYM(compile, "vgpu_native_compile") &&
	       VG_NATIVE_SYM(kernel_free, "vgpu_native_kernel_free") &&
	       VG_NATIVE_SYM(kernel_straight, "vgpu_native_kernel_straight") &&
	       VG_NATIVE_SYM(block_new, "vgpu_native_block_new") &&
	       VG_NATIVE_SYM(block_set_lookup, "vgpu_native_block_set_lookup") &&
	       VG_NATIVE_SYM(block_start, "vgpu_native_block_start") &&
	       VG_NATIVE_SYM(block_run, "vgpu_native_block_run") &&
	       VG_NATIVE_SYM(block_fault, "vgpu_native_block_fault") &&
	       VG_NATIVE_SYM(block_free, "vgpu_native_block_free");
}

/*
 * Reads VGPU_ENGINE and, unless it says interp, loads the native engine.
 * A native engine that cannot run leaves every launch on the interpreter;
 * with VGPU_ENGINE=native, which asks for it, that is said once.
 */
static void vg_engine_setup(void)
{
	const char *e = getenv("VGPU_ENGINE");
	char why[256] = "";
	void *h;

	vg_engine_mode = VG_ENGINE_AUTO;
	if (e && !strcmp(e, "interp"))
		vg_engine_mode = VG_ENGINE_INTERP;
	else if (e && !strcmp(e, "native"))
		vg_engine_mode = VG_ENGINE_NATIVE;
	else if (e && *e && strcmp(e, "auto"))
		fprintf(stderr, "vgpu: VGPU_ENGINE=%s is not interp, native or auto: auto\n", e);
	if (vg_engine_mode == VG_ENGINE_INTERP)
		return;
	h = vg_native_open();
	if (!h)
		snprintf(why, sizeof(why), "%s", dlerror());
	else if (!vg_native_bind(h, &vg_native_table))
		snprintf(why, sizeof(why), "%s lacks an entry point", vg_native_file);
	else if (vg_native_table.init(why, sizeof(why)) == 0)
		vg_native = &vg_native_table;
	if (!vg_native && vg_engine_mode == VG_ENGINE_NATIVE)
		fprintf(stderr, "vgpu: VGPU_ENGINE=native: the native engine cannot run (%s); kernels run on the interpreter\n",
			why);
}

void vg_nfn_put(struct vg_nfn *n)
{
	if (!n || __atomic_sub_fetch(&n->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (n->k)
		vg_native->kernel_free(n->k);
	free((void *)n->prog.insns);
	free((void *)n->prog.funcs);
	free(n);
}

/* @f's kernel, its module's code copied as the device runs it. */
static struct vg_nfn *vg_nfn_new(struct CUfunc_st *f)
{
	const struct vg_jit_image *img = f->mod->img;
	struct vg_nfn *n = calloc(1, sizeof(*n));
	struct vgpu_insn *insns = malloc(sizeof(*insns) * img->ninsns);
	struct vgpu_func *funcs = malloc(sizeof(*funcs) * img->nkernels);
	uint32_t i;

	if (!n || !insns || !funcs) {
		free(n);
		free(insns);
		free(funcs);
		return NULL;
	}
	memcpy(insns, img->insns, sizeof(*insns) * img->ninsns);
	for (i = 0; i < img->nkernels; i++)
		funcs[i] = img->kernels[i].f;
	n->module = f->mod->handle;
	n->func = f->index;
	n->refs = 1;
	n->prog = (struct vgpu_program){ insns, img->ninsns, funcs, img->nkernels };
	return n;
}

static void vg_nfn_compile(struct vg_nfn *n)
{
	char why[256];

	n->k = vg_native->compile(&n->prog, n->func, why, sizeof(why));
	if (!n->k && getenv("VGPU_NATIVE_DEBUG"))
		fprintf(stderr, "vgpu: kernel %u stays on the interpreter: %s\n", n->func, why);
	__atomic_store_n(&n->state, n->k ? VG_NFN_READY : VG_NFN_REFUSED,
			 __ATOMIC_RELEASE);
}

/*
 * The process is exiting: a compile in progress ends before LLVM's own
 * exit handlers (registered before this one, so run after it) tear it
 * down; nothing new starts.
 */
static void vg_compile_atexit(void)
{
	pthread_mutex_lock(&vg_compile_lock);
	vg_compile_exiting = true;
	while (vg_compile_busy)
		pthread_cond_wait(&vg_compile_cond, &vg_compile_lock);
	pthread_mutex_unlock(&vg_compile_lock);
}

static void *vg_compile_main(void *arg)
{
	struct vg_nfn *n;

	(void)arg;
	pthread_mutex_lock(&vg_compile_lock);
	for (;;) {
		while (!vg_compile_head && !vg_compile_exiting)
			pthread_cond_wait(&vg_compile_cond, &vg_compile_lock);
		if (vg_compile_exiting)
			break;
		n = vg_compile_head;
		vg_compile_head = n->next;
		if (!vg_compile_head)
			vg_compile_tail = &vg_compile_head;
		vg_compile_busy = true;
		vg_compile_current = n;
		pthread_mutex_unlock(&vg_compile_lock);
		vg_nfn_compile(n);
		pthread_mutex_lock(&vg_compile_lock);
		vg_compile_current = NULL;
		vg_compile_busy = false;
		vg_nfn_put(n);
		pthread_cond_broadcast(&vg_compile_cond);
	}
	pthread_mutex_unlock(&vg_compile_lock);
	return NULL;
}

/*
 * fork(): the child has no compile thread. The kernels queued or being
 * compiled at the fork stay on the interpreter in the child (no thread
 * will finish them there, and a launch may be waiting for them); a
 * compile of the child's own starts a thread.
 */
static void vg_compile_prepare(void)
{
	pthread_mutex_lock(&vg_compile_lock);
}

static void vg_compile_parent(void)
{
	pthread_mutex_unlock(&vg_compile_lock);
}

static void vg_compile_child(void)
{
	struct vg_nfn *n, *next;

	if (vg_compile_current)
		__atomic_store_n(&vg_compile_current->state, VG_NFN_REFUSED,
				 __ATOMIC_RELEASE);
	vg_compile_current = NULL;
	for (n = vg_compile_head; n; n = next) {
		next = n->next;
		__atomic_store_n(&n->state, VG_NFN_REFUSED, __ATOMIC_RELEASE);
		vg_nfn_put(n);
	}
	vg_compile_head = NULL;
	vg_compile_tail = &vg_compile_head;
	vg_compile_started = false;
	vg_compile_busy = false;
	pthread_mutex_unlock(&vg_compile_lock);
}

/* Queues @n's compile (its reference taken); false when it cannot be. */
static bool vg_compile_queue(struct vg_nfn *n)
{
	bool ok = true, queued = false;

	pthread_mutex_lock(&vg_compile_lock);
	if (!vg_compile_started) {
		pthread_attr_t a;
		pthread_t t;

		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		ok = !pthread_create(&t, &a, vg_compile_main, NULL);
		pthread_attr_destroy(&a);
		if (ok && !vg_compile_hooked) {
			vg_compile_hooked = true;
			atexit(vg_compile_atexit);
			pthread_atfork(vg_compile_prepare, vg_compile_parent,
				       vg_compile_child);
		}
		vg_compile_started = ok;
	}
	if (ok && !vg_compile_exiting) {
		__atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
		n->next = NULL;
		*vg_compile_tail = n;
		vg_compile_tail = &n->next;
		pthread_cond_broadcast(&vg_compile_cond);
		queued = true;
	}
	pthread_mutex_unlock(&vg_compile_lock);
	return queued;
}

/* @f's native kernel, its compile queued when it is new; vg_lock held. */
static struct vg_nfn *vg_nfn_of(struct CUfunc_st *f)
{
	struct vg_nfn *n = f->native;

	if (n)
		return n;
	n = vg_nfn_new(f);
	if (!n)
		return NULL;
	f->native = n;
	if (!vg_compile_queue(n))
		__atomic_store_n(&n->state, VG_NFN_REFUSED, __ATOMIC_RELEASE);
	return n;
}

/*
 * The checks of vg_engine_user_sm() that need no context: a kernel that
 * may run on the SMs.
 */
static bool vg_engine_may(const struct CUfunc_st *f, bool cooperative)
{
	if (cooperative || f->uses_heap)
		return false;
	pthread_once(&vg_engine_once, vg_engine_setup);
	return vg_native != NULL;
}

void vg_engine_prepare(struct CUfunc_st *f, bool cooperative)
{
	struct vg_nfn *n;

	if (!vg_engine_may(f, cooperative) || vg_engine_mode != VG_ENGINE_NATIVE)
		return;
	pthread_mutex_lock(&vg_lock);
	n = vg_nfn_of(f);
	if (n)
		__atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&vg_lock);
	if (!n)
		return;
	pthread_mutex_lock(&vg_compile_lock);
	while (__atomic_load_n(&n->state, __ATOMIC_ACQUIRE) == VG_NFN_COMPILING)
		pthread_cond_wait(&vg_compile_cond, &vg_compile_lock);
	pthread_mutex_unlock(&vg_compile_lock);
	vg_nfn_put(n);
}

uint32_t vg_engine_user_sm(struct CUctx_st *ctx, struct CUfunc_st *f,
			   bool cooperative)
{
	struct vg_nfn *n;
	bool go;

	/*
	 * The SMs reach the context's own memory and host memory; another
	 * context's (a peer's), another driver's and managed memory (whose
	 * residency the module keeps) only the module's SMs do.
	 */
	if (ctx->npeers || __atomic_load_n(&ctx->interp_only, __ATOMIC_RELAXED) ||
	    !vg_engine_may(f, cooperative))
		return 0;
	n = vg_nfn_of(f);
	if (!n || __atomic_load_n(&n->state, __ATOMIC_ACQUIRE) != VG_NFN_READY)
		return 0;
	pthread_mutex_lock(&vg_engine_lock);
	go = vg_usm_start(ctx) == 0;
	if (go && !n->listed)
		vg_usm_list(ctx, n);
	pthread_mutex_unlock(&vg_engine_lock);
	if (!go)
		return 0;
	return VGPU_LAUNCH_USER_SM |
		(vg_native->kernel_straight(n->k) ? VGPU_LAUNCH_USM_RUNS : 0);
}

void vg_engine_func_gone(struct CUfunc_st *f)
{
	struct vg_nfn *n = f->native;

	if (!n)
		return;
	f->native = NULL;
	pthread_mutex_lock(&vg_engine_lock);
	if (n->listed)
		vg_usm_unlist(f->mod->ctx, n);
	pthread_mutex_unlock(&vg_engine_lock);
	vg_nfn_put(n);
}
