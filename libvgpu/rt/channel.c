// SPDX-License-Identifier: MIT
/*
 * cudaCreateChannelDesc: a texel's format, returned by value, as given:
 * what it names is checked where it is used (texdesc.c's rt_format_of()).
 */
#include "rt.h"

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
						   enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc desc = { x, y, z, w, f };

	return desc;
}
