// SPDX-License-Identifier: MIT
/*
 * Texture and surface references: a module's .texref and .surfref
 * variables, the legacy way to bind textures (cuModuleGetTexRef and the
 * cuTexRef* calls). Such a variable holds a descriptor's address, which
 * the JIT's code loads where the kernel names the reference; its
 * descriptor is taken from the context's pool (texobj.c) when the
 * reference is first asked for, and each cuTexRefSet* rewrites it in
 * place, so launches from then on sample what was bound.
 */
#include <stdlib.h>
#include <string.h>

#include "vg.h"

/* Texture reference state, and what it is bound to. */
struct CUtexref_st {
	struct CUtexref_st *next;	/* vg_texrefs */
	struct CUmod_st *mod;		/* NULL: from cuTexRefCreate */
	uint32_t var;			/* the module's variable */
	struct vgpu_tex_desc *slot;	/* its descriptor, or NULL */
	CUDA_RESOURCE_DESC res;		/* the binding */
	bool bound;
	bool override_format;		/* cuTexRefSetArray's flag */
	CUarray_format format;		/* cuTexRefSetFormat's */
	int channels;
	CUDA_TEXTURE_DESC tex;		/* the sampler state */
	CUdeviceptr linear;		/* what cuTexRefSetAddress was given */
};

struct CUsurfref_st {
	struct CUsurfref_st *next;	/* vg_surfrefs */
	struct CUmod_st *mod;
	uint32_t var;
	struct vgpu_tex_desc *slot;
	CUarray array;			/* bound, or NULL */
};

/* Live references, under vg_lock. */
static struct CUtexref_st *vg_texrefs;
static struct CUsurfref_st *vg_surfrefs;

/* The alignment a linear binding is moved down to (cuTexRefSetAddress). */
#define VG_TEXREF_ALIGN 512
#define VG_TEXREF_PITCH_ALIGN 32

/* Rewrites @t's descriptor from its state; vg_lock held. */
static CUresult vg_texref_update(struct CUtexref_st *t)
{
	CUDA_TEXTURE_DESC tex = t->tex;
	struct vgpu_tex_desc d;
	CUresult e;

	if (!t->slot)
		return CUDA_SUCCESS;
	if (!t->bound) {
		static const struct vgpu_tex_desc none;	/* reads zeros */

		vg_tex_pool_put(t->mod->ctx, t->slot, &none);
		return CUDA_SUCCESS;
	}
	/* References carry no mipmap state but for mipmapped arrays. */
	if (t->res.resType != CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
		tex.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
		tex.mipmapLevelBias = 0;
		tex.minMipmapLevelClamp = 0;
		tex.maxMipmapLevelClamp = 0;
	}
	e = vg_tex_describe(t->mod->ctx, &t->res, &tex, NULL, &d);
	if (e)
		return e;
	if (t->override_format && t->res.resType == CU_RESOURCE_TYPE_ARRAY) {
		struct vgpu_tex_desc o = d;

		/* The reference's format, over the array's texels of that size. */
		if (vg_texref_format(t->format, t->channels, &o) == CUDA_SUCCESS &&
		    vg_tex_texel_size(&o) == vg_tex_texel_size(&d))
			d = o;
	}
	vg_tex_pool_put(t->mod->ctx, t->slot, &d);
	return CUDA_SUCCESS;
}

/* A live texture reference, vg_lock held. */
static bool vg_texref_live(const struct CUtexref_st *t)
{
	const struct CUtexref_st *x;

	for (x = vg_texrefs; x; x = x->next)
		if (x == t)
			return true;
	return false;
}

/*
 * Runs @set on live reference @t under vg_lock, then rewrites its
 * descriptor. The setters' common frame.
 */
#define VG_TEXREF_SET(t, ...) do {					\
	CUresult e_ = vg_check_init();					\
									\
	if (e_)								\
		return e_;						\
	pthread_mutex_lock(&vg_lock);					\
	if (!(t) || !vg_texref_live(t)) {				\
		pthread_mutex_unlock(&vg_lock);				\
		return CUDA_ERROR_INVALID_VALUE;			\
	}								\
	__VA_ARGS__							\
	e_ = vg_texref_update(t);					\
	pthread_mutex_unlock(&vg_lock);					\
	return e_;							\
} while (0)

