/* SPDX-License-Identifier: MIT */
/*
 * The PTX lexer as the parser sees it: tokens with their line and column,
 * read from text that need not be NUL-terminated.
 */
#ifndef VG_PTX_LEX_H
#define VG_PTX_LEX_H

#include <stddef.h>

#include "ptx.h"

enum ptx_tok_kind {
	PTX_TK_EOF,
	PTX_TK_WORD,	/* opcode, register, name: "ld.global.f32", "%tid.x" */
	PTX_TK_DIR,	/* ".reg", with the dot */
	PTX_TK_NUM,	/* "16", "0x1fU", "0f3F800000", "9.0": checked later */
	PTX_TK_STR,	/* the text between the quotes, escapes left as is */
	PTX_TK_PUNCT,	/* one of , ; : { } [ ] ( ) < > + - @ ! | = */
	PTX_TK_ERROR,	/* @msg says why; @pos where */
};

struct ptx_tok {
	enum ptx_tok_kind kind;
	const char *s;		/* into the text, not NUL-terminated */
	size_t len;
	struct ptx_pos pos;
	char msg[48];		/* PTX_TK_ERROR */
};

struct ptx_lex {
	const char *p, *end;
	const char *line_start;
	uint32_t line;
};

void ptx_lex_init(struct ptx_lex *lx, const char *text, size_t len);
void ptx_lex_next(struct ptx_lex *lx, struct ptx_tok *t);

#endif /* VG_PTX_LEX_H */
