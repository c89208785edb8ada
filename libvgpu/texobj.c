// SPDX-License-Identifier: MIT
/*
 * Texture and surface objects: each is a descriptor (uapi/vgpu_tex.h)
 * in a pool of page-locked memory the context's device reads at the same
 * address, and its handle is that address, which kernels pass to tex,
 * suld and sust. Creating one checks its resource and sampler state as
 * an H100 does (tests/e2e/ref/h100_texobj.log); destroying one clears its
 * descriptor, so that a kernel still holding the handle reads zeros, as
 * on an H100. Objects hold the arrays they name: an array destroyed under
 * a texture stays readable through it until the texture goes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "vg.h"

/* A pool chunk: descriptors the device reads, registered read-only. */
#define VG_TEX_CHUNK 65536
#define VG_TEX_SLOTS_PER_CHUNK (VG_TEX_CHUNK / sizeof(struct vgpu_tex_desc))

/* The alignments an H100 asks of linear and pitched texture memory. */
#define VG_TEX_ALIGN 512
#define VG_TEX_PITCH_ALIGN 32
#define VG_TEX_LINEAR_MAX (1ULL << 28)	/* texels of a linear texture */
#define VG_TEX_PITCH_MAX_W 131072
#define VG_TEX_PITCH_MAX_H 65000
#define VG_TEX_PITCH_MAX 2097120	/* bytes a row */

/* A context's pool: its chunks, and the free descriptors. */
struct vg_tex_chunk {
	struct vg_tex_chunk *next;
	struct vgpu_tex_desc *slots;	/* VG_TEX_SLOTS_PER_CHUNK of them */
};

struct vg_tex_pool {
	struct vg_tex_chunk *chunks;
	struct vgpu_tex_desc **free;	/* a stack */
	size_t nfree, capfree;
};

/* A texture or surface object. */
struct vg_texobj {
	struct vg_texobj *next;		/* vg_texobjs */
	struct CUctx_st *ctx;
	struct vgpu_tex_desc *desc;	/* its descriptor: the handle */
	bool surface;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUDA_RESOURCE_VIEW_DESC view;
	bool has_view;
};

/* Live objects, under vg_lock. */
static struct vg_texobj *vg_texobjs;

/* --- the pool ----------------------------------------------------------- */

