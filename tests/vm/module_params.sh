#!/bin/sh
# Module parameters: described in modinfo, applied to every device, bad
# values refused at insmod with nothing left behind. Reloads the module and
# restores it with the bench's arguments ($VGPU_KO, $VGPU_MODULE_ARGS).
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=1
	fi
}

[ -n "$VGPU_KO" ] || { echo "1..0 # SKIP no VGPU_KO"; exit 0; }
echo "1..13"
desc=$(modinfo -p "$VGPU_KO")
for p in num_devices mem_mb sm_count compute_capability; do
	echo "$desc" | grep -q "^$p:[A-Z]"
	ok $? "modinfo describes $p"
done

rmmod vgpu
for bad in compute_capability=6.1 compute_capability=abc num_devices=0 \
	num_devices=17 mem_mb=1 sm_count=2000; do
	insmod "$VGPU_KO" $bad 2>/dev/null
	loaded=$?
	[ $loaded -ne 0 ] && [ ! -e /dev/vgpu0 ] && [ ! -d /sys/class/vgpu ]
	ok $? "insmod refuses $bad"
	[ $loaded -eq 0 ] && rmmod vgpu
done

insmod "$VGPU_KO" num_devices=3 compute_capability=9.0 sm_count=5 mem_mb=64
[ -e /dev/vgpu2 ] && [ ! -e /dev/vgpu3 ] &&
	[ "$(cat /sys/class/vgpu/vgpu2/compute_capability)" = 9.0 ] &&
	[ "$(cat /sys/class/vgpu/vgpu2/sm_count)" = 5 ] &&
	[ "$(cat /sys/class/vgpu/vgpu2/mem_size)" = 67108864 ] &&
	grep -q 'sm_90' /sys/class/vgpu/vgpu0/name
ok $? "parameters reach every device"
rmmod vgpu
[ ! -e /dev/vgpu0 ] && [ ! -d /sys/class/vgpu ]
ok $? "rmmod removes the devices and the class"

# shellcheck disable=SC2086
insmod "$VGPU_KO" $VGPU_MODULE_ARGS
ok $? "reload with the bench's arguments"
exit $fail
