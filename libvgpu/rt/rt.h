/* SPDX-License-Identifier: MIT */
/*
 * The runtime layer's internals: the thread's device and last error, the
 * primary context the runtime works in, and what nvcc's host code
 * registered. The runtime is built on libvgpu's public driver API only;
 * its types and prototypes come from the toolkit's public runtime header.
 */
#ifndef VG_RT_H
#define VG_RT_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda.h"
#include <cuda_runtime_api.h>

/* Devices the runtime keeps state for; libvgpu opens no more. */
#define RT_MAX_DEVICES 64

/* --- errors and the per-thread last error (errors.c) --- */

/* The runtime's code for a driver result. */
cudaError_t rt_error(CUresult r);
/* Records @e as the thread's last error unless it is cudaSuccess. */
cudaError_t rt_ret(cudaError_t e);
/* rt_ret(rt_error(@r)). */
cudaError_t rt_ret_cu(CUresult r);
/* rt_ret(cudaErrorNotSupported), for unsupported.c's stubs. */
int rt_not_supported(void);

/* --- the thread's device and its primary context (context.c) --- */

/* The thread's current device (cudaSetDevice's, 0 at first). */
int rt_device(void);
/*
 * Initializes the driver once and makes the primary context of the
 * thread's device current, retaining it for the process the first time
 * (cudaErrorDevicesUnavailable once rt_reset() found it ended).
 * A context made current through the driver API since is left as it is,
 * as NVIDIA's runtime does.
 */
cudaError_t rt_enter(void);
/* Selects @dev for the calling thread (cudaSetDevice without the error). */
cudaError_t rt_select(int dev);
/*
 * @dev's primary context, retained for the process as rt_enter() does,
 * without making it current (the other side of a peer call).
 */
cudaError_t rt_primary(int dev, CUcontext *ctx);
/* cudaErrorInvalidDevice unless @dev names a device of the driver's. */
cudaError_t rt_check_device(int dev);
/*
 * Sets the flags of @dev's primary context (cudaSetDeviceFlags's, checked
 * as it checks them) without the last error.
 */
cudaError_t rt_device_flags(int dev, unsigned int flags);
/*
 * Drops the runtime's hold on @dev's primary context and resets it. If an
 * error had ended the context, the device is unavailable to the runtime
 * from then on (cudaErrorDevicesUnavailable), as on an H100.
 */
cudaError_t rt_reset(int dev);
/* cuInit's result for the process, mapped (0 once the driver works). */
cudaError_t rt_init(void);

/* --- streams (stream.c) --- */

/*
 * The wait that ends a synchronous call of a --default-stream per-thread
 * program, after its work went to the thread's stream: what the driver's
 * own _ptds call would do, so no capture is spoilt that the driver's
 * would leave alone (see stream.c).
 */
cudaError_t rt_ptds_sync(void);

/* --- copies (memory.c) --- */

/* Is @p in memory a device of the process knows (its own or page-locked)? */
bool rt_known_to_device(const void *p);

/*
 * A copy's pointers against its kind, as NVIDIA's runtime checks them:
 * cudaErrorInvalidMemcpyDirection for an unknown kind, cudaErrorInvalidValue
 * for a NULL pointer or a side the kind says is the device's that no
 * device knows (a freed allocation...). Call after rt_enter().
 */
cudaError_t rt_copy_check(void *dst, const void *src,
			  enum cudaMemcpyKind kind);

/* --- arrays, textures and surfaces: the runtime's structs (texdesc.c) --- */

/*
 * The driver's format and channel count for channel descriptor @d:
 * cudaErrorInvalidChannelDescriptor for a kind or bit counts that name
 * none (three channels, channels of different sizes, a gap, 8-bit floats).
 */
cudaError_t rt_format_of(const struct cudaChannelFormatDesc *d,
			 CUarray_format *format, unsigned int *channels);
/* The channel descriptor of @format with @channels ({0, None} if none). */
struct cudaChannelFormatDesc rt_channel_desc(CUarray_format format,
					     unsigned int channels);
/*
 * The bytes of an array element of @format and @channels (of a 4x4 block
 * for the compressed formats), 0 for the video formats.
 */
size_t rt_element_bytes(CUarray_format format, unsigned int channels);
/* cudaErrorInvalidValue for a read mode cudaTextureReadMode lacks. */
cudaError_t rt_tex_desc_to_cu(const struct cudaTextureDesc *t,
			      CUDA_TEXTURE_DESC *c);
void rt_tex_desc_from_cu(const CUDA_TEXTURE_DESC *c, struct cudaTextureDesc *t);
cudaError_t rt_res_desc_to_cu(const struct cudaResourceDesc *r,
			      CUDA_RESOURCE_DESC *c);
void rt_res_desc_from_cu(const CUDA_RESOURCE_DESC *c,
			 struct cudaResourceDesc *r);
void rt_view_desc_to_cu(const struct cudaResourceViewDesc *v,
			CUDA_RESOURCE_VIEW_DESC *c);
void rt_view_desc_from_cu(const CUDA_RESOURCE_VIEW_DESC *c,
			  struct cudaResourceViewDesc *v);

/* --- arrays (array.c) --- */

/*
 * What a copy needs of array @a: the bytes of an element (*@elem), of a
 * row (*@row) and the rows of a slice (*@rows), as the driver lays it out.
 * cudaErrorInvalidValue for a handle that names no live array, or an
 * array of a format without elements (the video formats). Call after
 * rt_enter().
 */
