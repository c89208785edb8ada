#!/bin/sh
# make install and make uninstall into a staging root, and what a user
# does with the install, in one VM boot:
#   - make install DESTDIR=STAGE PREFIX=/usr installs exactly the expected
#     files: the library under its names, the runtime, the headers, the
#     tools (each answering --help), vgpu.pc, the CMake package, the
#     module's source with dkms.conf, and the udev rule;
#   - DKMS builds vgpu.ko from the staged source for the VM's kernel, in a
#     sandbox (its own trees, and a private /var/lib/dkms for the signing
#     key it makes): the machine's DKMS state is not touched;
#   - in the VM, with the DKMS-built vgpu.ko loaded, a driver-API program
#     built there with pkg-config against the staged install, and the same
#     program built here with CMake's find_package(vgpu), count and name
#     the devices and copy 1 MiB to a device and back, on the staged
#     libcuda.so.1; the staged vgpu-smi lists the devices;
#   - make uninstall with the same variables leaves no file behind.
# Prints TAP; exit status 0 when every check passed.
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
kver=$(tools/vm/kernel-release stock)
version=$(sed -n 's/^VERSION := //p' Makefile)
tmp=$(mktemp -d /tmp/vgpu-install-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/root
n=0
fail=0

check() {	# check DESCRIPTION -- COMMAND...
	what=$1
	shift 2
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		fail=1
	fi
}

echo "# version $version, VM kernel $kver"
make -s install DESTDIR="$stage" PREFIX=/usr > "$tmp/install.log" 2>&1
status=$?
sed 's/^/# /' "$tmp/install.log"
check "make install DESTDIR=... PREFIX=/usr exits 0" -- [ $status -eq 0 ]

# The files expected: the module's source is the tree's.
src=usr/src/vgpu-$version
{
	printf '%s\n' etc/udev/rules.d/70-vgpu.rules usr/bin/vgpu-as usr/bin/vgpu-dis \
		usr/bin/vgpu-ptxas usr/bin/vgpu-smi usr/include/vgpu/cuda.h \
		usr/include/vgpu/cudaProfiler.h \
		usr/include/vgpu/uapi/vgpu.h usr/include/vgpu/uapi/vgpu_isa.h \
		usr/lib/cmake/vgpu/vgpuConfig.cmake usr/lib/cmake/vgpu/vgpuConfigVersion.cmake \
		usr/lib/libcuda.so usr/lib/libcuda.so.1 usr/lib/libcudart.so.13 usr/lib/libvgpu.so \
		usr/lib/libvgpu-native.so.1 \
		"usr/lib/libvgpu.so.$version" usr/lib/pkgconfig/vgpu.pc \
		"$src/Makefile" "$src/dkms.conf"
	for f in Kbuild kmod/*.c kmod/*.h core/*.c core/*.h uapi/*.h; do
		[ "$f" = core/shim_user.c ] || echo "$src/$f"
	done
} | sort > "$tmp/expected"
(cd "$stage" 2>/dev/null && find . ! -type d | sed 's|^\./||' | sort) > "$tmp/installed"
diff "$tmp/expected" "$tmp/installed" > "$tmp/files.diff"
sed 's/^/# /' "$tmp/files.diff"
check "the installed files are the expected ones" -- [ ! -s "$tmp/files.diff" ]

lib=$stage/usr/lib
check "libcuda.so.1 -> libvgpu.so.$version, libcuda.so and libvgpu.so -> libcuda.so.1" -- \
	[ "$(readlink "$lib/libcuda.so.1")" = "libvgpu.so.$version" ] &&
	[ "$(readlink "$lib/libcuda.so")" = libcuda.so.1 ] &&
	[ "$(readlink "$lib/libvgpu.so")" = libcuda.so.1 ]
check "the library's soname is libcuda.so.1" -- \
	sh -c "readelf -d '$lib/libvgpu.so.$version' | grep -q 'SONAME.*\[libcuda.so.1\]'"
check "the runtime's soname is libcudart.so.13, and it finds libcuda.so.1 beside it" -- \
	sh -c "readelf -d '$lib/libcudart.so.13' | grep -q 'SONAME.*\[libcudart.so.13\]' &&
		readelf -d '$lib/libcudart.so.13' | grep -q 'RUNPATH.*\[\\\$ORIGIN\]'"
for t in vgpu-smi vgpu-as vgpu-dis vgpu-ptxas; do
	out=$("$stage/usr/bin/$t" --help 2>&1)
	status=$?
	check "$t --help prints its usage and exits 0" -- \
		sh -c "[ $status -eq 0 ] && printf '%s\n' \"\$1\" | grep -q '^usage: $t'" - "$out"
done
check "the udev rule gives /dev/vgpuN to the group video, mode 0660" -- \
	grep -qx 'KERNEL=="vgpu\[0-9\]\*", SUBSYSTEM=="vgpu", GROUP="video", MODE="0660"' \
	"$stage/etc/udev/rules.d/70-vgpu.rules"
check "dkms.conf names vgpu $version" -- \
	grep -qx "PACKAGE_VERSION=\"$version\"" "$stage/$src/dkms.conf"

# pkg-config, as the VM will run it.
export PKG_CONFIG_LIBDIR="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs vgpu 2>&1 | sed "s/ *$//")
echo "# pkg-config --cflags --libs vgpu: $flags"
check "pkg-config --modversion vgpu is $version" -- \
	[ "$(pkg-config --modversion vgpu 2>&1)" = "$version" ]
check "pkg-config --cflags --libs vgpu names the staged headers and library" -- \
	[ "$flags" = "-I$stage/usr/include/vgpu -L$lib -lvgpu" ]

# CMake's find_package(vgpu), built here.
cmake -S tests/install -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$stage/usr" \
	> "$tmp/cmake.log" 2>&1 && cmake --build "$tmp/cmake" >> "$tmp/cmake.log" 2>&1
status=$?
[ $status -eq 0 ] || sed 's/^/# /' "$tmp/cmake.log"
check "find_package(vgpu 0.1) and vgpu::cuda build a program" -- [ $status -eq 0 ]
check "the CMake-built program needs libcuda.so.1" -- \
	sh -c "readelf -d '$tmp/cmake/roundtrip' | grep -q 'NEEDED.*\[libcuda.so.1\]'"

# DKMS builds the staged source for the VM's kernel. Its trees are ours;
# the key it signs with goes to a private /var/lib/dkms (a mount
# namespace), so nothing of the machine changes.
ns="unshare -m"
[ "$(id -u)" -eq 0 ] || ns="unshare -r -m"
mkdir -p "$tmp/dkms"
dkms="dkms --dkmstree $tmp/dkms --sourcetree $stage/usr/src -m vgpu -v $version"
$ns sh -c "mount -t tmpfs tmpfs /var/lib/dkms && $dkms add && $dkms build -k $kver -j 2" \
	> "$tmp/dkms.log" 2>&1
status=$?
ko=$tmp/dkms/vgpu/$version/$kver/$(uname -m)/module/vgpu.ko
[ $status -eq 0 ] || sed 's/^/# /' "$tmp/dkms.log" "$tmp/dkms/vgpu/$version/build/make.log" 2>/dev/null
check "dkms add and dkms build of the staged source for $kver" -- [ $status -eq 0 ] && [ -f "$ko" ]
check "the DKMS-built vgpu.ko is for $kver, version $version" -- \
	sh -c "modinfo -F vermagic '$ko' | grep -q '^$kver ' && [ \"\$(modinfo -F version '$ko')\" = '$version' ]"

# One boot: the DKMS-built module, the pkg-config build, both programs.
mkdir "$tmp/cwd"
cat > "$tmp/vm.sh" <<EOF
export PKG_CONFIG_LIBDIR=$PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR=$stage
echo "version=\$(cat /sys/module/vgpu/version)"
echo "sysfs_name=\$(cat /sys/class/vgpu/vgpu0/name)"
cc -o prog $top/tests/install/roundtrip.c \$(pkg-config --cflags --libs vgpu) 2>&1
LD_LIBRARY_PATH=$lib ./prog > pc.out 2>&1
echo "pc_status=\$?"
$tmp/cmake/roundtrip > cmake.out 2>&1
echo "cmake_status=\$?"
sed 's/^/pc_/' pc.out
sed 's/^/cmake_/' cmake.out
$stage/usr/bin/vgpu-smi -L | sed 's/^/smi_/'
EOF
(cd "$tmp/cwd" && "$top/tools/vm/run" --module "$ko" --module-args "num_devices=2" -- \
	sh "$tmp/vm.sh") > "$tmp/out" 2>&1
status=$?
sed 's/^/# /' "$tmp/out"
has() { grep -qxF "$1" "$tmp/out"; }
name=$(sed -n 's/^sysfs_name=//p' "$tmp/out")
check "the VM runs with the DKMS-built vgpu.ko loaded (status $status)" -- \
	sh -c "[ $status -eq 0 ] && grep -qx 'version=$version' '$tmp/out'"
for how in pc cmake; do
	check "$how: the program exits 0" -- has "${how}_status=0"
	check "$how: the program runs on the staged libcuda.so.1" -- has "${how}_lib=$lib/libcuda.so.1"
	check "$how: cuDeviceGetCount gives 2" -- has "${how}_count=2"
	check "$how: cuDeviceGetName gives the sysfs name" -- \
		sh -c "[ -n '$name' ] && grep -qxF '${how}_name=$name' '$tmp/out'"
	check "$how: 1 MiB round-trips through device memory" -- has "${how}_roundtrip=ok"
done
check "the staged vgpu-smi -L lists both devices" -- \
	sh -c "[ \$(grep -c '^smi_GPU [01]: $name (UUID: GPU-' '$tmp/out') -eq 2 ]"

make -s uninstall DESTDIR="$stage" PREFIX=/usr > "$tmp/uninstall.log" 2>&1
status=$?
sed 's/^/# /' "$tmp/uninstall.log"
check "make uninstall exits 0" -- [ $status -eq 0 ]
left=$(cd "$stage" && find . ! -type d -o -name '*vgpu*')
[ -z "$left" ] || printf '# left: %s\n' $left
check "make uninstall leaves no file and no vgpu folder" -- [ -z "$left" ]
exit $fail
