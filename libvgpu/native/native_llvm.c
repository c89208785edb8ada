// SPDX-License-Identifier: MIT
/*
 * The LLVM side: one ORC LLJIT for the process, for the host's CPU and
 * its vector extensions (AVX-512, AVX2 or SSE, as the CPU reports them),
 * and per kernel a module that is optimised and compiled to an object
 * file, or the object the on-disk cache kept (native_cache.c), linked
 * into it under a resource tracker that frees its code with the kernel.
 *
 * Each live kernel's code has a JITDylib of its own, so that every
 * kernel's function can have the same name, as its cached object has it;
 * the runtime helpers are defined in each, at this process's addresses.
 * A freed kernel's JITDylib serves the next one.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "native_cache.h"
#include "native_ir.h"

/*
 * The optimisation the IR needs, not a general-purpose pipeline: the
 * builder's allocas (group mask, predicates, counters) to SSA, branches
 * folded, the lane arithmetic combined, and the repeated loads of the
 * warp state and registers forwarded (early-cse). Since values are kept
 * in vector registers along runs of instructions (native_live.c), gvn's
 * partial redundancy elimination bought 2-3% of run time for 10% of
 * the compile (the anchor matmul: 46.5 -> 41.1 ms, its run 2.23 -> 2.27
 * ms); cleaning the CFG before instcombine leaves it less to do. The IR
 * is vector code already, so default<O2>'s loop and vectoriser passes
 * found nothing, yet cost four times as long, for host code as fast.
 */
static const char nrt_passes[] =
	"function(sroa,simplifycfg,instcombine<no-verify-fixpoint>,early-cse<memssa>)";

static pthread_mutex_t nrt_llvm_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef nrt_jit;
/*
 * Block functions' target machine, and warp functions' (fast instruction
 * selection: nrt_jit_init()). A kernel's passes and its code generation
 * use the same one, as each sets its subtarget up on first use (some
 * milliseconds of a process's first compile).
 */
static LLVMTargetMachineRef nrt_tm;
static LLVMTargetMachineRef nrt_tm_fast;
static char nrt_level[16];
static unsigned long nrt_serial;
/* LLVM's version, the triple, the CPU and its features: the cache's key. */
static char *nrt_target;
static size_t nrt_target_len;
static LLVMOrcJITDylibRef *nrt_free_jds;
static size_t nrt_nfree_jds, nrt_free_jds_cap;

/* The names of every kernel's functions, in its own JITDylib. */
static const char nrt_fn_name[] = "vgpu_native_warp";
static const char nrt_block_name[] = "vgpu_native_block";

/* Features that need AVX: the prefixes of their names (avx* covers AVX2). */
static const char *const nrt_avx_features[] = {
	"avx", "fma", "f16c", "vaes", "vpclmulqdq", "xop", "sha512", "sm3", "sm4",
};

/*
 * VGPU_NATIVE_ISA=avx2 or sse: the code for a host with at most those
 * vectors, so that one machine tests what others run. The features
 * above the cap are turned off in @feat, a list of "+name" and "-name"
 * read in order: every one that needs them too, as a later "+" would
 * turn them on again. Any other value is said once and changes nothing.
 */
static void nrt_cap_features(char *feat)
{
	const char *cap = getenv("VGPU_NATIVE_ISA");
	bool sse = cap && !strcmp(cap, "sse"), off;
	static bool said;
	char *f;
	size_t i;

	if (!cap)
		return;
	if (!sse && strcmp(cap, "avx2")) {
		if (!said)
			fprintf(stderr, "vgpu: VGPU_NATIVE_ISA=%s is not avx2 or sse: the host's own\n",
				cap);
		said = true;
		return;
	}
	for (f = feat; f && *f; f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL) {
		if (*f != '+')
			continue;
		off = !strncmp(f + 1, "avx512", 6) || !strncmp(f + 1, "avx10", 5);
		for (i = 0; sse && i < sizeof(nrt_avx_features) / sizeof(nrt_avx_features[0]); i++)
			off |= !strncmp(f + 1, nrt_avx_features[i], strlen(nrt_avx_features[i]));
		if (off)
			*f = '-';
	}
}

