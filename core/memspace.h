/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How one lane's address finds its memory, the part that does not depend
 * on an engine's block state: the generic windows, the bounds of a space
 * and the launch's own spaces (parameters, constants). Shared by the
 * interpreter and the native engine; inline for the interpreter's every
 * access.
 */
#ifndef VGPU_MEMSPACE_H
#define VGPU_MEMSPACE_H

#include "core.h"

/*
 * The space an access in @space at *@addr goes to: a generic address
 * resolves by its window (*@addr made relative to it), else is global.
 */
static inline u8 vgpu_space_of(u8 space, u64 *addr)
{
	if (space != VGPU_SPACE_GENERIC)
		return space;
	if (*addr - VGPU_SHARED_WINDOW < VGPU_WINDOW_SIZE) {
		*addr -= VGPU_SHARED_WINDOW;
		return VGPU_SPACE_SHARED;
	}
	if (*addr - VGPU_LOCAL_WINDOW < VGPU_WINDOW_SIZE) {
		*addr -= VGPU_LOCAL_WINDOW;
		return VGPU_SPACE_LOCAL;
	}
	return VGPU_SPACE_GLOBAL;
}

/* @len bytes at @addr lie within @size bytes. */
static inline bool vgpu_fits(u64 addr, u32 len, u64 size)
{
	return addr < size && len <= size - addr;
}

/* PARAM or CONST (@space) of launch @l: read only. */
static inline u8 *vgpu_launch_ptr(const struct vgpu_launch *l, u8 space,
				  u64 addr, u32 len, bool write)
{
	if (space == VGPU_SPACE_PARAM) {
		if (write || !vgpu_fits(addr, len, l->func->param_bytes))
			return NULL;
		return (u8 *)l->params + addr;
	}
	if (write || !vgpu_fits(addr, len, l->const_bytes))
		return NULL;
	return (u8 *)l->consts + addr;
}

#endif /* VGPU_MEMSPACE_H */