/* The same for a getter: runs @get under vg_lock on a live reference. */
#define VG_TEXREF_GET(t, out, ...) do {					\
	CUresult e_ = vg_check_init();					\
									\
	if (e_)								\
		return e_;						\
	if (!(out))							\
		return CUDA_ERROR_INVALID_VALUE;			\
	pthread_mutex_lock(&vg_lock);					\
	if (!(t) || !vg_texref_live(t))					\
		e_ = CUDA_ERROR_INVALID_VALUE;				\
	else								\
		__VA_ARGS__						\
	pthread_mutex_unlock(&vg_lock);					\
	return e_;							\
} while (0)

CUresult vg_texref_format(CUarray_format f, int ch, struct vgpu_tex_desc *d)
{
	static const struct { CUarray_format f; uint8_t texf; } fm[] = {
		{ CU_AD_FORMAT_UNSIGNED_INT8, VGPU_TEXF_U8 },
		{ CU_AD_FORMAT_SIGNED_INT8, VGPU_TEXF_S8 },
		{ CU_AD_FORMAT_UNSIGNED_INT16, VGPU_TEXF_U16 },
		{ CU_AD_FORMAT_SIGNED_INT16, VGPU_TEXF_S16 },
		{ CU_AD_FORMAT_UNSIGNED_INT32, VGPU_TEXF_U32 },
		{ CU_AD_FORMAT_SIGNED_INT32, VGPU_TEXF_S32 },
		{ CU_AD_FORMAT_HALF, VGPU_TEXF_F16 },
		{ CU_AD_FORMAT_FLOAT, VGPU_TEXF_F32 },
	};
	size_t i;

	if (ch != 1 && ch != 2 && ch != 4)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < sizeof(fm) / sizeof(fm[0]); i++) {
		if (fm[i].f == f) {
			d->format = fm[i].texf;
			d->channels = (uint8_t)ch;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/*
 * The module's reference variable @name of kind @ref: its index, or
 * CUDA_ERROR_NOT_FOUND; vg_lock held, @mod usable.
 */
static CUresult vg_ref_var(const struct CUmod_st *mod, const char *name,
			   uint8_t ref, uint32_t *var)
{
	uint32_t i;

	for (i = 0; i < mod->img->nvars; i++) {
		if (mod->img->vars[i].ref == ref &&
		    !strcmp(mod->img->vars[i].name, name)) {
			*var = i;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
}

/*
 * Takes a descriptor for a module's reference and writes its address
 * into the variable (a copy in the module's context). Called without
 * locks; the module's context is held by the caller's module lookup.
 */
static CUresult vg_ref_slot(struct CUmod_st *mod, uint32_t var,
			    struct vgpu_tex_desc **slot)
{
	uint64_t addr;
	CUresult e;

	/* A free descriptor is cleared: unbound, the reference reads zeros. */
	pthread_mutex_lock(&vg_lock);
	e = vg_tex_pool_slot(mod->ctx, slot);
	pthread_mutex_unlock(&vg_lock);
	if (e)
		return e;
	addr = (uintptr_t)*slot;
	e = cuCtxPushCurrent(mod->ctx);
	if (!e) {
		e = cuMemcpyHtoD(mod->globals + mod->img->vars[var].offset, &addr,
				 sizeof(addr));
		cuCtxPopCurrent(NULL);
	}
	if (e) {
		pthread_mutex_lock(&vg_lock);
		vg_tex_pool_put(mod->ctx, *slot, NULL);
		pthread_mutex_unlock(&vg_lock);
	}
	return e;
}

CUresult cuModuleGetTexRef(CUtexref *pTexRef, CUmodule hmod, const char *name)
{
	struct CUtexref_st *t, *x;
	uint32_t var;
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (!pTexRef || !name)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_module_known(hmod) || !vg_module_live(hmod))
		e = CUDA_ERROR_INVALID_HANDLE;
	else
		e = vg_ref_var(hmod, name, VG_JIT_REF_TEX, &var);
	for (x = vg_texrefs; !e && x; x = x->next) {
		if (x->mod == hmod && x->var == var) {
			*pTexRef = x;
			pthread_mutex_unlock(&vg_lock);
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	if (e)
		return e;
	t = calloc(1, sizeof(*t));
	if (!t)
		return CUDA_ERROR_OUT_OF_MEMORY;
	t->mod = hmod;
	t->var = var;
	t->format = CU_AD_FORMAT_FLOAT;
	t->channels = 1;
	e = vg_ref_slot(hmod, var, &t->slot);
	if (e) {
		free(t);
		return e;
	}
	pthread_mutex_lock(&vg_lock);
	t->next = vg_texrefs;
	vg_texrefs = t;
	pthread_mutex_unlock(&vg_lock);
	*pTexRef = t;
	return CUDA_SUCCESS;
}

CUresult cuTexRefCreate(CUtexref *pTexRef)
{
	struct CUtexref_st *t;
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (!pTexRef)
		return CUDA_ERROR_INVALID_VALUE;
	t = calloc(1, sizeof(*t));
	if (!t)
		return CUDA_ERROR_OUT_OF_MEMORY;
	t->format = CU_AD_FORMAT_FLOAT;
	t->channels = 1;
	pthread_mutex_lock(&vg_lock);
	t->next = vg_texrefs;
	vg_texrefs = t;
	pthread_mutex_unlock(&vg_lock);
	*pTexRef = t;
	return CUDA_SUCCESS;
}

CUresult cuTexRefDestroy(CUtexref hTexRef)
{
	struct CUtexref_st **pp;
	CUresult e = vg_check_init();

	if (e)
		return e;
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_texrefs; *pp; pp = &(*pp)->next) {
		/* A module's references go with the module. */
		if (*pp == hTexRef && !hTexRef->mod) {
			*pp = hTexRef->next;
			pthread_mutex_unlock(&vg_lock);
			free(hTexRef);
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuTexRefSetArray(CUtexref hTexRef, CUarray hArray, unsigned int Flags)
{
	if (Flags & ~CU_TRSA_OVERRIDE_FORMAT || !hArray)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, {
		memset(&hTexRef->res, 0, sizeof(hTexRef->res));
		hTexRef->res.resType = CU_RESOURCE_TYPE_ARRAY;
		hTexRef->res.res.array.hArray = hArray;
		hTexRef->bound = true;
		hTexRef->override_format = Flags & CU_TRSA_OVERRIDE_FORMAT;
	});
}

CUresult cuTexRefSetMipmappedArray(CUtexref hTexRef, CUmipmappedArray hMipmappedArray,
				   unsigned int Flags)
{
	if (Flags & ~CU_TRSA_OVERRIDE_FORMAT || !hMipmappedArray)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, {
		memset(&hTexRef->res, 0, sizeof(hTexRef->res));
		hTexRef->res.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
		hTexRef->res.res.mipmap.hMipmappedArray = hMipmappedArray;
		hTexRef->bound = true;
		hTexRef->override_format = false;
	});
}

/*
 * Binds linear memory: the binding starts at @dptr moved down to the
 * texture alignment, and *@ByteOffset says how far (texel indices must
 * add it, as on an H100).
 */
CUresult cuTexRefSetAddress_v2(size_t *ByteOffset, CUtexref hTexRef, CUdeviceptr dptr,
			       size_t bytes)
{
	size_t off = dptr % VG_TEXREF_ALIGN;

	VG_TEXREF_SET(hTexRef, {
		memset(&hTexRef->res, 0, sizeof(hTexRef->res));
		hTexRef->res.resType = CU_RESOURCE_TYPE_LINEAR;
		hTexRef->res.res.linear.devPtr = dptr - off;
		hTexRef->res.res.linear.format = hTexRef->format;
		hTexRef->res.res.linear.numChannels = (unsigned int)hTexRef->channels;
		hTexRef->res.res.linear.sizeInBytes = bytes + off;
		hTexRef->bound = dptr != 0;
		hTexRef->linear = dptr;
		if (ByteOffset)
			*ByteOffset = off;
	});
}

CUresult cuTexRefSetAddress2D_v3(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR *desc,
				 CUdeviceptr dptr, size_t Pitch)
{
	if (!desc || Pitch % VG_TEXREF_PITCH_ALIGN)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, {
		memset(&hTexRef->res, 0, sizeof(hTexRef->res));
		hTexRef->res.resType = CU_RESOURCE_TYPE_PITCH2D;
		hTexRef->res.res.pitch2D.devPtr = dptr;
		hTexRef->res.res.pitch2D.format = desc->Format;
		hTexRef->res.res.pitch2D.numChannels = desc->NumChannels;
		hTexRef->res.res.pitch2D.width = desc->Width;
		hTexRef->res.res.pitch2D.height = desc->Height;
		hTexRef->res.res.pitch2D.pitchInBytes = Pitch;
		hTexRef->bound = true;
		hTexRef->linear = dptr;
	});
}

CUresult cuTexRefSetAddress2D_v2(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR *desc,
				 CUdeviceptr dptr, size_t Pitch)
{
	return cuTexRefSetAddress2D_v3(hTexRef, desc, dptr, Pitch);
}

CUresult cuTexRefSetFormat(CUtexref hTexRef, CUarray_format fmt, int NumPackedComponents)
{
	struct vgpu_tex_desc probe;

	if (vg_texref_format(fmt, NumPackedComponents, &probe))
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, {
		hTexRef->format = fmt;
		hTexRef->channels = NumPackedComponents;
		if (hTexRef->res.resType == CU_RESOURCE_TYPE_LINEAR) {
			hTexRef->res.res.linear.format = fmt;
			hTexRef->res.res.linear.numChannels = (unsigned int)NumPackedComponents;
		}
	});
}

CUresult cuTexRefSetAddressMode(CUtexref hTexRef, int dim, CUaddress_mode am)
{
	if (dim < 0 || dim > 2 || (unsigned int)am > CU_TR_ADDRESS_MODE_BORDER)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, { hTexRef->tex.addressMode[dim] = am; });
}

CUresult cuTexRefSetFilterMode(CUtexref hTexRef, CUfilter_mode fm)
{
	if ((unsigned int)fm > CU_TR_FILTER_MODE_LINEAR)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, { hTexRef->tex.filterMode = fm; });
}

CUresult cuTexRefSetMipmapFilterMode(CUtexref hTexRef, CUfilter_mode fm)
{
	if ((unsigned int)fm > CU_TR_FILTER_MODE_LINEAR)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, { hTexRef->tex.mipmapFilterMode = fm; });
}

