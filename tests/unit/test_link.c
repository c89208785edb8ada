// SPDX-License-Identifier: MIT
/*
 * The PTX linker (libvgpu/jit/ptx_link.c): modules whose .extern functions
 * and variables are defined in other modules are merged, compiled and run
 * on the core with the right answer; private names that clash are kept
 * apart; weak definitions yield; and multiple definitions, undefined
 * references and mismatched prototypes are refused with nvlink's words.
 * A JIT error in the merged text names the input and its line.
 */
#include "core_run.h"
#include "jit.h"
#include "tap.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/* out[0] = twice(21) + gv, with twice and gv elsewhere. */
static const char a_ptx[] = HEAD
	".extern .func (.param .b32 r) twice(.param .b32 x);\n"
	".extern .global .align 4 .u32 gv;\n"
	".visible .entry k(.param .u64 p)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, 21;\n"
	"\t{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 rv;\n"
	"\tcall.uni (rv), twice, (a);\n\tld.param.b32 %r2, [rv]; }\n"
	"\tld.global.u32 %r3, [gv];\n\tadd.u32 %r2, %r2, %r3;\n"
	"\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n";

static const char b_ptx[] = HEAD
	".visible .global .align 4 .u32 gv = 100;\n"
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
	"\t.reg .b32 %r<3>;\n"
	"\tld.param.b32 %r1, [x];\n\tadd.u32 %r2, %r1, %r1;\n"
	"\tst.param.b32 [r], %r2;\n\tret;\n}\n";

/* Defines twice again. */
static const char c_ptx[] = HEAD
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
	"\t.reg .b32 %r<3>;\n\tld.param.b32 %r1, [x];\n"
	"\tst.param.b32 [r], %r1;\n\tret;\n}\n";

struct linked {
	struct vg_link_input in[4];
	unsigned int n;
	struct vg_link_out out;
	char err[1024];
};

static void add(struct linked *l, const char *name, const char *text)
{
	struct vg_link_input *in = &l->in[l->n++];

	in->name = strdup(name);
	in->text = strdup(text);
	in->len = strlen(text);
	if (vg_link_parse(in, l->err, sizeof(l->err))) {
		TAP_FAIL("parse %s: %s", name, l->err);
		exit(1);
	}
}

static void done(struct linked *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		vg_link_unparse(&l->in[i]);
		free(l->in[i].name);
		free(l->in[i].text);
	}
	vg_link_out_free(&l->out);
}

static struct vg_jit_image *compile(struct linked *l)
{
	struct vg_jit_image *img = NULL;
	char err[512], where[512];

	if (vg_link_merge(l->in, l->n, &l->out, l->err, sizeof(l->err))) {
		TAP_FAIL("link: %s", l->err);
		exit(1);
	}
	if (vg_jit_compile(l->out.text, l->out.len, &img, err, sizeof(err))) {
		vg_link_where(&l->out, l->in, err, where, sizeof(where));
		TAP_FAIL("compile: %s\n%s", where, l->out.text);
		exit(1);
	}
	return img;
}

/* core_run for a program of several kernels: all of them verified. */
static int run_kernel(const struct vg_jit_image *img, uint32_t k,
		      unsigned int block, const void *params,
		      struct vgpu_range *ranges)
{
	struct vgpu_func *funcs = calloc(img->nkernels, sizeof(*funcs));
	struct vgpu_program prog = { img->insns, img->ninsns, funcs, img->nkernels };
	struct vgpu_launch l = {
		.prog = &prog, .grid = { 1, 1, 1 }, .block = { block, 1, 1 },
		.params = params, .mmu = ranges, .nsmid = 1,
	};
	uint8_t *seen = calloc(img->ninsns, 1);
	uint32_t *stack = calloc(img->ninsns, sizeof(*stack));
	struct vgpu_verdict v;
	struct vgpu_block *b;
	uint32_t i;
	int r;

	for (i = 0; i < img->nkernels; i++)
		funcs[i] = img->kernels[i].f;
	l.func = &funcs[k];
	r = vgpu_isa_verify(&prog, seen, stack, &v);
	free(seen);
	free(stack);
	if (r) {
		printf("# refused at %lld: %s\n", (long long)v.insn, v.msg);
		free(funcs);
		return -1;
	}
	b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
	vgpu_block_start(b, &l, 0, true);
	do
		r = vgpu_block_run(b, 10000);
	while (r == VGPU_RUN_MORE);
	free(b);
	free(funcs);
	return r;
}

