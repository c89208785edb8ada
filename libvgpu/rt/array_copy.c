// SPDX-License-Identifier: MIT
/*
 * Copies to, from and between CUDA arrays: the 2D calls (a box of rows,
 * X in bytes, Y in rows of the array's first slice), the older 1D calls
 * (a run of bytes from a byte and row on, through as many rows as it
 * takes), their asynchronous and per-thread-stream forms. Each becomes
 * one or a few of the driver's 2D copies with an array side; linear
 * memory is of any kind (unified addressing tells them apart).
 *
 * The kind says where the linear side is; an array side is the device's,
 * and a kind that puts it on the host is refused with
 * cudaErrorInvalidMemcpyDirection, as NVIDIA's runtime refuses a copy to
 * an array from host to host, or between arrays from host to device
 * (tests/samples/rt/ref/h100_rt_texture.log). A NULL array is a bad
 * handle there.
 */
#include <string.h>

#include "rt.h"

/* One side of a copy: an array at (x bytes, row y), or linear memory. */
struct rt_side {
	bool is_array;
	CUarray array;		/* NULL is refused by the driver */
	CUdeviceptr ptr;
	size_t pitch;		/* linear memory's */
	size_t x, y;		/* an array's */
	size_t row, rows;	/* an array's bytes a row, rows (rt_run()) */
};

static struct rt_side rt_array_side(cudaArray_const_t a, size_t x, size_t y)
{
	return (struct rt_side){ .is_array = true, .array = (CUarray)a,
				 .x = x, .y = y };
}

static struct rt_side rt_linear_side(const void *p, size_t pitch)
{
	return (struct rt_side){ .ptr = (CUdeviceptr)(uintptr_t)p,
				 .pitch = pitch };
}

static cudaError_t rt_kind_check(enum cudaMemcpyKind kind,
				 const struct rt_side *dst,
				 const struct rt_side *src)
{
	bool dst_host = kind == cudaMemcpyHostToHost ||
			kind == cudaMemcpyDeviceToHost;
	bool src_host = kind == cudaMemcpyHostToHost ||
			kind == cudaMemcpyHostToDevice;

	switch (kind) {
	case cudaMemcpyHostToHost: case cudaMemcpyHostToDevice:
	case cudaMemcpyDeviceToHost: case cudaMemcpyDeviceToDevice:
	case cudaMemcpyDefault:
		break;
	default:
		return cudaErrorInvalidMemcpyDirection;
	}
	if ((dst->is_array && dst_host) || (src->is_array && src_host))
		return cudaErrorInvalidMemcpyDirection;
	if ((dst->is_array && !dst->array) || (src->is_array && !src->array))
		return cudaErrorInvalidResourceHandle;
	return cudaSuccess;
}

/*
 * No linear side may be NULL, and one the kind says is the device's must
 * be memory a device knows (as rt_copy_check() holds plain copies to).
 */
static cudaError_t rt_sides_check(const struct rt_side *dst,
				  const struct rt_side *src,
				  enum cudaMemcpyKind kind)
{
	bool dst_dev = kind == cudaMemcpyHostToDevice ||
		       kind == cudaMemcpyDeviceToDevice;
	bool src_dev = kind == cudaMemcpyDeviceToHost ||
		       kind == cudaMemcpyDeviceToDevice;

