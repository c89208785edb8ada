// SPDX-License-Identifier: MIT
/*
 * CUDA arrays and mipmapped arrays: creating them with the checks an H100
 * makes (tests/e2e/ref/h100_array.log), their descriptors, levels, memory
 * requirements and sparse properties, destroying them, and what copies
 * (array_copy.c) and texture and surface objects need of them.
 *
 * An array is one allocation of device memory in the context current at
 * its creation, never handed to the program, laid out as uapi/vgpu_tex.h
 * says: levels one after another, each a run of slices (a 3D level's
 * depth, or every layer or cube face), each slice a level's height rows of
 * its width texels (of 4x4 blocks, for the block-compressed formats), rows
 * packed. A mipmapped array is one such allocation with all its levels,
 * and owns a CUarray handle for each level.
 *
 * Handles are looked up in this file's registries before use, so a
 * destroyed one is refused (CUDA_ERROR_CONTEXT_IS_DESTROYED, as on the
 * H100), never read. The memory outlives cuArrayDestroy while texture or
 * surface objects hold it (vg_array_ref()); it goes with its context in
 * any case. The registries and everything in them are under vg_lock.
 */
#include <stdlib.h>
#include <string.h>

#include "vg.h"

/* The flags an H100 takes: it refuses DEPTH_TEXTURE and COLOR_ATTACHMENT. */
#define VG_ARRAY_FLAGS (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | \
			CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER | \
			CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | \
			CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)
#define VG_LAYERS (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)

/* A sparse tile, and what deferred mapping aligns to: 64 KiB. */
#define VG_TILE (64u << 10)

/*
 * The memory of an array, or of all levels of a mipmapped array. It is
 * freed once the handle is dead and nothing holds it, or with its context.
 */
struct vg_texels {
	struct CUctx_st *ctx;	/* NULL once it closed: the memory went */
	CUdeviceptr va;
	unsigned int refs;	/* of vg_array_ref() and vg_mipmap_ref() */
	bool dead;		/* destroyed, or its context closed */
};

struct CUarray_st {
	struct CUarray_st *next;	/* vg_arrays (not a level) */
	CUDA_ARRAY3D_DESCRIPTOR d;	/* as created; a level's own sizes */
	CUdeviceptr addr;		/* its first texel */
	struct CUmipmappedArray_st *mip;	/* a level's owner, or NULL */
	struct vg_texels mem;		/* a plain array's */
};

struct CUmipmappedArray_st {
	struct CUmipmappedArray_st *next;	/* vg_mipmaps */
	CUDA_ARRAY3D_DESCRIPTOR d;	/* level 0's */
	unsigned int levels;
	struct vg_texels mem;
	struct CUarray_st level[];	/* each level's handle */
};

/* Every array and mipmapped array not yet freed. */
static struct CUarray_st *vg_arrays;
static struct CUmipmappedArray_st *vg_mipmaps;

/*
 * The bytes of a texel of format @f with @ch channels (of a 4x4 block for
 * the compressed formats: *@block), or 0 where an H100 refuses the pair:
 * the plain formats take 1, 2 or 4 channels, the normalized and
 * compressed ones exactly their own count (vg_texture_channels()), and
 * the video formats none (NV12 is refused with any count there).
 */
static unsigned int vg_texel_bytes(CUarray_format f, unsigned int ch,
				   bool *block)
{
	unsigned int size;

	*block = false;
	if (ch > 4 || !(vg_texture_channels(f) & 1u << ch))
		return 0;
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8:
	case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_UNORM_INT8X2:
	case CU_AD_FORMAT_UNORM_INT8X4: case CU_AD_FORMAT_SNORM_INT8X1:
	case CU_AD_FORMAT_SNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X4:
		size = 1;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
	case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_UNORM_INT16X2:
	case CU_AD_FORMAT_UNORM_INT16X4: case CU_AD_FORMAT_SNORM_INT16X1:
	case CU_AD_FORMAT_SNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X4:
		size = 2;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT:
		size = 4;
		break;
	case CU_AD_FORMAT_BC1_UNORM: case CU_AD_FORMAT_BC1_UNORM_SRGB:
	case CU_AD_FORMAT_BC4_UNORM: case CU_AD_FORMAT_BC4_SNORM:
		*block = true;
		return 8;
	case CU_AD_FORMAT_BC2_UNORM: case CU_AD_FORMAT_BC2_UNORM_SRGB:
	case CU_AD_FORMAT_BC3_UNORM: case CU_AD_FORMAT_BC3_UNORM_SRGB:
	case CU_AD_FORMAT_BC5_UNORM: case CU_AD_FORMAT_BC5_SNORM:
	case CU_AD_FORMAT_BC6H_UF16: case CU_AD_FORMAT_BC6H_SF16:
	case CU_AD_FORMAT_BC7_UNORM: case CU_AD_FORMAT_BC7_UNORM_SRGB:
		*block = true;
		return 16;
	default:
		return 0;
	}
	return size * ch;
}

