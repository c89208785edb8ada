// SPDX-License-Identifier: GPL-2.0
/*
 * The table the ioctl fuzzer draws its calls from: every ioctl and every
 * channel command of uapi/vgpu.h, field by field. A field left out of a
 * structure's list (the read-only outputs of GET_INFO, say) is filled
 * with zeros or, now and then, garbage.
 */
#include <stddef.h>
#include <sys/ioctl.h>

#include "uapi/vgpu.h"
#include "vgpu_ioctl_desc.h"

#define FLD(type, field, kind, arg) \
	{ #field, offsetof(type, field), sizeof(((type *)0)->field), kind, arg }
#define CMD(field, kind, arg) FLD(struct vgpu_cmd, field, kind, arg)

#define PAGE 4096
#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

static const struct fz_field f_info[] = {
	FLD(struct vgpu_info, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_info, pad, FZ_PAD, 0),
	FLD(struct vgpu_info, mem_free, FZ_OUT, 0),
};

static const struct fz_field f_window[] = {
	FLD(struct vgpu_va_window, base, FZ_WINDOW_BASE, 0),
	FLD(struct vgpu_va_window, size, FZ_WINDOW_SIZE, 0),
	FLD(struct vgpu_va_window, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_va_window, pad, FZ_PAD, 0),
};

static const struct fz_field f_mem_alloc[] = {
	FLD(struct vgpu_mem_alloc, size, FZ_SIZE, 1),
	FLD(struct vgpu_mem_alloc, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_mem_alloc, pad, FZ_PAD, 0),
	FLD(struct vgpu_mem_alloc, va, FZ_OUT, 0),
};

static const struct fz_field f_mem_free[] = {
	FLD(struct vgpu_mem_free, va, FZ_HANDLE, FZ_RES_DEVMEM),
	FLD(struct vgpu_mem_free, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_mem_free, pad, FZ_PAD, 0),
};

static const struct fz_field f_mem_query[] = {
	FLD(struct vgpu_mem_query, va, FZ_DEVADDR, 1),
	FLD(struct vgpu_mem_query, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_mem_query, pad, FZ_PAD, 0),
	FLD(struct vgpu_mem_query, base, FZ_OUT, 0),
	FLD(struct vgpu_mem_query, size, FZ_OUT, 0),
};

static const struct fz_field f_host_register[] = {
	FLD(struct vgpu_host_register, addr, FZ_HOSTPTR, PAGE),
	FLD(struct vgpu_host_register, size, FZ_SIZE, PAGE),
	FLD(struct vgpu_host_register, flags, FZ_FLAGS, VGPU_HOST_FLAGS),
	FLD(struct vgpu_host_register, pad, FZ_PAD, 0),
};

static const struct fz_field f_host_unregister[] = {
	FLD(struct vgpu_host_unregister, addr, FZ_HANDLE, FZ_RES_HOSTREG),
	FLD(struct vgpu_host_unregister, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_host_unregister, pad, FZ_PAD, 0),
};

static const struct fz_field f_host_alloc[] = {
	FLD(struct vgpu_host_alloc, size, FZ_SIZE, PAGE),
	FLD(struct vgpu_host_alloc, flags, FZ_FLAGS, VGPU_HOST_ALLOC_MANAGED),
	FLD(struct vgpu_host_alloc, pad, FZ_PAD, 0),
	FLD(struct vgpu_host_alloc, offset, FZ_OUT, 0),
};

static const struct fz_field f_chan_create[] = {
	FLD(struct vgpu_chan_create, ring, FZ_RING, 64),
	FLD(struct vgpu_chan_create, ring_size, FZ_RING_SIZE, 0),
	FLD(struct vgpu_chan_create, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_chan_create, handle, FZ_OUT, 0),
	FLD(struct vgpu_chan_create, pad, FZ_PAD, 0),
};

static const struct fz_field f_chan_submit[] = {
	FLD(struct vgpu_chan_submit, handle, FZ_HANDLE, FZ_RES_CHAN),
	FLD(struct vgpu_chan_submit, put, FZ_PUT, 0),
	FLD(struct vgpu_chan_submit, flags, FZ_FLAGS, 0),
};

static const struct fz_field f_chan_wait[] = {
	FLD(struct vgpu_chan_wait, handle, FZ_HANDLE, FZ_RES_CHAN),
	FLD(struct vgpu_chan_wait, seqno, FZ_SEQNO, 0),
	FLD(struct vgpu_chan_wait, deadline_ns, FZ_DEADLINE, 0),
	FLD(struct vgpu_chan_wait, flags, FZ_FLAGS, 0),
};

static const struct fz_field f_chan_destroy[] = {
	FLD(struct vgpu_chan_destroy, handle, FZ_HANDLE, FZ_RES_CHAN),
	FLD(struct vgpu_chan_destroy, flags, FZ_FLAGS, 0),
};

static const struct fz_field f_chan_fault[] = {
	FLD(struct vgpu_chan_fault, handle, FZ_HANDLE, FZ_RES_CHAN),
	FLD(struct vgpu_chan_fault, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_chan_fault, kind, FZ_OUT, 0),
	FLD(struct vgpu_chan_fault, addr, FZ_OUT, 0),
	FLD(struct vgpu_chan_fault, seqno, FZ_OUT, 0),
};

static const struct fz_field f_module_load[] = {
	FLD(struct vgpu_module_load, insns, FZ_INSNS, 8),
	FLD(struct vgpu_module_load, funcs, FZ_FUNCS, 4),
	FLD(struct vgpu_module_load, consts, FZ_HOSTPTR, 1),
	FLD(struct vgpu_module_load, log, FZ_LOG, 1),
	FLD(struct vgpu_module_load, ninsns, FZ_NINSNS, 0),
	FLD(struct vgpu_module_load, nfuncs, FZ_NFUNCS, 0),
	FLD(struct vgpu_module_load, const_bytes, FZ_SIZE, 1),
	FLD(struct vgpu_module_load, log_size, FZ_LOG_SIZE, 1),
	FLD(struct vgpu_module_load, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_module_load, handle, FZ_OUT, 0),
};

static const struct fz_field f_module_unload[] = {
	FLD(struct vgpu_module_unload, handle, FZ_HANDLE, FZ_RES_MODULE),
	FLD(struct vgpu_module_unload, flags, FZ_FLAGS, 0),
};

static const struct fz_field f_heap_create[] = {
	FLD(struct vgpu_heap_create, size, FZ_SIZE, VGPU_HEAP_ALIGN),
	FLD(struct vgpu_heap_create, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_heap_create, pad, FZ_PAD, 0),
	FLD(struct vgpu_heap_create, va, FZ_OUT, 0),
};

static const struct fz_field f_mem_create[] = {
	FLD(struct vgpu_mem_create, size, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_mem_create, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_mem_create, handle, FZ_OUT, 0),
};

static const struct fz_field f_mem_release[] = {
	FLD(struct vgpu_mem_release, handle, FZ_HANDLE, FZ_RES_MOBJ),
	FLD(struct vgpu_mem_release, flags, FZ_FLAGS, 0),
};

static const struct fz_field f_va_reserve[] = {
	FLD(struct vgpu_va_reserve, va, FZ_DEVADDR, VGPU_VA_ALIGN),
	FLD(struct vgpu_va_reserve, size, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_va_reserve, align, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_va_reserve, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_va_reserve, pad, FZ_PAD, 0),
};

static const struct fz_field f_va_free[] = {
	FLD(struct vgpu_va_free, va, FZ_HANDLE, FZ_RES_VARES),
	FLD(struct vgpu_va_free, size, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_va_free, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_va_free, pad, FZ_PAD, 0),
};

static const struct fz_field f_mem_map[] = {
	FLD(struct vgpu_mem_map, va, FZ_HANDLE, FZ_RES_VARES),
	FLD(struct vgpu_mem_map, size, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_mem_map, offset, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_mem_map, handle, FZ_HANDLE, FZ_RES_MOBJ),
	FLD(struct vgpu_mem_map, flags, FZ_FLAGS, 0),
};

static const struct fz_field f_mem_unmap[] = {
	FLD(struct vgpu_mem_unmap, va, FZ_HANDLE, FZ_RES_VARES),
	FLD(struct vgpu_mem_unmap, size, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_mem_unmap, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_mem_unmap, pad, FZ_PAD, 0),
};

static const struct fz_field f_mem_access[] = {
	FLD(struct vgpu_mem_access, va, FZ_HANDLE, FZ_RES_VARES),
	FLD(struct vgpu_mem_access, size, FZ_SIZE, VGPU_VA_ALIGN),
	FLD(struct vgpu_mem_access, prot, FZ_FLAGS, VGPU_PROT_READ | VGPU_PROT_WRITE),
	FLD(struct vgpu_mem_access, flags, FZ_FLAGS, VGPU_ACCESS_DEVICE),
	FLD(struct vgpu_mem_access, device, FZ_COUNT, VGPU_MAX_DEVICES),
	FLD(struct vgpu_mem_access, pad, FZ_PAD, 0),
};

static const struct fz_field f_mem_export[] = {
	FLD(struct vgpu_mem_export, handle, FZ_HANDLE, FZ_RES_MOBJ),
	FLD(struct vgpu_mem_export, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_mem_export, fd, FZ_OUT, 0),
	FLD(struct vgpu_mem_export, pad, FZ_PAD, 0),
};

/* Small descriptors: now and then a dma-buf an export left open. */
static const struct fz_field f_mem_import[] = {
	FLD(struct vgpu_mem_import, fd, FZ_COUNT, 64),
	FLD(struct vgpu_mem_import, flags, FZ_FLAGS, VGPU_IMPORT_FOREIGN),
	FLD(struct vgpu_mem_import, handle, FZ_OUT, 0),
	FLD(struct vgpu_mem_import, pad, FZ_PAD, 0),
	FLD(struct vgpu_mem_import, size, FZ_OUT, 0),
};

static const struct fz_field f_ipc_export[] = {
	FLD(struct vgpu_ipc_export, va, FZ_HANDLE, FZ_RES_DEVMEM),
	FLD(struct vgpu_ipc_export, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_ipc_export, pad, FZ_PAD, 0),
	FLD(struct vgpu_ipc_export, token[0], FZ_OUT, 0),
	FLD(struct vgpu_ipc_export, token[1], FZ_OUT, 0),
};

/* Token numbers are small counts; the secrets mostly wrong. */
static const struct fz_field f_ipc_open[] = {
	FLD(struct vgpu_ipc_open, token[0], FZ_COUNT, 64),
	FLD(struct vgpu_ipc_open, token[1], FZ_OUT, 0),
	FLD(struct vgpu_ipc_open, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_ipc_open, pad, FZ_PAD, 0),
	FLD(struct vgpu_ipc_open, va, FZ_OUT, 0),
	FLD(struct vgpu_ipc_open, size, FZ_OUT, 0),
};

static const struct fz_field f_ipc_close[] = {
	FLD(struct vgpu_ipc_close, va, FZ_DEVADDR, VGPU_VA_ALIGN),
	FLD(struct vgpu_ipc_close, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_ipc_close, pad, FZ_PAD, 0),
};

/* Small descriptors: often another of the worker's own contexts. */
static const struct fz_field f_peer_set[] = {
	FLD(struct vgpu_peer_set, fd, FZ_COUNT, 64),
	FLD(struct vgpu_peer_set, flags, FZ_FLAGS, VGPU_PEER_ACCESS),
};

static const struct fz_field f_managed_prefetch[] = {
	FLD(struct vgpu_managed_prefetch, addr, FZ_HOSTPTR, 1),
	FLD(struct vgpu_managed_prefetch, size, FZ_SIZE, 1),
	FLD(struct vgpu_managed_prefetch, flags, FZ_FLAGS, VGPU_PREFETCH_DEVICE),
	FLD(struct vgpu_managed_prefetch, pad, FZ_PAD, 0),
};

/* An SM's file comes back; the SM waits for blocks no launch sends it. */
static const struct fz_field f_usm_attach[] = {
	FLD(struct vgpu_usm_attach, flags, FZ_FLAGS, 0),
	FLD(struct vgpu_usm_attach, fd, FZ_OUT, 0),
};

#define IOC(name_, nr_, type, min, fl, mk, mkf, fr, frf) { \
	.name = name_, .nr = nr_, .size = sizeof(type), .min_size = (min), \
	.fields = fl, .nfields = NFIELDS(fl), \
	.makes = mk, .makes_off = mkf, .frees = fr, .frees_off = frf }
