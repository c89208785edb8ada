#!/bin/sh
# N times: insmod vgpu.ko, open/GET_INFO/close from several threads on every
# device, rmmod. Under the debug kernel, the bench then fails the run on any
# KASAN, lockdep, kmemleak, UBSAN or WARN report.
cycles=${1:-100}
[ -n "$VGPU_KO" ] || { echo "1..0 # SKIP no VGPU_KO"; exit 0; }
cd "$(dirname "$0")/../.." || exit 1
echo "1..1"
rmmod vgpu
i=0
while [ $i -lt "$cycles" ]; do
	insmod "$VGPU_KO" num_devices=2 || break
	build/tests/kselftest/vgpu_threads > /dev/null 2>&1 || break
	rmmod vgpu || break
	i=$((i + 1))
done
# shellcheck disable=SC2086
[ -d /sys/module/vgpu ] || insmod "$VGPU_KO" $VGPU_MODULE_ARGS
if [ $i -eq "$cycles" ]; then
	echo "ok 1 reload_stress: $cycles cycles of insmod, threaded open/GET_INFO/close, rmmod"
else
	echo "not ok 1 reload_stress: cycle $((i + 1)) of $cycles failed"
	exit 1
fi
