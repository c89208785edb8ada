#!/bin/sh
# The runtime-API programs (tests/samples/rt), built by nvcc with
# -cudart shared against vgpu's libcudart.so.13, run and verify their own
# results, with the error codes an H100 answers:
#   rt_vectoradd  registration, <<<>>> launches, memory, symbols, device
#                 properties, bad devices, launches and arguments;
#   rt_streams    streams, events, page-locked memory, async copies (the
#                 times are printed);
#   rt_fault      a kernel's illegal address, sticky in the context;
#   rt_reset      cudaDeviceReset after such an error: the device is
#                 unavailable to the process from then on;
#   rt_assert     device-side assert(): NVIDIA's line on stderr for each
#                 failing thread, cudaErrorAssert, sticky in the context;
#   rt_interop    runtime and driver calls on one primary context, and
#                 every field of cudaDeviceProp against the driver's;
#   rt_ptds       --default-stream per-thread: threads on their own
#                 streams;
#   rt_noptx      a fatbin without PTX: cudaErrorNoKernelImageForDevice;
#   rt_rdc        separate compilation (-rdc=true): kernels, device
#                 functions and variables across two objects, the
#                 variables written and read with the symbol calls;
#   rt_rdc_dlink  the same built with -dc, -dlink and a host link of its
#                 own;
#   rt_misc       kernel attributes, occupancy, cooperative launches and
#                 launches with attributes, pitched and registered memory,
#                 stream priorities and callbacks, limits, PCI bus ids,
#                 device flags, cache preferences, pointer attributes,
#                 driver entry points, peers;
#   rt_memory3d   cudaMalloc3D, 3D fills and copies with offsets, sync,
#                 async and between "peers" of one device;
#   rt_calls      the smaller calls: choosing and initialising a device,
#                 kernel names, parameters and handles, stream ids and
#                 attributes, shared memory configurations, profiler;
#   rt_library    library management: PTX loaded at run time, its kernels
#                 launched by handle, its variables; notifications and
#                 cluster occupancy;
#   rt_matmul     matrix multiplication in shared-memory tiles, a kernel
#                 template for 16x16 and 32x32 tiles, timed with events;
#   rt_async      copies and a kernel queued on stream 0 while the host
#                 polls an event; an event held back by a host function;
#   rt_callback   host threads each driving a stream, with callbacks and
#                 host functions that check the stream's results, in
#                 stream order both ways;
#   rt_priorities stream priorities: the range, streams at either end and
#                 past them (clamped), work on each;
#   rt_zerocopy   mapped, portable and write-combined page-locked memory
#                 and registered malloc'd memory that kernels read and
#                 write directly; cudaHostGetFlags, pointer attributes;
#   rt_printf     device printf over every conversion, with widths,
#                 precisions and flags, from many threads;
#   rt_templates  a kernel template over int, float, double and a struct,
#                 with dynamic shared memory of each type;
#   rt_atomics    every atomic intrinsic on int, unsigned, float, double
#                 and unsigned long long, on global and shared memory;
#   rt_vote       warp votes, ballots and shuffles, with partial masks in
#                 divergent branches;
#   rt_cg         cooperative groups: blocks, static and dynamic tiles,
#                 coalesced groups, this_grid().sync() in a cooperative
#                 launch;
#   rt_occupancy  the occupancy calculator, the header's block size
#                 suggestions and launches with them, bad inputs;
#   rt_multicopy  copies and kernels overlapped on several streams;
#   rt_hyperq     dependent kernel pairs on 16 streams, joined by the
#                 default stream and by events;
#   rt_onestream  "CUDA by Example"'s single-stream chunked copies;
#   rt_managed    unified memory: cudaMallocManaged written by the host,
#                 a kernel and the host again; prefetches, advice and
#                 the range attributes they set; memory attached to one
#                 stream; pointer attributes; bad input;
#   rt_managed_var __managed__ variables: set by the host, used by
#                 kernels, read back after cudaDeviceSynchronize with no
#                 copy; initializers, atomics, arrays, a struct, the
#                 symbol calls and pointer attributes on them;
#   rt_ipc        two processes sharing device memory and an
#                 interprocess event, the simpleIPC kind: each side's
#                 stream waits for the other's record; bad handles;
#   rt_extmem     external memory: device memory handed over as a file
#                 descriptor, imported, mapped twice, written by a kernel
#                 through one mapping and read through the other; bad
#                 input to each call;
#   rt_extsem     external semaphores: two streams handing a buffer to
#                 each other through a timeline and a binary semaphore
#                 made of device memory handed over as descriptors; the
#                 round captured into a graph and replayed with new
#                 values; bad input to each call;
#   rt_texobj     texture and surface objects and references through the
#                 driver API: creation with good and bad resources and
#                 descriptors, the getters, txq/suq/istypep, fetches,
#                 surface boundary modes, trapping stores, destroyed and
#                 made-up handles in kernels;
#   rt_texture    CUDA arrays, textures and surfaces through the runtime:
#                 arrays of every kind and what cudaGetChannelDesc and
#                 cudaArrayGetInfo say of them, tex2D point and linear,
#                 normalized or not, each address mode; a surface written
#                 by a kernel and read back; a layered array filled by
#                 cudaMemcpy3D; mipmap levels; tex1Dfetch; the array
#                 copies; the getters; bad channel descriptors, NULL
#                 pointers and destroyed objects, with the last error;
#   rt_capture    stream capture: a two-stream iteration captured and
#                 replayed 100 times; capture info, capture into a graph,
#                 the mode exchange; what each mode forbids and the codes;
#                 executable graphs updated, nodes disabled, uploads,
#                 instantiation with parameters; bad input;
#   rt_capture_ptds the same calls through the per-thread default stream
#                 (--default-stream per-thread);
#   rt_graph      a graph of every node type built by hand, with a
#                 diamond of dependencies: its queries, each node's
#                 parameters set and read back, a clone; launched again
#                 and again, changed in the executable graph; graph
#                 memory made directly, kernel node attributes, user
#                 objects, the dot file; bad input to each call;
#   rt_badinput   bad input to every entry point the runtime implements
#                 (NULL pointers, unknown kinds, flags and attributes,
#                 freed pointers, bad devices, sizes, launch
#                 configurations, symbols, streams and events): each
#                 call's code and the last error after it; the last-error
#                 rules, per host thread.
#
# Each program's output is then held to what the same program printed on an
# H100 with NVIDIA's runtime (tests/samples/rt/ref/h100_NAME.log). The lines
# are compared in any order, since device printf and host threads interleave
# differently from run to run, leaving out what only one side prints: the
# library check, the verdict, the exit status, vgpu's own diagnostics
# ("vgpu: ...") and the lines a program marks "~ " as the device's own
# (names, SM counts, occupancy, timings).
cd "$(dirname "$0")/../.." || exit 1

