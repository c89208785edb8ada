// SPDX-License-Identifier: GPL-2.0
/*
 * Modules: programs of the vgpu ISA that a context loads for launches.
 * MODULE_LOAD copies the program out of user space, runs the verifier
 * (core/isa_verify.c) over the copy and keeps it in kernel memory;
 * user space never sees or touches it again. Launches hold a reference,
 * so unloading never pulls code from under a running kernel.
 *
 * Locking: the xarray's own lock protects the table of modules.
 */
#include <linux/kref.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "vgpu_drv.h"

#define VGPU_MAX_MODULES 4096

static void vgpu_module_free(struct kref *ref)
{
	struct vgpu_module *m = container_of(ref, struct vgpu_module, ref);

	kvfree(m->insns);
	kvfree(m->funcs);
	kvfree(m->consts);
	if (m->kmem)
		vgpu_kmem_uncharge(m->ctx, m->kmem);
	kfree(m);
}

void vgpu_module_put(struct vgpu_module *m)
{
	kref_put(&m->ref, vgpu_module_free);
}

/* The module @handle with a reference for the caller, or NULL. */
struct vgpu_module *vgpu_module_get(struct vgpu_ctx *ctx, u32 handle)
{
	struct vgpu_module *m;

	xa_lock(&ctx->modules);
	m = xa_load(&ctx->modules, handle);
	if (m)
		kref_get(&m->ref);
	xa_unlock(&ctx->modules);
	return m;
}

/* A user array of @n elements of @size into new kernel memory. */
static void *vgpu_copy_array(struct vgpu_ctx *ctx, u64 uptr, u32 n,
			     size_t size, int *err)
{
	size_t bytes;
	void *p;

	*err = -EINVAL;
	if (check_mul_overflow((size_t)n, size, &bytes))
		return NULL;
	*err = -ENOMEM;
	p = vgpu_fi_fail(ctx->vdev, VGPU_FI_MODULE) ? NULL :
		kvmalloc(bytes ? bytes : 1, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!p)
		return NULL;
	*err = -EFAULT;
	if (bytes && copy_from_user(p, u64_to_user_ptr(uptr), bytes)) {
		kvfree(p);
		return NULL;
	}
	*err = 0;
	return p;
}

/* Runs the verifier; on a refusal, the message goes to the user's log. */
static int vgpu_module_verify(struct vgpu_ctx *ctx, struct vgpu_module *m,
			      struct vgpu_module_load *ml)
{
	struct vgpu_verdict *v;
	u32 *stack;
	u8 *seen;
	int ret = -ENOMEM;

	/*
	 * Up to 5 MiB for the largest program, for the caller: charged to
	 * its memcg, and refused (-ENOMEM) rather than OOM-kill over the
	 * limit.
	 */
	v = vgpu_fi_fail(ctx->vdev, VGPU_FI_MODULE) ? NULL :
		kzalloc(sizeof(*v), GFP_KERNEL_ACCOUNT);
	seen = vgpu_fi_fail(ctx->vdev, VGPU_FI_MODULE) ? NULL :
		kvmalloc(m->prog.ninsns, GFP_KERNEL_ACCOUNT | __GFP_NOWARN |
			 __GFP_RETRY_MAYFAIL);
	stack = vgpu_fi_fail(ctx->vdev, VGPU_FI_MODULE) ? NULL :
		kvmalloc_array(m->prog.ninsns, sizeof(*stack),
			       GFP_KERNEL_ACCOUNT | __GFP_NOWARN |
			       __GFP_RETRY_MAYFAIL);
	if (!v || !seen || !stack)
		goto out;
	ret = 0;
	if (!vgpu_isa_verify(&m->prog, seen, stack, v))
		goto out;
	ret = -EINVAL;
	ml->error_insn = v->insn < 0 ? ~0U : (u32)v->insn;
	ml->error_func = v->func < 0 ? ~0U : (u32)v->func;
	if (ml->log && ml->log_size) {
		size_t n = min_t(size_t, ml->log_size, strlen(v->msg) + 1);

		v->msg[sizeof(v->msg) - 1] = 0;
		if (copy_to_user(u64_to_user_ptr(ml->log), v->msg, n - 1) ||
		    put_user(0, (char __user *)u64_to_user_ptr(ml->log) + n - 1))
			ret = -EFAULT;
	}
out:
	kvfree(stack);
	kvfree(seen);
	kfree(v);
	return ret;
}

