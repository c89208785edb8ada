// SPDX-License-Identifier: MIT
/*
 * The ioctl structures have the same layout for 64-bit and 32-bit user
 * space (the Makefile also compiles this file with -m32): sizes are
 * multiples of 8, fields sit at fixed offsets, nothing depends on the ABI.
 */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>

#include "uapi/vgpu.h"
#include "uapi/vgpu_isa.h"

static_assert(sizeof(struct vgpu_info) == 192, "vgpu_info size");
static_assert(offsetof(struct vgpu_info, mem_free) == VGPU_INFO_SIZE_V1, "v1 end");
static_assert(sizeof(struct vgpu_info) % 8 == 0, "vgpu_info size % 8");
static_assert(offsetof(struct vgpu_info, flags) == 0, "flags");
static_assert(offsetof(struct vgpu_info, abi_version) == 4, "abi_version");
static_assert(offsetof(struct vgpu_info, mem_size) == 8, "mem_size");
static_assert(offsetof(struct vgpu_info, index) == 16, "index");
static_assert(offsetof(struct vgpu_info, max_block_dim) == 40, "max_block_dim");
static_assert(offsetof(struct vgpu_info, max_grid_dim) == 52, "max_grid_dim");
static_assert(offsetof(struct vgpu_info, copy_engines) == 96, "copy_engines");
static_assert(offsetof(struct vgpu_info, pad) == 100, "pad");
static_assert(offsetof(struct vgpu_info, uuid) == 104, "uuid");
static_assert(offsetof(struct vgpu_info, name) == 120, "name");
static_assert(_IOC_SIZE(VGPU_IOCTL_GET_INFO) == sizeof(struct vgpu_info), "GET_INFO size");
static_assert(sizeof(struct vgpu_va_window) == 24, "vgpu_va_window size");
static_assert(sizeof(struct vgpu_mem_alloc) == 24, "vgpu_mem_alloc size");
static_assert(offsetof(struct vgpu_mem_alloc, va) == 16, "vgpu_mem_alloc va");
static_assert(sizeof(struct vgpu_mem_free) == 16, "vgpu_mem_free size");
static_assert(sizeof(struct vgpu_mem_query) == 32, "vgpu_mem_query size");
static_assert(offsetof(struct vgpu_mem_query, base) == 16, "vgpu_mem_query base");
static_assert(sizeof(struct vgpu_host_register) == 24, "vgpu_host_register size");
static_assert(sizeof(struct vgpu_host_unregister) == 16, "vgpu_host_unregister size");
static_assert(sizeof(struct vgpu_host_alloc) == 24, "vgpu_host_alloc size");
static_assert(offsetof(struct vgpu_host_alloc, offset) == 16, "vgpu_host_alloc offset");
static_assert(sizeof(struct vgpu_heap_create) == 24, "vgpu_heap_create size");
static_assert(offsetof(struct vgpu_heap_create, va) == 16, "vgpu_heap_create va");
static_assert((VGPU_SEM_TEST_MASK & (VGPU_SEM_TIMESTAMP | VGPU_SEM_32)) == 0, "sem flags");
static_assert(((VGPU_SEM_TEST_MASK | VGPU_SEM_TIMESTAMP | VGPU_SEM_32) &
	       VGPU_SEM_UNSIGNED) == 0, "sem flags");