/* Runs kernel @name over one block of @threads; @out is its parameter. */
static void run(struct vg_jit_image *img, const char *name, unsigned int threads,
		uint32_t *out, size_t out_bytes)
{
	uint8_t *globals = calloc(1, img->global_bytes + 8);
	struct vgpu_range mem[3] = {
		core_range(out, out_bytes, true),
		core_range(globals, img->global_bytes + 8, true),
	};
	uint64_t param = (uintptr_t)out;
	uint32_t i;

	memcpy(globals, img->globals, img->global_bytes);
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm += (uintptr_t)globals;
	for (i = 0; i < img->nkernels; i++)
		if (!strcmp(img->kernels[i].name, name))
			break;
	if (i == img->nkernels) {
		TAP_FAIL("no kernel %s", name);
		exit(1);
	}
	CHECK(run_kernel(img, i, threads, &param, mem) == VGPU_RUN_DONE);
	for (i = 0; i < img->nrelocs; i++)
		img->insns[img->relocs[i]].imm -= (uintptr_t)globals;
	free(globals);
}

static void extern_function_and_variable(void)
{
	static const char *const orders[2][2] = {
		{ a_ptx, b_ptx }, { b_ptx, a_ptx },
	};
	int o;

	for (o = 0; o < 2; o++) {
		struct linked l = { .n = 0 };
		struct vg_jit_image *img;
		uint32_t out = 0;

		add(&l, "first.ptx", orders[o][0]);
		add(&l, "second.ptx", orders[o][1]);
		CHECK(vg_link_check(l.in, l.n, l.err, sizeof(l.err)) == 0);
		img = compile(&l);
		run(img, "k", 1, &out, sizeof(out));
		if (out != 142)
			TAP_FAIL("order %d: %u, expected 142", o, out);
		CHECK(img->nvars == 1 && !strcmp(img->vars[0].name, "gv"));
		vg_jit_free(img);
		done(&l);
	}
}

/* Each input has its own private helper and string; both keep theirs. */
static void private_names_kept_apart(void)
{
	static const char fmt[] = HEAD
		".global .align 4 .u32 $str = %d;\n"
		".func (.param .b32 r) helper()\n{\n"
		"\t.reg .b32 %%r<2>;\n\tld.global.u32 %%r1, [$str];\n"
		"\tst.param.b32 [r], %%r1;\n\tret;\n}\n"
		".visible .entry %s(.param .u64 p)\n{\n"
		"\t.reg .b32 %%r<2>;\n\t.reg .b64 %%rd<2>;\n"
		"\tld.param.u64 %%rd1, [p];\n"
		"\t{ .param .b32 rv; call.uni (rv), helper, (); ld.param.b32 %%r1, [rv]; }\n"
		"\tst.global.u32 [%%rd1], %%r1;\n\tret;\n}\n";
	struct linked l = { .n = 0 };
	struct vg_jit_image *img;
	char one[1024], two[1024];
	uint32_t out = 0;

	snprintf(one, sizeof(one), fmt, 7, "k1");
	snprintf(two, sizeof(two), fmt, 9, "k2");
	add(&l, "one.ptx", one);
	add(&l, "two.ptx", two);
	img = compile(&l);
	run(img, "k1", 1, &out, sizeof(out));
	CHECK(out == 7);
	run(img, "k2", 1, &out, sizeof(out));
	CHECK(out == 9);
	/* The first keeps its names; the second's move aside. */
	CHECK(strstr(l.out.text, "helper$vg1") && strstr(l.out.text, "$str$vg1"));
	vg_jit_free(img);
	done(&l);
}