#define PLAIN(nr_, type, fl) IOC(#nr_, nr_, type, sizeof(type), fl, FZ_RES_NONE, 0, FZ_RES_NONE, 0)

const struct fz_ioctl fz_ioctls[] = {
	IOC("VGPU_IOCTL_GET_INFO", VGPU_IOCTL_GET_INFO, struct vgpu_info, VGPU_INFO_SIZE_V1, f_info,
	    FZ_RES_NONE, 0, FZ_RES_NONE, 0),
	PLAIN(VGPU_IOCTL_SET_VA_WINDOW, struct vgpu_va_window, f_window),
	IOC("VGPU_IOCTL_MEM_ALLOC", VGPU_IOCTL_MEM_ALLOC, struct vgpu_mem_alloc, sizeof(struct vgpu_mem_alloc),
	    f_mem_alloc, FZ_RES_DEVMEM, offsetof(struct vgpu_mem_alloc, va), FZ_RES_NONE, 0),
	IOC("VGPU_IOCTL_MEM_FREE", VGPU_IOCTL_MEM_FREE, struct vgpu_mem_free, sizeof(struct vgpu_mem_free),
	    f_mem_free, FZ_RES_NONE, 0, FZ_RES_DEVMEM, offsetof(struct vgpu_mem_free, va)),
	PLAIN(VGPU_IOCTL_MEM_QUERY, struct vgpu_mem_query, f_mem_query),
	IOC("VGPU_IOCTL_HOST_REGISTER", VGPU_IOCTL_HOST_REGISTER, struct vgpu_host_register,
	    sizeof(struct vgpu_host_register), f_host_register,
	    FZ_RES_HOSTREG, offsetof(struct vgpu_host_register, addr), FZ_RES_NONE, 0),
	IOC("VGPU_IOCTL_HOST_UNREGISTER", VGPU_IOCTL_HOST_UNREGISTER, struct vgpu_host_unregister,
	    sizeof(struct vgpu_host_unregister), f_host_unregister, FZ_RES_NONE, 0,
	    FZ_RES_HOSTREG, offsetof(struct vgpu_host_unregister, addr)),
	IOC("VGPU_IOCTL_HOST_ALLOC", VGPU_IOCTL_HOST_ALLOC, struct vgpu_host_alloc, sizeof(struct vgpu_host_alloc),
	    f_host_alloc, FZ_RES_HOSTALLOC, offsetof(struct vgpu_host_alloc, offset),
	    FZ_RES_NONE, 0),
	IOC("VGPU_IOCTL_CHAN_CREATE", VGPU_IOCTL_CHAN_CREATE, struct vgpu_chan_create, sizeof(struct vgpu_chan_create),
	    f_chan_create, FZ_RES_CHAN, offsetof(struct vgpu_chan_create, handle),
	    FZ_RES_NONE, 0),
	PLAIN(VGPU_IOCTL_CHAN_SUBMIT, struct vgpu_chan_submit, f_chan_submit),
	PLAIN(VGPU_IOCTL_CHAN_WAIT, struct vgpu_chan_wait, f_chan_wait),
	IOC("VGPU_IOCTL_CHAN_DESTROY", VGPU_IOCTL_CHAN_DESTROY, struct vgpu_chan_destroy,
	    sizeof(struct vgpu_chan_destroy), f_chan_destroy, FZ_RES_NONE, 0,
	    FZ_RES_CHAN, offsetof(struct vgpu_chan_destroy, handle)),
	PLAIN(VGPU_IOCTL_CHAN_FAULT, struct vgpu_chan_fault, f_chan_fault),
	IOC("VGPU_IOCTL_MODULE_LOAD", VGPU_IOCTL_MODULE_LOAD, struct vgpu_module_load, sizeof(struct vgpu_module_load),
	    f_module_load, FZ_RES_MODULE, offsetof(struct vgpu_module_load, handle),
	    FZ_RES_NONE, 0),
	IOC("VGPU_IOCTL_MODULE_UNLOAD", VGPU_IOCTL_MODULE_UNLOAD, struct vgpu_module_unload,
	    sizeof(struct vgpu_module_unload), f_module_unload, FZ_RES_NONE, 0,
	    FZ_RES_MODULE, offsetof(struct vgpu_module_unload, handle)),
	IOC("VGPU_IOCTL_HEAP_CREATE", VGPU_IOCTL_HEAP_CREATE, struct vgpu_heap_create, sizeof(struct vgpu_heap_create),
	    f_heap_create, FZ_RES_HEAP, offsetof(struct vgpu_heap_create, va), FZ_RES_NONE, 0),
	IOC("VGPU_IOCTL_MEM_CREATE", VGPU_IOCTL_MEM_CREATE, struct vgpu_mem_create,
	    sizeof(struct vgpu_mem_create), f_mem_create, FZ_RES_MOBJ,
	    offsetof(struct vgpu_mem_create, handle), FZ_RES_NONE, 0),
	IOC("VGPU_IOCTL_MEM_RELEASE", VGPU_IOCTL_MEM_RELEASE, struct vgpu_mem_release,
	    sizeof(struct vgpu_mem_release), f_mem_release, FZ_RES_NONE, 0,
	    FZ_RES_MOBJ, offsetof(struct vgpu_mem_release, handle)),
	IOC("VGPU_IOCTL_VA_RESERVE", VGPU_IOCTL_VA_RESERVE, struct vgpu_va_reserve,
	    sizeof(struct vgpu_va_reserve), f_va_reserve, FZ_RES_VARES,
	    offsetof(struct vgpu_va_reserve, va), FZ_RES_NONE, 0),
	IOC("VGPU_IOCTL_VA_FREE", VGPU_IOCTL_VA_FREE, struct vgpu_va_free,
	    sizeof(struct vgpu_va_free), f_va_free, FZ_RES_NONE, 0,
	    FZ_RES_VARES, offsetof(struct vgpu_va_free, va)),
	PLAIN(VGPU_IOCTL_MEM_MAP, struct vgpu_mem_map, f_mem_map),
	PLAIN(VGPU_IOCTL_MEM_UNMAP, struct vgpu_mem_unmap, f_mem_unmap),
	IOC("VGPU_IOCTL_MEM_ACCESS", VGPU_IOCTL_MEM_ACCESS, struct vgpu_mem_access,
	    VGPU_MEM_ACCESS_SIZE_V1, f_mem_access, FZ_RES_NONE, 0, FZ_RES_NONE, 0),
	PLAIN(VGPU_IOCTL_MEM_EXPORT, struct vgpu_mem_export, f_mem_export),
	IOC("VGPU_IOCTL_MEM_IMPORT", VGPU_IOCTL_MEM_IMPORT, struct vgpu_mem_import,
	    sizeof(struct vgpu_mem_import), f_mem_import, FZ_RES_MOBJ,
	    offsetof(struct vgpu_mem_import, handle), FZ_RES_NONE, 0),
	PLAIN(VGPU_IOCTL_IPC_EXPORT, struct vgpu_ipc_export, f_ipc_export),
	PLAIN(VGPU_IOCTL_IPC_OPEN, struct vgpu_ipc_open, f_ipc_open),
	PLAIN(VGPU_IOCTL_IPC_CLOSE, struct vgpu_ipc_close, f_ipc_close),
	PLAIN(VGPU_IOCTL_PEER_SET, struct vgpu_peer_set, f_peer_set),
	PLAIN(VGPU_IOCTL_MANAGED_PREFETCH, struct vgpu_managed_prefetch,
	      f_managed_prefetch),
	PLAIN(VGPU_IOCTL_USM_ATTACH, struct vgpu_usm_attach, f_usm_attach),
};
const unsigned int fz_nioctls = NFIELDS(fz_ioctls);