CUresult cuTexRefSetFlags(CUtexref hTexRef, unsigned int Flags)
{
	VG_TEXREF_SET(hTexRef, { hTexRef->tex.flags = Flags & 0x7f; });
}

CUresult cuTexRefSetBorderColor(CUtexref hTexRef, float *pBorderColor)
{
	if (!pBorderColor)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_SET(hTexRef, {
		memcpy(hTexRef->tex.borderColor, pBorderColor,
		       sizeof(hTexRef->tex.borderColor));
	});
}

CUresult cuTexRefSetMaxAnisotropy(CUtexref hTexRef, unsigned int maxAniso)
{
	VG_TEXREF_SET(hTexRef, { hTexRef->tex.maxAnisotropy = maxAniso; });
}

CUresult cuTexRefSetMipmapLevelBias(CUtexref hTexRef, float bias)
{
	VG_TEXREF_SET(hTexRef, { hTexRef->tex.mipmapLevelBias = bias; });
}

CUresult cuTexRefSetMipmapLevelClamp(CUtexref hTexRef, float minMipmapLevelClamp,
				     float maxMipmapLevelClamp)
{
	VG_TEXREF_SET(hTexRef, {
		hTexRef->tex.minMipmapLevelClamp = minMipmapLevelClamp;
		hTexRef->tex.maxMipmapLevelClamp = maxMipmapLevelClamp;
	});
}

