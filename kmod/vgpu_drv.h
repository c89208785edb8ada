/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu.ko private definitions: the device, the per-open context, and the
 * entry points each file of the module provides to the others.
 */
#ifndef _VGPU_DRV_H
#define _VGPU_DRV_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "../uapi/vgpu.h"

#define VGPU_MAX_DEVICES 16

/*
 * struct vgpu_device - one virtual GPU, /dev/vgpuN.
 *
 * Everything here is set before the character device goes live and never
 * changes afterwards, so it is read without locks. The embedded struct
 * device owns the lifetime: its release frees the structure once the last
 * open file (through the cdev) and the module have dropped their references.
 */
struct vgpu_device {
	struct device dev;
	struct cdev cdev;
	struct vgpu_info props;	/* what GET_INFO reports; flags/pad zero */
	atomic64_t mem_used;	/* device memory held by all contexts */
};

/*
 * struct vgpu_vm - a context's device address space (vgpu_mem.c).
 * @lock: see below.
 * @base: first address of the VA window.
 * @size: size of the VA window; 0 until user space sets it.
 * @chunks: chunks of device memory by address range.
 * @allocs: allocations by address range.
 * @shared: chunks that hold small allocations.
 * @hosts: registered host ranges by address range (vgpu_host.c).
 */
struct vgpu_vm {
	struct mutex lock;	/* protects all of this structure */
	u64 base;
	u64 size;
	struct maple_tree chunks;
	struct maple_tree allocs;
	struct list_head shared;
	struct maple_tree hosts;
};

/*
 * struct vgpu_ctx - one open file: a GPU context. Holds a reference on its
 * device for as long as it lives.
 */
struct vgpu_ctx {
	struct vgpu_device *vdev;
	struct vgpu_vm vm;
};

static inline struct vgpu_device *to_vgpu_device(struct device *dev)
{
	return container_of(dev, struct vgpu_device, dev);
}

/* vgpu_props.c */
int vgpu_props_parse_cc(const char *s, u32 *major, u32 *minor);
void vgpu_props_init(struct vgpu_info *p, unsigned int index, u64 mem_size,
		     u32 sm_count, u32 cc_major, u32 cc_minor);
int vgpu_ioctl_get_info(struct vgpu_ctx *ctx, void *data);

/* vgpu_mem.c */
void vgpu_vm_init(struct vgpu_vm *vm);
void vgpu_vm_fini(struct vgpu_ctx *ctx);
u64 vgpu_mem_free_bytes(struct vgpu_device *vdev);
int vgpu_ioctl_set_va_window(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_alloc(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_free(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_mem_query(struct vgpu_ctx *ctx, void *data);

/* vgpu_host.c */
int vgpu_ioctl_host_register(struct vgpu_ctx *ctx, void *data);
int vgpu_ioctl_host_unregister(struct vgpu_ctx *ctx, void *data);
void vgpu_host_fini(struct vgpu_vm *vm);

/* vgpu_file.c */
extern const struct file_operations vgpu_fops;

/* vgpu_sysfs.c */
extern const struct attribute_group *vgpu_dev_groups[];

#endif /* _VGPU_DRV_H */
