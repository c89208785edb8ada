// SPDX-License-Identifier: MIT
/*
 * Kernel printf: the context's FIFO (see jit.h), and the records kernels
 * append to it, formatted here, on the host, at synchronizing calls, and
 * written to stdout, as CUDA prints them. Arguments sit in the record as
 * vprintf packs them: each at its natural alignment, float promoted to
 * double, char to int.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vg.h"

/* Appends to @out (@size bytes, *@len used), NUL-terminated, truncating. */
static void vg_put(char *out, size_t size, size_t *len, const char *s, size_t n)
{
	if (*len + 1 >= size)
		return;
	if (n > size - 1 - *len)
		n = size - 1 - *len;
	memcpy(out + *len, s, n);
	*len += n;
	out[*len] = 0;
}

/* The next argument of @bytes, aligned; false when the record ends. */
static bool vg_arg(const unsigned char *args, size_t nargs, size_t *at,
		   size_t bytes, void *val)
{
	size_t a = (*at + bytes - 1) / bytes * bytes;

	if (a > nargs || bytes > nargs - a)
		return false;
	memcpy(val, args + a, bytes);
	*at = a + bytes;
	return true;
}

/**
 * vg_printf_format() - formats one record into @out (@size bytes).
 * @str: reads the NUL-terminated string at device address @addr (for %s)
 * into @buf (@len bytes); returns its length.
 * Return: the length written.
 */
size_t vg_printf_format(char *out, size_t size, const char *fmt,
			const unsigned char *args, size_t nargs,
			size_t (*str)(void *arg, uint64_t addr, char *buf,
				      size_t len), void *str_arg)
{
	size_t len = 0, at = 0;
	const char *p = fmt;

	if (size)
		out[0] = 0;
	while (*p) {
		char spec[32], piece[512], sbuf[512];
		const char *start = p, *lenmod;
		size_t sl, wide;
		int n = 0;

		if (*p != '%' || p[1] == '%') {
			vg_put(out, size, &len, p, 1);
			p += *p == '%' ? 2 : 1;
			continue;
		}
		p++;
		while (*p && strchr("-+ #0", *p))
			p++;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
		lenmod = p;
		while (*p && strchr("hlLqjzt", *p))
			p++;
		if (!*p || (size_t)(p + 1 - start) >= sizeof(spec)) {
			vg_put(out, size, &len, start, strlen(start));
			break;
		}
		/* The spec without its length modifier; values come widened. */
		sl = (size_t)(lenmod - start);
		memcpy(spec, start, sl);
		wide = (size_t)(p - lenmod);
		switch (*p) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
			bool big = wide && *lenmod != 'h';
			long long v = 0;

			if (big) {
				int64_t v64;

				if (!vg_arg(args, nargs, &at, 8, &v64))
					goto out;
				v = v64;
			} else {
				int32_t v32;

				if (!vg_arg(args, nargs, &at, 4, &v32))
					goto out;
				v = *p == 'd' || *p == 'i' ? v32 : (long long)(uint32_t)v32;
			}
			if (*p == 'c') {
				spec[sl] = 'c';
				spec[sl + 1] = 0;
				n = snprintf(piece, sizeof(piece), spec, (int)v);
			} else {
				spec[sl] = 'l';
				spec[sl + 1] = 'l';
				spec[sl + 2] = *p;
				spec[sl + 3] = 0;
				n = snprintf(piece, sizeof(piece), spec, v);
			}
			break;
		}
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
		case 'a': case 'A': {
			double d;

			if (!vg_arg(args, nargs, &at, 8, &d))
				goto out;
			spec[sl] = *p;
			spec[sl + 1] = 0;
			n = snprintf(piece, sizeof(piece), spec, d);
			break;
		}
		case 'p': case 's': {
			uint64_t v;

			if (!vg_arg(args, nargs, &at, 8, &v))
				goto out;
			spec[sl] = *p;
			spec[sl + 1] = 0;
			if (*p == 'p') {
				n = snprintf(piece, sizeof(piece), spec,
					     (void *)(uintptr_t)v);
			} else if (!v) {
				n = snprintf(piece, sizeof(piece), spec, "(null)");
			} else {
				str(str_arg, v, sbuf, sizeof(sbuf));
				n = snprintf(piece, sizeof(piece), spec, sbuf);
			}
			break;
		}
		default:
			/* Not a conversion CUDA formats: printed as written. */
			n = snprintf(piece, sizeof(piece), "%.*s",
				     (int)(p + 1 - start), start);
			break;
		}
		if (n > 0)
			vg_put(out, size, &len, piece,
			       (size_t)n < sizeof(piece) ? (size_t)n : sizeof(piece) - 1);
		p++;
	}
