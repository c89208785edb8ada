// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu memory and another driver's, shared as dma-bufs both ways, with
 * vgem (a DRM driver of the stock kernel, loaded here if it is not):
 * a vgem buffer imported with VGPU_IMPORT_FOREIGN, mapped at a size that
 * is no whole granule, read and written by the copy engines and seen
 * through vgem's own mapping; a vgpu object exported, imported by vgem
 * and read and written through vgem's mapping of it. Also the rules:
 * foreign buffers need the flag, cannot be exported again, are not
 * charged to the device, and everything goes when the last holder does.
 * Needs vgpu.ko loaded (run inside the VM); skips without vgem.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <drm_mode.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "vgpu_chan_util.h"

#define WIN_BASE (1ULL << 44)
#define G VGPU_VA_ALIGN

/* vgem's render or primary node, loading the module if need be; or -1. */
static int open_vgem(void)
{
	char path[32], name[16];
	int i, fd, tries;

	for (tries = 0; tries < 2; tries++) {
		for (i = 0; i < 16; i++) {
			struct drm_version v = {
				.name = name, .name_len = sizeof(name) - 1,
			};

			snprintf(path, sizeof(path), "/dev/dri/card%d", i);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			memset(name, 0, sizeof(name));
			if (!ioctl(fd, DRM_IOCTL_VERSION, &v) &&
			    !strcmp(name, "vgem"))
				return fd;
			close(fd);
		}
		if (system("modprobe vgem >/dev/null 2>&1"))
			break;
	}
	return -1;
}

/* A vgem buffer of @bytes (a multiple of 4096); its handle and size. */
static int vgem_create(int vgem, __u32 bytes, __u32 *handle, __u64 *size)
{
	struct drm_mode_create_dumb c = {
		.width = 1024, .height = bytes / 4096, .bpp = 32,
	};

	if (ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		return -1;
	*handle = c.handle;
	*size = c.size;
	return 0;
}

static void *vgem_map(int vgem, __u32 handle, __u64 size)
{
	struct drm_mode_map_dumb m = { .handle = handle };

	if (ioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &m))
		return MAP_FAILED;
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem,
		    m.offset);
}

static __u64 mem_free_bytes(int fd)
{
	struct vgpu_info info = { 0 };

	return ioctl(fd, VGPU_IOCTL_GET_INFO, &info) ? 0 : info.mem_free;
}

FIXTURE(dmabuf) {
	int fd, vgem;
	void *status;
	struct chan c;
	__u32 *host;
	__u64 hva;
};

FIXTURE_SETUP(dmabuf)
{
	struct vgpu_host_register r = { .size = 1 << 20 };

	self->vgem = open_vgem();
	if (self->vgem < 0)
		SKIP(return, "no vgem");
	self->fd = open_ctx(&self->status, WIN_BASE);
	ASSERT_LE(0, self->fd);
	self->host = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (uintptr_t)self->host;
	self->hva = r.addr;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
}

FIXTURE_TEARDOWN(dmabuf)
{
	if (self->vgem < 0)
		return;
	munmap(self->status, getpagesize());
	close(self->fd);
	close(self->vgem);
	munmap(self->host, 1 << 20);
	free(self->c.ring);
}