/*
 * Does an H100 make an array of @d? Its limits (the texture ones; the
 * surface ones where SURFACE_LDST asks for less): 1D 131072 (surface
 * 32768), 2D 131072 x 65536 (gather 32768 x 32768, 2D only), 3D 16384^3
 * or 8192 x 8192 x 32768, layered 1D 32768 x 2048 layers, layered 2D
 * 32768 x 32768 x 2048, a cubemap 32768 square with 6 faces, a layered
 * one up to 2046 faces, a multiple of 6.
 */
static bool vg_desc_valid(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	size_t w = d->Width, h = d->Height, n = d->Depth;
	unsigned int f = d->Flags;
	bool gather = f & CUDA_ARRAY3D_TEXTURE_GATHER;
	bool block;

	if ((f & ~(unsigned int)VG_ARRAY_FLAGS) || !w ||
	    !vg_texel_bytes(d->Format, d->NumChannels, &block))
		return false;
	if (f & CUDA_ARRAY3D_CUBEMAP) {
		if (gather || w != h || w > 32768)
			return false;
		if (f & CUDA_ARRAY3D_LAYERED)
			return n && n % 6 == 0 && n <= 2046;
		return n == 6;
	}
	if (f & CUDA_ARRAY3D_LAYERED)
		return !gather && n && n <= 2048 && w <= 32768 && h <= 32768;
	if (n) {
		if (!h || gather)
			return false;
		if (w <= 16384 && h <= 16384 && n <= 16384)
			return true;
		return !(f & CUDA_ARRAY3D_SURFACE_LDST) && w <= 8192 &&
		       h <= 8192 && n <= 32768;
	}
	if (h)
		return gather ? w <= 32768 && h <= 32768 :
			w <= 131072 && h <= 65536;
	return !gather && w <= (f & CUDA_ARRAY3D_SURFACE_LDST ? 32768 : 131072);
}

/* Level @l of @d: sizes halved @l times, not below 1; layers stay. */
static CUDA_ARRAY3D_DESCRIPTOR vg_level_desc(const CUDA_ARRAY3D_DESCRIPTOR *d,
					     unsigned int l)
{
	CUDA_ARRAY3D_DESCRIPTOR ld = *d;

	ld.Width = d->Width >> l ? d->Width >> l : 1;
	if (d->Height)
		ld.Height = d->Height >> l ? d->Height >> l : 1;
	if (d->Depth && !(d->Flags & VG_LAYERS))
		ld.Depth = d->Depth >> l ? d->Depth >> l : 1;
	return ld;
}

/* A level in memory: bytes of a row, rows of a slice, slices. */
struct vg_geom {
	size_t row, rows, slices;
};

static struct vg_geom vg_geom(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	size_t w = d->Width, h = d->Height ? d->Height : 1;
	bool block;
	unsigned int b = vg_texel_bytes(d->Format, d->NumChannels, &block);

	if (block) {
		w = (w + 3) / 4;
		h = (h + 3) / 4;
	}
	return (struct vg_geom){ w * b, h, d->Depth ? d->Depth : 1 };
}

/*
 * Bytes from level 0's first texel to level @l's (@l the level count: the
 * size of them all). The limits keep it far from overflowing.
 */
static size_t vg_level_offset(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int l)
{
	CUDA_ARRAY3D_DESCRIPTOR ld;
	struct vg_geom g;
	size_t off = 0;
	unsigned int i;

	for (i = 0; i < l; i++) {
		ld = vg_level_desc(d, i);
		g = vg_geom(&ld);
		off += g.row * g.rows * g.slices;
	}
	return off;
}