out:
	return len;
}

struct vg_str_ctx {
	struct CUctx_st *ctx;
	const struct CUmod_st *mod;
};

/* A string a kernel passed to %s: the module's own data, or the device's. */
static size_t vg_dev_string(void *arg, uint64_t addr, char *buf, size_t len)
{
	const struct vg_str_ctx *sc = arg;
	const struct CUmod_st *mod = sc->mod;
	size_t i;

	buf[0] = 0;
	if (addr >= mod->globals && addr - mod->globals < mod->img->global_bytes) {
		const char *s = (const char *)mod->img->globals + (addr - mod->globals);
		size_t max = mod->img->global_bytes - (addr - mod->globals);

		for (i = 0; i + 1 < len && i < max && s[i]; i++)
			buf[i] = s[i];
		buf[i] = 0;
		return i;
	}
	for (i = 0; i + 1 < len; i++)
		if (vg_dtoh(&sc->ctx->legacy, buf + i, addr + i, 1, false, false) ||
		    !buf[i])
			break;
	buf[i] = 0;
	return i;
}

/* The module whose data holds @addr, a format string, or NULL. */
static const struct CUmod_st *vg_fmt_module(const struct CUctx_st *ctx,
					    uint64_t addr)
{
	const struct CUmod_st *mod;

	for (mod = ctx->modules; mod; mod = mod->next)
		if (mod->img->has_printf && addr >= mod->globals &&
		    addr - mod->globals < mod->img->global_bytes)
			return mod;
	return NULL;
}

/* A format string: kernels pass string literals, the module's data. */
static const char *vg_fmt_string(const struct CUmod_st *mod, uint64_t addr)
{
	const struct vg_jit_image *img = mod->img;

	if (addr < mod->globals || addr - mod->globals >= img->global_bytes ||
	    !memchr(img->globals + (addr - mod->globals), 0,
		    img->global_bytes - (addr - mod->globals)))
		return NULL;
	return (const char *)img->globals + (addr - mod->globals);
}

/*
 * A failed assert's record (jit.h), on stderr in the words of NVIDIA's
 * driver: "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z]
 * Assertion `MESSAGE` failed."
 */
static void vg_printf_assert(struct vg_str_ctx *sc, const unsigned char *rec,
			     uint64_t msg)
{
	const unsigned char *a = rec + VG_PRINTF_RECORD_HEAD;
	char file[1024], func[1024], text[2048];
	uint32_t line, c[6];
	uint64_t addr;

	memcpy(&addr, a + VG_ASSERT_FILE, 8);
	vg_dev_string(sc, addr, file, sizeof(file));
	memcpy(&addr, a + VG_ASSERT_FUNC, 8);
	vg_dev_string(sc, addr, func, sizeof(func));
	vg_dev_string(sc, msg, text, sizeof(text));
	memcpy(&line, a + VG_ASSERT_LINE, 4);
	memcpy(c, a + VG_ASSERT_COORDS, sizeof(c));
	fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
		file, line, func, c[0], c[1], c[2], c[3], c[4], c[5], text);
}

/* Formats and prints the record at @rec, if its format is known. */
static void vg_printf_record(struct CUctx_st *ctx, const unsigned char *rec,
			     uint32_t nargs, uint64_t fmt)
{
	struct vg_str_ctx sc = { ctx, vg_fmt_module(ctx, fmt) };
	char line[4096];
	const char *f;

	if (!sc.mod)
		return;
	if (nargs & VG_PRINTF_ASSERT) {
		vg_printf_assert(&sc, rec, fmt);
		return;
	}
	f = vg_fmt_string(sc.mod, fmt);
	if (!f)
		return;
	vg_printf_format(line, sizeof(line), f, rec + VG_PRINTF_RECORD_HEAD,
			 nargs, vg_dev_string, &sc);
	fputs(line, stdout);
}

/*
 * Prints the records of the FIFO's @n bytes in @buf, @head bytes having
 * been reserved in a ring of @cap. Records are whole words. Once the ring
 * wrapped, the newest @cap bytes hold whole records (a record never
 * reaches past the one reserved after it, the last ends at @head), and
 * where the first of them starts is found by the position each keeps.
 */