	if ((!dst->is_array && !dst->ptr) || (!src->is_array && !src->ptr))
		return cudaErrorInvalidValue;
	if ((!dst->is_array && dst_dev &&
	     !rt_known_to_device((void *)(uintptr_t)dst->ptr)) ||
	    (!src->is_array && src_dev &&
	     !rt_known_to_device((void *)(uintptr_t)src->ptr)))
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

/* The driver's 2D copy of @width bytes x @height rows. */
static cudaError_t rt_copy2d(const struct rt_side *dst,
			     const struct rt_side *src, size_t width,
			     size_t height, bool async, cudaStream_t stream)
{
	CUDA_MEMCPY2D c;

	memset(&c, 0, sizeof(c));
	if (src->is_array) {
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = src->array;
		c.srcXInBytes = src->x;
		c.srcY = src->y;
	} else {
		c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
		c.srcDevice = src->ptr;
		c.srcPitch = src->pitch;
	}
	if (dst->is_array) {
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = dst->array;
		c.dstXInBytes = dst->x;
		c.dstY = dst->y;
	} else {
		c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
		c.dstDevice = dst->ptr;
		c.dstPitch = dst->pitch;
	}
	c.WidthInBytes = width;
	c.Height = height;
	if (async)
		return rt_error(cuMemcpy2DAsync(&c, (CUstream)stream));
	return rt_error(cuMemcpy2D(&c));
}

static cudaError_t rt_memcpy2d_array(struct rt_side dst, struct rt_side src,
				     size_t width, size_t height,
				     enum cudaMemcpyKind kind, bool async,
				     cudaStream_t stream)
{
	cudaError_t e = rt_kind_check(kind, &dst, &src);

	if (e)
		return e;
	if ((!dst.is_array && width > dst.pitch) ||
	    (!src.is_array && width > src.pitch))
		return cudaErrorInvalidPitchValue;
	e = rt_enter();
	if (e || !width || !height)
		return e;
	e = rt_sides_check(&dst, &src, kind);
	if (e)
		return e;
	return rt_copy2d(&dst, &src, width, height, async, stream);
}

/*
 * Where an array side of a run of @count bytes starts: a byte offset past
 * a row's end goes on into the rows below (an H100's runtime copies to
 * byte 16 of a 16-byte row); the run must end within the first slice,
 * else cudaErrorInvalidValue before anything moves.
 */
static cudaError_t rt_run_side(struct rt_side *s, size_t count)
{
	size_t elem, start, end;
	cudaError_t e;

	if (!s->is_array)
		return cudaSuccess;
	e = rt_array_shape((cudaArray_const_t)s->array, &elem, &s->row,
			   &s->rows);
	if (e)
		return e;
	if (s->row) {
		s->y += s->x / s->row;
		s->x %= s->row;
	}
	if (s->x >= s->row || s->y >= s->rows ||
	    __builtin_mul_overflow(s->y, s->row, &start) ||
	    __builtin_add_overflow(start + s->x, count, &end) ||
	    end > s->row * s->rows)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

/* Moves side @s on by @n bytes a row over @h rows. */
static void rt_run_advance(struct rt_side *s, size_t n, size_t h)
{
	if (!s->is_array) {
		s->ptr += n * h;
		return;
	}
	s->x += n;
	s->y += h - 1;
	if (s->x == s->row) {
		s->x = 0;
		s->y++;
	}
}

/*
 * @count bytes through the rows of the array sides as if they were one
 * run of memory: to the end of a row, then whole rows at once where
 * both sides allow, then the start of a last row.
 */
static cudaError_t rt_run(struct rt_side dst, struct rt_side src,
			  size_t count, enum cudaMemcpyKind kind, bool async,
			  cudaStream_t stream)
{
	cudaError_t e;
	size_t n, h, row;

	/* Nothing to copy is no error, whatever the arguments (as cudaMemcpy). */
	if (!count)
		return cudaSuccess;
	e = rt_kind_check(kind, &dst, &src);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e == cudaSuccess)
		e = rt_sides_check(&dst, &src, kind);
	if (e == cudaSuccess)
		e = rt_run_side(&dst, count);
	if (e == cudaSuccess)
		e = rt_run_side(&src, count);
	while (e == cudaSuccess && count) {
		row = dst.is_array ? dst.row : src.row;
		h = 1;
		if ((!dst.is_array || !dst.x) && (!src.is_array || !src.x) &&
		    (!dst.is_array || !src.is_array || dst.row == src.row) &&
		    count >= row) {
			n = row;
			h = count / row;
		} else {
			n = count;
			if (dst.is_array && n > dst.row - dst.x)
				n = dst.row - dst.x;
			if (src.is_array && n > src.row - src.x)
				n = src.row - src.x;
		}
		if (!dst.is_array)
			dst.pitch = n;
		if (!src.is_array)
			src.pitch = n;
		e = rt_copy2d(&dst, &src, n, h, async, stream);
		rt_run_advance(&dst, n, h);
		rt_run_advance(&src, n, h);
		count -= n * h;
	}
	return e;
}

/* --- the 2D calls --- */

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_off, size_t h_off,
				const void *src, size_t spitch, size_t width,
				size_t height, enum cudaMemcpyKind kind)
{
	return rt_ret(rt_memcpy2d_array(rt_array_side(dst, w_off, h_off),
					rt_linear_side(src, spitch), width,
					height, kind, false, NULL));
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
				  cudaArray_const_t src, size_t w_off,
				  size_t h_off, size_t width, size_t height,
				  enum cudaMemcpyKind kind)
{
	return rt_ret(rt_memcpy2d_array(rt_linear_side(dst, dpitch),
					rt_array_side(src, w_off, h_off),
					width, height, kind, false, NULL));
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t w_off_dst,
				     size_t h_off_dst, cudaArray_const_t src,
				     size_t w_off_src, size_t h_off_src,
				     size_t width, size_t height,
				     enum cudaMemcpyKind kind)
{
	return rt_ret(rt_memcpy2d_array(rt_array_side(dst, w_off_dst, h_off_dst),
					rt_array_side(src, w_off_src, h_off_src),
					width, height, kind, false, NULL));
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t w_off,
				     size_t h_off, const void *src,
				     size_t spitch, size_t width,
				     size_t height, enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	return rt_ret(rt_memcpy2d_array(rt_array_side(dst, w_off, h_off),
					rt_linear_side(src, spitch), width,
					height, kind, true, stream));
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t w_off,
				       size_t h_off, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       cudaStream_t stream)
{
	return rt_ret(rt_memcpy2d_array(rt_linear_side(dst, dpitch),
					rt_array_side(src, w_off, h_off),
					width, height, kind, true, stream));
}

