/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu.ko private definitions: the device, the per-open context, and the
 * entry points each file of the module provides to the others.
 */
#ifndef _VGPU_DRV_H
#define _VGPU_DRV_H

#include <linux/cdev.h>
#include <linux/device.h>
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
};

/*
 * struct vgpu_ctx - one open file: a GPU context. Holds a reference on its
 * device for as long as it lives.
 */
struct vgpu_ctx {
	struct vgpu_device *vdev;
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

/* vgpu_file.c */
extern const struct file_operations vgpu_fops;

/* vgpu_sysfs.c */
extern const struct attribute_group *vgpu_dev_groups[];

#endif /* _VGPU_DRV_H */