/**
 * vgpu_ioctl_module_load() - VGPU_IOCTL_MODULE_LOAD. The table marks this
 * ioctl as writing its argument back on -EINVAL (the verifier's verdict).
 * Return: 0, -EINVAL, -EFAULT, -ENOMEM or -EMFILE.
 */
int vgpu_ioctl_module_load(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_module_load *ml = data;
	struct vgpu_module *m;
	u32 handle;
	u64 kmem;
	int ret;

	ml->error_insn = ~0U;
	ml->error_func = ~0U;
	if (ml->flags || !ml->ninsns || ml->ninsns > VGPU_MAX_INSNS ||
	    !ml->nfuncs || ml->nfuncs > ml->ninsns ||
	    ml->const_bytes > VGPU_MAX_CONST_BYTES ||
	    (ml->const_bytes && !ml->consts))
		return -EINVAL;

	m = vgpu_fi_fail(ctx->vdev, VGPU_FI_MODULE) ? NULL :
		kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	kref_init(&m->ref);
	/*
	 * What the module keeps, against the context's budget before it is
	 * allocated (the bounds above keep the sum from overflowing).
	 */
	kmem = sizeof(*m) + (u64)ml->ninsns * sizeof(*m->insns) +
	       (u64)ml->nfuncs * sizeof(*m->funcs) + ml->const_bytes;
	ret = vgpu_kmem_charge(ctx, kmem);
	if (ret) {
		kfree(m);
		return ret;
	}
	m->ctx = ctx;
	m->kmem = kmem;
	m->insns = vgpu_copy_array(ctx, ml->insns, ml->ninsns, sizeof(*m->insns), &ret);
	if (!ret)
		m->funcs = vgpu_copy_array(ctx, ml->funcs, ml->nfuncs,
					   sizeof(*m->funcs), &ret);
	if (!ret)
		m->consts = vgpu_copy_array(ctx, ml->consts, ml->const_bytes, 1, &ret);
	if (ret)
		goto err;
	m->const_bytes = ml->const_bytes;
	m->prog.insns = m->insns;
	m->prog.ninsns = ml->ninsns;
	m->prog.funcs = m->funcs;
	m->prog.nfuncs = ml->nfuncs;
	ret = vgpu_module_verify(ctx, m, ml);
	if (ret)
		goto err;
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MODULE) ? -ENOMEM :
		xa_alloc(&ctx->modules, &handle, m,
			 XA_LIMIT(1, VGPU_MAX_MODULES), GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err;
	ml->handle = handle;
	return 0;

err:
	vgpu_module_put(m);
	return ret == -EBUSY ? -EMFILE : ret;
}

/**
 * vgpu_ioctl_module_unload() - VGPU_IOCTL_MODULE_UNLOAD.
 * Return: 0, -EINVAL (flags) or -ENOENT.
 */
int vgpu_ioctl_module_unload(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_module_unload *mu = data;
	struct vgpu_module *m;

	if (mu->flags)
		return -EINVAL;
	m = xa_erase(&ctx->modules, mu->handle);
	if (!m)
		return -ENOENT;
	vgpu_module_put(m);
	return 0;
}

/*
 * vgpu_module_load_undo() - unloads what MODULE_LOAD loaded when its
 * handle cannot be written back (vgpu_ioctl()). Launches that hold it
 * (another thread may have found the handle) keep it until they end.
 */
void vgpu_module_load_undo(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_module_load *ml = data;
	struct vgpu_module_unload mu = { .handle = ml->handle };

	vgpu_ioctl_module_unload(ctx, &mu);
}

void vgpu_modules_init(struct vgpu_ctx *ctx)
{
	xa_init_flags(&ctx->modules, XA_FLAGS_ALLOC1);
}

/* Context teardown, after every launch has ended. */
void vgpu_modules_fini(struct vgpu_ctx *ctx)
{
	struct vgpu_module *m;
	unsigned long handle;

	xa_for_each(&ctx->modules, handle, m)
		vgpu_module_put(m);
	xa_destroy(&ctx->modules);
}
