// SPDX-License-Identifier: MIT
/*
 * Modules: cuModuleLoad, cuModuleLoadData(Ex), cuModuleUnload,
 * cuModuleGetFunction, cuModuleGetGlobal and cuFuncGetAttribute. A module
 * image (PTX text or a fatbin's PTX) is compiled by the JIT, through the
 * on-disk cache, or is vgpu's compiled-module format (cuLinkComplete's,
 * vgpu-ptxas's); its variables get a block of device memory, and the
 * program goes to the device with MODULE_LOAD, whose verifier has the
 * last word.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fatbin.h"
#include "jit_cache.h"
#include "vg.h"

/* Copies @msg into a JIT log buffer of @size bytes (NUL-terminated). */
static void vg_log(char *buf, size_t size, const char *msg)
{
	if (buf && size)
		snprintf(buf, size, "%s", msg);
}

CUresult vg_jit_options(unsigned int n, const CUjit_option *opts,
			       void **values, struct vg_jit_logs *logs)
{
	unsigned int i;

	memset(logs, 0, sizeof(*logs));
	if (n && (!opts || !values))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < n; i++) {
		uintptr_t v = (uintptr_t)values[i];

		switch (opts[i]) {
		case CU_JIT_INFO_LOG_BUFFER:
			logs->info = values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			logs->info_size = v;
			break;
		case CU_JIT_ERROR_LOG_BUFFER:
			logs->error = values[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			logs->error_size = v;
			break;
		default:
			/* Accepted and ignored, as the options only tune. */
			if ((unsigned int)opts[i] >= CU_JIT_NUM_OPTIONS)
				return CUDA_ERROR_INVALID_VALUE;
			break;
		}
	}
	return CUDA_SUCCESS;
}

/* The PTX text of @image for device @dev: borrowed, or *@owned. */
CUresult vg_image_ptx(int dev, const void *image, const char **ptx,
		      size_t *len, char **owned, struct vg_jit_logs *logs)
{
	const struct vgpu_info *info = &vg_devices[dev].info;
	enum vg_image_kind kind = vg_image_kind(image);
	char msg[256] = "";
	int r;

	*owned = NULL;
	switch (kind) {
	case VG_IMAGE_PTX:
		*ptx = image;
		*len = strlen(image);
		return CUDA_SUCCESS;
	case VG_IMAGE_FATBIN:
		r = vg_fatbin_ptx(image, kind, info->cc_major * 10 + info->cc_minor,
				  owned, len, msg, sizeof(msg));
		if (!r) {
			*ptx = *owned;
			return CUDA_SUCCESS;
		}
		vg_log(logs->error, logs->error_size, msg);
		if (r == VG_FATBIN_NO_PTX) {
			fprintf(stderr, "vgpu: %s\n", msg);
			return CUDA_ERROR_NO_BINARY_FOR_GPU;
		}
		return r == VG_FATBIN_NOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
			CUDA_ERROR_INVALID_IMAGE;
	case VG_IMAGE_ELF:
		vg_log(logs->error, logs->error_size,
		       "a cubin holds machine code only; vgpu runs PTX");
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	default:
		/* The wrapper struct too: NVIDIA's driver refuses it here. */
		return CUDA_ERROR_INVALID_IMAGE;
	}
}

/*
 * The JIT image of @image: read from a compiled module, or compiled from
 * the image's PTX through the cache. The cache holds images before
 * relocation, which vg_module_globals() does next.
 */
CUresult vg_module_image(int dev, const void *image, struct vg_jit_image **img,
			 struct vg_jit_logs *logs)
{
	char *owned = NULL, err[512];
	const char *ptx;
	size_t len;
	CUresult r;

	if (vg_image_kind(image) == VG_IMAGE_VGPU) {
		len = vg_image_file_size(image);
		if (!len) {
			vg_log(logs->error, logs->error_size,
			       "vgpu module: bad header");
			return CUDA_ERROR_INVALID_IMAGE;
		}
		if (vg_modfile_load(image, len, img, err, sizeof(err))) {
			vg_log(logs->error, logs->error_size, err);
			return CUDA_ERROR_INVALID_IMAGE;
		}
		return CUDA_SUCCESS;
	}
	r = vg_image_ptx(dev, image, &ptx, &len, &owned, logs);
	if (r)
		return r;
	switch (vg_jit_compile_cached(ptx, len, img, err, sizeof(err))) {
	case 0:
		break;
	case VG_JIT_REFUSED_HANDLE:
		r = CUDA_ERROR_INVALID_HANDLE;
		break;
	case VG_JIT_REFUSED_UNSUPPORTED:
		r = CUDA_ERROR_NOT_SUPPORTED;
		break;
	default:
		r = CUDA_ERROR_INVALID_PTX;
		break;
	}
	if (r)
		vg_log(logs->error, logs->error_size, err);
	free(owned);
	return r;
}