/* A weak definition yields to a strong one, else the first stays. */
static void weak_definitions_yield(void)
{
	static const char user[] = HEAD
		".extern .global .align 4 .u32 w;\n"
		".visible .entry k(.param .u64 p)\n{\n"
		"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u64 %rd1, [p];\n\tld.global.u32 %r1, [w];\n"
		"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
	static const char weak1[] = HEAD ".weak .global .align 4 .u32 w = 1;\n";
	static const char weak2[] = HEAD ".weak .global .align 4 .u32 w = 2;\n";
	static const char strong[] = HEAD ".visible .global .align 4 .u32 w = 3;\n";
	static const struct {
		const char *x, *y;
		uint32_t want;
	} cases[] = {
		{ weak1, weak2, 1 }, { weak2, weak1, 2 }, { weak1, strong, 3 },
		{ strong, weak2, 3 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct linked l = { .n = 0 };
		struct vg_jit_image *img;
		uint32_t out = 0;

		add(&l, "user.ptx", user);
		add(&l, "x.ptx", cases[i].x);
		add(&l, "y.ptx", cases[i].y);
		CHECK(vg_link_check(l.in, l.n, l.err, sizeof(l.err)) == 0);
		img = compile(&l);
		run(img, "k", 1, &out, sizeof(out));
		if (out != cases[i].want)
			TAP_FAIL("case %u: %u, expected %u", i, out, cases[i].want);
		vg_jit_free(img);
		done(&l);
	}
}

/* Each input may declare the dynamic shared array; one declaration stays. */
static void extern_shared_declared_twice(void)
{
	static const char fmt[] = HEAD
		".extern .shared .align 4 .b8 dsm[];\n"
		".visible .entry %s(.param .u64 p)\n{\n"
		"\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<4>;\n"
		"\tld.param.u64 %%rd1, [p];\n\tmov.u32 %%r1, %%tid.x;\n"
		"\tmul.wide.u32 %%rd2, %%r1, 4;\n\tmov.u64 %%rd3, dsm;\n"
		"\tadd.s64 %%rd3, %%rd3, %%rd2;\n\tadd.u32 %%r2, %%r1, %d;\n"
		"\tst.shared.u32 [%%rd3], %%r2;\n\tbar.sync 0;\n"
		"\tld.shared.u32 %%r2, [dsm];\n"
		"\tadd.s64 %%rd1, %%rd1, %%rd2;\n\tst.global.u32 [%%rd1], %%r2;\n\tret;\n}\n";
	struct linked l = { .n = 0 };
	struct vg_jit_image *img;
	char one[1024], two[1024];

	snprintf(one, sizeof(one), fmt, "k1", 10);
	snprintf(two, sizeof(two), fmt, "k2", 20);
	add(&l, "one.ptx", one);
	add(&l, "two.ptx", two);
	img = compile(&l);
	CHECK(img->nkernels == 2);
	CHECK(!strstr(strstr(l.out.text, "dsm[]") + 1, "dsm[]"));
	vg_jit_free(img);
	done(&l);
}

/*
 * Tables of function pointers across inputs: each names a function
 * another input defines (the merged text has the variables before the
 * functions) and its own private helper, which has the same name in both
 * inputs: each table keeps the address of its input's helper.
 */
static void function_tables(void)
{
	static const char fmt[] = HEAD
		".extern .func (.param .b32 r) twice(.param .b32 x);\n"
		".global .align 8 .u64 tab[2] = {twice, helper};\n"
		".func (.param .b32 r) helper(.param .b32 x)\n{\n"
		"\t.reg .b32 %%r<3>;\n\tld.param.b32 %%r1, [x];\n"
		"\tadd.u32 %%r2, %%r1, %d;\n"
		"\tst.param.b32 [r], %%r2;\n\tret;\n}\n"
		".visible .entry %s(.param .u64 p)\n{\n"
		"\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<5>;\n"
		"\tld.param.u64 %%rd1, [p];\n\tmov.u32 %%r1, %%tid.x;\n"
		"\tmul.wide.u32 %%rd2, %%r1, 8;\n\tmov.u64 %%rd3, tab;\n"
		"\tadd.s64 %%rd3, %%rd3, %%rd2;\n\tld.global.u64 %%rd4, [%%rd3];\n"
		"\t{ .param .b32 a; st.param.b32 [a], 21; .param .b32 rv;\n"
		"\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"\tcall (rv), %%rd4, (a), proto;\n\tld.param.b32 %%r2, [rv]; }\n"
		"\tmul.wide.u32 %%rd2, %%r1, 4;\n\tadd.s64 %%rd1, %%rd1, %%rd2;\n"
		"\tst.global.u32 [%%rd1], %%r2;\n\tret;\n}\n";
	struct linked l = { .n = 0 };
	struct vg_jit_image *img;
	char one[2048], two[2048];
	uint32_t out[2];

	snprintf(one, sizeof(one), fmt, 1000, "k1");
	snprintf(two, sizeof(two), fmt, 2000, "k2");
	add(&l, "one.ptx", one);
	add(&l, "two.ptx", two);
	add(&l, "b.ptx", b_ptx);
	CHECK(vg_link_check(l.in, l.n, l.err, sizeof(l.err)) == 0);
	img = compile(&l);
	run(img, "k1", 2, out, sizeof(out));
	CHECK(out[0] == 42 && out[1] == 1021);
	run(img, "k2", 2, out, sizeof(out));
	CHECK(out[0] == 42 && out[1] == 2021);
	vg_jit_free(img);
	done(&l);
}