/*
 * The features the code is made with: @feat, less AVX-512BW. With it,
 * LLVM 19's DAG combiner can loop for ever on some kernels' code (a
 * random program of test_native's fuzzer, seed 5180341797 on this
 * engine's version, loops in its FP constant folding; without BW the
 * same code compiles in a fraction of a second), and a compile that
 * never ends keeps the kernel off the engine and the process from
 * exiting. The last word of the list wins, and turning BW off turns off
 * what needs it (VBMI, BITALG, FP16...). NULL when out of memory.
 */
static char *nrt_safe_features(const char *feat)
{
	char *f;

	if (!strstr(feat, "+avx512bw"))
		return strdup(feat);
	return asprintf(&f, "%s,-avx512bw", feat) < 0 ? NULL : f;
}

static LLVMTargetMachineRef nrt_host_tm(char *why, size_t why_len)
{
	char *triple = LLVMGetDefaultTargetTriple(), *err = NULL;
	char *cpu = LLVMGetHostCPUName(), *host = LLVMGetHostCPUFeatures(), *feat;
	LLVMTargetMachineRef tm = NULL;
	LLVMTargetRef t;

	nrt_cap_features(host);
	feat = nrt_safe_features(host);
	LLVMDisposeMessage(host);
	if (!feat) {
		snprintf(why, why_len, "out of memory");
		LLVMDisposeMessage(triple);
		LLVMDisposeMessage(cpu);
		return NULL;
	}

	if (LLVMGetTargetFromTriple(triple, &t, &err)) {
		snprintf(why, why_len, "LLVM: %s", err);
		LLVMDisposeMessage(err);
	} else {
		/*
		 * Less: the same code for these kernels, a little sooner.
		 * The small code model: a kernel's code and its constants
		 * are linked into one allocation, so they are reached
		 * relative to the pc; the JIT's default (large) model loaded
		 * every vector constant through a 64-bit address, which the
		 * code generator hoisted to the function's entry and spilled,
		 * on every entry of every warp. Position-independent, as the
		 * JIT's linker wants objects (LLJIT compiles so for itself):
		 * the objects are emitted here, for the cache, and jump
		 * tables of static code take 32-bit absolute addresses,
		 * which JIT memory is out of reach of.
		 */
		tm = LLVMCreateTargetMachine(t, triple, cpu, feat,
					     LLVMCodeGenLevelLess,
					     LLVMRelocPIC, LLVMCodeModelSmall);
		if (!tm)
			snprintf(why, why_len, "LLVM: no target machine");
	}
	if (tm && !nrt_target) {
		unsigned int v[3];
		int n;

		LLVMGetVersion(&v[0], &v[1], &v[2]);
		n = asprintf(&nrt_target, "LLVM %u.%u.%u%c%s%c%s%c%s", v[0], v[1], v[2],
			     0, triple, 0, cpu, 0, feat);
		if (n < 0)
			nrt_target = NULL;	/* no key: no cache */
		else
			nrt_target_len = (size_t)n;
	}
	if (!nrt_level[0]) {
		strcpy(nrt_level, strstr(feat, "+avx512f") ? "avx512" :
		       strstr(feat, "+avx2") ? "avx2" : "sse");
		/* 32-lane masks are one register with BW only (off: above). */
		nrt_kmasks = false;
	}
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	free(feat);
	return tm;
}

static bool nrt_error(LLVMErrorRef e, char *why, size_t why_len)
{
	char *msg;

	if (!e)
		return false;
	msg = LLVMGetErrorMessage(e);
	snprintf(why, why_len, "LLVM: %s", msg);
	LLVMDisposeErrorMessage(msg);
	return true;
}

/*
 * fork() waits for a compile in progress: the child gets LLVM whole and
 * the lock free, so it can compile (and free kernels) itself. A child
 * forked halfway through a compile would find the lock held by a thread
 * it does not have, and wait for it forever. The handlers are set before
 * the lock is first taken.
 */
static pthread_once_t nrt_fork_once = PTHREAD_ONCE_INIT;

static void nrt_fork_prepare(void)
{
	pthread_mutex_lock(&nrt_llvm_lock);
}

static void nrt_fork_done(void)
{
	pthread_mutex_unlock(&nrt_llvm_lock);
}

