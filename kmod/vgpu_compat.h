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

#endif /* _VGPU_COMPAT_H */
