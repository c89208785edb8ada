// SPDX-License-Identifier: MIT
/*
 * cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete and
 * cuLinkDestroy: PTX inputs (and the PTX of fatbins) linked into one
 * module (jit/ptx_link.c), compiled by the JIT, and handed back in vgpu's
 * compiled-module format, which cuModuleLoadData accepts.
 *
 * Codes follow NVIDIA's driver (580, H100): a NULL handle, or a second
 * cuLinkComplete, is CUDA_ERROR_INVALID_HANDLE; NULL data, size 0, or an
 * input added after completion CUDA_ERROR_INVALID_VALUE; bad PTX
 * CUDA_ERROR_INVALID_PTX and the input is not added; text that is not PTX,
 * a cubin that is not an ELF file, or a bad fatbin CUDA_ERROR_INVALID_IMAGE;
 * NVVM CUDA_ERROR_JIT_COMPILER_NOT_FOUND; a host object or library, PTX
 * without its NUL within @size, an undefined reference or a multiple
 * definition CUDA_ERROR_UNKNOWN, the last making every later call fail.
 * vgpu adds: a cubin (machine code) is CUDA_ERROR_NO_BINARY_FOR_GPU, as in
 * cuModuleLoadData.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"
#include "jit_cache.h"
#include "vg.h"

#define VG_LINK_MAGIC 0x6c696e6bu	/* "link" */

struct CUlinkState_st {
	uint32_t magic;		/* VG_LINK_MAGIC while the state lives */
	unsigned int cc;	/* the device's, for fatbin inputs */
	struct vg_link_input *in;
	unsigned int n, cap;
	/* The logs: the caller's buffers, and where to report their use. */
	char *error, *info;
	size_t error_size, info_size;
	void **error_used, **info_used;
	CUresult sticky;	/* a multiple definition: fails all that follows */
	bool done;		/* cuLinkComplete succeeded */
	unsigned char *cubin;	/* its result, owned here */
	size_t cubin_len;
};

/*
 * Writes a log and its use into the option value, as NVIDIA's driver
 * does: bytes with the NUL, 0 for an empty log. The option arrays given to
 * cuLinkCreate must live as long as the state, as there.
 */
static void vg_log_put(char *buf, size_t size, void **used, const char *msg)
{
	size_t n;

	if (!buf || !size)
		return;
	snprintf(buf, size, "%s", msg);
	n = strlen(buf);
	if (used)
		*used = (void *)(uintptr_t)(n ? n + 1 : 0);
}

__attribute__((format(printf, 3, 4)))
static CUresult vg_link_fail(CUlinkState s, CUresult r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vg_log_put(s->error, s->error_size, s->error_used, msg);
	return r;
}

static bool vg_link_ok(CUlinkState s)
{
	return s && s->magic == VG_LINK_MAGIC;
}

/* The options of cuLinkCreate; an input's own are checked, not used. */
static CUresult vg_link_options(CUlinkState s, unsigned int n,
				const CUjit_option *opts, void **values)
{
	unsigned int i;

	if (n && (!opts || !values))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < n; i++) {
		if ((unsigned int)opts[i] >= CU_JIT_NUM_OPTIONS)
			return CUDA_ERROR_INVALID_VALUE;
		if (!s)
			continue;
		switch (opts[i]) {
		case CU_JIT_ERROR_LOG_BUFFER:
			s->error = values[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			s->error_size = (unsigned int)(uintptr_t)values[i];
			s->error_used = &values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER:
			s->info = values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			s->info_size = (unsigned int)(uintptr_t)values[i];
			s->info_used = &values[i];
			break;
		default:
			break;	/* tuning only */
		}
	}
	return CUDA_SUCCESS;
}

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options,
			 void **optionValues, CUlinkState *stateOut)
{
	const struct vgpu_info *info;
	struct CUctx_st *ctx;
	CUlinkState s;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!stateOut)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	info = r ? NULL : &vg_devices[ctx->dev].info;
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	r = vg_link_options(NULL, numOptions, options, optionValues);
	if (r)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	s->magic = VG_LINK_MAGIC;
	s->cc = info->cc_major * 10 + info->cc_minor;
	vg_link_options(s, numOptions, options, optionValues);
	*stateOut = s;
	return CUDA_SUCCESS;
}

