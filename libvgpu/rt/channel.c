// SPDX-License-Identifier: MIT
/*
 * cudaCreateChannelDesc: a texel's format, returned by value (so it cannot
 * be a stub of unsupported.c). Arrays and textures come with their issue.
 */
#include "rt.h"

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
						   enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc desc = { x, y, z, w, f };

	return desc;
}
