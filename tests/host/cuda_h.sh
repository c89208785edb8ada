#!/bin/sh
# vgpu's cuda.h builds together with the CUDA toolkit's runtime headers
# (cuda_runtime_api.h, driver_types.h, vector_types.h; cuda_runtime.h from
# C++), included before or after them, with and without the per-thread
# default stream: the types both sides name are one type (CUuuid and
# cudaUUID_t, CUstream and cudaStream_t, CUgraph and cudaGraph_t, ...), and
# NVIDIA's own cuda.h, included after vgpu's as cudaEGL.h includes it, is
# skipped. Each program then links against libvgpu and checks
# cuDriverGetVersion, which needs no device. CUDA_INC names the toolkit's
# headers.
cd "$(dirname "$0")/../.." || exit 1
inc=${CUDA_INC:-/usr/local/cuda/include}
lib=build/lib/libvgpu.so.1
[ -f "$inc/cuda_runtime_api.h" ] || { echo "# no toolkit headers in $inc"; exit 1; }
[ -f "$lib" ] || { echo "# $lib not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/both.c" <<'PROG'
#ifdef DRIVER_FIRST
#include <cuda.h>
#endif
#ifdef __cplusplus
#include <cuda_runtime.h>
#endif
#include <cuda_runtime_api.h>
#include <driver_types.h>
#include <vector_types.h>
#ifndef DRIVER_FIRST
#include <cuda.h>
#endif
#include TOOLKIT_CUDA_H
#include <stdio.h>

#if !defined(VGPU_CUDA_H) || !defined(__cuda_cuda_h__)
#error "the cuda.h in use is not vgpu's"
#endif
#if CUDA_VERSION != 13000 || CUDART_VERSION != CUDA_VERSION
#error "CUDA_VERSION is not 13000"
#endif

#ifdef __cplusplus
#include <type_traits>
static_assert(std::is_same<CUuuid, cudaUUID_t>::value, "CUuuid");
static_assert(std::is_same<CUstream, cudaStream_t>::value, "CUstream");
static_assert(std::is_same<CUevent, cudaEvent_t>::value, "CUevent");
static_assert(std::is_same<CUfunction, cudaFunction_t>::value, "CUfunction");
static_assert(std::is_same<CUgraph, cudaGraph_t>::value, "CUgraph");
static_assert(std::is_same<CUgraphNode, cudaGraphNode_t>::value, "CUgraphNode");
static_assert(std::is_same<CUgraphExec, cudaGraphExec_t>::value, "CUgraphExec");
static_assert(std::is_same<CUgraphDeviceNode, cudaGraphDeviceNode_t>::value,
	      "CUgraphDeviceNode");
static_assert(std::is_same<CUmemoryPool, cudaMemPool_t>::value, "CUmemoryPool");
static_assert(std::is_same<CUkernel, cudaKernel_t>::value, "CUkernel");
static_assert(std::is_same<CUlibrary, cudaLibrary_t>::value, "CUlibrary");
static_assert(std::is_same<CUuserObject, cudaUserObject_t>::value,
	      "CUuserObject");
#endif

int main(void)
{
	/* The same types under both names: no conversion is needed. */
	CUuuid uuid = { { 7 } };
	cudaUUID_t runtime_uuid = uuid;
	CUstream stream = CU_STREAM_PER_THREAD;
	cudaStream_t runtime_stream = stream;
	CUevent event = NULL;
	cudaEvent_t runtime_event = event;
	CUfunction func = NULL;
	cudaFunction_t runtime_func = func;
	uint3 size = { 1, 2, 3 };
	enum cudaMemcpyKind kind = cudaMemcpyHostToDevice;
	CUresult (*init)(unsigned int) = cuInit;
	int version = 0;

	if (cuDriverGetVersion(&version) != CUDA_SUCCESS ||
	    version != CUDA_VERSION) {
		printf("# cuDriverGetVersion: %d\n", version);
		return 1;
	}
	if (runtime_uuid.bytes[0] != 7 || runtime_stream != stream ||
	    runtime_event || runtime_func || size.z != 3 ||
	    kind != cudaMemcpyHostToDevice || !init)
		return 1;
	return 0;
}
PROG

fail=0
for lang in c c++; do
	if [ $lang = c ]; then
		cc="gcc -std=c11"
	else
		cc="g++ -std=c++17"
	fi
	for order in DRIVER_FIRST RUNTIME_FIRST; do
		for stream in legacy per-thread; do
			flags=
			[ $stream = per-thread ] && flags=-DCUDA_API_PER_THREAD_DEFAULT_STREAM
			name="$lang, $order, $stream stream"
			# shellcheck disable=SC2086
			if ! $cc -x $lang -Wall -Wextra -Werror -D$order $flags \
				"-DTOOLKIT_CUDA_H=\"$inc/cuda.h\"" \
				-Ilibvgpu/include -I"$inc" "$tmp/both.c" -x none \
				$lib -Wl,-rpath,"$PWD/build/lib" \
				-o "$tmp/both" > "$tmp/log" 2>&1; then
				sed 's/^/# /' "$tmp/log" | head -n 20
				echo "# $name: does not build"
				fail=1
			elif ! "$tmp/both"; then
				echo "# $name: does not run"
				fail=1
			else
				echo "# $name: builds and runs"
			fi
		done
	done
done
exit $fail
