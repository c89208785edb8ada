/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels vgpu.ko builds against
 * (Debian 12's 6.1 and newer), in one place.
 */
#ifndef _VGPU_COMPAT_H
#define _VGPU_COMPAT_H

#include <linux/mm.h>
#include <linux/version.h>

/* vma->vm_flags became read-only in 6.3. */
static inline void vgpu_vm_flags_mod(struct vm_area_struct *vma,
				     vm_flags_t set, vm_flags_t clear)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * An importer maps another driver's dma-buf into the kernel: 6.2 made
 * dma_buf_vmap() a call under the buffer's reservation lock and added
 * the variant that takes the lock itself, which is what 6.1's was.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define vgpu_dma_buf_vmap dma_buf_vmap_unlocked
#define vgpu_dma_buf_vunmap dma_buf_vunmap_unlocked
#else
#define vgpu_dma_buf_vmap dma_buf_vmap
#define vgpu_dma_buf_vunmap dma_buf_vunmap
#endif

#endif /* _VGPU_COMPAT_H */
