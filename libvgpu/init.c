// SPDX-License-Identifier: MIT
/*
 * cuInit and cuDriverGetVersion: find the /dev/vgpuN devices, read their
 * properties, apply CUDA_VISIBLE_DEVICES, and remember the outcome, which
 * every later call checks first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vg.h"

bool vg_initialized;
int vg_device_count;
struct vg_device vg_devices[VG_MAX_DEVICES];

/* Outcome of the first cuInit(0) that got past argument checks. */
static CUresult vg_init_result = CUDA_ERROR_NOT_INITIALIZED;
static bool vg_init_tried;

CUresult vg_check_init(void)
{
	/* vg_initialized is set once, after the device table is complete. */
	return __atomic_load_n(&vg_initialized, __ATOMIC_ACQUIRE) ?
		CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

CUresult vg_check_device(CUdevice dev)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	return dev >= 0 && dev < vg_device_count ? CUDA_SUCCESS :
		CUDA_ERROR_INVALID_DEVICE;
}

/* Reads the properties of /dev/vgpu@minor; false when absent or unusable. */
static bool vg_probe(int minor, struct vgpu_info *info, bool *mismatch)
{
	char path[32];
	int fd, ret;

	snprintf(path, sizeof(path), "/dev/vgpu%d", minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	memset(info, 0, sizeof(*info));
	ret = ioctl(fd, VGPU_IOCTL_GET_INFO, info);
	close(fd);
	if (ret)
		return false;
	if (info->abi_version != VGPU_ABI_VERSION) {
		*mismatch = true;
		return false;
	}
	return true;
}

static CUresult vg_discover(void)
{
	static struct vgpu_info found[VG_MAX_DEVICES];
	uint8_t uuids[VG_MAX_DEVICES][VGPU_UUID_LEN];
	int minors[VG_MAX_DEVICES], order[VG_MAX_DEVICES];
	bool mismatch = false;
	int present = 0, n, i;

	for (i = 0; i < VG_MAX_DEVICES; i++) {
		if (!vg_probe(i, &found[present], &mismatch))
			continue;
		memcpy(uuids[present], found[present].uuid, VGPU_UUID_LEN);
		minors[present++] = i;
	}
	if (!present)
		return mismatch ? CUDA_ERROR_SYSTEM_DRIVER_MISMATCH :
			CUDA_ERROR_NO_DEVICE;

	n = vg_parse_visible(getenv("CUDA_VISIBLE_DEVICES"),
			     (const uint8_t (*)[VGPU_UUID_LEN])uuids, present,
			     order);
	if (n == VG_VISIBLE_DUPLICATE)
		return CUDA_ERROR_INVALID_DEVICE;
	if (n == 0)
		return CUDA_ERROR_NO_DEVICE;
	/* CUDA_LAUNCH_BLOCKING=1: every launch returns once it has ended. */
	vg_launch_blocking = getenv("CUDA_LAUNCH_BLOCKING") &&
		!strcmp(getenv("CUDA_LAUNCH_BLOCKING"), "1");

	for (i = 0; i < n; i++) {
		struct vg_device *d = &vg_devices[i];
		struct CUctx_st *p = calloc(1, sizeof(*p));

		if (!p)
			goto err_nomem;
		d->minor = minors[order[i]];
		d->info = found[order[i]];
		p->dev = i;
		p->fd = -1;
		p->primary = true;
		vg_ctx_locks_init(p);
		d->primary = p;
	}
	vg_device_count = n;
	return CUDA_SUCCESS;

err_nomem:
	while (i--) {
		free(vg_devices[i].primary);
		vg_devices[i].primary = NULL;
	}
	return CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuInit(unsigned int flags)
{
	CUresult r;

	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_init_tried) {
		vg_init_result = vg_discover();
		vg_init_tried = vg_init_result != CUDA_ERROR_OUT_OF_MEMORY;
		if (vg_init_result == CUDA_SUCCESS)
			__atomic_store_n(&vg_initialized, true, __ATOMIC_RELEASE);
	}
	r = vg_init_result;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuDriverGetVersion(int *version)
{
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	*version = CUDA_VERSION;
	return CUDA_SUCCESS;
}
