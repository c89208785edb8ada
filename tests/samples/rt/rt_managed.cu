// SPDX-License-Identifier: MIT
// Unified memory, the Programming Guide's examples: an array from
// cudaMallocManaged written by the host, updated in place by a kernel and
// read by the host again with no copy; the same with the memory attached
// to one stream (cudaStreamAttachMemAsync); prefetches to the device and
// back (cudaMemPrefetchAsync) and advice (cudaMemAdvise), read back with
// cudaMemRangeGetAttribute(s); what cudaPointerGetAttributes says of the
// memory; and the answers for memory that is not managed and bad input.
// On vgpu, also the faults its module counts on managed memory (a GPU's
// page faults, which the guide's prefetches avoid): a kernel and the host
// taking turns fault on every page, prefetching both ways on none.
#include <stdint.h>

#include "rt.h"

#define N (64 * 1024)

__global__ void scale_add(float *p, float mul, float add, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = p[i] * mul + add;
}

static cudaMemLocation where(cudaMemLocationType type, int id)
{
	cudaMemLocation l;

	memset(&l, 0, sizeof(l));
	l.type = type;
	l.id = id;
	return l;
}

// Elements of @p that are not i * mul + add.
static int wrong(const float *p, float mul, float add)
{
	int i, bad = 0;

	for (i = 0; i < N; i++)
		bad += p[i] != (float)i * mul + add;
	return bad;
}

static void ranges(const char *when, const void *p, size_t n)
{
	int rm = -7, pref = -7, last = -7, acc[3] = { -7, -7, -7 };
	int pref_type = -7, last_type = -7;

	TRY(cudaMemRangeGetAttribute(&rm, 4, cudaMemRangeAttributeReadMostly, p, n));
	TRY(cudaMemRangeGetAttribute(&pref, 4, cudaMemRangeAttributePreferredLocation, p, n));
	TRY(cudaMemRangeGetAttribute(&pref_type, 4, cudaMemRangeAttributePreferredLocationType, p, n));
	TRY(cudaMemRangeGetAttribute(&acc, sizeof(acc), cudaMemRangeAttributeAccessedBy, p, n));
	TRY(cudaMemRangeGetAttribute(&last, 4, cudaMemRangeAttributeLastPrefetchLocation, p, n));
	TRY(cudaMemRangeGetAttribute(&last_type, 4, cudaMemRangeAttributeLastPrefetchLocationType, p, n));
	printf("%s: read mostly %d, preferred %d (type %d), accessed by %d %d %d, "
	       "last prefetch %d (type %d)\n", when, rm, pref, pref_type,
	       acc[0], acc[1], acc[2], last, last_type);
}

// vgpu's counts of managed-memory faults on device 0 (sysfs); false on
// another driver, which has no such file.
static bool fault_counts(long long *dev, long long *host)
{
	FILE *d = fopen("/sys/class/vgpu/vgpu0/managed_faults_device", "r");
	FILE *h = fopen("/sys/class/vgpu/vgpu0/managed_faults_host", "r");
	bool ok = d && h && fscanf(d, "%lld", dev) == 1 &&
		  fscanf(h, "%lld", host) == 1;

	if (d)
		fclose(d);
	if (h)
		fclose(h);
	return ok;
}

// The host and a kernel taking turns on 64 pages, without prefetches and
// with them; the lines are the device's own ("~ ").
static void faults(cudaStream_t s)
{
	long long d0, h0, d1, h1, d2, h2;
	float *b;
	int i;

	TRY(cudaMallocManaged((void **)&b, N * sizeof(float)));
	for (i = 0; i < N; i++)
		b[i] = (float)i;
	if (!fault_counts(&d0, &h0))
		d0 = h0 = -1;
	scale_add<<<(N + 255) / 256, 256, 0, s>>>(b, 2.f, 1.f, N);
	TRY(cudaStreamSynchronize(s));
	EXPECT_TRUE(wrong(b, 2.f, 1.f) == 0);
	if (d0 >= 0 && fault_counts(&d1, &h1)) {
		printf("~ taking turns: %lld device faults, %lld host faults\n",
		       d1 - d0, h1 - h0);
		EXPECT_TRUE(d1 - d0 == N * sizeof(float) / 4096);
		EXPECT_TRUE(h1 - h0 == N * sizeof(float) / 4096);
	}
	TRY(cudaMemPrefetchAsync(b, N * sizeof(float),
				 where(cudaMemLocationTypeDevice, 0), 0, s));
	scale_add<<<(N + 255) / 256, 256, 0, s>>>(b, 1.f, 3.f, N);
	TRY(cudaMemPrefetchAsync(b, N * sizeof(float),
				 where(cudaMemLocationTypeHost, 0), 0, s));
	TRY(cudaStreamSynchronize(s));
	EXPECT_TRUE(wrong(b, 2.f, 4.f) == 0);
	if (d0 >= 0 && fault_counts(&d2, &h2)) {
		printf("~ prefetched both ways: %lld device faults, %lld host "
		       "faults\n", d2 - d1, h2 - h1);
		EXPECT_TRUE(d2 == d1 && h2 == h1);
	}
	TRY(cudaFree(b));
}