/*
 * Managed storage for each __managed__ variable of @mod, a managed
 * allocation of its own, as on an H100 (each is a range of its own to the
 * pointer queries): the host dereferences the address cuModuleGetGlobal
 * gives, the kernels reach the same pages. Called entered, as
 * vg_module_create; the lock order (vg_lock before the context's) has
 * the context's lock let go meanwhile: the module is no one else's yet.
 */
static CUresult vg_module_managed(struct CUctx_st *ctx, struct CUmod_st *mod)
{
	const struct vg_jit_image *img = mod->img;
	CUresult r = CUDA_SUCCESS;
	uint32_t i, n = 0;

	for (i = 0; i < img->nvars; i++)
		n += img->vars[i].managed;
	if (!n)
		return CUDA_SUCCESS;
	mod->managed = calloc(n, sizeof(*mod->managed));
	if (!mod->managed)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_unlock(&ctx->lock);
	for (i = 0; i < img->nvars && !r; i++) {
		void *p;

		if (!img->vars[i].managed)
			continue;
		r = vg_managed_var_alloc(ctx, &p, img->vars[i].size);
		if (!r)
			mod->managed[mod->nmanaged++] = (CUdeviceptr)(uintptr_t)p;
	}
	pthread_mutex_lock(&ctx->lock);
	return r;
}

/* Frees @mod's managed storage; called without locks. */
static void vg_module_managed_free(struct CUmod_st *mod)
{
	uint32_t i;

	for (i = 0; i < mod->nmanaged; i++)
		vg_managed_var_free((void *)(uintptr_t)mod->managed[i]);
	mod->nmanaged = 0;
}

/*
 * A relocated value: an offset in the global block at @va, or a managed
 * variable's address (VG_JIT_MANAGED_ADDR), into *@v. False for a managed
 * variable the module does not have (a bad compiled module).
 */
static bool vg_module_reloc(const struct CUmod_st *mod, CUdeviceptr va,
			    uint64_t *v)
{
	int64_t off, k = vg_jit_managed_index(*v, &off);

	if (k < 0) {
		*v += va;
		return true;
	}
	if ((uint64_t)k >= mod->nmanaged)
		return false;
	*v = mod->managed[k] + (uint64_t)off;
	return true;
}

/*
 * The bytes of the global block the device needs: all of it but the
 * managed variables' initial bytes, which the JIT puts last.
 */
static uint64_t vg_module_device_bytes(const struct vg_jit_image *img)
{
	uint64_t end = img->has_printf ? img->printf_off + 8 : 0;
	uint32_t i;

	for (i = 0; i < img->nvars; i++)
		if (!img->vars[i].managed &&
		    img->vars[i].offset + img->vars[i].size > end)
			end = img->vars[i].offset + img->vars[i].size;
	return end;
}

/*
 * Device memory for the module's variables, initialized, and relocated;
 * the managed variables' storage (vg_module_managed) initialized.
 */
