// SPDX-License-Identifier: MIT
/*
 * nvcc's registration ABI: the fatbins, __global__ functions and device
 * variables a program's constructors register, and loading a fatbin's
 * module into a device's context the first time one of its kernels runs.
 *
 * A __managed__ variable is, in nvcc's host code, a pointer the program
 * dereferences for every use, after a call of __cudaInitModule (once, on
 * the first use): __cudaRegisterManagedVar hands over that pointer's
 * address, and loading the module points it at the variable's managed
 * storage, which host and kernels then share.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../fatbin.h"
#include "rt.h"
#include "rt_abi.h"

/* A device variable nvcc registered (cudaMemcpyToSymbol's, later). */
struct rt_var {
	struct rt_fatbin *fatbin;
	const void *host_var;		/* its shadow in the host program, or,
					 * managed, the pointer to bind */
	char *name;
	size_t size;
	bool managed;			/* __managed__ */
	struct rt_var *next;
};

/* One __cudaRegisterFatBinary: the wrapper and its modules. */
struct rt_fatbin {
	const void *wrapper;		/* nvcc's struct, in .nvFatBinSegment */
	CUmodule module[RT_MAX_DEVICES];
	struct rt_fatbin *next;
};

/* Protects the three lists and every module and function cached in them. */
static pthread_mutex_t rt_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_fatbin *rt_fatbins;
static struct rt_kernel *rt_kernels;
static struct rt_var *rt_vars;