/* A vgem buffer read and written by vgpu's copy engines. */
TEST_F(dmabuf, vgem_to_vgpu)
{
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct vgpu_mem_import im = { 0 };
	struct vgpu_mem_export e = { 0 };
	struct vgpu_mem_map m = { 0 };
	struct vgpu_va_reserve r = { .size = G };
	struct vgpu_mem_access a = { .size = G, .prot = VGPU_PROT_READ |
				     VGPU_PROT_WRITE };
	struct vgpu_mem_release rel = { 0 };
	struct vgpu_mem_unmap u = { .size = G };
	__u64 before = mem_free_bytes(self->fd), size;
	__u32 bo, *p, i, n;

	if (self->vgem < 0)
		SKIP(return, "no vgem");
	ASSERT_EQ(0, vgem_create(self->vgem, 24576, &bo, &size));
	ASSERT_EQ(24576, size);
	n = size / 4;
	p = vgem_map(self->vgem, bo, size);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < n; i++)
		p[i] = i * 2654435761u;
	ph.handle = bo;
	ASSERT_EQ(0, ioctl(self->vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));

	/* Another driver's buffer needs the flag. */
	im.fd = ph.fd;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &im));
	EXPECT_EQ(EINVAL, errno);
	im.flags = 2;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &im));
	EXPECT_EQ(EINVAL, errno);
	im.flags = VGPU_IMPORT_FOREIGN;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &im));
	EXPECT_EQ(size, im.size);
	/* Not the device's memory: not charged to it, not exported again. */
	EXPECT_EQ(before, mem_free_bytes(self->fd));
	e.handle = im.handle;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_VA_RESERVE, &r));
	m.va = r.va;
	m.handle = im.handle;
	m.size = size + 4096;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_MAP, &m));
	EXPECT_EQ(EINVAL, errno);
	m.size = 4096;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_MAP, &m));
	EXPECT_EQ(EINVAL, errno);
	m.size = size;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_MAP, &m));
	a.va = r.va;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &(struct vgpu_mem_access){
		.va = r.va, .size = 4096, .prot = VGPU_PROT_READ }));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &a));

	/* vgem's data through the engine; past its end, a fault. */
	EXPECT_EQ(0, copy_wait(&self->c, self->hva, r.va, size));
	EXPECT_EQ(0, memcmp(self->host, p, size));
	for (i = 0; i < n; i++)
		self->host[i] = ~i;
	EXPECT_EQ(0, copy_wait(&self->c, r.va, self->hva, size));
	for (i = 0; i < n; i++)
		if (p[i] != ~i)
			break;
	EXPECT_EQ(n, i);

	/* The handle and the fd go; the mapping keeps the buffer. */
	rel.handle = im.handle;
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_RELEASE, &rel));
	close(ph.fd);
	p[5] = 0x5555;
	EXPECT_EQ(0, copy_wait(&self->c, self->hva, r.va + 20, 4));
	EXPECT_EQ(0x5555, self->host[0]);
	u.va = r.va;
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_UNMAP, &u));
	EXPECT_EQ(before, mem_free_bytes(self->fd));
	EXPECT_EQ(0, ioctl(self->vgem, DRM_IOCTL_GEM_CLOSE,
			   &(struct drm_gem_close){ .handle = bo }));
	munmap(p, size);
}

/* A vgpu object imported by vgem, read and written through its mapping. */
TEST_F(dmabuf, vgpu_to_vgem)
{
	struct drm_prime_handle ph = { 0 };
	struct vgpu_mem_create mc = { .size = G };
	struct vgpu_mem_export e = { 0 };
	struct vgpu_mem_map m = { .size = G };
	struct vgpu_va_reserve r = { .size = G };
	struct vgpu_mem_access a = { .size = G, .prot = VGPU_PROT_READ |
				     VGPU_PROT_WRITE };
	struct vgpu_mem_release rel = { 0 };
	__u64 before = mem_free_bytes(self->fd);
	__u32 *p, i, n = 65536;

	if (self->vgem < 0)
		SKIP(return, "no vgem");
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_CREATE, &mc));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_VA_RESERVE, &r));
	m.va = r.va;
	m.handle = mc.handle;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_MAP, &m));
	a.va = r.va;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &a));
	for (i = 0; i < n; i++)
		self->host[i] = i ^ 0xa5a5a5a5;
	EXPECT_EQ(0, copy_wait(&self->c, r.va + G - 4 * n, self->hva, 4 * n));

	e.handle = mc.handle;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	ph.fd = e.fd;
	ASSERT_EQ(0, ioctl(self->vgem, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph));
	/*
	 * DRM maps no imported object through its own node (MAP_DUMB
	 * refuses); vgem hands out the buffer it imported, whose mapping
	 * is the exporter's, vgpu's.
	 */
	EXPECT_EQ(-1, ioctl(self->vgem, DRM_IOCTL_MODE_MAP_DUMB,
			    &(struct drm_mode_map_dumb){ .handle = ph.handle }));
	ph.fd = -1;
	ph.flags = DRM_CLOEXEC | DRM_RDWR;
	ASSERT_EQ(0, ioctl(self->vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));
	p = mmap(NULL, G, PROT_READ | PROT_WRITE, MAP_SHARED, ph.fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	close(ph.fd);
	EXPECT_EQ(0, memcmp(p + (G / 4 - n), self->host, 4 * n));
	EXPECT_EQ(0, p[0]);
	p[7] = 0x77777777;
	EXPECT_EQ(0, copy_wait(&self->c, self->hva, r.va + 28, 4));
	EXPECT_EQ(0x77777777, self->host[0]);

	/* vgpu lets go of everything; vgem's import still holds it. */
	close(e.fd);
	rel.handle = mc.handle;
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_RELEASE, &rel));
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_UNMAP,
			   &(struct vgpu_mem_unmap){ .va = r.va, .size = G }));
	EXPECT_EQ(before - G, mem_free_bytes(self->fd));
	EXPECT_EQ(0x77777777, p[7]);
	munmap(p, G);
	EXPECT_EQ(0, ioctl(self->vgem, DRM_IOCTL_GEM_CLOSE,
			   &(struct drm_gem_close){ .handle = ph.handle }));
	EXPECT_EQ(before, mem_free_bytes(self->fd));
}

TEST_HARNESS_MAIN
