#!/bin/sh
# The runtime-API programs (tests/samples/rt), built by nvcc with
# -cudart shared against vgpu's libcudart.so.13, run and verify their own
# results: rt_vectoradd (registration, <<<>>> launches, memory, device
# properties and NVIDIA's error codes) and rt_streams (streams, events,
# page-locked memory and async copies), whose times are printed, rt_fault
# (a kernel's illegal address: a sticky error until cudaDeviceReset),
# rt_interop (runtime and driver calls on one primary context; every field
# of cudaDeviceProp against the driver's attributes) and rt_ptds (built
# with --default-stream per-thread: host threads on their own streams) and
# rt_noptx (a fatbin without PTX: cudaErrorNoKernelImageForDevice).
cd "$(dirname "$0")/../.." || exit 1
n=0
fail=0
echo "1..6"
for s in rt_vectoradd rt_streams rt_fault rt_interop rt_ptds rt_noptx; do
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
