/* SPDX-License-Identifier: MIT */
/*
 * Linking PTX modules into one (link_ptx.c), for cuLink* (link.c). Each
 * input is a whole PTX module with its own header, so the inputs cannot
 * simply be concatenated: they are merged at the level of their top-level
 * declarations, as a device linker would merge objects.
 */
#ifndef VG_LINK_H
#define VG_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "ptx.h"

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

#endif /* VG_LINK_H */