static void nrt_fork_hook(void)
{
	pthread_atfork(nrt_fork_prepare, nrt_fork_done, nrt_fork_done);
}

static void nrt_lock(void)
{
	pthread_once(&nrt_fork_once, nrt_fork_hook);
	pthread_mutex_lock(&nrt_llvm_lock);
}

/* The process's JIT, made on first use. Called with nrt_llvm_lock held. */
static bool nrt_jit_init(char *why, size_t why_len)
{
	LLVMOrcLLJITBuilderRef jb;
	LLVMTargetMachineRef jtm;

	if (nrt_jit)
		return true;
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
	nrt_tm = nrt_host_tm(why, why_len);
	nrt_tm_fast = nrt_tm ? nrt_host_tm(why, why_len) : NULL;
	jtm = nrt_tm_fast ? nrt_host_tm(why, why_len) : NULL;
	if (!jtm) {
		if (nrt_tm_fast)
			LLVMDisposeTargetMachine(nrt_tm_fast);
		if (nrt_tm)
			LLVMDisposeTargetMachine(nrt_tm);
		nrt_tm = nrt_tm_fast = NULL;
		return false;
	}
	/*
	 * A warp function's code is selected instruction by instruction
	 * where the fast selector can (what it cannot, the DAG selector
	 * does): the anchor matmul compiled 13% sooner, and ran 10% faster.
	 * A block function keeps the DAG selector: its loops over the
	 * block's warps are scalar code, which the fast selector left
	 * spilling (the reduction ran 22% slower).
	 */
	LLVMSetTargetMachineFastISel(nrt_tm_fast, 1);
	jb = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb,
		LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm));
	if (nrt_error(LLVMOrcCreateLLJIT(&nrt_jit, jb), why, why_len)) {
		nrt_jit = NULL;
		return false;
	}
	return true;
}

int vgpu_native_init(char *why, size_t why_len)
{
	bool ok;

	nrt_lock();
	ok = nrt_jit_init(why, why_len);
	pthread_mutex_unlock(&nrt_llvm_lock);
	return ok ? 0 : -1;
}

const char *vgpu_native_isa_level(void)
{
	return nrt_level[0] ? nrt_level : "unknown";
}

/*
 * A JITDylib for a kernel's code: a freed kernel's, or a new one with the
 * runtime helpers and the process's own symbols (what the code generator
 * may call: memset, ...). Called with nrt_llvm_lock held.
 */
static LLVMOrcJITDylibRef nrt_jd_get(char *why, size_t why_len)
{
	LLVMOrcExecutionSessionRef es = LLVMOrcLLJITGetExecutionSession(nrt_jit);
	LLVMOrcMaterializationUnitRef mu;
	LLVMOrcDefinitionGeneratorRef gen;
	LLVMOrcCSymbolMapPair *syms;
	LLVMOrcJITDylibRef jd;
	char name[48];
	unsigned int i;

	if (nrt_nfree_jds)
		return nrt_free_jds[--nrt_nfree_jds];
	syms = calloc(nrt_nhelpers, sizeof(*syms));
	if (!syms) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	snprintf(name, sizeof(name), "vgpu_native_%lu", nrt_serial++);
	jd = LLVMOrcExecutionSessionCreateBareJITDylib(es, name);
	for (i = 0; i < nrt_nhelpers; i++) {
		syms[i].Name = LLVMOrcLLJITMangleAndIntern(nrt_jit, nrt_helpers[i].name);
		syms[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)nrt_helpers[i].fn;
		syms[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported |
						 LLVMJITSymbolGenericFlagsCallable;
	}
	mu = LLVMOrcAbsoluteSymbols(syms, nrt_nhelpers);
	free(syms);
	if (nrt_error(LLVMOrcJITDylibDefine(jd, mu), why, why_len)) {
		LLVMOrcDisposeMaterializationUnit(mu);
		return NULL;
	}
	if (nrt_error(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen,
			LLVMOrcLLJITGetGlobalPrefix(nrt_jit), NULL, NULL), why, why_len))
		return NULL;
	LLVMOrcJITDylibAddGenerator(jd, gen);
	return jd;
}