static void link_errors(void)
{
	static const char undeclared_use[] = HEAD
		".extern .func (.param .b32 r) twice(.param .b32 x, .param .b32 y);\n"
		".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n"
		"\t{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b;\n"
		"\tst.param.b32 [b], %r1; .param .b32 rv;\n"
		"\tcall.uni (rv), twice, (a, b); }\n\tret;\n}\n";
	static const char var_as_func[] = HEAD
		".extern .global .align 4 .u32 twice;\n"
		".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n"
		"\tld.global.u32 %r1, [twice];\n\tret;\n}\n";
	static const char unused_extern[] = HEAD
		".extern .global .align 4 .u32 nowhere;\n"
		".visible .entry k()\n{\n\tret;\n}\n";
	static const char table_of_extern[] = HEAD
		".extern .func (.param .b32 r) gone(.param .b32 x);\n"
		".global .align 8 .u64 tab[1] = {gone};\n"
		".visible .entry k()\n{\n\tret;\n}\n";
	/* malloc and free, like vprintf, are the JIT's own. */
	static const char heap_calls[] = HEAD
		".extern .func (.param .b64 r) malloc(.param .b64 n);\n"
		".extern .func free(.param .b64 p);\n"
		".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n"
		"\t{ .param .b64 n; st.param.b64 [n], 16; .param .b64 r;\n"
		"\tcall.uni (r), malloc, (n); .param .b64 p;\n"
		"\tld.param.b64 %rd1, [r]; st.param.b64 [p], %rd1;\n"
		"\tcall.uni free, (p); }\n\tret;\n}\n";
	/* And so is __assertfail, which a failed assert() calls. */
	static const char assert_call[] = HEAD
		".extern .func __assertfail(.param .b64 m, .param .b64 f,\n"
		"\t.param .b32 l, .param .b64 fn, .param .b64 cs);\n"
		".global .align 1 .b8 msg[2] = {33, 0};\n"
		".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n"
		"\tmov.u64 %rd1, msg;\n\tcvta.global.u64 %rd1, %rd1;\n"
		"\t{ .param .b64 a; st.param.b64 [a], %rd1; .param .b64 b;\n"
		"\tst.param.b64 [b], %rd1; .param .b32 c; st.param.b32 [c], 1;\n"
		"\t.param .b64 d; st.param.b64 [d], %rd1; .param .b64 e;\n"
		"\tst.param.b64 [e], 1;\n"
		"\tcall.uni __assertfail, (a, b, c, d, e); }\n\tret;\n}\n";
	static const struct {
		const char *x, *y, *z;
		const char *check, *merge;	/* NULL: no error */
	} cases[] = {
		{ a_ptx, b_ptx, c_ptx,
		  "error   : Multiple definition of 'twice' in 'z.ptx', first defined in 'y.ptx'",
		  "error   : Multiple definition of 'twice' in 'z.ptx', first defined in 'y.ptx'" },
		{ a_ptx, NULL, NULL, NULL,
		  "error   : Undefined reference to 'gv' in 'x.ptx'\n"
		  "error   : Undefined reference to 'twice' in 'x.ptx'" },
		{ undeclared_use, c_ptx, NULL, NULL,
		  "error   : Prototype of 'twice' in 'x.ptx' does not match its definition in 'y.ptx'" },
		{ var_as_func, c_ptx, NULL, NULL,
		  "error   : 'twice' is a variable in 'x.ptx' but a function in 'y.ptx'" },
		{ unused_extern, NULL, NULL, NULL, NULL },
		{ table_of_extern, c_ptx, NULL, NULL,
		  "error   : Undefined reference to 'gone' in 'x.ptx'" },
		{ heap_calls, NULL, NULL, NULL, NULL },
		{ assert_call, NULL, NULL, NULL, NULL },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct linked l = { .n = 0 };
		int r;

		add(&l, "x.ptx", cases[i].x);
		if (cases[i].y)
			add(&l, "y.ptx", cases[i].y);
		if (cases[i].z)
			add(&l, "z.ptx", cases[i].z);
		r = vg_link_check(l.in, l.n, l.err, sizeof(l.err));
		if (cases[i].check ? r != -1 || strcmp(l.err, cases[i].check) : r != 0)
			TAP_FAIL("case %u: check %d \"%s\"", i, r, l.err);
		r = vg_link_merge(l.in, l.n, &l.out, l.err, sizeof(l.err));
		if (cases[i].merge ? r != -1 || strcmp(l.err, cases[i].merge) : r != 0)
			TAP_FAIL("case %u: merge %d \"%s\"", i, r, l.err);
		done(&l);
	}
}

