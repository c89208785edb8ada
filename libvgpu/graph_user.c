// SPDX-License-Identifier: MIT
/*
 * User objects (cuUserObjectCreate): a destructor and its argument with a
 * reference count, which graphs hold references of, so that a resource a
 * graph's work uses lives as long as the graph and whatever was made of
 * it. A graph's clones, its executable graphs and the child graphs
 * copied into nodes hold the graph's references too; an executable graph
 * gives its references back once the work of its last launch has
 * completed. The destructor runs when the count reaches zero: on the
 * thread whose call dropped the last reference, or on a thread of the
 * library's for an executable graph's work, never with a lock held (it
 * must not call CUDA, as NVIDIA documents).
 *
 * What NVIDIA's driver answered (tests/e2e/ref/h200_graph_dot.log): the
 * flag CU_USER_OBJECT_NO_DESTRUCTOR_SYNC is required; counts of 0 are
 * invalid; releasing more references than there are, of an object or of
 * a graph that does not hold it, succeeds and runs no destructor. Here an
 * object released below zero is never destroyed, as there.
 */
#include <pthread.h>
#include <stdlib.h>

#include "graph.h"

#define VG_USER_MAGIC 0x75736572u	/* "user" */

struct CUuserObject_st {
	uint32_t magic;
	int refs;		/* atomic; below zero once over-released */
	void *ptr;
	CUhostFn destroy;
};

/* References put aside under vg_graph_lock, released by vg_user_reap(). */
struct vg_user_dead {
	struct vg_uref *refs;
	size_t n;
	CUevent after;		/* released once it completed, or NULL */
	struct vg_user_dead *next;
};

static struct vg_user_dead *vg_user_dead;	/* vg_graph_lock */

static struct CUuserObject_st *vg_user_get(CUuserObject h)
{
	return h && h->magic == VG_USER_MAGIC ? h : NULL;
}

static void vg_user_release(struct CUuserObject_st *u, unsigned int count)
{
	if (__atomic_sub_fetch(&u->refs, (int)count, __ATOMIC_ACQ_REL) == 0) {
		u->magic = 0;
		u->destroy(u->ptr);
		free(u);
	}
}

static void vg_user_release_all(struct vg_uref *refs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		vg_user_release(refs[i].obj, refs[i].count);
	free(refs);
}

/* A thread of the library's: the release after an executable graph's work. */
static void *vg_user_waiter(void *arg)
{
	struct vg_user_dead *d = arg;

	cuEventSynchronize(d->after);
	cuEventDestroy(d->after);
	vg_user_release_all(d->refs, d->n);
	free(d);
	return NULL;
}

void vg_user_reap(void)
{
	struct vg_user_dead *d, *next;
	pthread_attr_t attr;
	pthread_t t;
	bool detached;

	pthread_mutex_lock(&vg_graph_lock);
	d = vg_user_dead;
	vg_user_dead = NULL;
	pthread_mutex_unlock(&vg_graph_lock);
	if (!d)
		return;
	detached = !pthread_attr_init(&attr) &&
		   !pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (; d; d = next) {
		next = d->next;
		if (d->after && detached && !pthread_create(&t, &attr, vg_user_waiter, d))
			continue;
		/* No thread: the wait is this caller's. */
		if (d->after)
			vg_user_waiter(d);
		else {
			vg_user_release_all(d->refs, d->n);
			free(d);
		}
	}
	pthread_attr_destroy(&attr);
}

void vg_user_drop(struct CUgraph_st *g, CUevent after)
{
	struct vg_user_dead *d;

	if (!g->nurefs) {
		if (after)
			cuEventDestroy(after);
		return;
	}
	d = malloc(sizeof(*d));
	if (!d) {
		/* Kept for ever rather than destroyed under work in flight. */
		free(g->urefs);
	} else {
		*d = (struct vg_user_dead){ g->urefs, g->nurefs, after, vg_user_dead };
		vg_user_dead = d;
	}
	g->urefs = NULL;
	g->nurefs = 0;
}

