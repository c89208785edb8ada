#!/bin/sh
# vgpu-ptxas compiles PTX into a vgpu module: -v reports each kernel's
# resources in the shape of ptxas -v, the output starts with the module
# magic, and a refused line is named as FILE:LINE:COL with exit status 1.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/k.ptx" <<'PTX'
.version 8.0
.target sm_75
.address_size 64
.global .align 4 .u32 total;
.visible .entry fill(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b8 tile[64];
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	setp.ge.u32 %p1, %r2, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	atom.global.add.u32 %r3, [total], 1;
DONE:
	ret;
}
PTX
out=$(build/tools/vgpu-ptxas -v -o "$tmp/k.vgpumod" "$tmp/k.ptx") || exit 1
echo "$out" | sed 's/^/# /'
echo "$out" | grep -qx "vgpu-ptxas info    : 4 bytes gmem, 0 bytes cmem" ||
	{ echo "# no gmem line"; exit 1; }
echo "$out" | grep -qx "vgpu-ptxas info    : Function properties for fill" ||
	{ echo "# no properties line"; exit 1; }
echo "$out" | grep -Eqx "vgpu-ptxas info    : Used [0-9]+ registers, 64 bytes smem, 0 bytes lmem, 12 bytes params, [0-9]+ instructions" ||
	{ echo "# no resource line"; exit 1; }
[ "$(head -c 8 "$tmp/k.vgpumod")" = VGPUMOD1 ] || { echo "# not a vgpu module"; exit 1; }
# Without -o the module lands next to the input; without -v nothing is said.
[ -z "$(build/tools/vgpu-ptxas "$tmp/k.ptx")" ] && [ -s "$tmp/k.vgpumod" ] || exit 1
sed 's/atom.global.add.u32 %r3, \[total\], 1;/brkpt;/' "$tmp/k.ptx" > "$tmp/bad.ptx"
msg=$(build/tools/vgpu-ptxas -o "$tmp/bad.vgpumod" "$tmp/bad.ptx" 2>&1)
[ $? -eq 1 ] || { echo "# bad input: wrong status"; exit 1; }
[ "$msg" = "$tmp/bad.ptx:19:2: brkpt: unsupported instruction" ] ||
	{ echo "# got: $msg"; exit 1; }
[ ! -e "$tmp/bad.vgpumod" ] || { echo "# wrote a module for bad input"; exit 1; }
build/tools/vgpu-ptxas 2>/dev/null
[ $? -eq 2 ] || { echo "# no usage status"; exit 1; }
exit 0