static const struct fz_field c_nop[] = {
	CMD(raw[0], FZ_PAD, 0),
	CMD(raw[6], FZ_PAD, 0),
};

static const struct fz_field c_copy[] = {
	CMD(copy.src, FZ_DEVADDR, 1),
	CMD(copy.dst, FZ_DEVADDR, 1),
	CMD(copy.width, FZ_SIZE, 1),
	CMD(copy.src_pitch, FZ_SIZE, 1),
	CMD(copy.dst_pitch, FZ_SIZE, 1),
	CMD(copy.height, FZ_DIM, 8),
	CMD(copy.depth, FZ_DIM, 4),
	CMD(copy.src_height, FZ_DIM, 8),
	CMD(copy.dst_height, FZ_DIM, 8),
};

static const struct fz_field c_memset[] = {
	CMD(memset.dst, FZ_DEVADDR, 4),
	CMD(memset.width, FZ_SIZE, 1),
	CMD(memset.pitch, FZ_SIZE, 4),
	CMD(memset.height, FZ_DIM, 8),
	CMD(memset.value, FZ_SEM_VALUE, 0),
	CMD(memset.elem_size, FZ_COUNT, 4),
	CMD(memset.pad, FZ_PAD, 0),
	CMD(raw[5], FZ_PAD, 0),
};

