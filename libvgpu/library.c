// SPDX-License-Identifier: MIT
/*
 * Libraries and kernels: cuLibrary* and cuKernel*. A library is compiled
 * once when loaded, for its kernels, parameters and variables, and is
 * context-independent: it becomes a module of each context where one of
 * its kernels or globals is used, on first use (CUDA_MODULE_LOADING=LAZY,
 * the default) or, with EAGER, also in every open context at load. A
 * CUkernel goes wherever a CUfunction does and stands for its function
 * in the current context. Codes are an H100's (tests/e2e/ref/
 * h100_library.log); where its driver crashed or read freed memory
 * (a handle unloaded, a NULL it does not check) vgpu answers
 * CUDA_ERROR_INVALID_HANDLE or CUDA_ERROR_INVALID_VALUE.
 *
 * Locking: vg_lib_lock serializes the loads of libraries into contexts
 * and their unloads; it is taken before vg_lock. The library registry,
 * each library's modules and the kernels' settings are under vg_lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"
#include "jit_cache.h"
#include "vg.h"

#define VG_LIB_MAGIC 0x6c696272u	/* "libr" */

/* One module of a library: in a context, while that context's open lives. */
struct vg_lib_mod {
	struct CUmod_st *mod;
	struct vg_lib_mod *next;
};

struct CUkern_st {
	uint32_t magic;		/* VG_KERN_MAGIC while the library lives */
	uint32_t index;		/* in the library's image */
	struct CUlib_st *lib;
	/*
	 * cuKernelSetAttribute's and cuKernelSetCacheConfig's settings, one
	 * per visible device, which the kernel's functions on that device
	 * take (their mod is NULL).
	 */
	struct CUfunc_st *dev;
};

struct CUlib_st {
	uint32_t magic;
	/*
	 * An image that does not compile: loading a library is lazy on
	 * NVIDIA's driver, which answers CUDA_SUCCESS and the error later.
	 */
	CUresult error;
	void *image;		/* PTX text, or a vgpu compiled module */
	struct vg_jit_image *img;	/* names, parameters, variables */
	struct CUkern_st *kernels;
	struct vg_lib_mod *mods;
	struct CUlib_st *next;	/* vg_libs */
};

static pthread_mutex_t vg_lib_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUlib_st *vg_libs;	/* loaded libraries */

