// SPDX-License-Identifier: GPL-2.0
/*
 * Memory objects (vgpu_vmm.c) as dma-bufs: MEM_EXPORT gives a file that
 * holds its object, so another context of the device (in this process or
 * another one that receives the descriptor) imports it with MEM_IMPORT,
 * and other drivers attach to it, map it for DMA, vmap it or mmap it.
 * Who may import is who holds the descriptor, as for every dma-buf.
 * MEM_IMPORT also takes other drivers' dma-bufs (VGPU_IMPORT_FOREIGN):
 * their kernel mapping becomes the object's memory.
 *
 * The object's memory is vmalloc'd: its pages are ordinary pages, which
 * the scatter lists and the user mappings hand out one by one, and its
 * kernel mapping is what vmap returns. None of the callbacks takes a lock
 * of the module, so the dma-buf core may call them with the buffer's
 * reservation held (6.2 on).
 */
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/iosys-map.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
MODULE_IMPORT_NS("DMA_BUF");
#else
MODULE_IMPORT_NS(DMA_BUF);
#endif

static struct sg_table *vgpu_dmabuf_map(struct dma_buf_attachment *attach,
					enum dma_data_direction dir)
{
	struct vgpu_mobj *mobj = attach->dmabuf->priv;
	unsigned long i, n = mobj->size >> PAGE_SHIFT;
	struct page **pages;
	struct sg_table *sgt;
	int ret;

	pages = kvmalloc_array(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < n; i++)
		pages[i] = vmalloc_to_page(mobj->vaddr + (i << PAGE_SHIFT));
	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL);
	if (!sgt) {
		ret = -ENOMEM;
		goto err_pages;
	}
	ret = sg_alloc_table_from_pages(sgt, pages, n, 0, mobj->size,
					GFP_KERNEL);
	if (ret)
		goto err_sgt;
	ret = dma_map_sgtable(attach->dev, sgt, dir, 0);
	if (ret)
		goto err_table;
	kvfree(pages);
	return sgt;

err_table:
	sg_free_table(sgt);
err_sgt:
	kfree(sgt);
err_pages:
	kvfree(pages);
	return ERR_PTR(ret);
}

static void vgpu_dmabuf_unmap(struct dma_buf_attachment *attach,
			      struct sg_table *sgt,
			      enum dma_data_direction dir)
{
	dma_unmap_sgtable(attach->dev, sgt, dir, 0);
	sg_free_table(sgt);
	kfree(sgt);
}

/* The last reference to the file: its hold on the object goes. */
static void vgpu_dmabuf_release(struct dma_buf *buf)
{
	vgpu_mobj_put(buf->priv);
}

/* The core checked that the pages asked for lie inside the buffer. */
static int vgpu_dmabuf_mmap(struct dma_buf *buf, struct vm_area_struct *vma)
{
	struct vgpu_mobj *mobj = buf->priv;
	unsigned long addr = vma->vm_start, off = vma->vm_pgoff << PAGE_SHIFT;
	int ret;

	vgpu_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, 0);
	for (; addr < vma->vm_end; addr += PAGE_SIZE, off += PAGE_SIZE) {
		ret = vm_insert_page(vma, addr,
				     vmalloc_to_page(mobj->vaddr + off));
		if (ret)
			return ret;
	}
	return 0;
}

static int vgpu_dmabuf_vmap(struct dma_buf *buf, struct iosys_map *map)
{
	struct vgpu_mobj *mobj = buf->priv;

	iosys_map_set_vaddr(map, mobj->vaddr);
	return 0;
}

static const struct dma_buf_ops vgpu_dmabuf_ops = {
	.map_dma_buf = vgpu_dmabuf_map,
	.unmap_dma_buf = vgpu_dmabuf_unmap,
	.release = vgpu_dmabuf_release,
	.mmap = vgpu_dmabuf_mmap,
	.vmap = vgpu_dmabuf_vmap,
};

/*
 * MEM_EXPORT's argument as the handler leaves it: the descriptor is
 * reserved, not yet installed, until the caller has its number
 * (vgpu_mem_export_commit()). The dispatcher's buffer has room past the
 * structure (VGPU_IOCTL_MAX_ARG), which is never copied out.
 */
struct vgpu_mem_export_k {
	struct vgpu_mem_export e;
	struct dma_buf *buf;
};

/**
 * vgpu_ioctl_mem_export() - VGPU_IOCTL_MEM_EXPORT.
 * Return: 0, -EINVAL (flags, padding, another driver's memory), -ENOENT
 * (no such handle), -EMFILE, -ENOMEM.
 */