static CUresult vg_module_globals(struct CUctx_st *ctx, struct CUmod_st *mod)
{
	struct vg_jit_image *img = mod->img;
	struct vgpu_mem_alloc a = { .size = vg_module_device_bytes(img) };
	uint32_t i, k = 0;
	CUresult r;

	if (!img->global_bytes)
		return CUDA_SUCCESS;
	if (a.size && ioctl(ctx->fd, VGPU_IOCTL_MEM_ALLOC, &a))
		return errno == ENOSPC ? CUDA_ERROR_OUT_OF_MEMORY :
			vg_errno_result(errno);
	mod->globals = a.va;
	for (i = 0; i < img->nrelocs; i++) {
		uint64_t v = img->insns[img->relocs[i]].imm;

		if (!vg_module_reloc(mod, a.va, &v))
			return CUDA_ERROR_INVALID_IMAGE;
		img->insns[img->relocs[i]].imm = v;
	}
	for (i = 0; i < img->ndata_relocs; i++) {
		uint64_t v;

		memcpy(&v, img->globals + img->data_relocs[i], 8);
		if (!vg_module_reloc(mod, a.va, &v))
			return CUDA_ERROR_INVALID_IMAGE;
		memcpy(img->globals + img->data_relocs[i], &v, 8);
	}
	for (i = 0; i < img->nvars; i++)
		if (img->vars[i].managed)
			memcpy((void *)(uintptr_t)mod->managed[k++],
			       img->globals + img->vars[i].offset,
			       img->vars[i].size);
	if (!a.size)
		return CUDA_SUCCESS;
	/* Its kernels print to the context's FIFO, once there is one. */
	if (img->has_printf && ctx->printf_fifo)
		memcpy(img->globals + img->printf_off, &ctx->printf_fifo, 8);
	r = vg_htod(&ctx->legacy, a.va, img->globals, a.size, false, false);
	/* In place before any stream, non-blocking ones too, can launch. */
	if (r == CUDA_SUCCESS)
		r = vg_chan_wait(ctx->legacy.ch, ctx->legacy.ch->put, false);
	return r;
}

static CUresult vg_module_send(struct CUctx_st *ctx, struct CUmod_st *mod,
			       struct vg_jit_logs *logs)
{
	struct vg_jit_image *img = mod->img;
	struct vgpu_func *funcs = calloc(img->nkernels, sizeof(*funcs));
	char msg[256] = "";
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)img->insns, .funcs = (uintptr_t)funcs,
		.ninsns = img->ninsns, .nfuncs = img->nkernels,
		.log = (uintptr_t)msg, .log_size = sizeof(msg),
	};
	uint32_t i;

	if (!funcs)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < img->nkernels; i++)
		funcs[i] = img->kernels[i].f;
	if (ioctl(ctx->fd, VGPU_IOCTL_MODULE_LOAD, &ml)) {
		int err = errno;

		free(funcs);
		if (err != EINVAL)
			return vg_errno_result(err);
		/* The JIT wrote what the verifier refuses: a bug of ours. */
		vg_log(logs->error, logs->error_size, msg);
		fprintf(stderr, "vgpu: the module verifier refused the JIT's code at instruction %u: %s\n",
			ml.error_insn, msg);
		return CUDA_ERROR_INVALID_PTX;
	}
	free(funcs);
	mod->handle = ml.handle;
	return CUDA_SUCCESS;
}

/*
 * The registry of module handles: each module from its load until it is
 * freed, those of contexts destroyed since included. A handle not in it
 * was never a module or was unloaded: NVIDIA's driver answers
 * CUDA_ERROR_INVALID_HANDLE for it (tests/e2e/ref/h100_robust.log), and
 * vgpu must neither free it again nor send its old MODULE_UNLOAD handle,
 * which the kernel may have given to a newer module since. vg_mod_lock
 * protects the list and is a leaf: nothing else is taken under it.
 */
static pthread_mutex_t vg_mod_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUmod_st *vg_mods;

static void vg_module_register(struct CUmod_st *mod)
{
	pthread_mutex_lock(&vg_mod_lock);
	mod->next_all = vg_mods;
	vg_mods = mod;
	pthread_mutex_unlock(&vg_mod_lock);
}

/* The link to @mod in the registry, or NULL; under vg_mod_lock. */
static struct CUmod_st **vg_module_slot(const struct CUmod_st *mod)
{
	struct CUmod_st **pp;

	for (pp = &vg_mods; *pp; pp = &(*pp)->next_all)
		if (*pp == mod)
			return pp;
	return NULL;
}

/* Whether @mod is a handle of a module not unloaded. */
bool vg_module_known(const struct CUmod_st *mod)
{
	bool known;

	pthread_mutex_lock(&vg_mod_lock);
	known = mod && vg_module_slot(mod);
	pthread_mutex_unlock(&vg_mod_lock);
	return known;
}

/*
 * Whether @mod is a module not unloaded, in the context it was loaded
 * into: an H100 answers CUDA_ERROR_INVALID_HANDLE for a module of a
 * destroyed context too.
 */