/* 1 + floor(log2 of the largest size): the levels @d can have. */
static unsigned int vg_levels_max(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	size_t m = d->Width > d->Height ? d->Width : d->Height;
	unsigned int n = 1;

	if (!(d->Flags & VG_LAYERS) && d->Depth > m)
		m = d->Depth;
	while (m >>= 1)
		n++;
	return n;
}

/* @a if it is a live array or a live mipmapped array's level. */
static struct CUarray_st *vg_array_find(CUarray a)
{
	struct CUmipmappedArray_st *m;
	struct CUarray_st *x;
	unsigned int i;

	for (x = vg_arrays; x; x = x->next)
		if (x == a)
			return x->mem.dead ? NULL : x;
	for (m = vg_mipmaps; m; m = m->next)
		for (i = 0; i < m->levels; i++)
			if (&m->level[i] == a)
				return m->mem.dead ? NULL : a;
	return NULL;
}

/* As an H100 answers for a handle: NULL, or not a live array. */
static CUresult vg_array_get(CUarray h, struct CUarray_st **pa)
{
	if (!h)
		return CUDA_ERROR_INVALID_HANDLE;
	*pa = vg_array_find(h);
	return *pa ? CUDA_SUCCESS : CUDA_ERROR_CONTEXT_IS_DESTROYED;
}

static CUresult vg_mipmap_get(CUmipmappedArray h,
			      struct CUmipmappedArray_st **pm)
{
	struct CUmipmappedArray_st *m;

	if (!h)
		return CUDA_ERROR_INVALID_HANDLE;
	for (m = vg_mipmaps; m && m != h; m = m->next)
		;
	*pm = m && !m->mem.dead ? m : NULL;
	return *pm ? CUDA_SUCCESS : CUDA_ERROR_CONTEXT_IS_DESTROYED;
}

/* Allocates @bytes for @t in the current context. */
static CUresult vg_texels_alloc(struct vg_texels *t, size_t bytes)
{
	struct CUctx_st *ctx;
	CUresult r = vg_current_open(&ctx);

	if (r == CUDA_SUCCESS)
		r = vg_mem_alloc_in(ctx, &t->va, bytes);
	if (r == CUDA_SUCCESS)
		t->ctx = ctx;
	return r;
}

/* Frees @t's memory, if its context still has it; releases vg_lock. */
static void vg_texels_free(struct vg_texels *t)
{
	if (t->ctx)
		vg_mem_free_in(t->ctx, t->va);
	else
		pthread_mutex_unlock(&vg_lock);
}

/* Frees @a once nothing keeps it; with vg_lock held, which this releases. */
static void vg_array_put(struct CUarray_st *a)
{
	struct CUarray_st **pp;

	if (!a->mem.dead || a->mem.refs) {
		pthread_mutex_unlock(&vg_lock);
		return;
	}
	for (pp = &vg_arrays; *pp != a; pp = &(*pp)->next)
		;
	*pp = a->next;
	vg_texels_free(&a->mem);
	free(a);
}

static void vg_mipmap_put(struct CUmipmappedArray_st *m)
{
	struct CUmipmappedArray_st **pp;

	if (!m->mem.dead || m->mem.refs) {
		pthread_mutex_unlock(&vg_lock);
		return;
	}
	for (pp = &vg_mipmaps; *pp != m; pp = &(*pp)->next)
		;
	*pp = m->next;
	vg_texels_free(&m->mem);
	free(m);
}

/* cuArrayCreate's and cuArray3DCreate's array, in the current context. */
static CUresult vg_array_create(CUarray *pa, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	struct CUarray_st *a;
	struct vg_geom g;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pa || !d || !vg_desc_valid(d))
		return CUDA_ERROR_INVALID_VALUE;
	a = calloc(1, sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a->d = *d;
	g = vg_geom(d);
	pthread_mutex_lock(&vg_lock);
	r = vg_texels_alloc(&a->mem, g.row * g.rows * g.slices);
	if (r == CUDA_SUCCESS) {
		a->addr = a->mem.va;
		a->next = vg_arrays;
		vg_arrays = a;
		*pa = a;
	}
	pthread_mutex_unlock(&vg_lock);
	if (r)
		free(a);
	return r;
}