/* CUDA_MODULE_LOADING, read once: EAGER, else (unset, unknown) LAZY. */
static CUmoduleLoadingMode vg_loading_mode(void)
{
	static CUmoduleLoadingMode mode;
	const char *env;

	if (!__atomic_load_n(&mode, __ATOMIC_RELAXED)) {
		env = getenv("CUDA_MODULE_LOADING");
		__atomic_store_n(&mode, env && !strcmp(env, "EAGER") ?
				 CU_MODULE_EAGER_LOADING :
				 CU_MODULE_LAZY_LOADING, __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&mode, __ATOMIC_RELAXED);
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	/* NVIDIA's driver crashes on NULL. */
	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	*mode = vg_loading_mode();
	return CUDA_SUCCESS;
}

/* A loaded library, under vg_lock. */
static bool vg_lib_valid(const struct CUlib_st *lib)
{
	const struct CUlib_st *l;

	for (l = vg_libs; l; l = l->next)
		if (l == lib)
			return true;
	return false;
}

/* A kernel of a loaded library, under vg_lock: found by address only. */
static bool vg_kern_valid(const struct CUkern_st *k)
{
	const struct CUlib_st *l;

	for (l = vg_libs; l; l = l->next)
		if (!l->error && k >= l->kernels &&
		    k < l->kernels + l->img->nkernels)
			return true;
	return false;
}

/* Gives the kernels' device settings to the functions of @mod. */
static void vg_lib_settings(struct CUlib_st *lib, struct CUmod_st *mod)
{
	uint32_t i;

	for (i = 0; i < lib->img->nkernels; i++) {
		const struct CUfunc_st *s = &lib->kernels[i].dev[mod->ctx->dev];
		struct CUfunc_st *f = &mod->funcs[i];

		f->max_dyn_shared = s->max_dyn_shared;
		f->carveout = s->carveout;
		f->cache_config = s->cache_config;
		memcpy(f->cluster, s->cluster, sizeof(f->cluster));
	}
}

/*
 * @lib's module in @ctx, loaded there if need be. Called with vg_lib_lock
 * and vg_lock held on an open context; returns with both held.
 */
static CUresult vg_lib_module(struct CUlib_st *lib, struct CUctx_st *ctx,
			      struct CUmod_st **pmod)
{
	struct vg_jit_logs logs = { 0 };
	struct vg_lib_mod *lm;
	struct CUmod_st *mod;
	CUresult r;

	if (lib->error)
		return lib->error;
	/*
	 * Modules of contexts destroyed since stay listed, for
	 * cuLibraryUnload to free.
	 */
	for (lm = lib->mods; lm; lm = lm->next)
		if (lm->mod->ctx == ctx && vg_module_live(lm->mod)) {
			*pmod = lm->mod;
			return CUDA_SUCCESS;
		}
	lm = malloc(sizeof(*lm));
	if (!lm)
		return CUDA_ERROR_OUT_OF_MEMORY;
	vg_ctx_begin(ctx);
	r = vg_module_create(ctx, lib->image, &logs, &mod);
	vg_ctx_end(ctx);
	pthread_mutex_lock(&vg_lock);
	if (r) {
		free(lm);
		return r;
	}
	mod->lib = lib;
	vg_lib_settings(lib, mod);
	lm->mod = mod;
	lm->next = lib->mods;
	lib->mods = lm;
	*pmod = mod;
	return CUDA_SUCCESS;
}

/*
 * @lib's module in the current context. Called with vg_lib_lock and
 * vg_lock held; returns with both held.
 */
static CUresult vg_lib_current(struct CUlib_st *lib, struct CUmod_st **pmod)
{
	struct CUctx_st *ctx;
	CUresult r = vg_current_open(&ctx);

	return r ? r : vg_lib_module(lib, ctx, pmod);
}

CUresult vg_kernel_function(struct CUkern_st *k, struct CUfunc_st **pf)
{
	struct CUmod_st *mod;
	CUresult r;

	pthread_mutex_lock(&vg_lib_lock);
	pthread_mutex_lock(&vg_lock);
	if (!vg_kern_valid(k))
		r = CUDA_ERROR_INVALID_HANDLE;
	else
		r = vg_lib_current(k->lib, &mod);
	if (!r)
		*pf = &mod->funcs[k->index];
	pthread_mutex_unlock(&vg_lock);
	pthread_mutex_unlock(&vg_lib_lock);
	return r;
}

static void vg_lib_free(struct CUlib_st *lib)
{
	uint32_t i;

	if (!lib)
		return;
	if (lib->kernels && lib->img)
		for (i = 0; i < lib->img->nkernels; i++) {
			lib->kernels[i].magic = 0;
			free(lib->kernels[i].dev);
		}
	free(lib->kernels);
	vg_jit_free(lib->img);
	free(lib->image);
	lib->magic = 0;
	free(lib);
}

/* A copy of @image as vg_module_create() takes it: PTX text or a module. */
static CUresult vg_lib_image(const void *image, struct CUlib_st *lib,
			     struct vg_jit_logs *logs)
{
	const char *ptx;
	char *owned;
	size_t len;
	CUresult r;

	if (vg_image_kind(image) == VG_IMAGE_VGPU) {
		len = vg_image_file_size(image);
		if (!len)
			return CUDA_ERROR_INVALID_IMAGE;
		lib->image = malloc(len);
		if (!lib->image)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(lib->image, image, len);
		return CUDA_SUCCESS;
	}
	r = vg_image_ptx(0, image, &ptx, &len, &owned, logs);
	if (r)
		return r;
	if (!owned) {
		owned = strndup(ptx, len);
		if (!owned)
			return CUDA_ERROR_OUT_OF_MEMORY;
	}
	lib->image = owned;
	return CUDA_SUCCESS;
}

/* Compiles the image for its kernels and variables; their settings. */
static CUresult vg_lib_compile(struct CUlib_st *lib, struct vg_jit_logs *logs)
{
	uint32_t i;
	int d;
	CUresult r = vg_module_image(0, lib->image, &lib->img, logs);

	if (r)
		return r;
	lib->kernels = calloc(lib->img->nkernels ? lib->img->nkernels : 1,
			      sizeof(*lib->kernels));
	if (!lib->kernels)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < lib->img->nkernels; i++) {
		struct CUkern_st *k = &lib->kernels[i];

		k->magic = VG_KERN_MAGIC;
		k->index = i;
		k->lib = lib;
		k->dev = calloc(vg_device_count, sizeof(*k->dev));
		if (!k->dev)
			return CUDA_ERROR_OUT_OF_MEMORY;
		for (d = 0; d < vg_device_count; d++) {
			const struct vgpu_info *info = &vg_devices[d].info;
			struct CUfunc_st *s = &k->dev[d];

			s->k = &lib->img->kernels[i];
			s->index = i;
			s->max_dyn_shared =
				info->shared_mem_per_block > s->k->f.shared_bytes ?
				info->shared_mem_per_block - s->k->f.shared_bytes : 0;
			s->carveout = -1;
		}
	}
	return CUDA_SUCCESS;
}