CUresult cuTexRefGetAddress_v2(CUdeviceptr *pdptr, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pdptr, {
		if (!hTexRef->bound || hTexRef->res.resType == CU_RESOURCE_TYPE_ARRAY ||
		    hTexRef->res.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
			e_ = CUDA_ERROR_INVALID_VALUE;
		else
			*pdptr = hTexRef->linear;
	});
}

CUresult cuTexRefGetArray(CUarray *phArray, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, phArray, {
		if (!hTexRef->bound || hTexRef->res.resType != CU_RESOURCE_TYPE_ARRAY)
			e_ = CUDA_ERROR_INVALID_VALUE;
		else
			*phArray = hTexRef->res.res.array.hArray;
	});
}

CUresult cuTexRefGetMipmappedArray(CUmipmappedArray *phMipmappedArray, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, phMipmappedArray, {
		if (!hTexRef->bound ||
		    hTexRef->res.resType != CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
			e_ = CUDA_ERROR_INVALID_VALUE;
		else
			*phMipmappedArray = hTexRef->res.res.mipmap.hMipmappedArray;
	});
}

CUresult cuTexRefGetAddressMode(CUaddress_mode *pam, CUtexref hTexRef, int dim)
{
	if (dim < 0 || dim > 2)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_GET(hTexRef, pam, { *pam = hTexRef->tex.addressMode[dim]; });
}

