// SPDX-License-Identifier: MIT
/*
 * What a program may ask of a module and its functions: their count and
 * handles, a function's module, name and parameter layout, and whether it
 * is loaded (always, once its module is: vgpu loads a module whole, and
 * the H100 answers LOADED in both loading modes). Codes are an H100's
 * (tests/e2e/ref/h100_library.log).
 */
#include "vg.h"

/*
 * A module loaded into a context that is still open (under vg_lock). The
 * module lists change under their contexts' locks, which this does not
 * take: links are published with release stores (module.c), and a module
 * is freed only after its unload has taken vg_lock again.
 */
static bool vg_module_valid(const struct CUmod_st *mod)
{
	const struct CUctx_st *c;
	const struct CUmod_st *m;

	for (c = vg_ctx_next(NULL); c; c = vg_ctx_next(c))
		for (m = __atomic_load_n(&c->modules, __ATOMIC_ACQUIRE); m;
		     m = __atomic_load_n(&m->next, __ATOMIC_ACQUIRE))
			if (m == mod)
				return vg_module_live(m);
	return false;
}

static CUresult vg_module_enter(CUmodule mod)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	if (vg_module_valid(mod))
		return CUDA_SUCCESS;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
	CUresult r;

	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_module_enter(mod);
	if (r)
		return r;
	*count = mod->img->nkernels;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

/* The first @n functions, in the order of the image (none is no error). */
CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int n,
				    CUmodule mod)
{
	unsigned int i;
	CUresult r;

	if (!functions)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_module_enter(mod);
	if (r)
		return r;
	for (i = 0; i < n && i < mod->img->nkernels; i++)
		functions[i] = &mod->funcs[i];
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

/* A library's function: the library's module in the function's context. */
CUresult cuFuncGetModule(CUmodule *mod, CUfunction func)
{
	CUresult r;

	if (!mod || !func)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_func_get(func, &func);
	if (!r)
		*mod = func->mod;
	return r;
}

/* The H100 answers CUDA_ERROR_INVALID_VALUE for a NULL function here. */
CUresult cuFuncGetName(const char **name, CUfunction func)
{
	CUresult r;

	if (!name || !func)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_func_get(func, &func);
	if (!r)
		*name = func->k->name;
	return r;
}

/* As an H100: a NULL offset or function is 1 before the handle's 400. */
CUresult cuFuncGetParamInfo(CUfunction func, size_t index, size_t *offset,
			    size_t *size)
{
	CUresult r;

	if (!func || !offset)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_func_get(func, &func);
	return r ? r : vg_param_info(func->k, index, offset, size);
}

CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction func)
{
	CUresult r;

	if (!state)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_func_get(func, &func);
	if (!r)
		*state = CU_FUNCTION_LOADING_STATE_LOADED;
	return r;
}

CUresult cuFuncLoad(CUfunction func)
{
	return vg_func_get(func, &func);
}