/* EAGER: into every open context now (a failure there is left for later). */
static void vg_lib_eager(struct CUlib_st *lib)
{
	struct CUctx_st *ctxs[64], *c;
	struct CUmod_st *mod;
	unsigned int n = 0, i;

	pthread_mutex_lock(&vg_lock);
	for (c = vg_ctx_next(NULL); c && n < 64; c = vg_ctx_next(c))
		if (c->fd >= 0) {
			vg_ctx_ref(c);
			ctxs[n++] = c;
		}
	for (i = 0; i < n; i++)
		if (vg_ctx_alive(ctxs[i]) && ctxs[i]->fd >= 0)
			vg_lib_module(lib, ctxs[i], &mod);
	for (i = 0; i < n; i++)
		vg_ctx_unref(ctxs[i]);
	pthread_mutex_unlock(&vg_lock);
}

static CUresult vg_library_load(CUlibrary *library, const void *image,
				CUjit_option *jit_options, void **jit_values,
				unsigned int njit, CUlibraryOption *options,
				void **values, unsigned int n)
{
	struct vg_jit_logs logs;
	struct CUlib_st *lib;
	unsigned int i;
	CUresult r;

	if (!library || !image)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_jit_options(njit, jit_options, jit_values, &logs);
	if (r)
		return r;
	/* NVIDIA's driver crashes on NULL arrays. */
	if (n && (!options || !values))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < n; i++)
		/* Both accepted: vgpu keeps its own copy of the image. */
		if ((unsigned int)options[i] >= CU_LIBRARY_NUM_OPTIONS)
			return CUDA_ERROR_INVALID_VALUE;
	lib = calloc(1, sizeof(*lib));
	if (!lib)
		return CUDA_ERROR_OUT_OF_MEMORY;
	lib->magic = VG_LIB_MAGIC;
	r = vg_lib_image(image, lib, &logs);
	if (!r)
		r = vg_lib_compile(lib, &logs);
	if (r == CUDA_ERROR_OUT_OF_MEMORY ||
	    (r && vg_loading_mode() == CU_MODULE_EAGER_LOADING)) {
		vg_lib_free(lib);
		return r;
	}
	lib->error = r;
	pthread_mutex_lock(&vg_lib_lock);
	pthread_mutex_lock(&vg_lock);
	lib->next = vg_libs;
	vg_libs = lib;
	pthread_mutex_unlock(&vg_lock);
	if (!r && vg_loading_mode() == CU_MODULE_EAGER_LOADING)
		vg_lib_eager(lib);
	pthread_mutex_unlock(&vg_lib_lock);
	*library = lib;
	return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
			   CUjit_option *jit_options, void **jit_values,
			   unsigned int njit, CUlibraryOption *options,
			   void **values, unsigned int n)
{
	CUresult r = vg_check_init();

	return r ? r : vg_library_load(library, code, jit_options, jit_values,
				       njit, options, values, n);
}

CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *path,
			       CUjit_option *jit_options, void **jit_values,
			       unsigned int njit, CUlibraryOption *options,
			       void **values, unsigned int n)
{
	size_t len;
	char *buf;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!library || !path)
		return CUDA_ERROR_INVALID_VALUE;
	buf = vg_read_file(path, &len);
	if (!buf)
		return errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
			CUDA_ERROR_FILE_NOT_FOUND;
	r = vg_library_load(library, buf, jit_options, jit_values, njit,
			    options, values, n);
	free(buf);
	return r;
}

CUresult cuLibraryUnload(CUlibrary library)
{
	struct CUlib_st **pp;
	struct vg_lib_mod *lm;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lib_lock);
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_libs; *pp && *pp != library; pp = &(*pp)->next)
		;
	if (!library || !*pp) {
		pthread_mutex_unlock(&vg_lock);
		pthread_mutex_unlock(&vg_lib_lock);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	*pp = library->next;
	pthread_mutex_unlock(&vg_lock);
	while ((lm = library->mods)) {
		library->mods = lm->next;
		vg_module_unload(lm->mod);
		free(lm);
	}
	pthread_mutex_unlock(&vg_lib_lock);
	vg_lib_free(library);
	return CUDA_SUCCESS;
}

