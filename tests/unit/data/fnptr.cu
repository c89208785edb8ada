// SPDX-License-Identifier: MIT
/*
 * Function pointers in the shapes nvcc gives them, for
 * tests/unit/test_jit.c: virtual calls through vtables, a __constant__
 * table of functions taking and returning a struct, a pointer one kernel
 * stores and another calls, and one inside a packed struct (initialized
 * a byte at a time).
 */
struct Shape {
	__device__ virtual int area(int s) const { return s * s; }
};

struct Tri : Shape {
	__device__ int area(int s) const override { return s * s / 2; }
};

struct Circle : Shape {
	__device__ int area(int s) const override { return 3 * s * s; }
};

/* out[i] = the area of a side of i of the shape i picks */
__global__ void shapes(int *out)
{
	Shape sq;
	Tri tri;
	Circle c;
	const Shape *s[3] = { &sq, &tri, &c };
	int i = threadIdx.x;

	out[i] = s[i % 3]->area(i);
}

struct V2 {
	float x, y;
};

typedef V2 (*v2op)(V2, double);

__device__ __noinline__ V2 scale(V2 v, double k)
{
	V2 r = { v.x * (float)k, v.y * (float)k };
	return r;
}

__device__ __noinline__ V2 swap(V2 v, double k)
{
	V2 r = { v.y, v.x + (float)k };
	return r;
}

__constant__ v2op ops[2] = { scale, swap };

/* out[i] = ops[i & 1]({i, i + 1}, 0.5) */
__global__ void vectors(V2 *out)
{
	int i = threadIdx.x;
	V2 v = { (float)i, (float)(i + 1) };

	out[i] = ops[i & 1](v, 0.5);
}

__device__ int (*hook)(int);

__device__ __noinline__ int cube(int x)
{
	return x * x * x;
}

__global__ void set_hook(void)
{
	hook = cube;
}

/* out[i] = hook ? hook(i) : -1 */
__global__ void call_hook(int *out)
{
	int i = threadIdx.x;

	out[i] = hook ? hook(i) : -1;
}

struct __attribute__((packed)) Entry {
	char tag;
	int (*fn)(int);
	short bias;
};

__device__ Entry entry = { 'e', cube, 7 };

/* out[i] = entry.fn(i) + entry.tag */
__global__ void packed(int *out)
{
	int i = threadIdx.x;

	out[i] = entry.fn(i) + entry.tag;
}
