/* SPDX-License-Identifier: MIT */
/*
 * The JIT's product: a PTX module lowered to one vgpu ISA program with
 * its kernels, their parameter layouts, and the module's variables, as
 * cuModuleLoadData needs them (ptx_lower.c writes it, module.c loads it).
 */
#ifndef VG_JIT_H
#define VG_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../uapi/vgpu_isa.h"

/*
 * The JIT's version, part of every cache key and of every compiled module
 * (jit_cache.h). Bump it with any change to what vg_jit_compile emits for
 * the same PTX (instructions, register counts, layouts, the printf FIFO)
 * or to the meaning of a struct vg_jit_image field, so that no image of
 * the old compiler is taken for one of the new. (Cache keys also carry
 * the library's build ID, which covers builds that forgot.)
 */
#define VG_JIT_VERSION "vgpu-jit-11"

/* One kernel parameter: where cuLaunchKernel puts its bytes. */
struct vg_jit_param {
	uint32_t offset;
	uint32_t size;
};

struct vg_jit_kernel {
	char *name;
	struct vgpu_func f;	/* entry, registers, memories, param_bytes */
	struct vg_jit_param *params;
	uint32_t nparams;
	uint32_t ptx_regs;	/* registers the PTX declared (for the info log) */
	bool prints;		/* calls vprintf, itself or through a call */
};

/*
 * A module-scope variable (__device__, __constant__ or __managed__). A
 * managed one's initial bytes are in the global block too, at @offset,
 * after every other variable's (the loader copies them to its managed
 * storage and gives the device block only what precedes them).
 */
struct vg_jit_var {
	char *name;
	bool is_const;		/* __constant__ (read only to kernels) */
	bool managed;		/* __managed__: storage of its own */
	uint8_t ref;		/* VG_JIT_REF_*: a texture, surface or sampler
				 * reference's slot (a descriptor's address) */
	uint64_t offset;	/* in the module's global block */
	uint64_t size;
};

/* vg_jit_var.ref */
#define VG_JIT_REF_NONE 0
#define VG_JIT_REF_TEX 1
#define VG_JIT_REF_SURF 2
#define VG_JIT_REF_SAMPLER 3

/*
 * Where code and initializers name the k-th managed variable of
 * vg_jit_image.vars (in their order): a relocated value at or above
 * VG_JIT_MANAGED_LOW is not an offset in the global block but
 * VG_JIT_MANAGED_ADDR(k) plus an offset, which the loader turns into the
 * address of the variable's own storage plus that offset. Each variable
 * has 4 GiB of this space around it, so that an address computed past
 * its end (an addend up to 2 GiB either way) still names it.
 */
#define VG_JIT_MANAGED_BASE (1ull << 62)
#define VG_JIT_MANAGED_SLOT 32		/* log2 of each variable's space */
#define VG_JIT_MANAGED_ADDR(k) \
	(VG_JIT_MANAGED_BASE + ((uint64_t)(k) << VG_JIT_MANAGED_SLOT))
#define VG_JIT_MANAGED_LOW (VG_JIT_MANAGED_BASE - (1ull << 31))
#define VG_JIT_MANAGED_MAX_BYTES (1ull << 31)	/* a managed variable's */
/* A module's global block (__device__, __constant__, managed data). */
#define VG_JIT_GLOBAL_MAX_BYTES (4ull << 30)
/* The managed variable @v names, and the offset from its start; -1 if none. */
static inline int64_t vg_jit_managed_index(uint64_t v, int64_t *off)
{
	uint64_t k;

	if (v < VG_JIT_MANAGED_LOW)
		return -1;
	k = (v - VG_JIT_MANAGED_LOW) >> VG_JIT_MANAGED_SLOT;
	*off = (int64_t)(v - VG_JIT_MANAGED_ADDR(k));
	return k > (uint64_t)INT32_MAX ? -1 : (int64_t)k;
}

/*
 * Kernel printf: records go to the context's FIFO, which a module that
 * calls vprintf finds through the u64 at @printf_off in its global block
 * (the FIFO's device address; libvgpu/printf.c allocates the FIFO at the
 * first launch of a kernel that prints and writes the address). The
 * FIFO: a header of VG_PRINTF_HEADER bytes (u64 bytes reserved since the
 * last drain, u64 capacity), then the capacity's bytes used as a ring,
 * then VG_PRINTF_MAX_RECORD bytes a record that starts near the end of
 * the ring runs on into. A record: u32 size (all of it, 8-aligned), u32
 * count of argument bytes, u64 position (the reserved count where it
 * starts: once the ring wrapped, the host finds the whole records among
 * the newest bytes by it), u64 format address, and the argument bytes as
 * vprintf received them.
 */
#define VG_PRINTF_HEADER 64
#define VG_PRINTF_RECORD_HEAD 24
#define VG_PRINTF_MAX_ARGS 256	/* argument bytes a record keeps */
#define VG_PRINTF_MAX_RECORD (VG_PRINTF_RECORD_HEAD + VG_PRINTF_MAX_ARGS)

/*
 * A failed assert (ptx_assert.c): a record whose count has VG_PRINTF_ASSERT
 * set, whose format address is the message's, and whose VG_ASSERT_ARGS
 * argument bytes are: u64 file address, u64 function address, u32 line,
 * u32 block x, y, z and thread x, y, z. The thread then traps with
 * VGPU_TRAP_ASSERT: the host finds that trap at the fault's instruction
 * and reports CUDA_ERROR_ASSERT.
 */
