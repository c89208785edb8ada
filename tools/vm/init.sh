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
# /tmp is the VM's own tmpfs: what programs write there stays in the VM.
# The host's /tmp shows through it, so that a tree, a program or libraries
# under /tmp are found: each entry of the host's /tmp at boot is
# bind-mounted into the tmpfs, read-only as the rest of the host's root (a
# symbolic link is copied: its target is a path of the host's root). A
# mount costs a few milliseconds under TCG. An overlayfs would make those
# entries writable as well (copied up into the VM), but the debug kernel
# is built without overlayfs.
mkdir -p /hosttmp
mount --bind /host/tmp /hosttmp
mount -t tmpfs tmp /host/tmp
for e in /hosttmp/* /hosttmp/.[!.]* /hosttmp/..?*; do
	name=${e#/hosttmp/}
	if [ -L "$e" ]; then
		ln -s "$(readlink "$e")" "/host/tmp/$name"
	elif [ -d "$e" ]; then
		mkdir "/host/tmp/$name" && mount --bind "$e" "/host/tmp/$name"
	elif [ -e "$e" ]; then
		touch "/host/tmp/$name" && mount --bind "$e" "/host/tmp/$name"
	fi
done
umount /hosttmp
mount -t tmpfs run /host/run
mkdir -p /host/dev/shm /host/dev/pts
mount -t tmpfs shm /host/dev/shm
mount -t devpts devpts /host/dev/pts
[ -d /host/sys/kernel/debug ] && mount -t debugfs debugfs /host/sys/kernel/debug
# The caller's directory, writable; it may lie under a path hidden by a
# tmpfs above (/run).
mkdir -p "/host$VM_CWD" 2>/dev/null
mount -t 9p -o "$p9" cwd "/host$VM_CWD" || { echo "vm: no cwd share"; reboot -f; }
mkdir -p /host/tmp/vgpu-ctl
mount --bind /ctl /host/tmp/vgpu-ctl

kmemleak=/host/sys/kernel/debug/kmemleak
# Forget what the kernel itself left before the module came: only what
# happens from here on is judged.
[ -w $kmemleak ] && echo clear > $kmemleak

# For the test of tools/vm/run's second boot (VGPU_VM_FAIL_BOOTS): the
# first boots end here in a kernel panic, before the mark below.
if [ "$VM_BOOT" -le "$VM_FAIL_BOOTS" ]; then
	echo c > /proc/sysrq-trigger
fi
# The boot is done: from here on what fails is the run, not the boot.
: > /ctl/booted
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