/* A JIT error is reported at the input's own line and column. */
static void errors_name_the_input_line(void)
{
	static const char bad[] = HEAD
		"// a comment line\n"
		".visible .entry kbad()\n{\n"
		"\t.reg .b32 %r<2>;\n"
		"\tbrkpt;\n"
		"\tret;\n}\n";
	struct linked l = { .n = 0 };
	struct vg_jit_image *img = NULL;
	char err[512], where[512];

	add(&l, "a.ptx", a_ptx);
	add(&l, "b.ptx", b_ptx);
	add(&l, "bad.ptx", bad);
	CHECK(vg_link_merge(l.in, l.n, &l.out, l.err, sizeof(l.err)) == 0);
	CHECK(vg_jit_compile(l.out.text, l.out.len, &img, err, sizeof(err)) == -1);
	vg_link_where(&l.out, l.in, err, where, sizeof(where));
	if (strcmp(where, "bad.ptx:8:2: brkpt: unsupported instruction"))
		TAP_FAIL("got \"%s\" (from \"%s\")", where, err);
	done(&l);
}

/* File numbers of .file and .loc move so that inputs do not share them. */
static void debug_files_renumbered(void)
{
	static const char fmt[] = HEAD
		".file 1 \"%s.cu\"\n"
		".visible .entry %s()\n{\n\t.loc 1 5 1\n\tret;\n}\n";
	struct linked l = { .n = 0 };
	struct vg_jit_image *img;
	char one[512], two[512];

	snprintf(one, sizeof(one), fmt, "one", "k1");
	snprintf(two, sizeof(two), fmt, "two", "k2");
	add(&l, "one.ptx", one);
	add(&l, "two.ptx", two);
	img = compile(&l);
	CHECK(strstr(l.out.text, ".file 1 \"one.cu\""));
	CHECK(strstr(l.out.text, ".file 3 \"two.cu\""));
	CHECK(strstr(l.out.text, ".loc 1 5 1") && strstr(l.out.text, ".loc 3 5 1"));
	vg_jit_free(img);
	done(&l);
}

/*
 * The merged header names the highest sm_NN target; an input that names
 * none (".target debug" alone) or another name yields to one that does,
 * and when no input names one the header still parses.
 */
static void merged_header_target(void)
{
	static const char fmt[] = ".version 8.0\n.target %s\n.address_size 64\n"
		".visible .entry %s()\n{\n\tret;\n}\n";
	static const struct {
		const char *x, *y, *want;
	} cases[] = {
		{ "debug", NULL, ".target debug\n" },
		{ "debug", "sm_75", ".target sm_75\n" },
		{ "sm_75, debug", "debug", ".target sm_75\n" },
		{ "sm_75", "sm_90a", ".target sm_90a\n" },
		{ "x", "sm_80", ".target sm_80\n" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct linked l = { .n = 0 };
		char one[256], two[256];

		snprintf(one, sizeof(one), fmt, cases[i].x, "k1");
		add(&l, "x.ptx", one);
		if (cases[i].y) {
			snprintf(two, sizeof(two), fmt, cases[i].y, "k2");
			add(&l, "y.ptx", two);
		}
		vg_jit_free(compile(&l));
		if (!strstr(l.out.text, cases[i].want))
			TAP_FAIL("case %u: no \"%s\" in\n%s", i, cases[i].want,
				 l.out.text);
		done(&l);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(extern_function_and_variable),
	TAP_TEST(private_names_kept_apart),
	TAP_TEST(weak_definitions_yield),
	TAP_TEST(extern_shared_declared_twice),
	TAP_TEST(function_tables),
	TAP_TEST(link_errors),
	TAP_TEST(errors_name_the_input_line),
	TAP_TEST(debug_files_renumbered),
	TAP_TEST(merged_header_target),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