static const struct fz_field c_sem[] = {
	CMD(sem.addr, FZ_DEVADDR, 8),
	CMD(sem.value, FZ_SEM_VALUE, 0),
	CMD(raw[2], FZ_PAD, 0),
	CMD(raw[6], FZ_PAD, 0),
};

static const struct fz_field c_launch[] = {
	CMD(launch.module, FZ_HANDLE, FZ_RES_MODULE),
	CMD(launch.func, FZ_FUNC, 0),
	CMD(launch.grid[0], FZ_DIM, 8),
	CMD(launch.grid[1], FZ_DIM, 2),
	CMD(launch.grid[2], FZ_DIM, 2),
	CMD(launch.block[0], FZ_DIM, 128),
	CMD(launch.block[1], FZ_DIM, 2),
	CMD(launch.block[2], FZ_DIM, 2),
	CMD(launch.dyn_shared, FZ_SIZE, 4),
	CMD(launch.param_bytes, FZ_COUNT, 32),
	CMD(launch.params, FZ_PARAMS, 8),
	CMD(launch.grid_sync, FZ_GRID_SYNC, 8),
};

static const struct fz_field c_chain[] = {
	CMD(chain.steps, FZ_STEPS, 0),
	CMD(chain.nsteps, FZ_COUNT, 4),
	CMD(chain.pad, FZ_PAD, 0),
	CMD(raw[2], FZ_PAD, 0),
	CMD(raw[6], FZ_PAD, 0),
};