static bool vg_module_usable(const struct CUmod_st *mod)
{
	bool usable;

	pthread_mutex_lock(&vg_lock);
	usable = vg_module_known(mod) && vg_module_live(mod);
	pthread_mutex_unlock(&vg_lock);
	return usable;
}

/*
 * Whether @f is a function of a module not unloaded, found by its address
 * alone: a function of an unloaded module is freed memory, not to be read.
 */
static bool vg_func_known(const struct CUfunc_st *f)
{
	const struct CUmod_st *m;
	uintptr_t p = (uintptr_t)f;
	bool known = false;

	pthread_mutex_lock(&vg_mod_lock);
	for (m = vg_mods; m && !known; m = m->next_all)
		known = p >= (uintptr_t)m->funcs &&
			p < (uintptr_t)(m->funcs + m->img->nkernels);
	pthread_mutex_unlock(&vg_mod_lock);
	return known;
}

/*
 * Takes @mod out of the registry for cuModuleUnload, so that of two
 * unloads of one handle, even at once, only one frees it.
 */
static CUresult vg_module_claim(struct CUmod_st *mod)
{
	struct CUmod_st **pp;
	CUresult r = CUDA_ERROR_INVALID_HANDLE;

	pthread_mutex_lock(&vg_mod_lock);
	pp = mod ? vg_module_slot(mod) : NULL;
	/* A library's module goes with the library (cuLibraryUnload). */
	if (pp && mod->lib) {
		r = CUDA_ERROR_NOT_PERMITTED;
	} else if (pp) {
		*pp = mod->next_all;
		r = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&vg_mod_lock);
	return r;
}

static void vg_module_free(struct CUmod_st *mod)
{
	struct CUmod_st **pp;
	uint32_t i;

	if (!mod)
		return;
	pthread_mutex_lock(&vg_mod_lock);
	pp = vg_module_slot(mod);
	if (pp)
		*pp = mod->next_all;
	pthread_mutex_unlock(&vg_mod_lock);
	for (i = 0; mod->funcs && i < mod->img->nkernels; i++) {
		mod->funcs[i].magic = 0;
		free(mod->funcs[i].old.params);
		vg_engine_func_gone(&mod->funcs[i]);
	}
	free(mod->funcs);
	free(mod->managed);
	vg_jit_free(mod->img);
	free(mod);
}

/*
 * Loads @image into @ctx, open and entered with vg_ctx_begin(): a new
 * module in ctx->modules, *@pmod.
 */
CUresult vg_module_create(struct CUctx_st *ctx, const void *image,
			  struct vg_jit_logs *logs, struct CUmod_st **pmod)
{
	const struct vgpu_info *info = &vg_devices[ctx->dev].info;
	struct CUmod_st *mod;
	uint32_t i;
	CUresult r;

	mod = calloc(1, sizeof(*mod));
	if (!mod)
		return CUDA_ERROR_OUT_OF_MEMORY;
	mod->ctx = ctx;
	mod->serial = ctx->serial;
	r = vg_module_image(ctx->dev, image, &mod->img, logs);
	if (r)
		goto out;
	mod->funcs = calloc(mod->img->nkernels, sizeof(*mod->funcs));
	if (!mod->funcs) {
		r = CUDA_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	for (i = 0; i < mod->img->nkernels; i++) {
		mod->funcs[i].magic = VG_FUNC_MAGIC;
		mod->funcs[i].mod = mod;
		mod->funcs[i].index = i;
		mod->funcs[i].k = &mod->img->kernels[i];
		/* Static and dynamic shared memory share the 48 KiB default. */
		mod->funcs[i].max_dyn_shared =
			info->shared_mem_per_block > mod->funcs[i].k->f.shared_bytes ?
			info->shared_mem_per_block - mod->funcs[i].k->f.shared_bytes : 0;
		mod->funcs[i].carveout = -1;
		mod->funcs[i].uses_heap = vg_heap_used(mod->img, i);
	}
	r = vg_module_managed(ctx, mod);
	if (!r)
		r = vg_module_globals(ctx, mod);
	if (!r)
		r = vg_module_send(ctx, mod, logs);
	if (!r) {
		vg_image_describe(mod->img, logs->info, logs->info_size);
		mod->next = ctx->modules;
		/* Published whole: vg_module_valid() looks without our lock. */
		__atomic_store_n(&ctx->modules, mod, __ATOMIC_RELEASE);
		vg_module_register(mod);
		*pmod = mod;
		return CUDA_SUCCESS;
	}
out:
	if (mod->globals) {
		struct vgpu_mem_free f = { .va = mod->globals };

		ioctl(ctx->fd, VGPU_IOCTL_MEM_FREE, &f);
	}
	if (mod->nmanaged) {
		pthread_mutex_unlock(&ctx->lock);
		vg_module_managed_free(mod);
		pthread_mutex_lock(&ctx->lock);
	}
	vg_module_free(mod);
	return r;
}

static CUresult vg_module_load(CUmodule *module, const void *image,
			       struct vg_jit_logs *logs)
{
	struct CUctx_st *ctx;
	CUresult r;