CUresult cuArrayCreate_v2(CUarray *pa, const CUDA_ARRAY_DESCRIPTOR *d)
{
	CUDA_ARRAY3D_DESCRIPTOR d3 = { 0 };

	if (d) {
		d3.Width = d->Width;
		d3.Height = d->Height;
		d3.Format = d->Format;
		d3.NumChannels = d->NumChannels;
	}
	return vg_array_create(pa, d ? &d3 : NULL);
}

CUresult cuArray3DCreate_v2(CUarray *pa, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	return vg_array_create(pa, d);
}

/*
 * A level's handle belongs to its mipmapped array: destroying it answers
 * success, as on an H100, and leaves it be.
 */
CUresult cuArrayDestroy(CUarray h)
{
	struct CUarray_st *a;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_array_get(h, &a);
	if (r || a->mip) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	a->mem.dead = true;
	vg_array_put(a);
	return CUDA_SUCCESS;
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray h)
{
	struct CUarray_st *a;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_array_get(h, &a);
	if (r == CUDA_SUCCESS)
		*d = a->d;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* Of any array: a 3D one's width and height, as on an H100. */
CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *d, CUarray h)
{
	CUDA_ARRAY3D_DESCRIPTOR d3;
	CUresult r = cuArray3DGetDescriptor_v2(d ? &d3 : NULL, h);

	if (r)
		return r;
	d->Width = d3.Width;
	d->Height = d3.Height;
	d->Format = d3.Format;
	d->NumChannels = d3.NumChannels;
	return CUDA_SUCCESS;
}

/*
 * What @d's memory would take, with @levels levels, were it mapped later
 * (vgpu allocates it at once all the same): only an array made with
 * CUDA_ARRAY3D_DEFERRED_MAPPING answers, as on an H100, and only for its
 * own device. The H100's sizes and alignments are its own.
 */
static CUresult vg_mem_req(const CUDA_ARRAY3D_DESCRIPTOR *d,
			   unsigned int levels, const struct vg_texels *t,
			   CUdevice dev, CUDA_ARRAY_MEMORY_REQUIREMENTS *req)
{
	size_t size = vg_level_offset(d, levels);

	if (!(d->Flags & CUDA_ARRAY3D_DEFERRED_MAPPING))
		return CUDA_ERROR_INVALID_VALUE;
	if (vg_check_device(dev) || dev != t->ctx->dev)
		return CUDA_ERROR_INVALID_DEVICE;
	memset(req, 0, sizeof(*req));
	req->size = (size + VG_TILE - 1) / VG_TILE * VG_TILE;
	req->alignment = VG_TILE;
	return CUDA_SUCCESS;
}

CUresult cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *req,
				      CUarray h, CUdevice dev)
{
	struct CUarray_st *a;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!req)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_array_get(h, &a);
	if (r == CUDA_SUCCESS)
		r = vg_mem_req(&a->d, 1, a->mip ? &a->mip->mem : &a->mem, dev,
			       req);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMipmappedArrayGetMemoryRequirements(
	CUDA_ARRAY_MEMORY_REQUIREMENTS *req, CUmipmappedArray h, CUdevice dev)
{
	struct CUmipmappedArray_st *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!req)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_mipmap_get(h, &m);
	if (r == CUDA_SUCCESS)
		r = vg_mem_req(&m->d, m->levels, &m->mem, dev, req);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * The tiles of a sparse array of @d with @levels levels: 64 KiB each, in
 * the shapes of the usual standard swizzle (by texel size: 2D 256 x 256
 * bytes wide, halving the height, then the width, as texels grow; 3D 64 x
 * 32 x 32 the same way), and the levels smaller than a tile in the mip
 * tail. vgpu backs sparse arrays fully: nothing is mapped tile by tile.
 */