const struct fz_cmd fz_cmds[] = {
	{ "NOP", VGPU_CMD_NOP, 0, c_nop, NFIELDS(c_nop) },
	{ "COPY", VGPU_CMD_COPY, 0, c_copy, NFIELDS(c_copy) },
	{ "MEMSET", VGPU_CMD_MEMSET, 0, c_memset, NFIELDS(c_memset) },
	{ "SEM_RELEASE", VGPU_CMD_SEM_RELEASE, VGPU_SEM_TIMESTAMP | VGPU_SEM_32,
	  c_sem, NFIELDS(c_sem) },
	{ "SEM_ACQUIRE", VGPU_CMD_SEM_ACQUIRE,
	  VGPU_SEM_TEST_MASK | VGPU_SEM_32 | VGPU_SEM_UNSIGNED,
	  c_sem, NFIELDS(c_sem) },
	{ "LAUNCH", VGPU_CMD_LAUNCH, VGPU_LAUNCH_PRIORITY_MASK, c_launch,
	  NFIELDS(c_launch) },
	{ "LAUNCH_CHAIN", VGPU_CMD_LAUNCH_CHAIN, VGPU_LAUNCH_PRIORITY_MASK,
	  c_chain, NFIELDS(c_chain) },
};
const unsigned int fz_ncmds = NFIELDS(fz_cmds);