	if (!module || !image)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	r = vg_module_create(ctx, image, logs, module);
	vg_ctx_end(ctx);
	return r;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	struct vg_jit_logs logs = { 0 };
	CUresult r = vg_check_init();

	return r ? r : vg_module_load(module, image, &logs);
}

/*
 * A fatbin, or the wrapper nvcc's host code registers it with (which
 * cuModuleLoadData refuses, as NVIDIA's driver does): the wrapper's
 * container is loaded.
 */
CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fat)
{
	struct vg_jit_logs logs = { 0 };
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (fat && vg_image_kind(fat) == VG_IMAGE_WRAPPER) {
		const struct vg_fatbin_wrapper *w = fat;

		fat = w->data;
	}
	return vg_module_load(module, fat, &logs);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
			    unsigned int n, CUjit_option *options, void **values)
{
	struct vg_jit_logs logs;
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_jit_options(n, options, values, &logs);
	return r ? r : vg_module_load(module, image, &logs);
}

CUresult cuModuleLoad(CUmodule *module, const char *path)
{
	struct vg_jit_logs logs = { 0 };
	size_t len;
	char *buf;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!module || !path)
		return CUDA_ERROR_INVALID_VALUE;
	buf = vg_read_file(path, &len);
	if (!buf)
		return errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
			CUDA_ERROR_FILE_NOT_FOUND;
	r = vg_module_load(module, buf, &logs);
	free(buf);
	return r;
}

/*
 * Unloads @module from its context and frees it; called without vg_lock.
 * A module whose context was destroyed went with it, and its handle is
 * dead: it is only freed, and the answer is an H100's for a dead handle.
 */
CUresult vg_module_unload(struct CUmod_st *module)
{
	struct CUmod_st **pp;
	struct vgpu_module_unload mu;
	struct CUctx_st *ctx;
	CUresult idle;

	vg_texref_module_gone(module);
	pthread_mutex_lock(&vg_lock);
	ctx = module->ctx;
	if (!vg_module_live(module)) {
		pthread_mutex_unlock(&vg_lock);
		vg_module_free(module);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	if (module->globals)
		vg_sync_forget(ctx, module->globals);
	vg_ctx_begin(ctx);
	/*
	 * What its kernels printed comes out first, as on CUDA. Another
	 * thread's drain may be formatting this module's strings with the
	 * lock dropped (its reads of device memory take the staging buffer),
	 * and may have begun before those kernels ended: once it is over,
	 * this one drains, and the module goes with no drain in progress.
	 */
	idle = vg_ctx_idle(ctx);
	while (ctx->draining)
		pthread_cond_wait(&ctx->drained, &ctx->lock);
	if (idle == CUDA_SUCCESS)
		vg_printf_drain(ctx);
	for (pp = &ctx->modules; *pp; pp = &(*pp)->next)
		if (*pp == module) {
			__atomic_store_n(pp, module->next, __ATOMIC_RELEASE);
			break;
		}
	/* Launches already queued keep the code; the variables go after them. */
	mu = (struct vgpu_module_unload){ .handle = module->handle };
	ioctl(ctx->fd, VGPU_IOCTL_MODULE_UNLOAD, &mu);
	if (module->globals) {
		struct vgpu_mem_free f = { .va = module->globals };

		vg_ctx_idle(ctx);
		ioctl(ctx->fd, VGPU_IOCTL_MEM_FREE, &f);
	}
	vg_ctx_end(ctx);
	/* The managed variables too, once the kernels using them are done. */
	vg_module_managed_free(module);
	vg_module_free(module);
	return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_module_claim(module);
	return r ? r : vg_module_unload(module);
}

CUresult cuModuleGetFunction(CUfunction *func, CUmodule module,
			     const char *name)
{
	uint32_t i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!func || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!vg_module_usable(module))
		return CUDA_ERROR_INVALID_HANDLE;
	for (i = 0; i < module->img->nkernels; i++)
		if (!strcmp(module->img->kernels[i].name, name)) {
			*func = &module->funcs[i];
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_NOT_FOUND;
}

/* The storage of @module's variable @i, a managed one. */
static CUdeviceptr vg_module_managed_at(const struct CUmod_st *module,
					uint32_t i)
{
	uint32_t j, k = 0;

	for (j = 0; j < i; j++)
		k += module->img->vars[j].managed;
	return module->managed[k];
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule module,
			      const char *name)
{
	uint32_t i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!vg_module_usable(module))
		return CUDA_ERROR_INVALID_HANDLE;
	for (i = 0; i < module->img->nvars; i++) {
		const struct vg_jit_var *v = &module->img->vars[i];

		/* Texture and surface references are not variables to CUDA. */
		if (v->ref || strcmp(v->name, name))
			continue;
		if (dptr)
			*dptr = v->managed ? vg_module_managed_at(module, i) :
				module->globals + v->offset;
		if (bytes)
			*bytes = v->size;
		return CUDA_SUCCESS;
	}
	return CUDA_ERROR_NOT_FOUND;
}