/* --- the 1D calls (deprecated, still exported) --- */

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_off, size_t h_off,
			      const void *src, size_t count,
			      enum cudaMemcpyKind kind)
{
	return rt_ret(rt_run(rt_array_side(dst, w_off, h_off),
			     rt_linear_side(src, 0), count, kind, false,
			     NULL));
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
				size_t w_off, size_t h_off, size_t count,
				enum cudaMemcpyKind kind)
{
	return rt_ret(rt_run(rt_linear_side(dst, 0),
			     rt_array_side(src, w_off, h_off), count, kind,
			     false, NULL));
}

cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t w_off_dst,
				   size_t h_off_dst, cudaArray_const_t src,
				   size_t w_off_src, size_t h_off_src,
				   size_t count, enum cudaMemcpyKind kind)
{
	return rt_ret(rt_run(rt_array_side(dst, w_off_dst, h_off_dst),
			     rt_array_side(src, w_off_src, h_off_src), count,
			     kind, false, NULL));
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t w_off,
				   size_t h_off, const void *src,
				   size_t count, enum cudaMemcpyKind kind,
				   cudaStream_t stream)
{
	return rt_ret(rt_run(rt_array_side(dst, w_off, h_off),
			     rt_linear_side(src, 0), count, kind, true,
			     stream));
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src,
				     size_t w_off, size_t h_off, size_t count,
				     enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	return rt_ret(rt_run(rt_linear_side(dst, 0),
			     rt_array_side(src, w_off, h_off), count, kind,
			     true, stream));
}

/*
 * --default-stream per-thread forms: stream 0 is the thread's own, and
 * the synchronous calls wait for it.
 */
static cudaError_t rt_ptds_wait(cudaError_t e)
{
	if (e == cudaSuccess)
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t w_off,
				     size_t h_off, const void *src,
				     size_t spitch, size_t width,
				     size_t height, enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(rt_memcpy2d_array(rt_array_side(dst, w_off, h_off),
					      rt_linear_side(src, spitch),
					      width, height, kind, true,
					      cudaStreamPerThread));
}

cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t w_off,
				       size_t h_off, size_t width,
				       size_t height, enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(rt_memcpy2d_array(rt_linear_side(dst, dpitch),
					      rt_array_side(src, w_off, h_off),
					      width, height, kind, true,
					      cudaStreamPerThread));
}

cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t w_off_dst,
					  size_t h_off_dst,
					  cudaArray_const_t src,
					  size_t w_off_src, size_t h_off_src,
					  size_t width, size_t height,
					  enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(rt_memcpy2d_array(
		rt_array_side(dst, w_off_dst, h_off_dst),
		rt_array_side(src, w_off_src, h_off_src), width, height, kind,
		true, cudaStreamPerThread));
}

cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t w_off,
				   size_t h_off, const void *src,
				   size_t count, enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(rt_run(rt_array_side(dst, w_off, h_off),
				   rt_linear_side(src, 0), count, kind, true,
				   cudaStreamPerThread));
}

cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src,
				     size_t w_off, size_t h_off, size_t count,
				     enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(rt_run(rt_linear_side(dst, 0),
				   rt_array_side(src, w_off, h_off), count,
				   kind, true, cudaStreamPerThread));
}

cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t w_off_dst,
					size_t h_off_dst,
					cudaArray_const_t src,
					size_t w_off_src, size_t h_off_src,
					size_t count, enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(rt_run(rt_array_side(dst, w_off_dst, h_off_dst),
				   rt_array_side(src, w_off_src, h_off_src),
				   count, kind, true, cudaStreamPerThread));
}

cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t w_off,
					  size_t h_off, const void *src,
					  size_t spitch, size_t width,
					  size_t height,
					  enum cudaMemcpyKind kind,
					  cudaStream_t stream)
{
	return cudaMemcpy2DToArrayAsync(dst, w_off, h_off, src, spitch, width,
					height, kind,
					stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
					    cudaArray_const_t src,
					    size_t w_off, size_t h_off,
					    size_t width, size_t height,
					    enum cudaMemcpyKind kind,
					    cudaStream_t stream)
{
	return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, w_off, h_off,
					  width, height, kind,
					  stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t w_off,
					size_t h_off, const void *src,
					size_t count, enum cudaMemcpyKind kind,
					cudaStream_t stream)
{
	return rt_ret(rt_run(rt_array_side(dst, w_off, h_off),
			     rt_linear_side(src, 0), count, kind, true,
			     stream ? stream : cudaStreamPerThread));
}

cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src,
					  size_t w_off, size_t h_off,
					  size_t count,
					  enum cudaMemcpyKind kind,
					  cudaStream_t stream)
{
	return rt_ret(rt_run(rt_linear_side(dst, 0),
			     rt_array_side(src, w_off, h_off), count, kind,
			     true, stream ? stream : cudaStreamPerThread));
}