/* @g holds @count more of @u; with vg_graph_lock. */
static CUresult vg_user_hold(struct CUgraph_st *g, struct CUuserObject_st *u,
			     unsigned int count)
{
	struct vg_uref *t;
	size_t i;

	for (i = 0; i < g->nurefs; i++) {
		if (g->urefs[i].obj == u) {
			g->urefs[i].count += count;
			return CUDA_SUCCESS;
		}
	}
	t = realloc(g->urefs, (g->nurefs + 1) * sizeof(*t));
	if (!t)
		return CUDA_ERROR_OUT_OF_MEMORY;
	g->urefs = t;
	g->urefs[g->nurefs++] = (struct vg_uref){ u, count };
	return CUDA_SUCCESS;
}

CUresult vg_user_copy(struct CUgraph_st *to, const struct CUgraph_st *from)
{
	size_t i;

	if (!from->nurefs)
		return CUDA_SUCCESS;
	to->urefs = malloc(from->nurefs * sizeof(*to->urefs));
	if (!to->urefs)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < from->nurefs; i++) {
		to->urefs[i] = from->urefs[i];
		__atomic_add_fetch(&from->urefs[i].obj->refs, (int)from->urefs[i].count,
				   __ATOMIC_RELAXED);
	}
	to->nurefs = from->nurefs;
	return CUDA_SUCCESS;
}

CUresult cuUserObjectCreate(CUuserObject *out, void *ptr, CUhostFn destroy,
			    unsigned int refs, unsigned int flags)
{
	struct CUuserObject_st *u;

	if (!out || !destroy || !refs || refs > INT32_MAX ||
	    flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC)
		return CUDA_ERROR_INVALID_VALUE;
	u = malloc(sizeof(*u));
	if (!u)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*u = (struct CUuserObject_st){ VG_USER_MAGIC, (int)refs, ptr, destroy };
	*out = u;
	return CUDA_SUCCESS;
}

/*
 * The object @h names for a change of @count references, or NULL. The
 * count is checked first: the object may be gone (NVIDIA's answer to a
 * count of 0 does not depend on it).
 */
static struct CUuserObject_st *vg_user_arg(CUuserObject h, unsigned int count)
{
	return count && count <= INT32_MAX ? vg_user_get(h) : NULL;
}

CUresult cuUserObjectRetain(CUuserObject h, unsigned int count)
{
	struct CUuserObject_st *u = vg_user_arg(h, count);

	if (!u)
		return CUDA_ERROR_INVALID_VALUE;
	__atomic_add_fetch(&u->refs, (int)count, __ATOMIC_RELAXED);
	return CUDA_SUCCESS;
}

CUresult cuUserObjectRelease(CUuserObject h, unsigned int count)
{
	struct CUuserObject_st *u = vg_user_arg(h, count);

	if (!u)
		return CUDA_ERROR_INVALID_VALUE;
	vg_user_release(u, count);
	return CUDA_SUCCESS;
}

CUresult cuGraphRetainUserObject(CUgraph h, CUuserObject obj, unsigned int count,
				 unsigned int flags)
{
	struct CUuserObject_st *u;
	struct CUgraph_st *g;
	CUresult r;

	if (flags & ~(unsigned int)CU_GRAPH_USER_OBJECT_MOVE)
		return CUDA_ERROR_INVALID_VALUE;
	u = vg_user_arg(obj, count);
	if (!u)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	r = g ? vg_user_hold(g, u, count) : CUDA_ERROR_INVALID_VALUE;
	/* Moved: the caller's references become the graph's. */
	if (!r && !(flags & CU_GRAPH_USER_OBJECT_MOVE))
		__atomic_add_fetch(&u->refs, (int)count, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

/*
 * An object the graph does not hold is not looked at: it may be gone,
 * its last reference released through this graph.
 */
CUresult cuGraphReleaseUserObject(CUgraph h, CUuserObject obj, unsigned int count)
{
	struct CUuserObject_st *u = obj;
	struct CUgraph_st *g;
	unsigned int drop = 0;
	size_t i;

	if (!u || !count || count > INT32_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	for (i = 0; g && i < g->nurefs; i++) {
		struct vg_uref *ref = &g->urefs[i];

		if (ref->obj != u)
			continue;
		/* No more than the graph holds. */
		drop = count < ref->count ? count : ref->count;
		ref->count -= drop;
		if (!ref->count)
			*ref = g->urefs[--g->nurefs];
		break;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	if (drop)
		vg_user_release(u, drop);
	return CUDA_SUCCESS;
}
