#!/bin/sh
# make soak, in the VM: the ioctl fuzzer for half of MINUTES, then the
# driver-API soak for the other half (one after the other: each compares
# the devices' memory in use with what it was when it started). TAP from
# both; exits 1 if either failed.
minutes=${1:-30}
cd "$(dirname "$0")/../.." || exit 1
half=$((minutes * 30))
status=0
echo "# ---- ioctl fuzzer, $half s"
build/tests/fuzz-vm/vgpu_ioctl_fuzz "$half" || status=1
echo "# ---- driver-API soak, $half s"
build/tests/soak/soak_api "$half" || status=1
exit $status
