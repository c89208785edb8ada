#!/bin/sh
# vgpu's libcudart.so.13 stands in for CUDA 13.0's: its soname is NVIDIA's,
# every symbol it exports carries the version node libcudart.so.13 (which
# nvcc-built programs require) and is a runtime name (cuda*, __cuda*), and
# it exports every symbol of the toolkit's library (CUDART_LIB, default
# /usr/local/cuda/lib64/libcudart.so.13). Prints what is wrong.
cd "$(dirname "$0")/../.." || exit 1
ref=${CUDART_LIB:-/usr/local/cuda/lib64/libcudart.so.13}
lib=build/lib/libcudart.so.13
[ -f "$ref" ] || { echo "# no runtime library at $ref"; exit 1; }
[ -f "$lib" ] || { echo "# $lib not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" != libcudart.so.13 ]; then
	echo "# soname is '$soname'"
	fail=1
fi

# objdump -T: address, flags, section, size, version, name. The version
# node's own symbol (in *ABS*) names itself.
objdump -T "$lib" | grep -v '[*]UND[*]' | awk 'NF >= 6 && $NF != $(NF - 1) {
	print $(NF - 1), $NF }' > "$tmp/defined"
n=$(wc -l < "$tmp/defined")
awk '$1 != "libcudart.so.13"' "$tmp/defined" > "$tmp/unversioned"
if [ -s "$tmp/unversioned" ]; then
	echo "# exported without the node libcudart.so.13:"
	sed 's/^/#   /' "$tmp/unversioned" | head -n 20
	fail=1
fi
awk '$2 !~ /^(cuda|__cuda)/' "$tmp/defined" > "$tmp/foreign"
if [ -s "$tmp/foreign" ]; then
	echo "# exported but not a runtime name:"
	sed 's/^/#   /' "$tmp/foreign" | head -n 20
	fail=1
fi

nm -D --defined-only "$ref" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
	sort -u > "$tmp/ref"
awk '{ print $2 }' "$tmp/defined" | sort -u > "$tmp/lib"
comm -23 "$tmp/ref" "$tmp/lib" > "$tmp/missing"
echo "# $n symbols exported by $lib, $(wc -l < "$tmp/ref") by $ref"
if [ -s "$tmp/missing" ]; then
	echo "# $(wc -l < "$tmp/missing") missing from $lib:"
	sed 's/^/#   /' "$tmp/missing" | head -n 20
	fail=1
fi
exit $fail
