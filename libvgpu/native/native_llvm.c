// SPDX-License-Identifier: MIT
/*
 * The LLVM side: one ORC LLJIT for the process, for the host's CPU and
 * its vector extensions (AVX-512, AVX2 or SSE, as the CPU reports them),
 * and per kernel a module that is optimised, compiled and linked into it
 * under a resource tracker that frees its code with the kernel.
 */
#include <pthread.h>
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

#include "native_ir.h"

/*
 * The optimisation the IR needs, not a general-purpose pipeline: the
 * builder's allocas (group mask, predicates, counters) to SSA, the lane
 * arithmetic and branches folded, and the repeated loads of the warp
 * state and registers forwarded (gvn, whose partial redundancy
 * elimination keeps registers in vector registers across instructions:
 * matmul's code runs 12% faster with it). The IR is vector code already,
 * so default<O2>'s loop and vectoriser passes found nothing, yet cost
 * four times as long, for host code as fast.
 */
static const char nrt_passes[] =
	"function(sroa,instcombine<no-verify-fixpoint>,simplifycfg,gvn)";

static pthread_mutex_t nrt_llvm_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef nrt_jit;
static LLVMTargetMachineRef nrt_tm;	/* for the optimisation passes */
static char nrt_level[16];
static unsigned long nrt_serial;

static LLVMTargetMachineRef nrt_host_tm(char *why, size_t why_len)
{
	char *triple = LLVMGetDefaultTargetTriple(), *err = NULL;
	char *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
	LLVMTargetMachineRef tm = NULL;
	LLVMTargetRef t;

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
		 * on every entry of every warp (callees are reached through
		 * absolute addresses either way).
		 */
		tm = LLVMCreateTargetMachine(t, triple, cpu, feat,
					     LLVMCodeGenLevelLess,
					     LLVMRelocDefault, LLVMCodeModelSmall);
		if (!tm)
			snprintf(why, why_len, "LLVM: no target machine");
	}
	if (!nrt_level[0] && feat) {
		strcpy(nrt_level, strstr(feat, "+avx512f") ? "avx512" :
		       strstr(feat, "+avx2") ? "avx2" : "sse");
	}
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(feat);
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
	jtm = nrt_tm ? nrt_host_tm(why, why_len) : NULL;
	if (!jtm)
		return false;
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

	pthread_mutex_lock(&nrt_llvm_lock);
	ok = nrt_jit_init(why, why_len);
	pthread_mutex_unlock(&nrt_llvm_lock);
	return ok ? 0 : -1;
}

const char *vgpu_native_isa_level(void)
{
	return nrt_level[0] ? nrt_level : "unknown";
}

/* Compiles @k (supported: checked) to k->fn. 0, or -1 with @why. */
int nrt_llvm_compile(struct vgpu_native_kernel *k, char *why, size_t why_len)
{
	LLVMOrcThreadSafeContextRef tsc;
	LLVMOrcResourceTrackerRef rt;
	LLVMPassBuilderOptionsRef po;
	LLVMOrcExecutorAddress addr;
	LLVMTargetDataRef td;
	LLVMContextRef c;
	LLVMModuleRef m;
	char name[48], *dl, *msg = NULL;
	int ret = -1;

	pthread_mutex_lock(&nrt_llvm_lock);
	if (!nrt_jit_init(why, why_len))
		goto out;
	snprintf(name, sizeof(name), "vgpu_native_warp_%lu", nrt_serial++);
	tsc = LLVMOrcCreateNewThreadSafeContext();
	c = LLVMOrcThreadSafeContextGetContext(tsc);
	m = LLVMModuleCreateWithNameInContext(name, c);
	td = LLVMCreateTargetDataLayout(nrt_tm);
	dl = LLVMCopyStringRepOfTargetData(td);
	LLVMSetDataLayout(m, dl);
	LLVMDisposeMessage(dl);
	LLVMDisposeTargetData(td);
	LLVMSetTarget(m, LLVMOrcLLJITGetTripleString(nrt_jit));
	nrt_ir_build(k, c, m, name);
	if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
		snprintf(why, why_len, "LLVM: invalid IR: %.200s", msg);
		LLVMDisposeMessage(msg);
		LLVMDisposeModule(m);
		LLVMOrcDisposeThreadSafeContext(tsc);
		goto out;
	}
	LLVMDisposeMessage(msg);
	po = LLVMCreatePassBuilderOptions();
	if (nrt_error(LLVMRunPasses(m, nrt_passes, nrt_tm, po), why, why_len)) {
		LLVMDisposePassBuilderOptions(po);
		LLVMDisposeModule(m);
		LLVMOrcDisposeThreadSafeContext(tsc);
		goto out;
	}
	LLVMDisposePassBuilderOptions(po);
	if (getenv("VGPU_NATIVE_DUMP"))
		LLVMDumpModule(m);
	if (getenv("VGPU_NATIVE_ASM")) {
		char *err = NULL;

		/* Debugging: the host code, as assembly, to the file named. */
		if (LLVMTargetMachineEmitToFile(nrt_tm, m, getenv("VGPU_NATIVE_ASM"),
						LLVMAssemblyFile, &err))
			LLVMDisposeMessage(err);
	}
	rt = LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(nrt_jit));
	if (nrt_error(LLVMOrcLLJITAddLLVMIRModuleWithRT(nrt_jit, rt,
			LLVMOrcCreateNewThreadSafeModule(m, tsc)), why, why_len)) {
		LLVMOrcReleaseResourceTracker(rt);
		LLVMOrcDisposeThreadSafeContext(tsc);
		goto out;
	}
	LLVMOrcDisposeThreadSafeContext(tsc);
	if (nrt_error(LLVMOrcLLJITLookup(nrt_jit, &addr, name), why, why_len)) {
		LLVMOrcResourceTrackerRemove(rt);
		LLVMOrcReleaseResourceTracker(rt);
		goto out;
	}
	k->fn = (nrt_warp_fn)(uintptr_t)addr;
	k->jit = rt;
	ret = 0;
out:
	pthread_mutex_unlock(&nrt_llvm_lock);
	return ret;
}

void nrt_llvm_release(struct vgpu_native_kernel *k)
{
	if (!k->jit)
		return;
	pthread_mutex_lock(&nrt_llvm_lock);
	LLVMOrcResourceTrackerRemove(k->jit);
	LLVMOrcReleaseResourceTracker(k->jit);
	pthread_mutex_unlock(&nrt_llvm_lock);
	k->jit = NULL;
}