/*
 * The library's checks: @lib loaded (else CUDA_ERROR_INVALID_HANDLE, as
 * the H100 answers for a NULL one even before cuInit) and its image
 * compiled. Takes vg_lock, held on success.
 */
static CUresult vg_lib_enter(CUlibrary lib)
{
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&vg_lock);
	if (!vg_lib_valid(lib))
		r = CUDA_ERROR_INVALID_HANDLE;
	else if (lib->error)
		r = lib->error;
	if (r)
		pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
	CUresult r = vg_lib_enter(lib);

	if (r)
		return r;
	if (count)
		*count = lib->img->nkernels;
	pthread_mutex_unlock(&vg_lock);
	return count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The first @n kernels, in the order of the image (none is no error). */
CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int n,
				   CUlibrary lib)
{
	unsigned int i;
	CUresult r = vg_lib_enter(lib);

	if (r)
		return r;
	if (!kernels)
		r = CUDA_ERROR_INVALID_VALUE;
	for (i = 0; !r && i < n && i < lib->img->nkernels; i++)
		kernels[i] = &lib->kernels[i];
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuLibraryGetKernel(CUkernel *kernel, CUlibrary lib, const char *name)
{
	uint32_t i;
	CUresult r = vg_lib_enter(lib);

	if (r)
		return r;
	r = CUDA_ERROR_NOT_FOUND;
	if (!kernel || !name)
		r = CUDA_ERROR_INVALID_VALUE;
	for (i = 0; r == CUDA_ERROR_NOT_FOUND && i < lib->img->nkernels; i++)
		if (!strcmp(lib->img->kernels[i].name, name)) {
			*kernel = &lib->kernels[i];
			r = CUDA_SUCCESS;
		}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* The library's module in the current context. */
CUresult cuLibraryGetModule(CUmodule *module, CUlibrary lib)
{
	struct CUmod_st *mod;
	CUresult r;

	if (!module)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lib_lock);
	r = vg_lib_enter(lib);
	if (!r) {
		r = vg_lib_current(lib, &mod);
		pthread_mutex_unlock(&vg_lock);
	}
	pthread_mutex_unlock(&vg_lib_lock);
	if (!r)
		*module = mod;
	return r;
}

/* A variable's address in the current context's module, and its size. */
CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib,
			    const char *name)
{
	struct CUmod_st *mod;
	CUresult r;

	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lib_lock);
	r = vg_lib_enter(lib);
	if (!r) {
		r = vg_lib_current(lib, &mod);
		pthread_mutex_unlock(&vg_lock);
	}
	pthread_mutex_unlock(&vg_lib_lock);
	return r ? r : cuModuleGetGlobal_v2(dptr, bytes, mod, name);
}

/*
 * A __managed__ variable's storage in the library's module of the current
 * context: a variable that is not managed is CUDA_ERROR_NOT_FOUND, as on
 * an H100 (tests/e2e/ref/h100_library.log, h100_managed.log).
 */
CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib,
			     const char *name)
{
	struct CUmod_st *mod;
	uint32_t i;
	CUresult r;

	pthread_mutex_lock(&vg_lib_lock);
	r = vg_lib_enter(lib);
	if (!r) {
		/* The handle first, then the arguments, as an H100 checks. */
		for (i = 0; name && dptr && i < lib->img->nvars; i++)
			if (lib->img->vars[i].managed &&
			    !strcmp(lib->img->vars[i].name, name))
				break;
		if (!name || !dptr)
			r = CUDA_ERROR_INVALID_VALUE;
		else if (i == lib->img->nvars)
			r = CUDA_ERROR_NOT_FOUND;
		else
			r = vg_lib_current(lib, &mod);
		pthread_mutex_unlock(&vg_lock);
	}
	pthread_mutex_unlock(&vg_lib_lock);
	return r ? r : cuModuleGetGlobal_v2(dptr, bytes, mod, name);
}

/*
 * Unified functions are host and device functions a library's host code
 * registers (CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE); a PTX
 * library has none.
 */