CUresult cuTexRefGetFilterMode(CUfilter_mode *pfm, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pfm, { *pfm = hTexRef->tex.filterMode; });
}

CUresult cuTexRefGetMipmapFilterMode(CUfilter_mode *pfm, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pfm, { *pfm = hTexRef->tex.mipmapFilterMode; });
}

CUresult cuTexRefGetFormat(CUarray_format *pFormat, int *pNumChannels, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pFormat, {
		struct vg_array_info ai;

		/* Bound to an array whose format it takes: that one. */
		if (hTexRef->bound && !hTexRef->override_format &&
		    hTexRef->res.resType == CU_RESOURCE_TYPE_ARRAY &&
		    !vg_array_info_locked(hTexRef->res.res.array.hArray, &ai)) {
			*pFormat = ai.cu_format;
			if (pNumChannels)
				*pNumChannels = (int)ai.cu_channels;
		} else {
			*pFormat = hTexRef->format;
			if (pNumChannels)
				*pNumChannels = hTexRef->channels;
		}
	});
}

CUresult cuTexRefGetFlags(unsigned int *pFlags, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pFlags, { *pFlags = hTexRef->tex.flags; });
}

CUresult cuTexRefGetBorderColor(float *pBorderColor, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pBorderColor, {
		memcpy(pBorderColor, hTexRef->tex.borderColor,
		       sizeof(hTexRef->tex.borderColor));
	});
}

CUresult cuTexRefGetMaxAnisotropy(int *pmaxAniso, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pmaxAniso, { *pmaxAniso = (int)hTexRef->tex.maxAnisotropy; });
}

CUresult cuTexRefGetMipmapLevelBias(float *pbias, CUtexref hTexRef)
{
	VG_TEXREF_GET(hTexRef, pbias, { *pbias = hTexRef->tex.mipmapLevelBias; });
}

CUresult cuTexRefGetMipmapLevelClamp(float *pminMipmapLevelClamp,
				     float *pmaxMipmapLevelClamp, CUtexref hTexRef)
{
	if (!pmaxMipmapLevelClamp)
		return CUDA_ERROR_INVALID_VALUE;
	VG_TEXREF_GET(hTexRef, pminMipmapLevelClamp, {
		*pminMipmapLevelClamp = hTexRef->tex.minMipmapLevelClamp;
		*pmaxMipmapLevelClamp = hTexRef->tex.maxMipmapLevelClamp;
	});
}

/* --- surface references ------------------------------------------------ */

