// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs attributes of /sys/class/vgpu/vgpuN: one read-only value per file,
 * for vgpu-smi, udev rules and people.
 */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "vgpu_drv.h"

static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_vgpu_device(dev)->props.name);
}
static DEVICE_ATTR_RO(name);

static ssize_t mem_size_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_vgpu_device(dev)->props.mem_size);
}
static DEVICE_ATTR_RO(mem_size);

/**
 * mem_used_show() - the mem_used attribute: bytes of device memory that
 * the device's contexts hold now (allocations and the chunks that small
 * ones share), what vgpu-smi reports as memory.used.
 * @dev: the device.
 * @attr: the attribute.
 * @buf: the page sysfs hands in.
 *
 * Return: the length written.
 */
static ssize_t mem_used_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read(&to_vgpu_device(dev)->mem_used));
}
static DEVICE_ATTR_RO(mem_used);

/*
 * kmem_used: bytes of kernel memory the device's contexts hold besides
 * device memory (vgpu_kmem.c); ctx_kmem_limit: how much each context may
 * hold, the ctx_kmem_mb parameter or its default worked out.
 */
static ssize_t kmem_used_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read(&to_vgpu_device(dev)->kmem_used));
}
static DEVICE_ATTR_RO(kmem_used);

static ssize_t ctx_kmem_limit_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", vgpu_kmem_limit());
}
static DEVICE_ATTR_RO(ctx_kmem_limit);

/*
 * managed_faults_device, managed_faults_host: faults on managed memory
 * since the device appeared, as the module models them (vgpu_managed.c).
 */
static ssize_t managed_faults_device_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	struct vgpu_device *vdev = to_vgpu_device(dev);

	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read(&vdev->managed_faults_device));
}
static DEVICE_ATTR_RO(managed_faults_device);

static ssize_t managed_faults_host_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	struct vgpu_device *vdev = to_vgpu_device(dev);

	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read(&vdev->managed_faults_host));
}
static DEVICE_ATTR_RO(managed_faults_host);

static ssize_t sm_count_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", to_vgpu_device(dev)->props.sm_count);
}
static DEVICE_ATTR_RO(sm_count);

static ssize_t compute_capability_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	const struct vgpu_info *p = &to_vgpu_device(dev)->props;

	return sysfs_emit(buf, "%u.%u\n", p->cc_major, p->cc_minor);
}
static DEVICE_ATTR_RO(compute_capability);

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "GPU-%pUb\n", to_vgpu_device(dev)->props.uuid);
}
static DEVICE_ATTR_RO(uuid);

static struct attribute *vgpu_dev_attrs[] = {
	&dev_attr_name.attr,
	&dev_attr_mem_size.attr,
	&dev_attr_mem_used.attr,
	&dev_attr_kmem_used.attr,
	&dev_attr_ctx_kmem_limit.attr,
	&dev_attr_managed_faults_device.attr,
	&dev_attr_managed_faults_host.attr,
	&dev_attr_sm_count.attr,
	&dev_attr_compute_capability.attr,
	&dev_attr_uuid.attr,
	NULL,
};

static const struct attribute_group vgpu_dev_group = {
	.attrs = vgpu_dev_attrs,
};

const struct attribute_group *vgpu_dev_groups[] = {
	&vgpu_dev_group,
	NULL,
};