CUresult cuLibraryGetUnifiedFunction(void **fptr, CUlibrary lib,
				     const char *symbol)
{
	CUresult r = vg_lib_enter(lib);

	if (r)
		return r;
	pthread_mutex_unlock(&vg_lock);
	/* An H100 answers 1 for every symbol, one that exists too. */
	(void)fptr;
	(void)symbol;
	return CUDA_ERROR_INVALID_VALUE;
}

/* The kernel's checks; takes vg_lock, held on success. */
static CUresult vg_kern_enter(CUkernel k)
{
	pthread_mutex_lock(&vg_lock);
	if (vg_kern_valid(k))
		return CUDA_SUCCESS;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuKernelGetFunction(CUfunction *func, CUkernel kernel)
{
	struct CUfunc_st *f;
	CUresult r;

	if (!func)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_kernel_function(kernel, &f);
	if (!r)
		*func = f;
	return r;
}

CUresult cuKernelGetLibrary(CUlibrary *lib, CUkernel kernel)
{
	CUresult r;

	if (!lib)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_kern_enter(kernel);
	if (r)
		return r;
	*lib = kernel->lib;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

/* The H100 answers CUDA_ERROR_INVALID_VALUE for a NULL kernel here. */
CUresult cuKernelGetName(const char **name, CUkernel kernel)
{
	CUresult r;

	if (!name || !kernel)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_kern_enter(kernel);
	if (r)
		return r;
	*name = kernel->lib->img->kernels[kernel->index].name;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

/* Parameter @index's place in a kernel's parameter block (funcinfo.c too). */
CUresult vg_param_info(const struct vg_jit_kernel *k, size_t index,
		       size_t *offset, size_t *size)
{
	if (!offset || index >= k->nparams)
		return CUDA_ERROR_INVALID_VALUE;
	*offset = k->params[index].offset;
	if (size)
		*size = k->params[index].size;
	return CUDA_SUCCESS;
}

/*
 * As an H100: a NULL kernel or offset is 1, and without a current context
 * the call is 201 even for a valid kernel.
 */
CUresult cuKernelGetParamInfo(CUkernel kernel, size_t index, size_t *offset,
			      size_t *size)
{
	CUresult r;

	if (!kernel || !offset)
		return CUDA_ERROR_INVALID_VALUE;
	if (!vg_ctx_current())
		return CUDA_ERROR_INVALID_CONTEXT;
	r = vg_kern_enter(kernel);
	if (r)
		return r;
	r = vg_param_info(&kernel->lib->img->kernels[kernel->index], index,
			  offset, size);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* The kernel and device checks; takes vg_lock, held on success. */
static CUresult vg_kern_dev_enter(CUkernel kernel, CUdevice dev)
{
	CUresult r = vg_check_init();

	if (!r)
		r = vg_check_device(dev);
	return r ? r : vg_kern_enter(kernel);
}

CUresult cuKernelGetAttribute(int *value, CUfunction_attribute attrib,
			      CUkernel kernel, CUdevice dev)
{
	CUresult r;

	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_kern_dev_enter(kernel, dev);
	if (r)
		return r;
	r = vg_func_attribute(&kernel->dev[dev], &vg_devices[dev].info, attrib,
			      value);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * A setting for the device: the kernel's functions there take it, those
 * of the contexts it is loaded in now and those of later ones.
 */
CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int value,
			      CUkernel kernel, CUdevice dev)
{
	const struct vgpu_info *info;
	struct vg_lib_mod *lm;
	CUresult r = vg_kern_dev_enter(kernel, dev);

	if (r)
		return r;
	info = &vg_devices[dev].info;
	r = vg_func_set(&kernel->dev[dev], info, attrib, value);
	for (lm = kernel->lib->mods; !r && lm; lm = lm->next)
		if (lm->mod->ctx->dev == dev && vg_module_live(lm->mod))
			vg_func_set(&lm->mod->funcs[kernel->index], info,
				    attrib, value);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config,
				CUdevice dev)
{
	struct vg_lib_mod *lm;
	CUresult r = vg_kern_dev_enter(kernel, dev);

	if (r)
		return r;
	if ((unsigned int)config > CU_FUNC_CACHE_PREFER_EQUAL) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	kernel->dev[dev].cache_config = config;
	for (lm = kernel->lib->mods; lm; lm = lm->next)
		if (lm->mod->ctx->dev == dev && vg_module_live(lm->mod))
			lm->mod->funcs[kernel->index].cache_config = config;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}
