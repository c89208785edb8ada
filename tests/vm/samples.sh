#!/bin/sh
# The samples run and verify their own results: bandwidth (pageable and
# page-locked transfers), pitched_copy (2D and 3D), and programs whose
# kernels nvcc compiled to PTX, loaded and launched through the driver API
# (vectoradd, hello with printf, matmul, reduce, histogram, globals, grid2d,
# devchain, dynsmem, math, votes, link through cuLink*, barriers (named
# barriers with thread counts), library (loaded with cuLibraryLoadData,
# launched through its CUkernel), launchex (cuLaunchKernelEx with a
# priority, a launch completion event and a cooperative grid), gridsync
# (cooperative grids whose phases are separated by cooperative groups'
# grid.sync(): a prefix sum and a diffusion, checked against the host's), and the
# streams programs: streams (the streams chapter of "CUDA by Example"),
# callback (the Programming Guide's stream callbacks), simplestreams and
# threads (several host threads with streams of their own), whose times
# are printed, and memops (producer and consumer streams ordered by stream
# memory operations), dlopen (a program linked against no libcuda: it
# dlopen()s libcuda.so.1, checks that vgpu's was loaded, dlsym()s every
# entry point of the toolkit's stub library, resolves its calls through
# cuGetProcAddress_v2 too and runs vectorAdd through those pointers) and
# peers (NVIDIA's simpleP2P in the driver API: peer queries, access
# enabled both ways, copies between the two devices by the copy engines,
# kernels of each device reading the other's memory; the suite runs with
# num_devices=2), devmalloc (linked lists built
# with device-side malloc in one launch, summed and freed in the next),
# vmm_grow (a buffer grown in place by mapping a second handle after the
# first in a larger reservation, then written whole by a kernel),
# vgem_roundtrip (buffers shared with vgem, the kernel's virtual GEM
# driver, as dma-bufs both ways through libdrm, written by kernels and
# read back through the other side's mapping), and the texture programs:
# texrotate (an image rotated through a texture object with wrapping
# normalized coordinates and linear filtering, float and 8-bit RGBA),
# texlayered (layered 2D, cubemap and layered cubemap textures), surfwrite
# (a surface written by a kernel, then read through it and through a
# filtering texture), tex3d (3D textures filtered in three axes under
# each address mode), texmip (a mipmap sampled at levels of detail and
# with gradients, filtered between levels), texgather (tld4 gathers) and
# texoffset (PTX texel offsets on tex and tld4, the depth comparison
# operand), and the graph programs: graphcapture (a two-stream iteration
# captured with cuStreamBeginCapture, replayed 100 times) and condwhile
# (a conditional while node whose kernel body ends the loop through
# cudaGraphSetConditional).
# All of those but library, launchex, gridsync, devmalloc, memops, peers,
# vmm_grow, vgem_roundtrip, the streams and the graph programs also compare their
# results with an H100's (the texture programs' filtered results bit for
# bit)
# (tests/samples/ref): bit for bit, or within PTX's bounds for approximate
# instructions; "matches the H100's" is printed per result.
cd "$(dirname "$0")/../.." || exit 1
export VGPU_SAMPLE_REF=tests/samples/ref
n=0
fail=0
echo "1..37"
for s in "bandwidth 8" pitched_copy vectoradd hello matmul reduce histogram \
	globals grid2d devchain dynsmem math votes link barriers library streams \
	callback simplestreams threads memops launchex gridsync dlopen peers \
	devmalloc vmm_grow vgem_roundtrip texrotate texlayered surfwrite tex3d \
	texmip texgather texoffset graphcapture condwhile; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	out=$(build/samples/$s 2>&1)
	status=$?
	if [ $status -eq 0 ] && echo "$out" | grep -q '^Result = PASS$'; then
		echo "ok $n sample $s verifies its results"
		echo "$out" | grep "the H100's\| ms\|callback\|libcuda.so.1 loaded\|resolved\|PeerAccess\|through the host\|cooperative\|in place\|vgem\|captured\|replayed\|passes" |
			sed 's/^/# /'
	else
		echo "not ok $n sample $s (exit status $status)"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
