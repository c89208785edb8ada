#!/bin/sh
# The runtime-API programs (tests/samples/rt), built by nvcc with
# -cudart shared against vgpu's libcudart.so.13, run and verify their own
# results, with the error codes an H100 answers:
#   rt_vectoradd  registration, <<<>>> launches, memory, symbols, device
#                 properties, bad devices, launches and arguments;
#   rt_streams    streams, events, page-locked memory, async copies (the
#                 times are printed);
#   rt_fault      a kernel's illegal address, sticky in the context;
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
#                 driver entry points, peers.
cd "$(dirname "$0")/../.." || exit 1
n=0
fail=0
echo "1..10"
for s in rt_vectoradd rt_streams rt_fault rt_assert rt_interop rt_ptds \
	rt_noptx rt_rdc rt_rdc_dlink rt_misc; do
	n=$((n + 1))
	out=$(build/samples/rt/$s 2>&1)
	status=$?
	if [ $status -eq 0 ] && echo "$out" | grep -q '^Result = PASS$'; then
		echo "ok $n runtime sample $s verifies its results"
		echo "$out" | grep -v '^Result = ' | sed 's/^/# /'
	else
		echo "not ok $n runtime sample $s (exit status $status)"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