static CUresult vg_sparse(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int levels,
			  CUDA_ARRAY_SPARSE_PROPERTIES *sp)
{
	static const unsigned int w2[] = { 256, 256, 128, 128, 64 };
	static const unsigned int h2[] = { 256, 128, 128, 64, 64 };
	static const unsigned int w3[] = { 64, 32, 32, 32, 16 };
	static const unsigned int h3[] = { 32, 32, 32, 16, 16 };
	static const unsigned int d3[] = { 32, 32, 16, 16, 16 };
	bool block, is3d = d->Depth && !(d->Flags & VG_LAYERS);
	unsigned int b = vg_texel_bytes(d->Format, d->NumChannels, &block);
	unsigned int s = 0, tw, th = 1, td = 1, l;
	CUDA_ARRAY3D_DESCRIPTOR ld;
	size_t tail;

	if (!(d->Flags & CUDA_ARRAY3D_SPARSE))
		return CUDA_ERROR_INVALID_VALUE;
	while (1u << s < b)
		s++;
	if (!d->Height) {
		tw = VG_TILE / b;
	} else if (is3d) {
		tw = w3[s];
		th = h3[s];
		td = d3[s];
	} else {
		tw = w2[s];
		th = h2[s];
	}
	if (block) {
		tw *= 4;
		th *= 4;
	}
	for (l = 0; l < levels; l++) {
		ld = vg_level_desc(d, l);
		if (ld.Width < tw || (ld.Height ? ld.Height : 1) < th ||
		    (is3d && ld.Depth < td))
			break;
	}
	tail = vg_level_offset(d, levels) - vg_level_offset(d, l);
	if (d->Flags & VG_LAYERS)
		tail /= d->Depth;	/* a tail per layer */
	memset(sp, 0, sizeof(*sp));
	sp->tileExtent.width = tw;
	sp->tileExtent.height = th;
	sp->tileExtent.depth = td;
	sp->miptailFirstLevel = l;
	sp->miptailSize = (tail + VG_TILE - 1) / VG_TILE * VG_TILE;
	return CUDA_SUCCESS;
}

CUresult cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sp,
				    CUarray h)
{
	struct CUarray_st *a;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!sp)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_array_get(h, &a);
	if (r == CUDA_SUCCESS)
		r = vg_sparse(&a->d, 1, sp);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sp,
					     CUmipmappedArray h)
{
	struct CUmipmappedArray_st *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!sp)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_mipmap_get(h, &m);
	if (r == CUDA_SUCCESS)
		r = vg_sparse(&m->d, m->levels, sp);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* Planes are those of the video formats, which no array here has. */
CUresult cuArrayGetPlane(CUarray *plane, CUarray h, unsigned int index)
{
	struct CUarray_st *a;
	CUresult r = vg_check_init();

	(void)index;
	if (r)
		return r;
	if (!plane)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_array_get(h, &a);
	pthread_mutex_unlock(&vg_lock);
	return r ? r : CUDA_ERROR_INVALID_VALUE;
}

/*
 * The level count is clamped to [1, 1 + floor(log2(the largest size))],
 * as CUDA documents: an H100 takes 0 and more than the size allows.
 */
CUresult cuMipmappedArrayCreate(CUmipmappedArray *pm,
				const CUDA_ARRAY3D_DESCRIPTOR *d,
				unsigned int levels)
{
	struct CUmipmappedArray_st *m;
	unsigned int n, i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pm || !d || !vg_desc_valid(d))
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_levels_max(d);
	if (levels < n)
		n = levels ? levels : 1;
	m = calloc(1, sizeof(*m) + n * sizeof(m->level[0]));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->d = *d;
	m->levels = n;
	pthread_mutex_lock(&vg_lock);
	r = vg_texels_alloc(&m->mem, vg_level_offset(d, n));
	if (r == CUDA_SUCCESS) {
		for (i = 0; i < n; i++) {
			m->level[i].d = vg_level_desc(d, i);
			m->level[i].addr = m->mem.va + vg_level_offset(d, i);
			m->level[i].mip = m;
		}
		m->next = vg_mipmaps;
		vg_mipmaps = m;
		*pm = m;
	}
	pthread_mutex_unlock(&vg_lock);
	if (r)
		free(m);
	return r;
}

/* The same handle each time, the mipmapped array's. */
CUresult cuMipmappedArrayGetLevel(CUarray *pa, CUmipmappedArray h,
				  unsigned int level)
{
	struct CUmipmappedArray_st *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pa)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_mipmap_get(h, &m);
	if (r == CUDA_SUCCESS && level >= m->levels)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*pa = &m->level[level];
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray h)
{
	struct CUmipmappedArray_st *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_mipmap_get(h, &m);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	m->mem.dead = true;
	vg_mipmap_put(m);
	return CUDA_SUCCESS;
}

