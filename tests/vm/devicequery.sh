#!/bin/sh
# The deviceQuery sample's listing agrees with the module's sysfs view of
# every device.
cd "$(dirname "$0")/../.." || exit 1
out=$(mktemp)
n=0
fail=0

check() {
	n=$((n + 1))
	if grep -qF -- "$2" "$out"; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		echo "# expected a line with: $2"
		fail=1
	fi
}

build/samples/devicequery > "$out" 2>&1
devices=$(ls -d /sys/class/vgpu/vgpu* | wc -l)
check "device count" "Detected $devices CUDA capable device(s)"
for d in /sys/class/vgpu/vgpu*; do
	i=${d##*/vgpu}
	check "vgpu$i name" "Device $i: \"$(cat "$d/name")\""
	check "vgpu$i uuid" "UUID:                                          $(cat "$d/uuid")"
	check "vgpu$i compute capability" "version number:    $(cat "$d/compute_capability")"
	check "vgpu$i memory" "($(cat "$d/mem_size") bytes)"
	check "vgpu$i multiprocessors" "Multiprocessors:                               $(cat "$d/sm_count")"
done
check "managed memory" "Managed memory:                                Yes"
check "contexts work" "created, flags 0x0, destroyed"
check "result" "Result = PASS"
[ $fail -eq 0 ] || { echo "# ---- devicequery output:"; sed 's/^/# /' "$out"; }
rm -f "$out"
exit $fail
