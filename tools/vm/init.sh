#!/bin/busybox sh
# /init of the VM bench's initramfs. Mounts the host's root read-only and
# the caller's directory read-write over virtio-9p, loads vgpu.ko, runs the
# command in the host's root and hands its exit status back through the
# "ctl" share. Parameters come from /ctl/params (written by tools/vm/run).
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

# Modules the stock kernel needs for virtio-9p, in dependency order.
while read -r m; do
	insmod "/modules/$m" || echo "vm: insmod $m failed"
done < /modules.order

p9="trans=virtio,version=9p2000.L,msize=524288"
mkdir -p /host /ctl
mount -t 9p -o "$p9" ctl /ctl || { echo "vm: no ctl share"; reboot -f; }
. /ctl/params
mount -t 9p -o "$p9,ro,cache=loose" hostroot /host || { echo "vm: no host share"; reboot -f; }
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t devtmpfs dev /host/dev
mount -t tmpfs tmp /host/tmp
mount -t tmpfs run /host/run
mkdir -p /host/dev/shm /host/dev/pts
mount -t tmpfs shm /host/dev/shm
mount -t devpts devpts /host/dev/pts
[ -d /host/sys/kernel/debug ] && mount -t debugfs debugfs /host/sys/kernel/debug
# The caller's directory may lie under a path hidden by the tmpfs above.
mkdir -p "/host$VM_CWD" 2>/dev/null
mount -t 9p -o "$p9" cwd "/host$VM_CWD" || { echo "vm: no cwd share"; reboot -f; }
mkdir -p /host/tmp/vgpu-ctl
mount --bind /ctl /host/tmp/vgpu-ctl

kmemleak=/host/sys/kernel/debug/kmemleak
# Forget what the kernel itself left before the module came: only what
# happens from here on is judged.
[ -w $kmemleak ] && echo clear > $kmemleak

status=0
if [ -n "$VM_MODULE" ]; then
	# shellcheck disable=SC2086
	insmod "/host$VM_MODULE" $VM_MODULE_ARGS || status=125
fi
stty -F /dev/ttyS1 raw -echo
if [ $status -eq 0 ]; then
	chroot /host /bin/sh /tmp/vgpu-ctl/cmd > /dev/ttyS1 2>&1 < /dev/null
	status=$?
fi
if [ -n "$VM_MODULE" ] && [ -d /sys/module/vgpu ]; then
	rmmod vgpu || { echo "vm: rmmod vgpu failed"; [ $status -eq 0 ] && status=126; }
fi
if [ -w $kmemleak ]; then
	# kmemleak reports an object older than five seconds that two scans
	# in a row found unreferenced and unchanged.
	sleep 6
	echo scan > $kmemleak
	echo scan > $kmemleak
	cat $kmemleak > /ctl/kmemleak
fi
dmesg > /ctl/dmesg
echo $status > /ctl/status
umount /host/tmp/vgpu-ctl
umount /ctl
reboot -f
