// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu.ko entry points: module parameters, the "vgpu" device class, and the
 * creation and removal of the /dev/vgpuN devices.
 */
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of virtual GPUs, /dev/vgpu0... (1-16, default 1)");

static unsigned int mem_mb = 1024;
module_param(mem_mb, uint, 0444);
MODULE_PARM_DESC(mem_mb, "Device memory of each GPU in MiB (16-1048576, default 1024)");

static unsigned int sm_count;
module_param(sm_count, uint, 0444);
MODULE_PARM_DESC(sm_count, "Streaming multiprocessors per GPU (1-1024, default 0: one per online CPU)");

static char *compute_capability = "7.5";
module_param(compute_capability, charp, 0444);
MODULE_PARM_DESC(compute_capability, "Compute capability reported and accepted as a JIT target: 7.5, 8.0, 8.6, 8.7, 8.8, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0 or 12.1 (default 7.5)");

static dev_t vgpu_devt;
static struct vgpu_device *vgpu_devices[VGPU_MAX_DEVICES];

static struct class vgpu_class = {
	.name = "vgpu",
	.dev_groups = vgpu_dev_groups,
};

static void vgpu_device_release(struct device *dev)
{
	struct vgpu_device *vdev = to_vgpu_device(dev);

	vgpu_compute_fini(vdev);
	if (vdev->engine_wq)
		destroy_workqueue(vdev->engine_wq);
	kfree(vdev);
}

static struct vgpu_device *vgpu_device_create(unsigned int index, u32 sms,
					      u32 cc_major, u32 cc_minor)
{
	struct vgpu_device *vdev;
	unsigned int i;
	int ret;

	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return ERR_PTR(-ENOMEM);
	vgpu_props_init(&vdev->props, index, (u64)mem_mb << 20, sms,
			cc_major, cc_minor);

	/* Long CPU-bound work: unbound, so it never hogs a CPU's queue. */
	vdev->engine_wq = alloc_workqueue("vgpu%u", WQ_UNBOUND, 0, index);
	if (!vdev->engine_wq) {
		kfree(vdev);
		return ERR_PTR(-ENOMEM);
	}
	for (i = 0; i < VGPU_NUM_CE; i++)
		vgpu_engine_init(&vdev->ce[i], vdev->engine_wq);
	vgpu_engine_init(&vdev->compute.front, vdev->engine_wq);

	device_initialize(&vdev->dev);
	vdev->dev.class = &vgpu_class;
	vdev->dev.devt = MKDEV(MAJOR(vgpu_devt), index);
	vdev->dev.release = vgpu_device_release;
	ret = dev_set_name(&vdev->dev, "vgpu%u", index);
	if (ret)
		goto err_put;
	/* One SM worker per streaming multiprocessor. */
	ret = vgpu_compute_init(vdev, sms);
	if (ret)
		goto err_put;

	cdev_init(&vdev->cdev, &vgpu_fops);
	vdev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&vdev->cdev, &vdev->dev);
	if (ret)
		goto err_put;
	vgpu_fi_device_add(vdev);
	return vdev;

err_put:
	/* From here on the release callback frees vdev. */
	put_device(&vdev->dev);
	return ERR_PTR(ret);
}

static void vgpu_device_destroy(struct vgpu_device *vdev)
{
	vgpu_fi_device_del(vdev);
	cdev_device_del(&vdev->cdev, &vdev->dev);
	put_device(&vdev->dev);
}

static void vgpu_destroy_all(void)
{
	int i;

	for (i = VGPU_MAX_DEVICES - 1; i >= 0; i--) {
		if (vgpu_devices[i])
			vgpu_device_destroy(vgpu_devices[i]);
		vgpu_devices[i] = NULL;
	}
}

static int vgpu_check_params(u32 *sms, u32 *cc_major, u32 *cc_minor)
{
	if (num_devices < 1 || num_devices > VGPU_MAX_DEVICES) {
		pr_err("vgpu: num_devices=%u is outside 1-%u\n", num_devices,
		       VGPU_MAX_DEVICES);
		return -EINVAL;
	}
	if (mem_mb < 16 || mem_mb > (1U << 20)) {
		pr_err("vgpu: mem_mb=%u is outside 16-1048576\n", mem_mb);
		return -EINVAL;
	}
	*sms = sm_count ? sm_count : num_online_cpus();
	if (*sms > 1024) {
		pr_err("vgpu: sm_count=%u is above 1024\n", sm_count);
		return -EINVAL;
	}
	if (vgpu_props_parse_cc(compute_capability, cc_major, cc_minor)) {
		pr_err("vgpu: compute_capability=%s is not a target of nvcc 13\n",
		       compute_capability ? compute_capability : "(null)");
		return -EINVAL;
	}
	return 0;
}

static int __init vgpu_init(void)
{
	u32 sms, cc_major, cc_minor;
	unsigned int i;
	int ret;

	ret = vgpu_check_params(&sms, &cc_major, &cc_minor);
	if (ret)
		return ret;

	ret = alloc_chrdev_region(&vgpu_devt, 0, VGPU_MAX_DEVICES, "vgpu");
	if (ret)
		return ret;
	ret = class_register(&vgpu_class);
	if (ret)
		goto err_region;
	vgpu_fi_init();

	for (i = 0; i < num_devices; i++) {
		struct vgpu_device *vdev;

		vdev = vgpu_device_create(i, sms, cc_major, cc_minor);
		if (IS_ERR(vdev)) {
			ret = PTR_ERR(vdev);
			goto err_devices;
		}
		vgpu_devices[i] = vdev;
	}
	pr_info("vgpu: %u device(s), %u MiB, %u SMs, compute capability %u.%u\n",
		num_devices, mem_mb, sms, cc_major, cc_minor);
	return 0;

err_devices:
	vgpu_destroy_all();
	vgpu_fi_exit();
	class_unregister(&vgpu_class);
err_region:
	unregister_chrdev_region(vgpu_devt, VGPU_MAX_DEVICES);
	return ret;
}

static void __exit vgpu_exit(void)
{
	vgpu_destroy_all();
	vgpu_fi_exit();
	class_unregister(&vgpu_class);
	unregister_chrdev_region(vgpu_devt, VGPU_MAX_DEVICES);
}

module_init(vgpu_init);
module_exit(vgpu_exit);

MODULE_DESCRIPTION("Virtual CUDA GPU");
MODULE_LICENSE("GPL");
MODULE_VERSION(VGPU_VERSION);