/* The context is closing, under vg_lock: its arrays' memory went with it. */
void vg_arrays_ctx_close(struct CUctx_st *ctx)
{
	struct CUmipmappedArray_st **mp = &vg_mipmaps, *m;
	struct CUarray_st **pp = &vg_arrays, *a;

	while ((a = *pp)) {
		if (a->mem.ctx == ctx) {
			a->mem.ctx = NULL;
			a->mem.dead = true;
		}
		if (a->mem.dead && !a->mem.refs && !a->mem.ctx) {
			*pp = a->next;
			free(a);
		} else {
			pp = &a->next;
		}
	}
	while ((m = *mp)) {
		if (m->mem.ctx == ctx) {
			m->mem.ctx = NULL;
			m->mem.dead = true;
		}
		if (m->mem.dead && !m->mem.refs && !m->mem.ctx) {
			*mp = m->next;
			free(m);
		} else {
			mp = &m->next;
		}
	}
}

/*
 * What the texture unit reads of an array of @d (a level's, or level 0's
 * of @levels), at @addr. The compressed formats it cannot read: for
 * those, CUDA_ERROR_NOT_SUPPORTED.
 */
static CUresult vg_info_fill(const CUDA_ARRAY3D_DESCRIPTOR *d, CUdeviceptr addr,
			     unsigned int levels, struct CUctx_st *ctx,
			     struct vg_array_info *info)
{
	unsigned int f = d->Flags;