int main(void)
{
	struct cudaPointerAttributes pa;
	cudaStream_t s;
	float *a, *dev, *bad = NULL;
	int i, v;

	rt_check_library();
	TRY(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0));
	printf("managed memory: %d\n", v);
	TRY(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0));
	printf("concurrent managed access: %d\n", v);
	TRY(cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, 0));
	printf("pageable memory access: %d\n", v);

	// Host, kernel, host: one pointer throughout.
	TRY(cudaMallocManaged((void **)&a, N * sizeof(float)));
	for (i = 0; i < N; i++)
		a[i] = (float)i;
	scale_add<<<(N + 255) / 256, 256>>>(a, 2.f, 1.f, N);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	v = wrong(a, 2.f, 1.f);
	EXPECT_TRUE(v == 0);
	printf("kernel on managed memory written by the host: %d wrong\n", v);

	memset(&pa, 0x5a, sizeof(pa));
	TRY(cudaPointerGetAttributes(&pa, a + 10));
	printf("pointer attributes: type %d, device %d, host pointer %s, "
	       "device pointer %s\n", (int)pa.type, pa.device,
	       pa.hostPointer == a + 10 ? "itself" : "another",
	       pa.devicePointer == a + 10 ? "itself" : "another");

	// Prefetched to the device for the kernel, back to the host after.
	ranges("fresh", a, N * sizeof(float));
	TRY(cudaStreamCreate(&s));
	TRY(cudaMemPrefetchAsync(a, N * sizeof(float),
				 where(cudaMemLocationTypeDevice, 0), 0, s));
	scale_add<<<(N + 255) / 256, 256, 0, s>>>(a, 1.f, 3.f, N);
	TRY(cudaGetLastError());
	ranges("prefetched to device 0", a, N * sizeof(float));
	TRY(cudaMemPrefetchAsync(a, N * sizeof(float),
				 where(cudaMemLocationTypeHost, 0), 0, s));
	TRY(cudaStreamSynchronize(s));
	ranges("prefetched to the host", a, N * sizeof(float));
	v = wrong(a, 2.f, 4.f);
	EXPECT_TRUE(v == 0);
	printf("prefetched there and back: %d wrong\n", v);

	faults(s);

	// Advice: read-mostly, preferred location, accessed by.
	TRY(cudaMemAdvise(a, N * sizeof(float), cudaMemAdviseSetReadMostly,
			  where(cudaMemLocationTypeDevice, 0)));
	TRY(cudaMemAdvise(a, N * sizeof(float) / 2,
			  cudaMemAdviseSetPreferredLocation,
			  where(cudaMemLocationTypeDevice, 0)));
	TRY(cudaMemAdvise(a, N * sizeof(float), cudaMemAdviseSetAccessedBy,
			  where(cudaMemLocationTypeHost, 0)));
	ranges("advised (first half)", a, N * sizeof(float) / 2);
	ranges("advised (whole)", a, N * sizeof(float));
	TRY(cudaMemAdvise(a, N * sizeof(float), cudaMemAdviseUnsetReadMostly,
			  where(cudaMemLocationTypeDevice, 0)));
	{
		int rm = -7, pref = -7;
		void *data[] = { &rm, &pref };
		size_t sizes[] = { 4, 4 };
		cudaMemRangeAttribute attrs[] = {
			cudaMemRangeAttributeReadMostly,
			cudaMemRangeAttributePreferredLocation,
		};

		TRY(cudaMemRangeGetAttributes(data, sizes, attrs, 2, a, 4096));
		printf("first page after unset read-mostly: read mostly %d, "
		       "preferred %d\n", rm, pref);
	}

	// Attached to one stream, used by it, then by the host.
	TRY(cudaStreamAttachMemAsync(s, a, 0, cudaMemAttachSingle));
	scale_add<<<(N + 255) / 256, 256, 0, s>>>(a, 1.f, -4.f, N);
	TRY(cudaGetLastError());
	TRY(cudaStreamSynchronize(s));
	v = wrong(a, 2.f, 0.f);
	EXPECT_TRUE(v == 0);
	printf("kernel on memory attached to its stream: %d wrong\n", v);
	TRY(cudaStreamAttachMemAsync(s, a, 0, cudaMemAttachGlobal));
	TRY(cudaStreamSynchronize(s));

	// Not managed, or bad input.
	TRY(cudaMalloc((void **)&dev, 4096));
	printf("prefetch of device memory: %s\n", cudaGetErrorName(
		cudaMemPrefetchAsync(dev, 4096, where(cudaMemLocationTypeDevice, 0), 0, 0)));
	printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
	printf("advice on device memory: %s\n", cudaGetErrorName(
		cudaMemAdvise(dev, 4096, cudaMemAdviseSetReadMostly,
			      where(cudaMemLocationTypeDevice, 0))));
	printf("range attribute of device memory: %s\n", cudaGetErrorName(
		cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, dev, 4096)));
	printf("prefetch to device 9: %s\n", cudaGetErrorName(
		cudaMemPrefetchAsync(a, 4096, where(cudaMemLocationTypeDevice, 9), 0, 0)));
	printf("advice 0: %s\n", cudaGetErrorName(
		cudaMemAdvise(a, 4096, (cudaMemoryAdvise)0,
			      where(cudaMemLocationTypeDevice, 0))));
	printf("range attribute of 8 bytes: %s\n", cudaGetErrorName(
		cudaMemRangeGetAttribute(&v, 8, cudaMemRangeAttributeReadMostly, a, 4096)));
	printf("attach single to stream 0: %s\n", cudaGetErrorName(
		cudaStreamAttachMemAsync(0, a, 0, cudaMemAttachSingle)));
	printf("attach of part: %s\n", cudaGetErrorName(
		cudaStreamAttachMemAsync(s, a, 4096, cudaMemAttachGlobal)));
	printf("cudaMallocManaged with flags 0: %s\n", cudaGetErrorName(
		cudaMallocManaged((void **)&bad, 4096, 0)));
	TRY(cudaFree(dev));
	printf("cudaFreeHost of managed memory: %s\n", cudaGetErrorName(
		cudaFreeHost(a)));
	printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));

	TRY(cudaStreamDestroy(s));
	TRY(cudaFree(a));
	printf("range attribute after cudaFree: %s\n", cudaGetErrorName(
		cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, a, 4096)));
	return rt_result();
}