void **__cudaRegisterFatBinary(void *fat_cubin)
{
	struct rt_fatbin *fb = calloc(1, sizeof(*fb));

	/* No error path exists in the ABI: a failed registration shows
	 * later, as a launch that finds no kernel. */
	if (!fb)
		return NULL;
	fb->wrapper = fat_cubin;
	pthread_mutex_lock(&rt_reg_lock);
	fb->next = rt_fatbins;
	rt_fatbins = fb;
	pthread_mutex_unlock(&rt_reg_lock);
	return (void **)fb;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
	/* Modules load lazily, at a kernel's first launch. */
	(void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
	struct rt_fatbin *fb = (struct rt_fatbin *)handle, **pf;
	struct rt_kernel **pk, *k;
	struct rt_var **pv, *v;

	if (!fb)
		return;
	/*
	 * Called from atexit: the driver may already be shutting down, so
	 * the modules are left to their contexts' teardown.
	 */
	pthread_mutex_lock(&rt_reg_lock);
	for (pk = &rt_kernels; (k = *pk);) {
		if (k->fatbin != fb) {
			pk = &k->next;
			continue;
		}
		*pk = k->next;
		free(k->name);
		free(k);
	}
	for (pv = &rt_vars; (v = *pv);) {
		if (v->fatbin != fb) {
			pv = &v->next;
			continue;
		}
		*pv = v->next;
		free(v->name);
		free(v);
	}
	for (pf = &rt_fatbins; *pf; pf = &(*pf)->next) {
		if (*pf == fb) {
			*pf = fb->next;
			free(fb);
			break;
		}
	}
	pthread_mutex_unlock(&rt_reg_lock);
}

void __cudaRegisterFunction(void **handle, const char *host_fun,
			    char *device_fun, const char *device_name,
			    int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *block_dim, dim3 *grid_dim, int *warp_size)
{
	struct rt_kernel *k = calloc(1, sizeof(*k));

	(void)device_fun, (void)thread_limit, (void)tid, (void)bid;
	(void)block_dim, (void)grid_dim, (void)warp_size;
	if (!handle || !host_fun || !device_name || !k)
		goto fail;
	k->name = strdup(device_name);
	if (!k->name)
		goto fail;
	k->fatbin = (struct rt_fatbin *)handle;
	k->host_fun = host_fun;
	pthread_mutex_lock(&rt_reg_lock);
	k->next = rt_kernels;
	rt_kernels = k;
	pthread_mutex_unlock(&rt_reg_lock);
	return;
fail:
	free(k);
}

static void rt_register_var(void **handle, const void *host_var,
			    const char *device_name, size_t size, bool managed)
{
	struct rt_var *v = calloc(1, sizeof(*v));

	if (!handle || !host_var || !device_name || !v)
		goto fail;
	v->name = strdup(device_name);
	if (!v->name)
		goto fail;
	v->fatbin = (struct rt_fatbin *)handle;
	v->host_var = host_var;
	v->size = size;
	v->managed = managed;
	pthread_mutex_lock(&rt_reg_lock);
	v->next = rt_vars;
	rt_vars = v;
	pthread_mutex_unlock(&rt_reg_lock);
	return;
fail:
	free(v);
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
		       const char *device_name, int ext, size_t size,
		       int constant, int global)
{
	(void)device_address, (void)ext, (void)constant, (void)global;
	rt_register_var(handle, host_var, device_name, size, false);
}

void __cudaRegisterManagedVar(void **handle, void **host_ptr,
			      char *device_address, const char *device_name,
			      int ext, size_t size, int constant, int global)
{
	(void)device_address, (void)ext, (void)constant, (void)global;
	rt_register_var(handle, host_ptr, device_name, size, true);
}

struct rt_kernel *rt_kernel_by_stub(const void *host_fun)
{
	struct rt_kernel *k;

	pthread_mutex_lock(&rt_reg_lock);
	/* The kernel's handle (cudaGetKernel's) names it as its stub does. */
	for (k = rt_kernels; k; k = k->next)
		if (k->host_fun == host_fun || (const void *)k == host_fun)
			break;
	pthread_mutex_unlock(&rt_reg_lock);
	return k;
}

const void *rt_stub_of(CUfunction fn)
{
	const void *stub = fn;
	struct rt_kernel *k;
	int dev;

	pthread_mutex_lock(&rt_reg_lock);
	for (k = rt_kernels; k && stub == fn; k = k->next)
		for (dev = 0; dev < RT_MAX_DEVICES; dev++)
			if (fn && k->fn[dev] == fn) {
				stub = k->host_fun;
				break;
			}
	pthread_mutex_unlock(&rt_reg_lock);
	return stub;
}

/*
 * Points the host's pointer of each __managed__ variable of @fb at its
 * storage in the module just loaded on @dev. The first device's storage
 * stays the program's: its host code holds the pointer from then on.
 * Called with rt_reg_lock.
 */
static cudaError_t rt_fatbin_bind(struct rt_fatbin *fb, int dev)
{
	struct rt_var *v;
	CUdeviceptr p;
	CUresult r;

	for (v = rt_vars; v; v = v->next) {
		if (v->fatbin != fb || !v->managed || *(void **)v->host_var)
			continue;
		r = cuModuleGetGlobal(&p, NULL, fb->module[dev], v->name);
		if (r)
			return rt_error(r);
		*(void **)v->host_var = (void *)(uintptr_t)p;
	}
	return cudaSuccess;
}

/*
 * Loads @fb on @dev into the current context. Called with rt_reg_lock.
 * The driver takes the wrapper's container, not the wrapper, as NVIDIA's
 * cuModuleLoadData does.
 */
static cudaError_t rt_fatbin_load(struct rt_fatbin *fb, int dev)
{
	const struct vg_fatbin_wrapper *w = fb->wrapper;
	CUresult r;

	if (fb->module[dev])
		return cudaSuccess;
	if (!w || w->magic != VG_FATBIN_WRAPPER_MAGIC || !w->data)
		return cudaErrorInvalidKernelImage;
	/* -rdc=true: nvlink's output is machine code; link the objects' PTX. */
	if (w->version == 2 && w->extra) {
		cudaError_t e = rt_rdc_load(w->extra, &fb->module[dev]);

		return e ? e : rt_fatbin_bind(fb, dev);
	}
	r = cuModuleLoadData(&fb->module[dev], w->data);
	if (r) {
		fb->module[dev] = NULL;
		return rt_error(r);
	}
	return rt_fatbin_bind(fb, dev);
}

cudaError_t rt_kernel_function(struct rt_kernel *k, int dev, CUfunction *fn)
{
	cudaError_t e = cudaSuccess;
	CUresult r;

	pthread_mutex_lock(&rt_reg_lock);
	if (k->fn[dev])
		goto out;
	e = rt_fatbin_load(k->fatbin, dev);
	if (e)
		goto out;
	r = cuModuleGetFunction(&k->fn[dev], k->fatbin->module[dev], k->name);
	if (r) {
		k->fn[dev] = NULL;
		/* The fatbin has no such entry: not a kernel of this device. */
		e = r == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidDeviceFunction :
						rt_error(r);
	}
out:
	*fn = k->fn[dev];
	pthread_mutex_unlock(&rt_reg_lock);
	return e;
}

cudaError_t rt_var_address(const void *host_var, int dev, CUdeviceptr *dptr,
			   size_t *size)
{
	cudaError_t e;
	struct rt_var *v;

	pthread_mutex_lock(&rt_reg_lock);
	/* A managed variable's symbol is its storage (the host's *x). */
	for (v = rt_vars; v; v = v->next)
		if (v->managed ? *(void *const *)v->host_var == host_var :
				 v->host_var == host_var)
			break;
	if (!v) {
		e = cudaErrorInvalidSymbol;
		goto out;
	}
	e = rt_fatbin_load(v->fatbin, dev);
	if (e)
		goto out;
	e = rt_error(cuModuleGetGlobal(dptr, size, v->fatbin->module[dev],
				       v->name));
	if (e == cudaErrorSymbolNotFound)
		e = cudaErrorInvalidSymbol;
out:
	pthread_mutex_unlock(&rt_reg_lock);
	return e;
}

void rt_forget_device(int dev)
{
	struct rt_fatbin *fb;
	struct rt_kernel *k;
	struct rt_var *v;

	pthread_mutex_lock(&rt_reg_lock);
	/* Managed storage went with the context: the next load binds anew. */
	for (v = rt_vars; v; v = v->next)
		if (v->managed && v->fatbin->module[dev])
			*(void **)v->host_var = NULL;
	for (fb = rt_fatbins; fb; fb = fb->next)
		fb->module[dev] = NULL;
	for (k = rt_kernels; k; k = k->next)
		k->fn[dev] = NULL;
	pthread_mutex_unlock(&rt_reg_lock);
}

char __cudaInitModule(void **handle)
{
	struct rt_fatbin *fb = (struct rt_fatbin *)handle;
	cudaError_t e;

	if (!fb)
		return 0;
	e = rt_enter();
	if (e)
		return 0;
	pthread_mutex_lock(&rt_reg_lock);
	e = rt_fatbin_load(fb, rt_device());
	pthread_mutex_unlock(&rt_reg_lock);
	return e == cudaSuccess;
}
