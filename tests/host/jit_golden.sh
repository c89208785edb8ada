#!/bin/sh
# Golden tests of the JIT: each tests/jit/NAME.ptx compiles (vgpu-ptxas
# -S) to exactly the ISA listing in tests/jit/NAME.isa. A change to what
# the JIT writes shows here as a diff to review; after reviewing it,
# VGPU_GOLDEN_UPDATE=1 rewrites the listings (and VG_JIT_VERSION in
# libvgpu/jit/jit.h must be bumped).
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
fail=0
for ptx in tests/jit/*.ptx; do
	want=${ptx%.ptx}.isa
	if ! build/tools/vgpu-ptxas -S "$ptx" > "$tmp"; then
		echo "# $ptx: refused"
		fail=1
	elif [ -n "$VGPU_GOLDEN_UPDATE" ]; then
		cp "$tmp" "$want"
	elif ! diff -u "$want" "$tmp" | sed 's/^/# /'; then
		:
	fi
	if [ -z "$VGPU_GOLDEN_UPDATE" ] && ! cmp -s "$want" "$tmp"; then
		echo "# $ptx: the JIT's output differs from $want"
		fail=1
	fi
done
exit $fail