/* Takes @text (malloc'd, NUL-terminated) as the state's next input. */
static CUresult vg_link_add_ptx(CUlinkState s, char *text, size_t len,
				const char *name)
{
	struct vg_link_input *in;
	char err[1024];

	if (s->n == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 4;

		in = realloc(s->in, cap * sizeof(*in));
		if (!in) {
			free(text);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		s->in = in;
		s->cap = cap;
	}
	in = &s->in[s->n];
	*in = (struct vg_link_input){ .text = text, .len = len,
				      .name = strdup(name) };
	if (!in->name) {
		free(text);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (vg_link_parse(in, err, sizeof(err))) {
		free(in->name);
		free(text);
		return vg_link_fail(s, CUDA_ERROR_INVALID_PTX, "%s", err);
	}
	s->n++;
	if (vg_link_check(s->in, s->n, err, sizeof(err))) {
		s->sticky = CUDA_ERROR_UNKNOWN;
		return vg_link_fail(s, s->sticky, "%s", err);
	}
	return CUDA_SUCCESS;
}

/* The PTX of a PTX or fatbin input, as a NUL-terminated copy. */
static CUresult vg_link_input_ptx(CUlinkState s, CUjitInputType type,
				  const void *data, size_t size, const char *name,
				  char **text, size_t *len)
{
	char log[256] = "";
	int r;

	*text = NULL;
	if (type == CU_JIT_INPUT_FATBINARY) {
		r = vg_fatbin_ptx_sized(data, size, s->cc, text, len, log,
					sizeof(log));
		if (r == VG_FATBIN_NO_PTX)
			return vg_link_fail(s, CUDA_ERROR_NO_BINARY_FOR_GPU,
					    "error   : '%s': %s", name, log);
		if (r)
			return vg_link_fail(s, r == VG_FATBIN_NOMEM ?
					    CUDA_ERROR_OUT_OF_MEMORY :
					    CUDA_ERROR_INVALID_IMAGE,
					    "error   : '%s': %s", name, log);
		return CUDA_SUCCESS;
	}
	/* PTX: text whose NUL lies within @size. */
	*len = strnlen(data, size);
	if (*len == size)
		return vg_link_fail(s, CUDA_ERROR_UNKNOWN,
				    "error   : PTX input '%s' has no NUL within its %zu bytes",
				    name, size);
	if (vg_image_kind(data) != VG_IMAGE_PTX)
		return vg_link_fail(s, CUDA_ERROR_INVALID_IMAGE,
				    "error   : '%s' is not PTX text", name);
	*text = malloc(*len + 1);
	if (!*text)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(*text, data, *len + 1);
	return CUDA_SUCCESS;
}

static CUresult vg_link_add(CUlinkState s, CUjitInputType type,
			    const void *data, size_t size, const char *name)
{
	char *text;
	size_t len;
	CUresult r;

	switch (type) {
	case CU_JIT_INPUT_PTX:
	case CU_JIT_INPUT_FATBINARY:
		r = vg_link_input_ptx(s, type, data, size, name, &text, &len);
		return r ? r : vg_link_add_ptx(s, text, len, name);
	case CU_JIT_INPUT_CUBIN:
		if (size >= 4 && vg_image_kind(data) == VG_IMAGE_ELF)
			return vg_link_fail(s, CUDA_ERROR_NO_BINARY_FOR_GPU,
					    "error   : '%s' holds machine code only; vgpu links PTX",
					    name);
		return vg_link_fail(s, CUDA_ERROR_INVALID_IMAGE,
				    "error   : '%s' is not a cubin vgpu can link; give the PTX",
				    name);
	case CU_JIT_INPUT_OBJECT:
	case CU_JIT_INPUT_LIBRARY:
		return vg_link_fail(s, CUDA_ERROR_UNKNOWN,
				    "fatal   : vgpu does not link host objects or libraries ('%s'); give the fatbin or the PTX",
				    name);
	case CU_JIT_INPUT_NVVM:
		return vg_link_fail(s, CUDA_ERROR_JIT_COMPILER_NOT_FOUND,
				    "error   : '%s': vgpu has no NVVM compiler", name);
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data,
			  size_t size, const char *name,
			  unsigned int numOptions, CUjit_option *options,
			  void **optionValues)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!vg_link_ok(state))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!data || !size || state->done)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_link_options(NULL, numOptions, options, optionValues);
	if (r)
		return r;
	if (state->sticky)
		return state->sticky;
	return vg_link_add(state, type, data, size, name ? name : "");
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type,
			  const char *path, unsigned int numOptions,
			  CUjit_option *options, void **optionValues)
{
	size_t len;
	char *buf;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!vg_link_ok(state))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!path || state->done)
		return CUDA_ERROR_INVALID_VALUE;
	buf = vg_read_file(path, &len);
	if (!buf)
		return errno == ENOMEM || errno == EFBIG ?
			CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_FILE_NOT_FOUND;
	/* A PTX file has no NUL of its own: the size given covers ours. */
	r = cuLinkAddData_v2(state, type, buf, type == CU_JIT_INPUT_PTX ? len + 1 : len,
			     path, numOptions, options, optionValues);
	free(buf);
	return r;
}

/* Links, compiles and writes the module: the state's result. */
static CUresult vg_link_build(CUlinkState s, struct vg_jit_image **img)
{
	struct vg_link_out out;
	char err[1024], where[1024];

	if (vg_link_merge(s->in, s->n, &out, err, sizeof(err)))
		return vg_link_fail(s, CUDA_ERROR_UNKNOWN, "%s", err);
	if (vg_jit_compile_cached(out.text, out.len, img, err, sizeof(err))) {
		vg_link_where(&out, s->in, err, where, sizeof(where));
		vg_link_out_free(&out);
		return vg_link_fail(s, CUDA_ERROR_INVALID_PTX, "%s", where);
	}
	vg_link_out_free(&out);
	return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
	struct vg_jit_image *img = NULL, none = { 0 };
	char info[4096];
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!vg_link_ok(state) || state->done)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!cubinOut || !sizeOut)
		return CUDA_ERROR_INVALID_VALUE;
	if (state->sticky)
		return state->sticky;
	/* No input links to a module of nothing, as on NVIDIA's driver. */
	if (state->n) {
		r = vg_link_build(state, &img);
		if (r)
			return r;
	}
	if (vg_modfile_save(img ? img : &none, &state->cubin, &state->cubin_len)) {
		vg_jit_free(img);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	vg_image_describe(img ? img : &none, info, sizeof(info));
	vg_log_put(state->info, state->info_size, state->info_used, info);
	vg_jit_free(img);
	state->done = true;
	*cubinOut = state->cubin;
	*sizeOut = state->cubin_len;
	return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state)
{
	unsigned int i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!vg_link_ok(state))
		return CUDA_ERROR_INVALID_HANDLE;
	for (i = 0; i < state->n; i++) {
		vg_link_unparse(&state->in[i]);
		free(state->in[i].text);
		free(state->in[i].name);
	}
	free(state->in);
	free(state->cubin);
	state->magic = 0;
	free(state);
	return CUDA_SUCCESS;
}