cudaError_t rt_array_shape(cudaArray_const_t a, size_t *elem, size_t *row,
			   size_t *rows);

/* --- external memory (extmem.c) --- */

/*
 * What cudaFree gives the driver for @p: the mapping under a buffer
 * cudaExternalMemoryGetMappedBuffer handed out off the driver's offset
 * grid (forgotten from then on), else @p itself.
 */
CUdeviceptr rt_ext_base(CUdeviceptr p);

/* --- registration (register.c) --- */

struct rt_fatbin;

/* A __global__ function nvcc registered: what __cudaGetKernel hands out. */
struct rt_kernel {
	struct rt_fatbin *fatbin;
	const void *host_fun;		/* the host stub's address */
	char *name;			/* the mangled device name */
	CUfunction fn[RT_MAX_DEVICES];	/* once loaded on each device */
	struct rt_kernel *next;
};

/*
 * The kernel registered for host stub @host_fun, or whose handle
 * (cudaKernel_t) @host_fun is, or NULL.
 */
struct rt_kernel *rt_kernel_by_stub(const void *host_fun);
/*
 * The function @func names on the thread's device, in its current
 * context, loading its module first if needed: a host stub, a runtime
 * kernel handle or a library's kernel (kernel.c). Before the device is
 * looked at: cudaErrorInvalidDeviceFunction for NULL, @unknown for
 * anything else, as CUDA 13 answers on an H100. Enters the runtime.
 */
cudaError_t rt_function(const void *func, cudaError_t unknown,
			CUfunction *fn);
/*
 * The kernel's function in the current context of device @dev, loading
 * its module there first if needed. Call after rt_enter().
 */
cudaError_t rt_kernel_function(struct rt_kernel *k, int dev, CUfunction *fn);
/*
 * The device address and size of the variable registered for host shadow
 * @host_var on device @dev, loading its module first if needed. Call
 * after rt_enter(). cudaErrorInvalidSymbol for an unknown shadow.
 */
cudaError_t rt_var_address(const void *host_var, int dev, CUdeviceptr *dptr,
			   size_t *size);
/*
 * Links the NULL-terminated list of object fatbins an -rdc=true program's
 * link wrapper carries into one module of the current context (rdc.c).
 */
cudaError_t rt_rdc_load(const void *const *fatbins, CUmodule *mod);
/* The driver's form of a launch configuration (launch.c). */
void rt_launch_config(const cudaLaunchConfig_t *config, CUlaunchConfig *c);
/* Forgets the modules loaded on @dev (its primary context was reset). */
void rt_forget_device(int dev);

/* --- graphs (graph_node.c, graph_memcpy.c) --- */

/*
 * The driver's copy for @p, its linear sides of type @src_linear and
 * @dst_linear (memory3d.c). Call after rt_enter().
 */
cudaError_t rt_memcpy3d_desc(const struct cudaMemcpy3DParms *p,
			     CUmemorytype src_linear, CUmemorytype dst_linear,
			     CUDA_MEMCPY3D *c);
/*
 * The address of [@offset, @offset + @count) of the variable @symbol
 * shadows, on the thread's device, for a copy of @kind that @kinds or
 * a device-to-device or default copy names (symbol.c). Enters the runtime.
 */
cudaError_t rt_symbol_range(const void *symbol, size_t count, size_t offset,
			    enum cudaMemcpyKind kind,
			    enum cudaMemcpyKind kinds, CUdeviceptr *dptr);
/*
 * A memcpy node's copy, its linear sides of the memory types @p's kind
 * names (unified for cudaMemcpyDefault): cudaErrorInvalidMemcpyDirection
 * for a kind cudaMemcpyKind lacks. Enters the runtime.
 */
cudaError_t rt_memcpy_node_desc(const struct cudaMemcpy3DParms *p,
				CUDA_MEMCPY3D *c);
/* The same for a linear copy of @count bytes (cudaGraph*1D). */
cudaError_t rt_memcpy1d_node_desc(void *dst, const void *src, size_t count,
				  enum cudaMemcpyKind kind, CUDA_MEMCPY3D *c);
/* The same for a copy to and from a __device__ variable. */
cudaError_t rt_to_symbol_node_desc(const void *symbol, const void *src,
				   size_t count, size_t offset,
				   enum cudaMemcpyKind kind, CUDA_MEMCPY3D *c);
cudaError_t rt_from_symbol_node_desc(void *dst, const void *symbol,
				     size_t count, size_t offset,
				     enum cudaMemcpyKind kind,
				     CUDA_MEMCPY3D *c);
/* The kernel node's launch for the driver. Enters the runtime. */
cudaError_t rt_kernel_node_desc(const struct cudaKernelNodeParams *p,
				CUDA_KERNEL_NODE_PARAMS *c);
void rt_memset_node_desc(const struct cudaMemsetParams *p,
			 CUDA_MEMSET_NODE_PARAMS *c);
/*
 * The driver's union of node parameters for @p; contexts are the current
 * one. Enters the runtime.
 */
cudaError_t rt_node_params_desc(const struct cudaGraphNodeParams *p,
				CUgraphNodeParams *c);
/*
 * The host stub (the kernel's handle's, for a runtime kernel handle) of
 * the kernel whose function @fn is on some device, or @fn itself.
 */
const void *rt_stub_of(CUfunction fn);

#endif /* VG_RT_H */
