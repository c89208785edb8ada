/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What uapi/vgpu.h documents each ioctl to return, for the tests that
 * check errors against it: lookups in the table tools/gen-errno-table
 * makes from the header's "Errors" paragraphs (build/gen).
 */
#ifndef VGPU_ERRNO_H
#define VGPU_ERRNO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/ioctl.h>

#include "vgpu_errno_table.h"

/* The command without its size: the size does not change which ioctl it is. */
static inline unsigned long vgpu_errno_cmd_key(unsigned long cmd)
{
	return cmd & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT);
}

/*
 * The list of the ioctl that @cmd (with any size) reaches; the list of
 * unknown numbers for another number of vgpu's type; NULL for other types,
 * which the kernel's own ioctls may answer before vgpu sees them.
 */
static inline const struct vgpu_errno_list *vgpu_errno_list_of(unsigned long cmd)
{
	unsigned int i;

	if (_IOC_TYPE(cmd) != VGPU_IOCTL_TYPE)
		return NULL;
	for (i = 0; i < VGPU_NERRNO_LISTS; i++)
		if (vgpu_errno_cmd_key(vgpu_errnos[i].cmd) == vgpu_errno_cmd_key(cmd))
			return &vgpu_errnos[i];
	return &vgpu_errnos_unknown;
}

static inline bool vgpu_errno_listed(const struct vgpu_errno_list *l, int err)
{
	unsigned int i;

	for (i = 0; l->errs[i].err; i++)
		if (l->errs[i].err == err)
			return true;
	return false;
}

/* Whether the header documents @err for @l's ioctl (its own or every ioctl's). */
static inline bool vgpu_errno_documented(const struct vgpu_errno_list *l, int err)
{
	return vgpu_errno_listed(l, err) ||
	       (l != &vgpu_errnos_unknown && vgpu_errno_listed(&vgpu_errnos_any, err));
}

#endif /* VGPU_ERRNO_H */
