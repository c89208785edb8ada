// SPDX-License-Identifier: MIT
/*
 * A graph kernel node's launch attributes (cuGraphKernelNode*Attribute),
 * as NVIDIA's driver keeps them (tests/e2e/ref/h200_graph_dot.log): the
 * access policy window, cooperative, cluster dimension and scheduling
 * policy, priority (clamped to the device's range when set), the memory
 * synchronization domain and its map, device-updatable and the shared
 * memory carveout can be set and read back; NVLink-centric scheduling can
 * be set but not read; any other id is an invalid value. The values are
 * checked as cuLaunchKernelEx checks them. A node's attributes go with
 * it into clones and executable graphs and survive its SetParams;
 * cooperative and priority change its launches.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuGraphKernelNodeGetAttribute
#undef cuGraphKernelNodeSetAttribute
#undef cuGraphKernelNodeCopyAttributes

#define VG_ATTR_BIT(id) (1u << (id))
#define VG_ATTRS_KEPT (VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_COOPERATIVE) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_PRIORITY) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE) | \
		       VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT))
#define VG_ATTRS_SETTABLE (VG_ATTRS_KEPT | \
			   VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING))

static bool vg_attr_in(CUkernelNodeAttrID id, uint32_t set)
{
	return (unsigned int)id < VG_NODE_ATTRS && (set & VG_ATTR_BIT(id));
}

CUresult vg_kernel_attrs_copy(struct vg_kernel_node *to, const struct vg_kernel_node *from)
{
	CUlaunchAttributeValue *a = NULL;

	if (from->attrs) {
		a = malloc(VG_NODE_ATTRS * sizeof(*a));
		if (!a)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(a, from->attrs, VG_NODE_ATTRS * sizeof(*a));
	}
	free(to->attrs);
	to->attrs = a;
	to->attrs_set = from->attrs_set;
	return CUDA_SUCCESS;
}

void vg_kernel_node_attrs(const struct vg_kernel_node *kn, struct vg_launch *l)
{
	if (!kn->attrs)
		return;
	l->cooperative = kn->attrs[CU_LAUNCH_ATTRIBUTE_COOPERATIVE].cooperative != 0;
	if (kn->attrs_set & VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_PRIORITY)) {
		l->has_priority = true;
		l->priority = kn->attrs[CU_LAUNCH_ATTRIBUTE_PRIORITY].priority;
	}
}

/* The kernel node @h names, or NULL. With vg_graph_lock held. */
static struct vg_kernel_node *vg_attr_node(CUgraphNode h)
{
	struct CUgraphNode_st *n = vg_node_get(h);

	return n && n->type == CU_GRAPH_NODE_TYPE_KERNEL ? &n->p.kernel : NULL;
}

CUresult cuGraphKernelNodeGetAttribute(CUgraphNode h, CUkernelNodeAttrID id,
				       CUkernelNodeAttrValue *value)
{
	struct vg_kernel_node *kn;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (!value || !vg_attr_in(id, VG_ATTRS_KEPT))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	kn = vg_attr_node(h);
	if (kn) {
		if (kn->attrs)
			*value = kn->attrs[id];
		else
			memset(value, 0, sizeof(*value));
		r = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

/*
 * A new node (in no graph yet) launches cooperatively: what stream capture
 * makes of a cooperative launch, as NVIDIA's driver does.
 */
CUresult vg_kernel_node_cooperative(struct vg_kernel_node *kn)
{
	if (!kn->attrs) {
		kn->attrs = calloc(VG_NODE_ATTRS, sizeof(*kn->attrs));
		if (!kn->attrs)
			return CUDA_ERROR_OUT_OF_MEMORY;
	}
	kn->attrs[CU_LAUNCH_ATTRIBUTE_COOPERATIVE].cooperative = 1;
	kn->attrs_set |= VG_ATTR_BIT(CU_LAUNCH_ATTRIBUTE_COOPERATIVE);
	return CUDA_SUCCESS;
}

/* @v's priority within the device's range, as NVIDIA keeps it. */
static int vg_attr_priority(int priority)
{
	int least, greatest;

	if (cuCtxGetStreamPriorityRange(&least, &greatest))
		return priority;
	return priority > least ? least : priority < greatest ? greatest : priority;
}

CUresult cuGraphKernelNodeSetAttribute(CUgraphNode h, CUkernelNodeAttrID id,
				       const CUkernelNodeAttrValue *value)
{
	CUkernelNodeAttrValue v;
	struct vg_kernel_node *kn;
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	int dev = -1;

	if (!value || !vg_attr_in(id, VG_ATTRS_SETTABLE))
		return CUDA_ERROR_INVALID_VALUE;
	v = *value;
	pthread_mutex_lock(&vg_graph_lock);
	kn = vg_attr_node(h);
	if (kn && kn->func && kn->func->magic == VG_FUNC_MAGIC)
		dev = kn->func->mod->ctx->dev;
	pthread_mutex_unlock(&vg_graph_lock);
	if (dev < 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* Checked as a launch checks it; the stream-only refusal aside. */
	if (id != CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE) {
		r = vg_launch_attr_check(&vg_devices[dev].info, id, &v);
		if (r)
			return r;
	}
	if (id == CU_LAUNCH_ATTRIBUTE_PRIORITY)
		v.priority = vg_attr_priority(v.priority);

	pthread_mutex_lock(&vg_graph_lock);
	kn = vg_attr_node(h);
	r = kn ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (kn && !kn->attrs) {
		kn->attrs = calloc(VG_NODE_ATTRS, sizeof(*kn->attrs));
		if (!kn->attrs)
			r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (!r) {
		kn->attrs[id] = v;
		kn->attrs_set |= VG_ATTR_BIT(id);
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
	struct vg_kernel_node *to, *from;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_graph_lock);
	to = vg_attr_node(dst);
	from = vg_attr_node(src);
	if (to && from && to != from)
		r = vg_kernel_attrs_copy(to, from);
	else if (to && from)
		r = CUDA_SUCCESS;
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}