CUresult cuModuleGetSurfRef(CUsurfref *pSurfRef, CUmodule hmod, const char *name)
{
	struct CUsurfref_st *s, *x;
	uint32_t var;
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (!pSurfRef || !name)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_module_known(hmod) || !vg_module_live(hmod))
		e = CUDA_ERROR_INVALID_HANDLE;
	else
		e = vg_ref_var(hmod, name, VG_JIT_REF_SURF, &var);
	for (x = vg_surfrefs; !e && x; x = x->next) {
		if (x->mod == hmod && x->var == var) {
			*pSurfRef = x;
			pthread_mutex_unlock(&vg_lock);
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	if (e)
		return e;
	s = calloc(1, sizeof(*s));
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	s->mod = hmod;
	s->var = var;
	e = vg_ref_slot(hmod, var, &s->slot);
	if (e) {
		free(s);
		return e;
	}
	pthread_mutex_lock(&vg_lock);
	s->next = vg_surfrefs;
	vg_surfrefs = s;
	pthread_mutex_unlock(&vg_lock);
	*pSurfRef = s;
	return CUDA_SUCCESS;
}

static bool vg_surfref_live(const struct CUsurfref_st *s)
{
	const struct CUsurfref_st *x;

	for (x = vg_surfrefs; x; x = x->next)
		if (x == s)
			return true;
	return false;
}

CUresult cuSurfRefSetArray(CUsurfref hSurfRef, CUarray hArray, unsigned int Flags)
{
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	struct vg_array_info ai;
	struct vgpu_tex_desc d;
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (Flags || !hArray)
		return CUDA_ERROR_INVALID_VALUE;
	r.res.array.hArray = hArray;
	pthread_mutex_lock(&vg_lock);
	if (!hSurfRef || !vg_surfref_live(hSurfRef) ||
	    vg_array_info_locked(hArray, &ai) ||
	    !(ai.flags & CUDA_ARRAY3D_SURFACE_LDST)) {
		/* Unlike surface objects, references need surface load/store arrays. */
		e = CUDA_ERROR_INVALID_VALUE;
	} else {
		e = vg_tex_describe(hSurfRef->mod->ctx, &r, NULL, NULL, &d);
	}
	if (!e) {
		hSurfRef->array = hArray;
		vg_tex_pool_put(hSurfRef->mod->ctx, hSurfRef->slot, &d);
	}
	pthread_mutex_unlock(&vg_lock);
	return e;
}

CUresult cuSurfRefGetArray(CUarray *phArray, CUsurfref hSurfRef)
{
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (!phArray)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!hSurfRef || !vg_surfref_live(hSurfRef) || !hSurfRef->array)
		e = CUDA_ERROR_INVALID_VALUE;
	else
		*phArray = hSurfRef->array;
	pthread_mutex_unlock(&vg_lock);
	return e;
}

/* --- endings ------------------------------------------------------------- */

/*
 * Forgets the references of @mod, or of every module of @ctx; vg_lock
 * held. Their descriptors go back to the pool (if it still exists).
 */
static void vg_texref_forget(const struct CUmod_st *mod, const struct CUctx_st *ctx)
{
	struct CUtexref_st **tp = &vg_texrefs, *t;
	struct CUsurfref_st **sp = &vg_surfrefs, *s;

	while ((t = *tp)) {
		if (!t->mod || (mod ? t->mod != mod : t->mod->ctx != ctx)) {
			tp = &t->next;
			continue;
		}
		*tp = t->next;
		if (mod && t->slot)
			vg_tex_pool_put(t->mod->ctx, t->slot, NULL);
		free(t);
	}
	while ((s = *sp)) {
		if (mod ? s->mod != mod : s->mod->ctx != ctx) {
			sp = &s->next;
			continue;
		}
		*sp = s->next;
		if (mod && s->slot)
			vg_tex_pool_put(s->mod->ctx, s->slot, NULL);
		free(s);
	}
}

void vg_texref_module_gone(const struct CUmod_st *mod)
{
	pthread_mutex_lock(&vg_lock);
	vg_texref_forget(mod, NULL);
	pthread_mutex_unlock(&vg_lock);
}

void vg_texref_ctx_close(const struct CUctx_st *ctx)
{
	vg_texref_forget(NULL, ctx);
}
