// SPDX-License-Identifier: MIT
/*
 * The PTX lexer: splits the text into words, directives, numbers, strings
 * and punctuation, skipping blanks and comments. Columns count bytes.
 */
#include <stdio.h>
#include <string.h>

#include "ptx_lex.h"

static int ptx_is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int ptx_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Characters that may follow the first one of a name. */
static int ptx_is_name(char c)
{
	return ptx_is_alpha(c) || ptx_is_digit(c) || c == '_' || c == '$';
}

void ptx_lex_init(struct ptx_lex *lx, const char *text, size_t len)
{
	lx->p = text;
	lx->end = text + len;
	lx->line_start = text;
	lx->line = 1;
}

static struct ptx_pos ptx_lex_pos(const struct ptx_lex *lx, const char *at)
{
	struct ptx_pos pos = { lx->line, (uint32_t)(at - lx->line_start) + 1 };

	return pos;
}

static void ptx_lex_error(struct ptx_tok *t, struct ptx_pos pos,
			  const char *msg)
{
	t->kind = PTX_TK_ERROR;
	t->pos = pos;
	snprintf(t->msg, sizeof(t->msg), "%s", msg);
}

static void ptx_lex_newline(struct ptx_lex *lx)
{
	lx->p++;
	lx->line++;
	lx->line_start = lx->p;
}

/* Returns false, with the error in @t, for an unterminated comment. */
static int ptx_lex_skip(struct ptx_lex *lx, struct ptx_tok *t)
{
	while (lx->p < lx->end) {
		char c = *lx->p;
		int two = lx->end - lx->p >= 2;

		if (c == '\n') {
			ptx_lex_newline(lx);
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			lx->p++;
		} else if (c == '/' && two && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && two && lx->p[1] == '*') {
			struct ptx_pos start = ptx_lex_pos(lx, lx->p);

			lx->p += 2;
			for (;;) {
				if (lx->end - lx->p < 2) {
					lx->p = lx->end;
					ptx_lex_error(t, start,
						      "unterminated comment");
					return 0;
				}
				if (lx->p[0] == '*' && lx->p[1] == '/')
					break;
				if (*lx->p == '\n')
					ptx_lex_newline(lx);
				else
					lx->p++;
			}
			lx->p += 2;
		} else {
			break;
		}
	}
	return 1;
}

/*
 * Name characters, and "::" inside a name (ld.global.L1::no_allocate,
 * .shared::cta); a single ':' ends it, as after a label.
 */
static void ptx_lex_name(struct ptx_lex *lx, int dots)
{
	while (lx->p < lx->end) {
		if (ptx_is_name(*lx->p) || (dots && *lx->p == '.'))
			lx->p++;
		else if (lx->end - lx->p >= 3 && lx->p[0] == ':' &&
			 lx->p[1] == ':' && ptx_is_name(lx->p[2]))
			lx->p += 2;
		else
			break;
	}
}

static void ptx_lex_string(struct ptx_lex *lx, struct ptx_tok *t)
{
	lx->p++;
	t->s = lx->p;
	while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n') {
		if (*lx->p == '\\' && lx->end - lx->p >= 2 && lx->p[1] != '\n')
			lx->p++;
		lx->p++;
	}
	if (lx->p == lx->end || *lx->p != '"') {
		ptx_lex_error(t, t->pos, "unterminated string");
		return;
	}
	t->len = (size_t)(lx->p - t->s);
	lx->p++;
	t->kind = PTX_TK_STR;
}

void ptx_lex_next(struct ptx_lex *lx, struct ptx_tok *t)
{
	char c;

	if (!ptx_lex_skip(lx, t))
		return;
	t->pos = ptx_lex_pos(lx, lx->p);
	t->s = lx->p;
	t->len = 0;
	if (lx->p == lx->end) {
		t->kind = PTX_TK_EOF;
		return;
	}
	c = *lx->p;
	if (ptx_is_alpha(c) || c == '_' || c == '$' || c == '%') {
		lx->p++;
		ptx_lex_name(lx, 1);
		t->kind = PTX_TK_WORD;
	} else if (c == '.' && lx->end - lx->p >= 2 && ptx_is_name(lx->p[1])) {
		lx->p++;
		ptx_lex_name(lx, 0);
		t->kind = PTX_TK_DIR;
	} else if (ptx_is_digit(c)) {
		while (lx->p < lx->end && (ptx_is_name(*lx->p) || *lx->p == '.'))
			lx->p++;
		t->kind = PTX_TK_NUM;
	} else if (c == '"') {
		ptx_lex_string(lx, t);
		return;
	} else if (c && strchr(",;:{}[]()<>+-@!|=", c)) {
		lx->p++;
		t->kind = PTX_TK_PUNCT;
	} else {
		char msg[32];

		if (c > ' ' && c < 127)
			snprintf(msg, sizeof(msg), "unexpected character '%c'", c);
		else
			snprintf(msg, sizeof(msg), "unexpected character 0x%02x",
				 (unsigned char)c);
		lx->p++;
		ptx_lex_error(t, t->pos, msg);
		return;
	}
	t->len = (size_t)(lx->p - t->s);
}
