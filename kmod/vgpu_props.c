// SPDX-License-Identifier: GPL-2.0
/*
 * Device properties: the figures a virtual GPU of a given compute capability
 * reports (GET_INFO, sysfs, and through libvgpu cuDeviceGetAttribute). The
 * per-generation limits follow NVIDIA's published tables for each compute
 * capability, so programs that size their launches from them behave as on a
 * real GPU of that generation.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "vgpu_drv.h"

struct vgpu_generation {
	u32 major, minor;
	u32 max_threads_per_sm;
	u32 max_blocks_per_sm;
	u32 shared_mem_per_sm;
	u32 shared_mem_per_block;	/* without opt-in */
};

/* The targets nvcc 13 can compile for (nvcc --list-gpu-arch). */
static const struct vgpu_generation vgpu_generations[] = {
	{ 7, 5, 1024, 16, 65536, 49152 },
	{ 8, 0, 2048, 32, 167936, 49152 },
	{ 8, 6, 1536, 16, 102400, 49152 },
	{ 8, 7, 1536, 16, 167936, 49152 },
	{ 8, 8, 1536, 16, 102400, 49152 },
	{ 8, 9, 1536, 24, 102400, 49152 },
	{ 9, 0, 2048, 32, 233472, 49152 },
	{ 10, 0, 2048, 32, 233472, 49152 },
	{ 10, 3, 2048, 32, 233472, 49152 },
	{ 11, 0, 2048, 32, 233472, 49152 },
	{ 12, 0, 1536, 24, 102400, 49152 },
	{ 12, 1, 1536, 24, 102400, 49152 },
};

static const struct vgpu_generation *vgpu_find_generation(u32 major, u32 minor)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vgpu_generations); i++)
		if (vgpu_generations[i].major == major &&
		    vgpu_generations[i].minor == minor)
			return &vgpu_generations[i];
	return NULL;
}

/**
 * vgpu_props_parse_cc() - parse a compute capability such as "7.5".
 * Return: 0, or -EINVAL when the text is malformed or names a capability
 * nvcc 13 cannot target.
 */
int vgpu_props_parse_cc(const char *s, u32 *major, u32 *minor)
{
	char buf[8], *dot;

	if (!s || strscpy(buf, s, sizeof(buf)) < 0)
		return -EINVAL;
	dot = strchr(buf, '.');
	if (!dot)
		return -EINVAL;
	*dot = '\0';
	if (kstrtou32(buf, 10, major) || kstrtou32(dot + 1, 10, minor))
		return -EINVAL;
	return vgpu_find_generation(*major, *minor) ? 0 : -EINVAL;
}

/* A stable UUID per device index, shaped like an RFC 4122 version 4 UUID. */
static void vgpu_props_uuid(u8 *uuid, unsigned int index)
{
	static const u8 base[VGPU_UUID_LEN] = {
		'v', 'g', 'p', 'u', 0x00, 0x00, 0x40, 0x00,
		0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};

	memcpy(uuid, base, VGPU_UUID_LEN);
	uuid[12] = index >> 24;
	uuid[13] = index >> 16;
	uuid[14] = index >> 8;
	uuid[15] = index;
}

/* Fills @p; the capability must have been accepted by vgpu_props_parse_cc(). */
void vgpu_props_init(struct vgpu_info *p, unsigned int index, u64 mem_size,
		     u32 sm_count, u32 cc_major, u32 cc_minor)
{
	const struct vgpu_generation *g = vgpu_find_generation(cc_major, cc_minor);

	memset(p, 0, sizeof(*p));
	p->abi_version = VGPU_ABI_VERSION;
	p->mem_size = mem_size;
	p->index = index;
	p->sm_count = sm_count;
	p->cc_major = cc_major;
	p->cc_minor = cc_minor;
	p->warp_size = 32;
	p->max_threads_per_block = 1024;
	p->max_block_dim[0] = 1024;
	p->max_block_dim[1] = 1024;
	p->max_block_dim[2] = 64;
	p->max_grid_dim[0] = 0x7fffffff;
	p->max_grid_dim[1] = 65535;
	p->max_grid_dim[2] = 65535;
	p->max_threads_per_sm = g->max_threads_per_sm;
	p->max_blocks_per_sm = g->max_blocks_per_sm;
	p->shared_mem_per_block = g->shared_mem_per_block;
	p->shared_mem_per_sm = g->shared_mem_per_sm;
	p->regs_per_block = 65536;
	p->regs_per_sm = 65536;
	p->const_mem_size = 65536;
	p->clock_khz = 1500000;
	p->copy_engines = 2;
	vgpu_props_uuid(p->uuid, index);
	snprintf(p->name, sizeof(p->name), "vgpu Virtual GPU (sm_%u%u)",
		 cc_major, cc_minor);
}

/*
 * The most shared memory a block may have: the SM's, less the 1 KiB that
 * sm_80 and later keep for each block (what the opt-in attribute says).
 */
u64 vgpu_props_smem_optin(const struct vgpu_info *p)
{
	return p->shared_mem_per_sm - (p->cc_major >= 8 ? 1024 : 0);
}

/**
 * vgpu_ioctl_get_info() - VGPU_IOCTL_GET_INFO.
 * Return: 0, or -EINVAL for nonzero flags or padding.
 */
int vgpu_ioctl_get_info(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_info *info = data;

	if (info->flags || info->pad)
		return -EINVAL;
	*info = ctx->vdev->props;
	info->mem_free = vgpu_mem_free_bytes(ctx->vdev);
	return 0;
}