static_assert(sizeof(struct vgpu_cmd) == 64, "vgpu_cmd size");
static_assert(offsetof(struct vgpu_cmd, copy) == 8, "vgpu_cmd args");
static_assert(sizeof(struct vgpu_cmd_copy) == 56, "vgpu_cmd_copy size");
static_assert(offsetof(struct vgpu_cmd_copy, dst_height) == 52, "vgpu_cmd_copy dst_height");
static_assert(sizeof(struct vgpu_cmd_memset) == 40, "vgpu_cmd_memset size");
static_assert(sizeof(struct vgpu_cmd_sem) == 16, "vgpu_cmd_sem size");
static_assert(sizeof(struct vgpu_cmd_launch) == 56, "vgpu_cmd_launch size");
static_assert(offsetof(struct vgpu_cmd_launch, grid_sync) == 48, "vgpu_cmd_launch grid_sync");
static_assert(sizeof(struct vgpu_cmd_launch) == sizeof(((struct vgpu_cmd *)0)->raw), "vgpu_cmd_launch fills the command");
static_assert(sizeof(struct vgpu_chain_step) == 64, "vgpu_chain_step size");
static_assert(offsetof(struct vgpu_chain_step, launch) == 8, "vgpu_chain_step launch");
static_assert(sizeof(struct vgpu_cmd_chain) == 16, "vgpu_cmd_chain size");
static_assert(offsetof(struct vgpu_cmd, chain) == 8, "vgpu_cmd chain");
static_assert(offsetof(struct vgpu_cmd_chain, nsteps) == 8, "vgpu_cmd_chain nsteps");
static_assert(sizeof(struct vgpu_chan_fault) == 72, "vgpu_chan_fault size");
static_assert(offsetof(struct vgpu_chan_fault, seqno) == 56, "vgpu_chan_fault seqno");
static_assert(offsetof(struct vgpu_chan_fault, step) == 64, "vgpu_chan_fault step");
static_assert(sizeof(struct vgpu_module_load) == 64, "vgpu_module_load size");
static_assert(sizeof(struct vgpu_module_unload) == 8, "vgpu_module_unload size");
static_assert(sizeof(struct vgpu_chan_status) == 32, "vgpu_chan_status size");
static_assert(VGPU_MAX_CHANNELS * sizeof(struct vgpu_chan_status) <= 4096, "status page");
static_assert(sizeof(struct vgpu_chan_create) == 24, "vgpu_chan_create size");
static_assert(sizeof(struct vgpu_chan_submit) == 16, "vgpu_chan_submit size");
static_assert(sizeof(struct vgpu_chan_wait) == 24, "vgpu_chan_wait size");
static_assert(sizeof(struct vgpu_chan_destroy) == 8, "vgpu_chan_destroy size");
static_assert(sizeof(struct vgpu_insn) == 32, "vgpu_insn size");
static_assert(offsetof(struct vgpu_insn, dst) == 8, "vgpu_insn dst");
static_assert(offsetof(struct vgpu_insn, imm) == 24, "vgpu_insn imm");
static_assert(sizeof(struct vgpu_func) == 32, "vgpu_func size");
static_assert(sizeof(struct vgpu_usm_attach) == 8, "vgpu_usm_attach size");
static_assert(sizeof(struct vgpu_usm_wait) == 144, "vgpu_usm_wait size");
static_assert(offsetof(struct vgpu_usm_wait, steps) == 128, "vgpu_usm_wait steps");
static_assert(offsetof(struct vgpu_usm_wait, max_steps) == 136, "vgpu_usm_wait max_steps");
static_assert(offsetof(struct vgpu_usm_wait, nsteps) == 140, "vgpu_usm_wait nsteps");
static_assert(sizeof(struct vgpu_usm_step) == 32, "vgpu_usm_step size");
static_assert(offsetof(struct vgpu_usm_step, dyn_shared) == 20, "vgpu_usm_step dyn_shared");
static_assert(offsetof(struct vgpu_usm_step, param_off) == 28, "vgpu_usm_step param_off");
static_assert(offsetof(struct vgpu_usm_wait, step) == 120, "vgpu_usm_wait step");
static_assert(offsetof(struct vgpu_usm_wait, cookie) == 24, "vgpu_usm_wait cookie");
static_assert(offsetof(struct vgpu_usm_wait, grid) == 48, "vgpu_usm_wait grid");
static_assert(offsetof(struct vgpu_usm_wait, block_idx) == 72, "vgpu_usm_wait block_idx");
static_assert(offsetof(struct vgpu_usm_wait, chan) == 92, "vgpu_usm_wait chan");
static_assert(offsetof(struct vgpu_usm_wait, map_gen) == 96, "vgpu_usm_wait map_gen");
static_assert(offsetof(struct vgpu_usm_wait, max_blocks) == 104, "vgpu_usm_wait max_blocks");
static_assert(offsetof(struct vgpu_usm_wait, nblocks) == 108, "vgpu_usm_wait nblocks");
static_assert(offsetof(struct vgpu_usm_wait, done) == 112, "vgpu_usm_wait done");
static_assert(sizeof(struct vgpu_usm_done) == 40, "vgpu_usm_done size");
static_assert(offsetof(struct vgpu_usm_done, addr) == 16, "vgpu_usm_done addr");
static_assert(offsetof(struct vgpu_usm_done, thread) == 28, "vgpu_usm_done thread");
static_assert(offsetof(struct vgpu_usm_done, block) == 32, "vgpu_usm_done block");
/* The shadow's offsets lie past every host allocation's. */
static_assert(VGPU_SHADOW_OFFSET > (65536ULL + 1) << 32, "shadow offset");
static_assert(_IOC_TYPE(VGPU_IOCTL_GET_INFO) == VGPU_IOCTL_TYPE, "GET_INFO type");
static_assert(_IOC_DIR(VGPU_IOCTL_GET_INFO) == (_IOC_READ | _IOC_WRITE), "GET_INFO dir");

int main(void)
{
	/* Everything above is checked by the compiler. */
	printf("TAP version 13\n1..1\nok 1 uapi_layout\n");
	return 0;
}
