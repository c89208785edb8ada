/* SPDX-License-Identifier: MIT */
/*
 * Contraction of plain multiplies and adds into fmas, as ptxas does it
 * (ptx_contract.c).
 */
#ifndef VG_PTX_CONTRACT_H
#define VG_PTX_CONTRACT_H

#include <stdint.h>

#include "ptx_emit.h"

#define PTX_FUSE_NONE (-1)	/* lowered as it is */
#define PTX_FUSE_DROP (-2)	/* a mul (or its neg) the adds took: nothing */
#define PTX_FUSE_NEG 0x40000000	/* with an index: the product negated */

/*
 * For each instruction of @fn's body: PTX_FUSE_NONE, PTX_FUSE_DROP, or,
 * for an add or sub that takes a product, the index of the mul (with
 * PTX_FUSE_NEG when a neg came between). NULL when out of memory; the
 * caller frees it.
 */
int32_t *ptx_contract(const struct ptx_func *fn);

#endif /* VG_PTX_CONTRACT_H */
