// SPDX-License-Identifier: MIT
// Device-side malloc and free: each thread builds a linked list in the
// device heap in one kernel; a later kernel sums each list and frees it.
#include <stddef.h>

struct node {
	struct node *next;
	unsigned int value;
};

extern "C" __global__ void build(struct node **heads, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	struct node *head = NULL;

	if (t >= n)
		return;
	for (int j = 0; j < t % 7 + 1; j++) {
		struct node *e = (struct node *)malloc(sizeof(*e));

		if (!e)
			break;
		e->value = t * 10 + j;
		e->next = head;
		head = e;
	}
	heads[t] = head;
}

extern "C" __global__ void sum_and_free(struct node **heads,
					unsigned int *sums, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	struct node *e;
	unsigned int s = 0;

	if (t >= n)
		return;
	for (e = heads[t]; e;) {
		struct node *next = e->next;

		s += e->value;
		free(e);
		e = next;
	}
	heads[t] = NULL;
	sums[t] = s;
}