void vg_printf_records(struct CUctx_st *ctx, const unsigned char *buf,
		       size_t n, uint64_t head, uint64_t cap)
{
	uint64_t v = head > cap ? head - cap : 0;

	v = (v + 7) & ~(uint64_t)7;
	while (v < head && head - v >= VG_PRINTF_RECORD_HEAD) {
		uint64_t at = v % cap, pos, fmt;
		uint32_t size, nargs;

		if (at + VG_PRINTF_RECORD_HEAD > n)
			break;
		memcpy(&size, buf + at, 4);
		memcpy(&nargs, buf + at + 4, 4);
		memcpy(&pos, buf + at + 8, 8);
		memcpy(&fmt, buf + at + 16, 8);
		if (pos != v || size < VG_PRINTF_RECORD_HEAD || size % 8 ||
		    size > VG_PRINTF_MAX_RECORD || size > head - v ||
		    size > n - at ||
		    (nargs & ~VG_PRINTF_ASSERT) > size - VG_PRINTF_RECORD_HEAD) {
			v += 8;		/* inside an older record */
			continue;
		}
		vg_printf_record(ctx, buf + at, nargs, fmt);
		v += size;
	}
}

/* Prints what the FIFO holds and empties it; true if it held anything. */
static bool vg_printf_fifo(struct CUctx_st *ctx)
{
	unsigned char *fifo = (unsigned char *)(uintptr_t)ctx->printf_fifo;
	uint64_t head = __atomic_load_n((uint64_t *)fifo, __ATOMIC_ACQUIRE);
	uint64_t cap = ctx->printf_cap;

	if (!head)
		return false;
	vg_printf_records(ctx, fifo + VG_PRINTF_HEADER,
			  head <= cap ? head : cap + VG_PRINTF_MAX_RECORD, head, cap);
	__atomic_store_n((uint64_t *)fifo, 0, __ATOMIC_RELEASE);
	return true;
}

/**
 * vg_printf_bind() - readies the printf FIFO for a launch on @st of a
 * kernel that prints, with the context's lock held: the context's FIFO,
 * of the limit's size, is allocated the first time (the limit is fixed
 * from then on, so it is read without vg_lock) and its address written
 * into every module that prints; modules loaded later get it at load
 * (module.c). The writes are done before the launch can run on any
 * stream, so the first printing launch waits for @st's earlier work.
 * Return: CUDA_SUCCESS, or the error of the allocation or a write.
 */
CUresult vg_printf_bind(struct CUctx_st *ctx, struct CUstream_st *st)
{
	uint64_t cap = ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (VG_PRINTF_HEADER + cap + VG_PRINTF_MAX_RECORD + page - 1) &
		     ~(page - 1);
	struct vgpu_host_alloc ha = { .size = len };
	const uint64_t hdr[2] = { 0, cap };
	struct CUmod_st *mod;
	uint64_t va;
	CUresult r = CUDA_SUCCESS;
	void *p;

	if (ctx->printf_fifo)
		return CUDA_SUCCESS;
	if (ioctl(ctx->fd, VGPU_IOCTL_HOST_ALLOC, &ha))
		return CUDA_ERROR_OUT_OF_MEMORY;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd,
		 (off_t)ha.offset);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(p, hdr, sizeof(hdr));
	va = (uintptr_t)p;
	for (mod = ctx->modules; mod && !r; mod = mod->next)
		if (mod->img->has_printf)
			r = vg_htod(st, mod->globals + mod->img->printf_off,
				    &va, 8, false, false);
	if (!r)
		r = vg_chan_wait(st->ch, st->ch->put, false);
	if (r) {
		vg_chan_wait(st->ch, st->ch->put, false);
		munmap(p, len);
		return r;
	}
	ctx->printf_fifo = va;
	ctx->printf_cap = cap;
	ctx->printf_map = len;
	return CUDA_SUCCESS;
}

/*
 * Prints what the context's kernels wrote, once it is idle: a kernel still
 * running could be writing records while the FIFO is emptied. (The legacy
 * stream's reads then wait for nothing.)
 */
void vg_printf_drain(struct CUctx_st *ctx)
{
	unsigned int i;

	/*
	 * One drain at a time: the staged reads below drop the context's
	 * lock, and a second drain would print the same records again.
	 */
	if (ctx->draining || !ctx->printf_fifo)
		return;
	for (i = 0; i < ctx->nchans; i++)
		if (!vg_chan_reached(ctx->chans[i], ctx->chans[i]->put))
			return;
	ctx->draining = true;
	if (vg_printf_fifo(ctx))
		fflush(stdout);
	ctx->draining = false;
	pthread_cond_broadcast(&ctx->drained);
}
