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

/* What texture and surface references share; one list holds them all. */
struct vg_ref {
	struct vg_ref *next;		/* vg_refs */
	uint8_t kind;			/* VG_JIT_REF_TEX or VG_JIT_REF_SURF */
	struct CUmod_st *mod;		/* NULL: from cuTexRefCreate */
	uint32_t var;			/* the module's variable */
	struct vgpu_tex_desc *slot;	/* its descriptor, or NULL */
};

/* Texture reference state, and what it is bound to. */
struct CUtexref_st {
	struct vg_ref h;
	CUDA_RESOURCE_DESC res;		/* the binding */
	bool bound;
	bool override_format;		/* cuTexRefSetArray's flag */
	CUarray_format format;		/* cuTexRefSetFormat's; channels 0: */
	int channels;			/* never set, a float of one channel */
	CUDA_TEXTURE_DESC tex;		/* the sampler state */
	CUdeviceptr linear;		/* what cuTexRefSetAddress was given */
};

struct CUsurfref_st {
	struct vg_ref h;
	CUarray array;			/* bound, or NULL */
};

/* Live references, under vg_lock. */
static struct vg_ref *vg_refs;

/* The alignment a linear binding is moved down to (cuTexRefSetAddress). */
#define VG_TEXREF_ALIGN 512
#define VG_TEXREF_PITCH_ALIGN 32

/* @t's format: cuTexRefSetFormat's, else a float of one channel. */
static void vg_texref_fmt(const struct CUtexref_st *t, CUarray_format *f, int *ch)
{
	*f = t->channels ? t->format : CU_AD_FORMAT_FLOAT;
	*ch = t->channels ? t->channels : 1;
}

/* Rewrites @t's descriptor from its state; vg_lock held. */
static CUresult vg_texref_update(struct CUtexref_st *t)
{
	CUDA_TEXTURE_DESC tex = t->tex;
	struct vgpu_tex_desc d;
	CUresult e;

	if (!t->h.slot)
		return CUDA_SUCCESS;
	if (!t->bound) {
		static const struct vgpu_tex_desc none;	/* reads zeros */

		vg_tex_pool_put(t->h.mod->ctx, t->h.slot, &none);
		return CUDA_SUCCESS;
	}
	/* References carry no mipmap state but for mipmapped arrays. */
	if (t->res.resType != CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
		tex.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
		tex.mipmapLevelBias = 0;
		tex.minMipmapLevelClamp = 0;
		tex.maxMipmapLevelClamp = 0;
	}
	e = vg_tex_describe(t->h.mod->ctx, &t->res, &tex, NULL, &d);
	if (e)
		return e;
	if (t->override_format && t->res.resType == CU_RESOURCE_TYPE_ARRAY) {
		struct vgpu_tex_desc o = d;
		CUarray_format f;
		int ch;

		/* The reference's format, over the array's texels of that size. */
		vg_texref_fmt(t, &f, &ch);
		if (vg_tex_format(f, ch, &o) == CUDA_SUCCESS &&
		    vg_tex_texel_size(&o) == vg_tex_texel_size(&d))
			d = o;
	}
	vg_tex_pool_put(t->h.mod->ctx, t->h.slot, &d);
	return CUDA_SUCCESS;
}

/* Whether @r is a live reference of @kind; vg_lock held. */
static bool vg_ref_live(const void *r, uint8_t kind)
{
	const struct vg_ref *x;

	for (x = vg_refs; x; x = x->next)
		if (x == r)
			return x->kind == kind;
	return false;
}