int vgpu_ioctl_mem_export(struct vgpu_ctx *ctx, void *data)
{
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct vgpu_mem_export_k *k = data;
	struct vgpu_mem_export *e = &k->e;
	struct vgpu_mobj *mobj;
	struct dma_buf *buf;
	int fd;

	BUILD_BUG_ON(sizeof(*k) > VGPU_IOCTL_MAX_ARG);
	if (e->flags || e->pad)
		return -EINVAL;
	mobj = vgpu_mobj_get(ctx, e->handle);
	if (!mobj)
		return -ENOENT;
	/* Another driver's memory is that driver's to export. */
	if (mobj->foreign) {
		vgpu_mobj_put(mobj);
		return -EINVAL;
	}
	info.ops = &vgpu_dmabuf_ops;
	info.size = mobj->size;
	info.flags = O_RDWR;
	info.priv = mobj;
	buf = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? ERR_PTR(-ENOMEM) :
		dma_buf_export(&info);
	if (IS_ERR(buf)) {
		vgpu_mobj_put(mobj);
		return PTR_ERR(buf);
	}
	/* From here the buffer owns the reference: release() drops it. */
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		dma_buf_put(buf);
		return fd;
	}
	e->fd = fd;
	k->buf = buf;
	return 0;
}

/* The caller has the number: the descriptor now names the buffer. */
void vgpu_mem_export_commit(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_mem_export_k *k = data;

	fd_install(k->e.fd, k->buf->file);
}

/* The caller could not learn the number: nothing was exported. */
void vgpu_mem_export_undo(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_mem_export_k *k = data;

	put_unused_fd(k->e.fd);
	dma_buf_put(k->buf);
}

/*
 * An object over another driver's dma-buf @buf, taking over the caller's
 * reference to it. The engines reach memory through a kernel pointer, so
 * the buffer must have a kernel mapping of system memory; its exporter
 * keeps the pages in place while it is mapped.
 */
static struct vgpu_mobj *vgpu_dmabuf_foreign(struct vgpu_ctx *ctx,
					     struct dma_buf *buf)
{
	struct iosys_map map;
	struct vgpu_mobj *mobj;
	int ret;

	mobj = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*mobj), GFP_KERNEL_ACCOUNT);
	if (!mobj) {
		ret = -ENOMEM;
		goto err_put;
	}
	/* An exporter without a kernel mapping says so in its own words. */
	ret = vgpu_dma_buf_vmap(buf, &map);
	if (ret) {
		ret = ret == -ENOMEM ? ret : -EINVAL;
		goto err_free;
	}
	if (map.is_iomem) {
		ret = -EINVAL;
		goto err_vunmap;
	}
	kref_init(&mobj->ref);
	mobj->size = buf->size;
	mobj->vaddr = map.vaddr;
	mobj->foreign = buf;
	mobj->vdev = ctx->vdev;
	get_device(&ctx->vdev->dev);
	return mobj;

err_vunmap:
	vgpu_dma_buf_vunmap(buf, &map);
err_free:
	kfree(mobj);
err_put:
	dma_buf_put(buf);
	return ERR_PTR(ret);
}

/**
 * vgpu_ioctl_mem_import() - VGPU_IOCTL_MEM_IMPORT.
 * Return: 0, -EINVAL (flags, padding, not vgpu memory without
 * VGPU_IMPORT_FOREIGN, a buffer without a kernel mapping), -EBADF (no
 * such file), -EXDEV (another device's memory), -ENOMEM.
 */
int vgpu_ioctl_mem_import(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_import *im = data;
	struct vgpu_mobj *mobj;
	struct dma_buf *buf;

	if ((im->flags & ~VGPU_IMPORT_FOREIGN) || im->pad)
		return -EINVAL;
	buf = dma_buf_get(im->fd);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (buf->ops != &vgpu_dmabuf_ops) {
		if (!(im->flags & VGPU_IMPORT_FOREIGN)) {
			dma_buf_put(buf);
			return -EINVAL;
		}
		mobj = vgpu_dmabuf_foreign(ctx, buf);
		if (IS_ERR(mobj))
			return PTR_ERR(mobj);
	} else {
		mobj = buf->priv;
		if (mobj->vdev != ctx->vdev) {
			dma_buf_put(buf);
			return -EXDEV;
		}
		kref_get(&mobj->ref);
		dma_buf_put(buf);
	}
	im->size = mobj->size;
	return vgpu_mobj_add(ctx, mobj, &im->handle);
}

void vgpu_mem_import_undo(struct vgpu_ctx *ctx, const void *data)
{
	vgpu_mem_handle_undo(ctx, ((const struct vgpu_mem_import *)data)->handle);
}