comparable() {
	grep -v -e "^the runtime loaded is not vgpu's\$" \
		-e '^libcudart.so.13 loaded from ' -e '^Result = ' \
		-e '^exit [0-9]*$' -e '^vgpu: ' -e '^~ ' | LC_ALL=C sort
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
samples="rt_vectoradd rt_streams rt_fault rt_reset rt_assert rt_interop rt_ptds
	rt_noptx rt_rdc rt_rdc_dlink rt_misc rt_memory3d rt_calls rt_library
	rt_matmul rt_async rt_callback rt_priorities rt_zerocopy rt_printf
	rt_templates rt_atomics rt_vote rt_cg rt_occupancy rt_multicopy
	rt_hyperq rt_onestream rt_managed rt_managed_var rt_mempool rt_ipc
	rt_extmem rt_extsem rt_texobj rt_texture rt_badinput rt_capture rt_capture_ptds
	rt_graph"
echo "1..$(echo $samples | wc -w)"
for s in $samples; do
	n=$((n + 1))
	out=$(build/samples/rt/$s 2>&1)
	status=$?
	ref=tests/samples/rt/ref/h100_${s%_dlink}.log
	if [ $status -ne 0 ] || ! echo "$out" | grep -q '^Result = PASS$'; then
		echo "not ok $n runtime sample $s (exit status $status)"
		echo "$out" | sed 's/^/# /'
		fail=1
	elif [ ! -f "$ref" ]; then
		echo "not ok $n runtime sample $s has no H100 reference $ref"
		fail=1
	elif ! comparable < "$ref" > "$tmp/h100" 2>&1 ||
	     ! echo "$out" | comparable > "$tmp/vgpu" ||
	     ! diff=$(diff -u "$tmp/h100" "$tmp/vgpu"); then
		echo "not ok $n runtime sample $s prints what an H100 printed"
		echo "$diff" | sed 's/^/# /'
		fail=1
	else
		echo "ok $n runtime sample $s verifies its results, as on an H100"
		echo "$out" | grep -v '^Result = ' | sed 's/^/# /'
	fi
done
exit $fail
