#!/bin/sh
# libvgpu exports every symbol of CUDA 13.0's libcuda under the same name:
# the defined dynamic symbols of the toolkit's stub library
# (CUDA_LIB, default /usr/local/cuda/lib64/stubs/libcuda.so) against those of
# build/lib/libcuda.so.1. Prints the count and the first names missing.
cd "$(dirname "$0")/../.." || exit 1
stub=${CUDA_LIB:-/usr/local/cuda/lib64/stubs/libcuda.so}
lib=build/lib/libcuda.so.1
[ -f "$stub" ] || { echo "# no stub library at $stub"; exit 1; }
[ -f "$lib" ] || { echo "# $lib not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$stub" | awk '{ print $3 }' | sort -u > "$tmp/stub"
nm -D --defined-only "$lib" | awk '{ print $3 }' | sort -u > "$tmp/lib"
comm -23 "$tmp/stub" "$tmp/lib" > "$tmp/missing"
n=$(wc -l < "$tmp/missing")
echo "# $(wc -l < "$tmp/stub") symbols in $stub, $(wc -l < "$tmp/lib") in $lib"
echo "# $n missing from $lib"
sed 's/^/#   /' "$tmp/missing" | head -n 20
[ "$n" -eq 0 ]