/* A free descriptor of @ctx's pool; called with vg_lock held. */
CUresult vg_tex_pool_slot(struct CUctx_st *ctx, struct vgpu_tex_desc **out)
{
	struct vg_tex_pool *pool = ctx->texpool;
	struct vgpu_host_register hr = { .size = VG_TEX_CHUNK,
					 .flags = VGPU_HOST_READ_ONLY };
	struct vgpu_tex_desc **f;
	struct vg_tex_chunk *c;
	size_t i;
	void *p;

	if (!pool) {
		pool = calloc(1, sizeof(*pool));
		if (!pool)
			return CUDA_ERROR_OUT_OF_MEMORY;
		ctx->texpool = pool;
	}
	if (!pool->nfree) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return CUDA_ERROR_OUT_OF_MEMORY;
		/* Room for every slot of the pool to be free at once. */
		f = realloc(pool->free, (pool->capfree + VG_TEX_SLOTS_PER_CHUNK) *
			    sizeof(*f));
		if (!f) {
			free(c);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		pool->free = f;
		pool->capfree += VG_TEX_SLOTS_PER_CHUNK;
		p = mmap(NULL, VG_TEX_CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			free(c);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		/*
		 * Touched before it is pinned: a page never written would be
		 * pinned as the shared zero page, and the host's first write
		 * would go to a copy the device never sees.
		 */
		memset(p, 0, VG_TEX_CHUNK);
		hr.addr = (uintptr_t)p;
		if (ioctl(ctx->fd, VGPU_IOCTL_HOST_REGISTER, &hr)) {
			munmap(p, VG_TEX_CHUNK);
			free(c);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		c->slots = p;
		c->next = pool->chunks;
		pool->chunks = c;
		/* The first slot last: handles go out in address order. */
		for (i = VG_TEX_SLOTS_PER_CHUNK; i-- > 0;)
			pool->free[pool->nfree++] = &c->slots[i];
	}
	*out = pool->free[--pool->nfree];
	return CUDA_SUCCESS;
}

/*
 * Clears descriptor @d (kernels holding its handle read zeros from now
 * on) and gives it back to @ctx's pool; vg_lock held.
 */
static void vg_tex_unslot(struct CUctx_st *ctx, struct vgpu_tex_desc *d)
{
	struct vg_tex_pool *pool = ctx->texpool;

	__atomic_store_n(&d->magic, 0, __ATOMIC_RELEASE);
	memset((char *)d + sizeof(d->magic), 0, sizeof(*d) - sizeof(d->magic));
	if (pool)	/* the stack has room for every slot */
		pool->free[pool->nfree++] = d;
}

/* Publishes @d at @slot: the fields first, the magic last. */
static void vg_tex_publish(struct vgpu_tex_desc *slot, const struct vgpu_tex_desc *d)
{
	__atomic_store_n(&slot->magic, 0, __ATOMIC_RELEASE);
	memcpy((char *)slot + sizeof(slot->magic), (const char *)d + sizeof(d->magic),
	       sizeof(*d) - sizeof(d->magic));
	__atomic_store_n(&slot->magic, d->magic, __ATOMIC_RELEASE);
}

/* --- descriptors -------------------------------------------------------- */

/* Bytes of a texel of @d's format and channels. */
uint32_t vg_tex_texel_size(const struct vgpu_tex_desc *d)
{
	static const uint8_t bytes[VGPU_TEXF_COUNT] = { 1, 1, 2, 2, 4, 4, 2, 4 };

	return (uint32_t)bytes[d->format] * d->channels;
}

/*
 * A plain CUarray_format and channel count (what linear and pitched
 * memory and references take) as the texture unit's, into @d.
 */
CUresult vg_tex_format(CUarray_format f, int ch, struct vgpu_tex_desc *d)
{
	if (ch != 1 && ch != 2 && ch != 4)
		return CUDA_ERROR_INVALID_VALUE;
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: d->format = VGPU_TEXF_U8; break;
	case CU_AD_FORMAT_SIGNED_INT8: d->format = VGPU_TEXF_S8; break;
	case CU_AD_FORMAT_UNSIGNED_INT16: d->format = VGPU_TEXF_U16; break;
	case CU_AD_FORMAT_SIGNED_INT16: d->format = VGPU_TEXF_S16; break;
	case CU_AD_FORMAT_UNSIGNED_INT32: d->format = VGPU_TEXF_U32; break;
	case CU_AD_FORMAT_SIGNED_INT32: d->format = VGPU_TEXF_S32; break;
	case CU_AD_FORMAT_HALF: d->format = VGPU_TEXF_F16; break;
	case CU_AD_FORMAT_FLOAT: d->format = VGPU_TEXF_F32; break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	d->channels = (uint8_t)ch;
	return CUDA_SUCCESS;
}

/* A view's format: the texture unit's format and channels, 0 if none. */
static bool vg_view_format(CUresourceViewFormat v, uint8_t *texf, uint8_t *ch)
{
	static const uint8_t fm[] = { VGPU_TEXF_U8, VGPU_TEXF_S8, VGPU_TEXF_U16,
				      VGPU_TEXF_S16, VGPU_TEXF_U32, VGPU_TEXF_S32,
				      VGPU_TEXF_F16, VGPU_TEXF_F32 };
	unsigned int k;

	if (v < CU_RES_VIEW_FORMAT_UINT_1X8 || v > CU_RES_VIEW_FORMAT_FLOAT_4X32)
		return false;
	k = v - CU_RES_VIEW_FORMAT_UINT_1X8;	/* 3 channel counts per format */
	*texf = fm[k / 3];
	*ch = (uint8_t)(1u << (k % 3));
	return true;
}

/* Whether a format's channels filter as floats (read as such). */
static bool vg_tex_reads_float(const struct vgpu_tex_desc *d)
{
	return d->format == VGPU_TEXF_F16 || d->format == VGPU_TEXF_F32 ||
	       (d->flags & VGPU_TEX_READ_NORM);
}

/*
 * The border colour's channel @b as the descriptor keeps it (core/tex.c
 * reads it so): the 8-bit normalized formats hold it as their own texel,
 * cut as an H100 cuts it; integers read as such, the value cut to one;
 * everything else the float.
 */
static uint32_t vg_tex_border(const struct vgpu_tex_desc *d, float b)
{
	uint32_t bits;
	float q;

	if (!(b == b))
		b = 0;
	if ((d->flags & VGPU_TEX_READ_NORM) && d->format == VGPU_TEXF_U8) {
		q = b < 0 ? 0 : b > 1 ? 1 : b;
		return (uint32_t)floorf(q * 255);
	}
	if ((d->flags & VGPU_TEX_READ_NORM) && d->format == VGPU_TEXF_S8) {
		q = b < -1 ? -1 : b > 1 ? 1 : b;
		return (uint32_t)(int32_t)floorf(q * 127);
	}
	if (!vg_tex_reads_float(d))
		return (uint32_t)(int32_t)(b >= 2147483647.0f ? 2147483647 :
					   b <= -2147483648.0f ? -2147483647 - 1 :
					   (int32_t)b);
	memcpy(&bits, &b, 4);
	return bits;
}

/* 1/256 of a level, cut, within what the descriptor holds. */
static int16_t vg_tex_lod(float f)
{
	float v = f * 256;

	if (!(v == v))
		return 0;
	if (v >= 32767)
		return 32767;
	if (v <= -32768)
		return -32768;
	return (int16_t)(v < 0 && v != (int16_t)v ? (int16_t)v - 1 : (int16_t)v);
}

/*
 * The resource's part of a descriptor, vg_lock held. An array must be of
 * @ctx: vgpu's arrays live in their context's memory.
 */
static CUresult vg_tex_resource(struct CUctx_st *ctx, const CUDA_RESOURCE_DESC *r,
				bool surface, struct vgpu_tex_desc *d, bool *norm)
{
	struct vg_array_info ai;
	CUresult e;

	*norm = false;
	if (r->flags)
		return CUDA_ERROR_INVALID_VALUE;
	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		if (!r->res.array.hArray)
			return CUDA_ERROR_INVALID_VALUE;
		e = vg_array_info_locked(r->res.array.hArray, &ai);
		break;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		if (surface || !r->res.mipmap.hMipmappedArray)
			return CUDA_ERROR_INVALID_VALUE;
		e = vg_mipmap_info_locked(r->res.mipmap.hMipmappedArray, &ai);
		break;
	case CU_RESOURCE_TYPE_LINEAR:
		if (surface)
			return CUDA_ERROR_INVALID_VALUE;
		e = vg_tex_format(r->res.linear.format,
				  (int)r->res.linear.numChannels, d);
		if (e || !r->res.linear.devPtr ||
		    r->res.linear.devPtr % VG_TEX_ALIGN)
			return CUDA_ERROR_INVALID_VALUE;
		d->kind = VGPU_TEXK_BUFFER;
		d->addr = r->res.linear.devPtr;
		if (r->res.linear.sizeInBytes / vg_tex_texel_size(d) > VG_TEX_LINEAR_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		d->width = (uint32_t)(r->res.linear.sizeInBytes / vg_tex_texel_size(d));
		d->height = 1;
		d->depth = 1;
		d->levels = 1;
		d->pitch = (uint64_t)d->width * vg_tex_texel_size(d);
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_PITCH2D:
		if (surface)
			return CUDA_ERROR_INVALID_VALUE;
		e = vg_tex_format(r->res.pitch2D.format,
				  (int)r->res.pitch2D.numChannels, d);
		if (e || !r->res.pitch2D.devPtr ||
		    r->res.pitch2D.devPtr % VG_TEX_ALIGN ||
		    r->res.pitch2D.pitchInBytes % VG_TEX_PITCH_ALIGN ||
		    r->res.pitch2D.pitchInBytes > VG_TEX_PITCH_MAX ||
		    r->res.pitch2D.width > VG_TEX_PITCH_MAX_W ||
		    r->res.pitch2D.height > VG_TEX_PITCH_MAX_H)
			return CUDA_ERROR_INVALID_VALUE;
		d->kind = VGPU_TEXK_2D;
		d->addr = r->res.pitch2D.devPtr;
		d->width = (uint32_t)r->res.pitch2D.width;
		d->height = (uint32_t)r->res.pitch2D.height;
		d->depth = 1;
		d->levels = 1;
		d->pitch = r->res.pitch2D.pitchInBytes;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	/* The block-compressed formats: no texture unit of vgpu reads them. */
	if (e == CUDA_ERROR_NOT_SUPPORTED)
		return e;
	if (e)
		return CUDA_ERROR_INVALID_VALUE;
	/* Another context's array, as an H100 answers (h100_texctx.log). */
	if (ai.ctx != ctx)
		return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	d->kind = ai.kind;
	d->format = ai.format;
	d->channels = ai.channels;
	d->levels = ai.levels;
	d->addr = ai.addr;
	d->width = ai.width;
	d->height = ai.height;
	d->depth = ai.depth;
	d->pitch = (uint64_t)ai.width * vg_tex_texel_size(d);
	*norm = ai.norm;
	return CUDA_SUCCESS;
}

/* Takes a reference on @r's array, if it names one; vg_lock held. */
static CUresult vg_tex_hold(const CUDA_RESOURCE_DESC *r)
{
	if (r->resType == CU_RESOURCE_TYPE_ARRAY)
		return vg_array_ref_locked(r->res.array.hArray);
	if (r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
		return vg_mipmap_ref_locked(r->res.mipmap.hMipmappedArray);
	return CUDA_SUCCESS;
}

/*
 * Drops it: @locked with vg_lock held (a reference of the same hold, or
 * as the context closes), else without, when it may free the array.
 */
static void vg_tex_release(const CUDA_RESOURCE_DESC *r, bool locked)
{
	if (r->resType == CU_RESOURCE_TYPE_ARRAY) {
		if (locked)
			vg_array_unref_locked(r->res.array.hArray);
		else
			vg_array_unref(r->res.array.hArray);
	} else if (r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
		if (locked)
			vg_mipmap_unref_locked(r->res.mipmap.hMipmappedArray);
		else
			vg_mipmap_unref(r->res.mipmap.hMipmappedArray);
	}
}

CUresult vg_tex_describe(struct CUctx_st *ctx, const CUDA_RESOURCE_DESC *r,
			 const CUDA_TEXTURE_DESC *t,
			 const CUDA_RESOURCE_VIEW_DESC *v, struct vgpu_tex_desc *d)
{
	unsigned int i;
	bool norm, mip;
	CUresult e;

	memset(d, 0, sizeof(*d));
	e = vg_tex_resource(ctx, r, !t, d, &norm);
	if (e)
		return e;
	d->magic = VGPU_TEX_MAGIC;
	d->max_aniso = 1;
	d->lod_max = 0;
	if (!t) {
		d->flags = VGPU_TEX_SURFACE;
		d->address[0] = d->address[1] = d->address[2] = VGPU_TEXA_CLAMP;
		return CUDA_SUCCESS;
	}
	mip = r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
	for (i = 0; i < 3; i++)
		if ((unsigned int)t->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
			return CUDA_ERROR_INVALID_VALUE;
	if ((unsigned int)t->filterMode > CU_TR_FILTER_MODE_LINEAR ||
	    (unsigned int)t->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR ||
	    (t->flags & ~0x7fu))
		return CUDA_ERROR_INVALID_VALUE;
	/* Mipmap state on a texture without levels. */
	if (!mip && (t->mipmapFilterMode != CU_TR_FILTER_MODE_POINT ||
		     t->mipmapLevelBias != 0 || t->minMipmapLevelClamp != 0 ||
		     t->maxMipmapLevelClamp != 0))
		return CUDA_ERROR_INVALID_VALUE;
	if (v) {
		static const CUDA_RESOURCE_VIEW_DESC zero;
		struct vgpu_tex_desc vd = { 0 };

		if (!memcmp(v, &zero, sizeof(zero)))
			return CUDA_ERROR_INVALID_VALUE;
		/* A view keeps the texel's size. */
		if (!vg_view_format(v->format, &vd.format, &vd.channels) ||
		    vg_tex_texel_size(&vd) != vg_tex_texel_size(d) ||
		    (v->width && v->width != d->width) ||
		    (v->height && v->height != d->height && d->kind != VGPU_TEXK_1D) ||
		    v->firstMipmapLevel || v->lastMipmapLevel || v->firstLayer ||
		    v->lastLayer)
			return CUDA_ERROR_NOT_SUPPORTED;
		d->format = vd.format;
		d->channels = vd.channels;
		norm = false;
	}
	d->flags = 0;
	if (t->flags & CU_TRSF_NORMALIZED_COORDINATES)
		d->flags |= VGPU_TEX_NORMALIZED;
	if (d->format <= VGPU_TEXF_S16 &&
	    (norm || !(t->flags & CU_TRSF_READ_AS_INTEGER)))
		d->flags |= VGPU_TEX_READ_NORM;
	if ((t->flags & CU_TRSF_SRGB) && d->format == VGPU_TEXF_U8 &&
	    (d->flags & VGPU_TEX_READ_NORM))
		d->flags |= VGPU_TEX_SRGB;
	/* Linear filtering of integers read as such samples the nearest. */
	if (t->filterMode == CU_TR_FILTER_MODE_LINEAR && vg_tex_reads_float(d))
		d->flags |= VGPU_TEX_LINEAR;
	if (mip && t->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR)
		d->flags |= VGPU_TEX_MIP_LINEAR;
	if (t->flags & CU_TRSF_SEAMLESS_CUBEMAP)
		d->flags |= VGPU_TEX_SEAMLESS;
	if (t->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION)
		d->flags |= VGPU_TEX_NO_TRILINEAR_OPT;
	for (i = 0; i < 3; i++)
		d->address[i] = (uint8_t)t->addressMode[i];
	d->max_aniso = (uint8_t)(t->maxAnisotropy < 1 ? 1 :
				 t->maxAnisotropy > 16 ? 16 : t->maxAnisotropy);
	d->lod_bias = vg_tex_lod(t->mipmapLevelBias);
	d->lod_min = vg_tex_lod(t->minMipmapLevelClamp);
	d->lod_max = vg_tex_lod(t->maxMipmapLevelClamp);
	for (i = 0; i < d->channels; i++)
		d->border[i] = vg_tex_border(d, t->borderColor[i]);
	return CUDA_SUCCESS;
}

/* --- objects ------------------------------------------------------------ */

/* The live object of handle @h in the current context; vg_lock held. */
static struct vg_texobj *vg_texobj_find(unsigned long long h, bool surface)
{
	struct vg_texobj *o;

	for (o = vg_texobjs; o; o = o->next)
		if ((uintptr_t)o->desc == h && o->surface == surface)
			return o;
	return NULL;
}

static CUresult vg_obj_create(unsigned long long *out, const CUDA_RESOURCE_DESC *r,
			      const CUDA_TEXTURE_DESC *t,
			      const CUDA_RESOURCE_VIEW_DESC *v, bool surface)
{
	struct vgpu_tex_desc d;
	struct CUctx_st *ctx;
	struct vg_texobj *o;
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (!out || !r || (!surface && !t))
		return CUDA_ERROR_INVALID_VALUE;
	o = calloc(1, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	o->surface = surface;
	o->res = *r;
	if (t)
		o->tex = *t;
	if (v) {
		o->view = *v;
		o->has_view = true;
	}
	pthread_mutex_lock(&vg_lock);
	e = vg_current_open(&ctx);
	if (e)
		goto out;
	e = vg_tex_describe(ctx, r, surface ? NULL : t, v, &d);
	if (e)
		goto out;
	e = vg_tex_hold(r);
	if (e) {
		e = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	e = vg_tex_pool_slot(ctx, &o->desc);
	if (e) {
		vg_tex_release(r, true);
		goto out;
	}
	o->ctx = ctx;
	vg_tex_publish(o->desc, &d);
	o->next = vg_texobjs;
	vg_texobjs = o;
	*out = (uintptr_t)o->desc;
out:
	pthread_mutex_unlock(&vg_lock);
	if (e)
		free(o);
	return e;
}

/* Destroys the object of handle @h; unknown handles are let be, as on an H100. */
static CUresult vg_obj_destroy(unsigned long long h, bool surface)
{
	struct vg_texobj **pp, *o = NULL;
	CUresult e = vg_check_init();

	if (e)
		return e;
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_texobjs; *pp; pp = &(*pp)->next) {
		if ((uintptr_t)(*pp)->desc == h && (*pp)->surface == surface) {
			o = *pp;
			*pp = o->next;
			vg_tex_unslot(o->ctx, o->desc);
			break;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	if (o) {
		vg_tex_release(&o->res, false);
		free(o);
	}
	return CUDA_SUCCESS;
}

/* Copies out what @h was created with (@what: 0 resource, 1 texture, 2 view). */
static CUresult vg_obj_get(void *dst, unsigned long long h, bool surface, int what)
{
	struct vg_texobj *o;
	CUresult e = vg_check_init();

	if (e)
		return e;
	if (!dst)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	o = vg_texobj_find(h, surface);
	if (!o) {
		e = CUDA_ERROR_INVALID_VALUE;
	} else if (what == 0) {
		memcpy(dst, &o->res, sizeof(o->res));
	} else if (what == 1) {
		CUDA_TEXTURE_DESC *t = dst;

		/* All but the border colour, which an H100 never writes back. */
		memcpy(t->addressMode, o->tex.addressMode, sizeof(t->addressMode));
		t->filterMode = o->tex.filterMode;
		t->flags = o->tex.flags;
		t->maxAnisotropy = o->tex.maxAnisotropy;
		t->mipmapFilterMode = o->tex.mipmapFilterMode;
		t->mipmapLevelBias = o->tex.mipmapLevelBias;
		t->minMipmapLevelClamp = o->tex.minMipmapLevelClamp;
		t->maxMipmapLevelClamp = o->tex.maxMipmapLevelClamp;
		memcpy(t->reserved, o->tex.reserved, sizeof(t->reserved));
	} else if (o->has_view) {
		/* Without a view, an H100 answers success and writes nothing. */
		memcpy(dst, &o->view, sizeof(o->view));
	}
	pthread_mutex_unlock(&vg_lock);
	return e;
}

CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
			   const CUDA_TEXTURE_DESC *pTexDesc,
			   const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
	return vg_obj_create(pTexObject, pResDesc, pTexDesc, pResViewDesc, false);
}

CUresult cuTexObjectDestroy(CUtexObject texObject)
{
	return vg_obj_destroy(texObject, false);
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
	return vg_obj_get(pResDesc, texObject, false, 0);
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
	return vg_obj_get(pTexDesc, texObject, false, 1);
}

CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
					CUtexObject texObject)
{
	return vg_obj_get(pResViewDesc, texObject, false, 2);
}

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
	return vg_obj_create(pSurfObject, pResDesc, NULL, NULL, true);
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
	return vg_obj_destroy(surfObject, true);
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
	return vg_obj_get(pResDesc, surfObject, true, 0);
}

/* --- the pool of a context, and its ending ------------------------------ */

void vg_tex_pool_put(struct CUctx_st *ctx, struct vgpu_tex_desc *slot,
		     const struct vgpu_tex_desc *d)
{
	if (d)
		vg_tex_publish(slot, d);
	else
		vg_tex_unslot(ctx, slot);
}

/*
 * @ctx is closing (vg_lock held): its objects and references are dead
 * (their handles answer as unknown), the arrays they held let go, and
 * the pool's pages unmapped (the module unpinned them with the file).
 */
void vg_tex_ctx_close(struct CUctx_st *ctx)
{
	struct vg_tex_pool *pool = ctx->texpool;
	struct vg_texobj **pp = &vg_texobjs, *o;
	struct vg_tex_chunk *c;

	while ((o = *pp)) {
		if (o->ctx != ctx) {
			pp = &o->next;
			continue;
		}
		*pp = o->next;
		vg_tex_release(&o->res, true);
		free(o);
	}
	vg_texref_ctx_close(ctx);
	if (!pool)
		return;
	while ((c = pool->chunks)) {
		pool->chunks = c->next;
		munmap(c->slots, VG_TEX_CHUNK);
		free(c);
	}
	free(pool->free);
	free(pool);
	ctx->texpool = NULL;
}