/* Whether @mod's context is still the open it was loaded into (vg_lock). */
bool vg_module_live(const struct CUmod_st *mod)
{
	return vg_ctx_alive(mod->ctx) && mod->ctx->fd >= 0 &&
		mod->ctx->serial == mod->serial;
}

/*
 * The function @f names, for a launch: a CUfunction, or a CUkernel, which
 * an H100 launches as its function in the current context (loaded there
 * if need be).
 */
CUresult vg_launch_func_get(CUfunction f, struct CUfunc_st **pf)
{
	if (vg_func_known(f))
		return vg_func_get(f, pf);
	/* A CUkernel, or no handle at all: checked by address there. */
	return vg_kernel_function((struct CUkern_st *)f, pf);
}

/*
 * The function @f names: a CUfunction of a loaded module whose context
 * lives. The cuFunc* calls of an H100 answer CUDA_ERROR_INVALID_HANDLE for
 * a CUkernel, as for any other handle, and for a function of a module
 * unloaded (tests/e2e/ref/h100_robust.log).
 */
CUresult vg_func_get(CUfunction f, struct CUfunc_st **pf)
{
	bool live;

	if (!vg_func_known(f) || f->magic != VG_FUNC_MAGIC)
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&vg_lock);
	live = vg_module_live(f->mod);
	pthread_mutex_unlock(&vg_lock);
	if (!live)
		return CUDA_ERROR_INVALID_HANDLE;
	*pf = f;
	return CUDA_SUCCESS;
}

/* @attrib of @f, a function or a kernel's settings (library.c). */
CUresult vg_func_attribute(const struct CUfunc_st *f,
			   const struct vgpu_info *info,
			   CUfunction_attribute attrib, int *value)
{
	const struct vg_jit_kernel *k = f->k;

	switch (attrib) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
		*value = k->f.max_threads ? (int)k->f.max_threads :
			(int)info->max_threads_per_block;
		break;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
		*value = (int)k->f.shared_bytes;
		break;
	case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
		*value = 0;
		break;
	case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
		*value = (int)k->f.local_bytes;
		break;
	case CU_FUNC_ATTRIBUTE_NUM_REGS:
		*value = (int)k->f.nregs;
		break;
	case CU_FUNC_ATTRIBUTE_PTX_VERSION:
	case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
		*value = (int)(info->cc_major * 10 + info->cc_minor);
		break;
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		*value = (int)f->max_dyn_shared;
		break;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		*value = f->carveout;
		break;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		*value = f->cluster[attrib - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH];
		break;
	case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
		*value = 0;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attrib,
			    CUfunction func)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_func_get(func, &func);
	if (r)
		return r;
	return vg_func_attribute(func, &vg_devices[func->mod->ctx->dev].info,
				 attrib, value);
}