	memset(info, 0, sizeof(*info));
	switch (d->Format) {
	case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_UNORM_INT8X2:
	case CU_AD_FORMAT_UNORM_INT8X4:
		info->norm = true;
		/* fall through */
	case CU_AD_FORMAT_UNSIGNED_INT8:
		info->format = VGPU_TEXF_U8;
		break;
	case CU_AD_FORMAT_SNORM_INT8X1: case CU_AD_FORMAT_SNORM_INT8X2:
	case CU_AD_FORMAT_SNORM_INT8X4:
		info->norm = true;
		/* fall through */
	case CU_AD_FORMAT_SIGNED_INT8:
		info->format = VGPU_TEXF_S8;
		break;
	case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_UNORM_INT16X2:
	case CU_AD_FORMAT_UNORM_INT16X4:
		info->norm = true;
		/* fall through */
	case CU_AD_FORMAT_UNSIGNED_INT16:
		info->format = VGPU_TEXF_U16;
		break;
	case CU_AD_FORMAT_SNORM_INT16X1: case CU_AD_FORMAT_SNORM_INT16X2:
	case CU_AD_FORMAT_SNORM_INT16X4:
		info->norm = true;
		/* fall through */
	case CU_AD_FORMAT_SIGNED_INT16:
		info->format = VGPU_TEXF_S16;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT32:
		info->format = VGPU_TEXF_U32;
		break;
	case CU_AD_FORMAT_SIGNED_INT32:
		info->format = VGPU_TEXF_S32;
		break;
	case CU_AD_FORMAT_HALF:
		info->format = VGPU_TEXF_F16;
		break;
	case CU_AD_FORMAT_FLOAT:
		info->format = VGPU_TEXF_F32;
		break;
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if ((f & CUDA_ARRAY3D_CUBEMAP) && (f & CUDA_ARRAY3D_LAYERED))
		info->kind = VGPU_TEXK_CUBE_LAYERED;
	else if (f & CUDA_ARRAY3D_CUBEMAP)
		info->kind = VGPU_TEXK_CUBE;
	else if (f & CUDA_ARRAY3D_LAYERED)
		info->kind = d->Height ? VGPU_TEXK_2D_LAYERED :
			VGPU_TEXK_1D_LAYERED;
	else if (d->Depth)
		info->kind = VGPU_TEXK_3D;
	else
		info->kind = d->Height ? VGPU_TEXK_2D : VGPU_TEXK_1D;
	info->addr = addr;
	info->channels = (uint8_t)d->NumChannels;
	info->levels = (uint8_t)levels;
	info->width = (uint32_t)d->Width;
	info->height = d->Height ? (uint32_t)d->Height : 1;
	info->depth = d->Depth ? (uint32_t)d->Depth : 1;
	info->flags = f;
	info->cu_format = d->Format;
	info->cu_channels = d->NumChannels;
	info->ctx = ctx;
	return CUDA_SUCCESS;
}

/* A level's handle is an array of one level, at that level. */
CUresult vg_array_info_locked(CUarray h, struct vg_array_info *info)
{
	struct CUarray_st *a;
	CUresult r = vg_array_get(h, &a);

	if (r == CUDA_SUCCESS)
		r = vg_info_fill(&a->d, a->addr, 1,
				 a->mip ? a->mip->mem.ctx : a->mem.ctx, info);
	return r;
}

CUresult vg_array_info(CUarray h, struct vg_array_info *info)
{
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_array_info_locked(h, info);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult vg_mipmap_info_locked(CUmipmappedArray h, struct vg_array_info *info)
{
	struct CUmipmappedArray_st *m;
	CUresult r = vg_mipmap_get(h, &m);

	if (r == CUDA_SUCCESS)
		r = vg_info_fill(&m->d, m->mem.va, m->levels, m->mem.ctx, info);
	return r;
}

CUresult vg_mipmap_info(CUmipmappedArray h, struct vg_array_info *info)
{
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_mipmap_info_locked(h, info);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* A level's reference holds its mipmapped array. */
CUresult vg_array_ref_locked(CUarray h)
{
	struct CUarray_st *a;
	CUresult r = vg_array_get(h, &a);

	if (r == CUDA_SUCCESS)
		(a->mip ? &a->mip->mem : &a->mem)->refs++;
	return r;
}

CUresult vg_array_ref(CUarray h)
{
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_array_ref_locked(h);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* @h is alive, or kept by the reference dropped here. */
void vg_array_unref(CUarray h)
{
	struct CUarray_st *a = h;

	pthread_mutex_lock(&vg_lock);
	if (a->mip) {
		a->mip->mem.refs--;
		vg_mipmap_put(a->mip);
	} else {
		a->mem.refs--;
		vg_array_put(a);
	}
}

CUresult vg_mipmap_ref_locked(CUmipmappedArray h)
{
	struct CUmipmappedArray_st *m;
	CUresult r = vg_mipmap_get(h, &m);

	if (r == CUDA_SUCCESS)
		m->mem.refs++;
	return r;
}

CUresult vg_mipmap_ref(CUmipmappedArray h)
{
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_mipmap_ref_locked(h);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

void vg_mipmap_unref(CUmipmappedArray h)
{
	pthread_mutex_lock(&vg_lock);
	h->mem.refs--;
	vg_mipmap_put(h);
}

/*
 * Drops a reference with vg_lock held, freeing nothing: for a reference
 * taken under the same hold, or as @h's context closes, when its memory
 * goes with the context and vg_arrays_ctx_close(), which runs next, frees
 * the records nothing holds any more.
 */
void vg_array_unref_locked(CUarray h)
{
	struct CUarray_st *a = h;

	(a->mip ? &a->mip->mem : &a->mem)->refs--;
}

void vg_mipmap_unref_locked(CUmipmappedArray h)
{
	h->mem.refs--;
}

/*
 * Where a copy's range of live array @h lies. A handle that names no live
 * array is refused: NVIDIA's driver dies of SIGSEGV on a copy to a
 * destroyed array (tests/e2e/ref/h100_array.c), vgpu answers
 * CUDA_ERROR_INVALID_VALUE, as for a NULL one.
 */
CUresult vg_array_side(CUarray h, size_t x, size_t y, size_t z, size_t width,
		       size_t height, size_t depth, CUdeviceptr *addr,
		       size_t *pitch, size_t *rows)
{
	struct CUarray_st *a;
	struct vg_geom g;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_lock);
	a = h ? vg_array_find(h) : NULL;
	if (a) {
		g = vg_geom(&a->d);
		if (width <= g.row && x <= g.row - width &&
		    height <= g.rows && y <= g.rows - height &&
		    depth <= g.slices && z <= g.slices - depth) {
			*addr = a->addr;
			*pitch = g.row;
			*rows = g.rows;
			r = CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}
