// SPDX-License-Identifier: MIT
/*
 * What a stream is: cuStreamGetId, cuStreamGetDevice and the stream
 * attributes (cuStreamGetAttribute/SetAttribute/CopyAttributes), with the
 * rules and error codes of NVIDIA's driver on an H100
 * (tests/e2e/ref/h100_api.log). A stream takes five attributes: its
 * priority, which its kernels run with, and an access policy window, a
 * synchronization policy and memory synchronization domains, which vgpu
 * keeps and reports (it has no L2 to persist lines in, its waits follow
 * the context's flags, and it has one memory synchronization domain).
 */
#include <string.h>

#include "vg.h"

/* The stream @h names, with vg_lock held on success. */
static CUresult vg_attr_begin(CUstream h, struct CUstream_st **pst)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(h, &ctx, pst);
	if (r)
		pthread_mutex_unlock(&vg_lock);
	return r;
}

/* Ids count streams in the order they were made, the legacy ones too. */
CUresult cuStreamGetId(CUstream h, unsigned long long *id)
{
	struct CUstream_st *st;
	CUresult r;

	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_attr_begin(h, &st);
	if (r)
		return r;
	*id = st->id;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

CUresult cuStreamGetDevice(CUstream h, CUdevice *device)
{
	struct CUstream_st *st;
	CUresult r;

	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_attr_begin(h, &st);
	if (r)
		return r;
	*device = st->ctx->dev;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

static bool vg_stream_attr_known(CUstreamAttrID attr)
{
	return attr == CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW ||
	       attr == CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY ||
	       attr == CU_STREAM_ATTRIBUTE_PRIORITY ||
	       attr == CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP ||
	       attr == CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN;
}

/* Only the attribute's member of *@v is written, as on the H100. */
CUresult cuStreamGetAttribute(CUstream h, CUstreamAttrID attr,
			      CUstreamAttrValue *v)
{
	struct CUstream_st *st;
	CUresult r = vg_attr_begin(h, &st);

	if (r)
		return r;
	if (!vg_stream_attr_known(attr) || !v)
		r = CUDA_ERROR_INVALID_VALUE;
	else if (attr == CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW)
		v->accessPolicyWindow = st->window;
	else if (attr == CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY)
		v->syncPolicy = (CUsynchronizationPolicy)st->sync_policy;
	else if (attr == CU_STREAM_ATTRIBUTE_PRIORITY)
		v->priority = st->priority;
	else if (attr == CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP)
		v->memSyncDomainMap = st->domain_map;
	else
		v->memSyncDomain = (CUlaunchMemSyncDomain)st->mem_sync_domain;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

static int vg_device_attr(const struct CUstream_st *st, int attrib)
{
	int v = 0;

	vg_attribute(&vg_devices[st->ctx->dev].info, attrib, &v);
	return v;
}

/*
 * A window's hit ratio lies in [0, 1], its miss property is NORMAL or
 * STREAMING (the hit property is not checked), and it is at most the
 * device's MAX_ACCESS_POLICY_WINDOW_SIZE long (0 on vgpu).
 */
static bool vg_window_valid(const struct CUstream_st *st,
			    const CUaccessPolicyWindow *w)
{
	return w->hitRatio >= 0.0f && w->hitRatio <= 1.0f &&
	       (w->missProp == CU_ACCESS_PROPERTY_NORMAL ||
		w->missProp == CU_ACCESS_PROPERTY_STREAMING) &&
	       w->num_bytes <= (size_t)vg_device_attr(st,
			CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
}

/* Sets one attribute of @st; vg_lock held. */
static CUresult vg_stream_set(struct CUstream_st *st, CUstreamAttrID attr,
			      const CUstreamAttrValue *v)
{
	int domains = vg_device_attr(st,
				     CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT);

	switch ((int)attr) {
	case CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		if (!vg_window_valid(st, &v->accessPolicyWindow))
			return CUDA_ERROR_INVALID_VALUE;
		st->window = v->accessPolicyWindow;
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		if (v->syncPolicy < CU_SYNC_POLICY_AUTO ||
		    v->syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC)
			return CUDA_ERROR_INVALID_VALUE;
		st->sync_policy = v->syncPolicy;
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_PRIORITY:
		/* Clamped to the range, as cuStreamCreateWithPriority does. */
		__atomic_store_n(&st->priority, vg_stream_priority(v->priority),
				 __ATOMIC_RELAXED);
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		if (v->memSyncDomainMap.default_ >= domains ||
		    v->memSyncDomainMap.remote >= domains)
			return CUDA_ERROR_INVALID_VALUE;
		st->domain_map = v->memSyncDomainMap;
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN:
		if (v->memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT &&
		    v->memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE)
			return CUDA_ERROR_INVALID_VALUE;
		st->mem_sync_domain = v->memSyncDomain;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* The legacy and per-thread default streams take attributes too. */
CUresult cuStreamSetAttribute(CUstream h, CUstreamAttrID attr,
			      const CUstreamAttrValue *v)
{
	struct CUstream_st *st;
	CUresult r = vg_attr_begin(h, &st);

	if (r)
		return r;
	if (!vg_stream_attr_known(attr) || !v)
		r = CUDA_ERROR_INVALID_VALUE;
	else
		r = vg_stream_set(st, attr, v);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* All five attributes, within one context. */
CUresult cuStreamCopyAttributes(CUstream hdst, CUstream hsrc)
{
	struct CUstream_st *dst, *src;
	struct CUctx_st *ctx;
	CUresult r = vg_attr_begin(hdst, &dst);

	if (r)
		return r;
	r = vg_stream_resolve(hsrc, &ctx, &src);
	if (r == CUDA_SUCCESS && ctx != dst->ctx)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS) {
		__atomic_store_n(&dst->priority, src->priority,
				 __ATOMIC_RELAXED);
		dst->window = src->window;
		dst->sync_policy = src->sync_policy;
		dst->mem_sync_domain = src->mem_sync_domain;
		dst->domain_map = src->domain_map;
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}
