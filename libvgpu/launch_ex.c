// SPDX-License-Identifier: MIT
/*
 * cuLaunchKernelEx and the cooperative launches: a launch's attributes
 * checked as NVIDIA's driver checks them (580, H100; tests/e2e/ref/
 * h100_launch.log) and as a device of vgpu's compute capability takes
 * them, then one vg_launch().
 */
#include "vg.h"

/*
 * Thread block clusters need compute capability 9.0; below it a cluster
 * of one block (or the unset 0, 0, 0) is the only shape that can be
 * placed. The H100 refuses every shape it cannot place with
 * CUDA_ERROR_INVALID_CLUSTER_SIZE, so a larger cluster gets that answer.
 */
static CUresult vg_cluster_check(const struct vgpu_info *info,
				 unsigned int x, unsigned int y, unsigned int z)
{
	uint64_t blocks = (uint64_t)(x ? x : 1) * (y ? y : 1) * (z ? z : 1);

	if (info->cc_major < 9 && blocks > 1)
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	return CUDA_SUCCESS;
}

/*
 * A programmatic or launch completion event: a live event without timing
 * and with flags 0. vgpu records it once the kernel has completed, when
 * every block has triggered and started, later than NVIDIA's trigger but
 * never earlier.
 */
static CUresult vg_trigger_event(CUevent h, int flags)
{
	struct CUevent_st *e;
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&vg_lock);
	e = vg_event_find(h);
	if (!e)
		r = CUDA_ERROR_INVALID_HANDLE;
	else if (flags)
		r = CUDA_ERROR_ILLEGAL_STATE;
	else if (!(e->flags & CU_EVENT_DISABLE_TIMING))
		r = CUDA_ERROR_NOT_SUPPORTED;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* The device's number of memory synchronization domains. */
static int vg_domains(const struct vgpu_info *info)
{
	int n = 1;

	vg_attribute(info, CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT, &n);
	return n;
}

/* One attribute into @l; a later attribute of the same id wins. */
static CUresult vg_launch_attr(const struct vgpu_info *info,
			       const CUlaunchAttribute *a, struct vg_launch *l)
{
	const CUlaunchAttributeValue *v = &a->value;
	const CUaccessPolicyWindow *w = &v->accessPolicyWindow;
	int window_max = 0;
	CUresult r;

	switch ((int)a->id) {
	case CU_LAUNCH_ATTRIBUTE_IGNORE:
	case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
	case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
		/* Launches on a stream are serialized anyway. */
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		/* The stream attribute's rules; no persisting L2 here. */
		vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE,
			     &window_max);
		if (w->hitRatio < 0.0f || w->hitRatio > 1.0f ||
		    (w->missProp != CU_ACCESS_PROPERTY_NORMAL &&
		     w->missProp != CU_ACCESS_PROPERTY_STREAMING) ||
		    w->num_bytes > (size_t)window_max)
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
		l->cooperative = v->cooperative != 0;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		/* A stream's attribute only: every value is refused here. */
		return CUDA_ERROR_INVALID_VALUE;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		return vg_cluster_check(info, v->clusterDim.x, v->clusterDim.y,
					v->clusterDim.z);
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
		return vg_cluster_check(info, v->preferredClusterDim.x,
					v->preferredClusterDim.y,
					v->preferredClusterDim.z);
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		if ((unsigned int)v->clusterSchedulingPolicyPreference >
		    CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING)
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
		r = vg_trigger_event(v->programmaticEvent.event,
				     v->programmaticEvent.flags);
		if (!r)
			l->done[0] = v->programmaticEvent.event;
		return r;
	case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
		r = vg_trigger_event(v->launchCompletionEvent.event,
				     v->launchCompletionEvent.flags);
		if (!r)
			l->done[1] = v->launchCompletionEvent.event;
		return r;
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
		l->has_priority = true;
		l->priority = v->priority;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		if (v->memSyncDomainMap.default_ >= vg_domains(info) ||
		    v->memSyncDomainMap.remote >= vg_domains(info))
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
		if (v->memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT &&
		    v->memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE)
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
		/* For graph kernel nodes; a launch on a stream refuses it. */
		return CUDA_ERROR_NOT_SUPPORTED;
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		return v->sharedMemCarveout > 100 ? CUDA_ERROR_INVALID_VALUE :
			CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult vg_launch_attr_check(const struct vgpu_info *info, CUlaunchAttributeID id,
			      const CUlaunchAttributeValue *v)
{
	CUlaunchAttribute a = { .id = id, .value = *v };
	struct vg_launch l = { 0 };

	return vg_launch_attr(info, &a, &l);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
			  void **params, void **extra)
{
	struct vg_launch l = { .params = params, .extra = extra };
	const struct vgpu_info *info;
	unsigned int i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_launch_func_get(f, &f);
	if (r)
		return r;
	if (config->numAttrs && !config->attrs)
		return CUDA_ERROR_INVALID_VALUE;
	info = &vg_devices[f->mod->ctx->dev].info;
	for (i = 0; i < config->numAttrs; i++) {
		r = vg_launch_attr(info, &config->attrs[i], &l);
		if (r)
			return r;
	}
	l.grid[0] = config->gridDimX;
	l.grid[1] = config->gridDimY;
	l.grid[2] = config->gridDimZ;
	l.block[0] = config->blockDimX;
	l.block[1] = config->blockDimY;
	l.block[2] = config->blockDimZ;
	l.shared = config->sharedMemBytes;
	l.stream = config->hStream;
	return vg_launch(f, &l);
}

/*
 * Fails with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE past co-residency.
 * The grid's blocks then all run at once, with a workspace for
 * cooperative groups' grid.sync() (launch.c), as do those of
 * cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_COOPERATIVE.
 */
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx,
				   unsigned int gy, unsigned int gz,
				   unsigned int bx, unsigned int by,
				   unsigned int bz, unsigned int shared,
				   CUstream stream, void **params)
{
	const struct vg_launch l = {
		.grid = { gx, gy, gz },
		.block = { bx, by, bz },
		.shared = shared,
		.stream = stream,
		.params = params,
		.cooperative = true,
	};
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_launch_func_get(f, &f);
	return r ? r : vg_launch(f, &l);
}

/*
 * Deprecated since CUDA 11.3, still served by the H100: one cooperative
 * launch per device, each on its own stream, in the list's order. The
 * launches are not made to wait for each other's streams (the pre- and
 * post-launch synchronizations the flags turn off), and a grid spanning
 * devices cannot synchronize as one: vgpu's devices share no grid.
 */
CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *list,
					      unsigned int n,
					      unsigned int flags)
{
	const unsigned int known =
		CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
		CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC;
	bool used[VG_MAX_DEVICES] = { false };
	unsigned int i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!list || !n || n > (unsigned int)vg_device_count || (flags & ~known))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < n; i++) {
		struct CUfunc_st *f;

		r = vg_launch_func_get(list[i].function, &f);
		if (r)
			return r;
		if (used[f->mod->ctx->dev])
			return CUDA_ERROR_INVALID_VALUE;
		used[f->mod->ctx->dev] = true;
	}
	for (i = 0; i < n && !r; i++)
		r = cuLaunchCooperativeKernel(list[i].function, list[i].gridDimX,
					      list[i].gridDimY, list[i].gridDimZ,
					      list[i].blockDimX, list[i].blockDimY,
					      list[i].blockDimZ,
					      list[i].sharedMemBytes,
					      list[i].hStream,
					      list[i].kernelParams);
	return r;
}