static void nrt_jd_put(LLVMOrcJITDylibRef jd)
{
	LLVMOrcJITDylibRef *bigger;

	if (nrt_nfree_jds == nrt_free_jds_cap) {
		size_t cap = nrt_free_jds_cap ? 2 * nrt_free_jds_cap : 16;

		bigger = realloc(nrt_free_jds, cap * sizeof(*bigger));
		if (!bigger)
			return;		/* it stays unused in the session */
		nrt_free_jds = bigger;
		nrt_free_jds_cap = cap;
	}
	nrt_free_jds[nrt_nfree_jds++] = jd;
}

struct nrt_found {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	LLVMErrorRef err;
	LLVMOrcExecutorAddress addr;
};

static void nrt_found(LLVMErrorRef err, LLVMOrcCSymbolMapPairs res, size_t n,
		      void *ctx)
{
	struct nrt_found *f = ctx;

	pthread_mutex_lock(&f->lock);
	f->err = err;
	if (!err && n)
		f->addr = res[0].Sym.Address;
	f->done = true;
	pthread_cond_signal(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* The address of the kernel's function @name in @jd (linking its code in). */
static bool nrt_lookup(LLVMOrcJITDylibRef jd, const char *name, LLVMOrcExecutorAddress *addr,
		       char *why, size_t why_len)
{
	struct nrt_found f = { .lock = PTHREAD_MUTEX_INITIALIZER,
			       .cond = PTHREAD_COND_INITIALIZER };
	LLVMOrcCJITDylibSearchOrderElement order[1] = {
		{ jd, LLVMOrcJITDylibLookupFlagsMatchAllSymbols },
	};
	LLVMOrcCLookupSetElement sym[1] = {
		{ LLVMOrcLLJITMangleAndIntern(nrt_jit, name),
		  LLVMOrcSymbolLookupFlagsRequiredSymbol },
	};

	LLVMOrcExecutionSessionLookup(LLVMOrcLLJITGetExecutionSession(nrt_jit),
				      LLVMOrcLookupKindStatic, order, 1, sym, 1,
				      nrt_found, &f);
	/* The JIT answers on this thread, or on one of its own. */
	pthread_mutex_lock(&f.lock);
	while (!f.done)
		pthread_cond_wait(&f.cond, &f.lock);
	pthread_mutex_unlock(&f.lock);
	if (nrt_error(f.err, why, why_len))
		return false;
	*addr = f.addr;
	return true;
}

/*
 * Links object @obj (taken) into a JITDylib for @k and finds its
 * function. Called with nrt_llvm_lock held.
 */
static int nrt_link(struct vgpu_native_kernel *k, LLVMMemoryBufferRef obj,
		    char *why, size_t why_len)
{
	LLVMOrcJITDylibRef jd = nrt_jd_get(why, why_len);
	LLVMOrcExecutorAddress addr = 0, block = 0;
	LLVMOrcResourceTrackerRef rt;

	if (!jd) {
		LLVMDisposeMemoryBuffer(obj);
		return -1;
	}
	rt = LLVMOrcJITDylibCreateResourceTracker(jd);
	if (nrt_error(LLVMOrcLLJITAddObjectFileWithRT(nrt_jit, rt, obj), why, why_len) ||
	    (k->straight ? !nrt_lookup(jd, nrt_block_name, &block, why, why_len) :
			   !nrt_lookup(jd, nrt_fn_name, &addr, why, why_len))) {
		LLVMOrcResourceTrackerRemove(rt);
		LLVMOrcReleaseResourceTracker(rt);
		nrt_jd_put(jd);
		return -1;
	}
	k->fn = (nrt_warp_fn)(uintptr_t)addr;
	k->block_fn = (nrt_block_fn)(uintptr_t)block;
	k->jit = rt;
	k->jd = jd;
	return 0;
}

/*
 * @k's code as an object file, from its IR optimised: the buffer, or
 * NULL with @why. Called with nrt_llvm_lock held.
 */
static LLVMMemoryBufferRef nrt_emit(const struct vgpu_native_kernel *k, char *why,
				    size_t why_len)
{
	LLVMPassBuilderOptionsRef po;
	LLVMMemoryBufferRef obj = NULL;
	LLVMTargetMachineRef tm = k->straight ? nrt_tm : nrt_tm_fast;
	LLVMTargetDataRef td;
	LLVMContextRef c = LLVMContextCreate();
	LLVMModuleRef m;
	char *dl, *msg = NULL;

	m = LLVMModuleCreateWithNameInContext(nrt_fn_name, c);
	td = LLVMCreateTargetDataLayout(nrt_tm);
	dl = LLVMCopyStringRepOfTargetData(td);
	LLVMSetDataLayout(m, dl);
	LLVMDisposeMessage(dl);
	LLVMDisposeTargetData(td);
	LLVMSetTarget(m, LLVMOrcLLJITGetTripleString(nrt_jit));
	/* A straight run's blocks all run through the block function. */
	if (k->phased ? !nrt_phase_build(k, c, m, nrt_block_name) :
	    k->straight ? !nrt_block_build(k, c, m, nrt_block_name) : false) {
		snprintf(why, why_len, "out of memory");
		goto out;
	}
	if (!k->straight)
		nrt_ir_build(k, c, m, nrt_fn_name);
	if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
		snprintf(why, why_len, "LLVM: invalid IR: %.200s", msg);
		goto out;
	}
	po = LLVMCreatePassBuilderOptions();
	if (nrt_error(LLVMRunPasses(m, nrt_passes, tm, po), why, why_len)) {
		LLVMDisposePassBuilderOptions(po);
		goto out;
	}
	LLVMDisposePassBuilderOptions(po);
	if (getenv("VGPU_NATIVE_DUMP"))
		LLVMDumpModule(m);
	if (getenv("VGPU_NATIVE_ASM")) {
		char *err = NULL;

		/* Debugging: the host code, as assembly, to the file named. */
		if (LLVMTargetMachineEmitToFile(tm, m, getenv("VGPU_NATIVE_ASM"),
						LLVMAssemblyFile, &err))
			LLVMDisposeMessage(err);
	}
	LLVMDisposeMessage(msg);
	msg = NULL;
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &obj)) {
		snprintf(why, why_len, "LLVM: %.200s", msg);
		obj = NULL;
	}