static bool vg_texref_live(const struct CUtexref_st *t)
{
	return vg_ref_live(t, VG_JIT_REF_TEX);
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

/*
 * The reference of kind @kind (@size bytes, a struct vg_ref first) to
 * module @hmod's variable @name: the one made before, or a new one with
 * its descriptor taken and its address written into the variable.
 */
static CUresult vg_module_ref(CUmodule hmod, const char *name, uint8_t kind,
			      size_t size, struct vg_ref **out)
{
	struct vg_ref *r = NULL, *x;
	struct CUctx_st *ctx = NULL;
	uint64_t serial = 0;
	uint32_t var;
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (!out || !name)
		return CUDA_ERROR_INVALID_VALUE;
	for (;;) {
		pthread_mutex_lock(&vg_lock);
		if (!vg_module_known(hmod) || !vg_module_live(hmod)) {
			e = CUDA_ERROR_INVALID_HANDLE;
		} else {
			ctx = hmod->ctx;
			serial = ctx->serial;
			e = vg_ref_var(hmod, name, kind, &var);
		}
		for (x = vg_refs; !e && x; x = x->next)
			if (x->mod == hmod && x->var == var)
				break;
		if (e || x || r)
			break;
		pthread_mutex_unlock(&vg_lock);
		/* Made with no lock held (the slot's address is a copy). */
		r = calloc(1, size);
		if (!r)
			return CUDA_ERROR_OUT_OF_MEMORY;
		r->kind = kind;
		r->mod = hmod;
		r->var = var;
		e = vg_ref_slot(hmod, var, &r->slot);
		if (e) {
			free(r);
			return e;
		}
	}
	/*
	 * Another thread's, made meanwhile, wins, and ours goes; its slot
	 * back to the pool unless that went with its context.
	 */
	if (r && (e || x) && vg_ctx_alive(ctx) && ctx->fd >= 0 &&
	    ctx->serial == serial)
		vg_tex_pool_put(ctx, r->slot, NULL);
	if (!e && !x) {
		r->next = vg_refs;
		vg_refs = r;
		x = r;
		r = NULL;
	}
	pthread_mutex_unlock(&vg_lock);
	free(r);
	if (!e)
		*out = x;
	return e;
}

CUresult cuModuleGetTexRef(CUtexref *pTexRef, CUmodule hmod, const char *name)
{
	struct vg_ref *r;
	CUresult e = vg_module_ref(hmod, name, VG_JIT_REF_TEX, sizeof(struct CUtexref_st),
				   pTexRef ? &r : NULL);

	if (!e)	/* the head is the first member */
		*pTexRef = (struct CUtexref_st *)r;
	return e;
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
	t->h.kind = VG_JIT_REF_TEX;
	pthread_mutex_lock(&vg_lock);
	t->h.next = vg_refs;
	vg_refs = &t->h;
	pthread_mutex_unlock(&vg_lock);
	*pTexRef = t;
	return CUDA_SUCCESS;
}

CUresult cuTexRefDestroy(CUtexref hTexRef)
{
	struct vg_ref **pp;
	CUresult e = vg_check_init();

	if (e)
		return e;
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_refs; *pp; pp = &(*pp)->next) {
		/* A module's references go with the module. */
		if (*pp == &hTexRef->h && hTexRef->h.kind == VG_JIT_REF_TEX &&
		    !hTexRef->h.mod) {
			*pp = hTexRef->h.next;
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
		int ch;

		memset(&hTexRef->res, 0, sizeof(hTexRef->res));
		hTexRef->res.resType = CU_RESOURCE_TYPE_LINEAR;
		hTexRef->res.res.linear.devPtr = dptr - off;
		vg_texref_fmt(hTexRef, &hTexRef->res.res.linear.format, &ch);
		hTexRef->res.res.linear.numChannels = (unsigned int)ch;
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

	if (vg_tex_format(fmt, NumPackedComponents, &probe))
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
			int ch;

			vg_texref_fmt(hTexRef, pFormat, &ch);
			if (pNumChannels)
				*pNumChannels = ch;
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
	struct vg_ref *r;
	CUresult e = vg_module_ref(hmod, name, VG_JIT_REF_SURF, sizeof(struct CUsurfref_st),
				   pSurfRef ? &r : NULL);

	if (!e)	/* the head is the first member */
		*pSurfRef = (struct CUsurfref_st *)r;
	return e;
}

static bool vg_surfref_live(const struct CUsurfref_st *s)
{
	return vg_ref_live(s, VG_JIT_REF_SURF);
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
		e = vg_tex_describe(hSurfRef->h.mod->ctx, &r, NULL, NULL, &d);
	}
	if (!e) {
		hSurfRef->array = hArray;
		vg_tex_pool_put(hSurfRef->h.mod->ctx, hSurfRef->h.slot, &d);
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
	struct vg_ref **pp = &vg_refs, *r;

	while ((r = *pp)) {
		if (!r->mod || (mod ? r->mod != mod : r->mod->ctx != ctx)) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		if (mod && r->slot)
			vg_tex_pool_put(r->mod->ctx, r->slot, NULL);
		free(r);
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