#define VG_PRINTF_ASSERT 0x80000000u
#define VG_ASSERT_FILE 0
#define VG_ASSERT_FUNC 8
#define VG_ASSERT_LINE 16
#define VG_ASSERT_COORDS 20
#define VG_ASSERT_ARGS 48	/* 44 bytes, whole words */
#define VG_ASSERT_RECORD (VG_PRINTF_RECORD_HEAD + VG_ASSERT_ARGS)

/* Where an instruction came from: files[file - 1], line (0: unknown). */
struct vg_jit_src {
	uint32_t file;
	uint32_t line;
};

struct vg_jit_image {
	struct vgpu_insn *insns;
	uint32_t ninsns;
	struct vg_jit_kernel *kernels;
	uint32_t nkernels;
	struct vg_jit_var *vars;
	uint32_t nvars;
	uint8_t *globals;	/* the initial global block (__device__ and
				 * __constant__ variables) */
	uint64_t global_bytes;
	bool has_printf;
	uint64_t printf_off;	/* the FIFO's address, when @has_printf */
	/*
	 * Instructions whose @imm is an offset in the global block: the
	 * loader adds the block's device address before loading.
	 */
	uint32_t *relocs;
	uint32_t nrelocs;
	/*
	 * Offsets in the global block of 64-bit values that are offsets in
	 * the block (variables' addresses in initializers): the loader adds
	 * the block's device address to each before copying it in.
	 */
	uint64_t *data_relocs;
	uint32_t ndata_relocs;
	/*
	 * Source lines, when the PTX carries them (nvcc -lineinfo, -G): one
	 * entry per instruction, and the file names; else NULL and 0.
	 */
	struct vg_jit_src *src;
	char **files;
	uint32_t nfiles;
};

/*
 * Compiles PTX text. Returns 0 with *@out, or with "LINE:COL: message" in
 * @err: -1 (PTX that is malformed or uses what vgpu does not support), or
 * a VG_JIT_REFUSED_* code for what NVIDIA's driver refuses with an error
 * of its own (the queries an H100 does not answer for texture and surface
 * objects: CUDA_ERROR_INVALID_HANDLE for txq's, CUDA_ERROR_NOT_SUPPORTED
 * for suq's).
 */
#define VG_JIT_REFUSED_HANDLE 2
#define VG_JIT_REFUSED_UNSUPPORTED 3
/* "file.cu:LINE" of instruction @insn into @buf, or "" when unknown. */
void vg_jit_where(const struct vg_jit_image *img, uint32_t insn, char *buf,
		  size_t len);

int vg_jit_compile(const char *ptx, size_t len, struct vg_jit_image **out,
		   char *err, size_t err_len);
void vg_jit_free(struct vg_jit_image *img);

/*
 * Linking PTX modules into one (ptx_link.c), for cuLink* (link.c). Each
 * input is a whole PTX module with its own header, so the inputs cannot
 * simply be concatenated: they are merged at the level of their top-level
 * declarations, as a device linker would merge objects.
 */
struct ptx_module;

struct vg_link_input {
	char *name;		/* as given to cuLinkAddData, for messages */
	char *text;		/* the PTX, NUL-terminated */
	size_t len;
	struct ptx_module *m;	/* parsed by vg_link_parse() */
};

/* Where a run of the merged text's lines came from. */
struct vg_link_span {
	uint32_t line;		/* first line in the merged text */
	uint32_t input;
	uint32_t in_line;	/* the same line in the input */
};

struct vg_link_out {
	char *text;		/* the merged module, NUL-terminated */
	size_t len;
	struct vg_link_span *spans;
	uint32_t nspans;
};

/*
 * Parses @in's text into @in->m. Returns 0, or -1 with
 * "NAME:LINE:COL: message" in @err.
 */
int vg_link_parse(struct vg_link_input *in, char *err, size_t err_len);
/* Frees what vg_link_parse() made of @in (its text stays the caller's). */
void vg_link_unparse(struct vg_link_input *in);

/*
 * The symbol rules of a link over @n parsed inputs. A visible (or weak)
 * definition is global: two non-weak ones of a name are an error, a weak
 * one yields to a non-weak one or to the first. An extern declaration
 * binds to the global definition of its name; a variable that has none
 * is an error (dynamic .extern .shared arrays excepted), a function that
 * has none is left to the JIT, which knows its built-in functions
 * (vprintf). Definitions that are not visible stay private to their
 * input and are renamed where another input uses the same name.
 *
 * vg_link_check reports the first multiple definition; vg_link_merge
 * applies the rules and writes the merged PTX. Both return 0, or -1 with
 * an nvlink-style message ("error   : Undefined reference to 'f' in
 * 'a.ptx'") in @err.
 */
int vg_link_check(const struct vg_link_input *in, unsigned int n, char *err,
		  size_t err_len);
int vg_link_merge(const struct vg_link_input *in, unsigned int n,
		  struct vg_link_out *out, char *err, size_t err_len);
void vg_link_out_free(struct vg_link_out *out);

/*
 * Rewrites the JIT's "LINE:COL: message" about the merged text as
 * "NAME:LINE:COL: message" about the input the line came from.
 */
void vg_link_where(const struct vg_link_out *out,
		   const struct vg_link_input *in, const char *jit_err,
		   char *buf, size_t size);

#endif /* VG_JIT_H */