out:
	LLVMDisposeMessage(msg);
	LLVMDisposeModule(m);
	LLVMContextDispose(c);
	return obj;
}

/*
 * Compiles @k (supported: checked) to k->fn: from the cache when it holds
 * the kernel (a bad entry is compiled anew), else from its IR, keeping
 * the object. 0, or -1 with @why.
 */
int nrt_llvm_compile(struct vgpu_native_kernel *k, char *why, size_t why_len)
{
	unsigned char *key = NULL, *hit = NULL;
	LLVMMemoryBufferRef obj;
	size_t key_len = 0, len = 0;
	int ret = -1;

	nrt_lock();
	if (!nrt_jit_init(why, why_len))
		goto out;
	if (nrt_target)
		key = nrt_cache_key(k, nrt_target, nrt_target_len, &key_len);
	/* Debugging output comes from the IR: no cache then. */
	if (key && !getenv("VGPU_NATIVE_DUMP") && !getenv("VGPU_NATIVE_ASM"))
		hit = nrt_cache_lookup(key, key_len, &len);
	if (hit) {
		obj = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)hit, len,
								nrt_fn_name);
		free(hit);
		if (!nrt_link(k, obj, why, why_len)) {
			k->cached = true;
			ret = 0;
			goto out;
		}
	}
	obj = nrt_emit(k, why, why_len);
	if (!obj)
		goto out;
	if (key)
		nrt_cache_store(key, key_len, LLVMGetBufferStart(obj), LLVMGetBufferSize(obj));
	ret = nrt_link(k, obj, why, why_len);
out:
	pthread_mutex_unlock(&nrt_llvm_lock);
	free(key);
	return ret;
}

void nrt_llvm_release(struct vgpu_native_kernel *k)
{
	if (!k->jit)
		return;
	nrt_lock();
	LLVMOrcResourceTrackerRemove(k->jit);
	LLVMOrcReleaseResourceTracker(k->jit);
	nrt_jd_put(k->jd);
	pthread_mutex_unlock(&nrt_llvm_lock);
	k->jit = NULL;
	k->jd = NULL;
}
