#!/bin/sh
# vgpu-as and vgpu-dis round-trip a program: assemble, disassemble,
# assemble again, and the two program files are the same bytes; a bad
# line is refused with its line number.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.s" <<'PROG'
.kernel entry=0 nregs=8 npreds=2 param=16 shared=64
	sreg.u32 mod=ctaid.x dst=r0		; block
	sreg.u32 mod=tid.x dst=r1
	mad.u32 dst=r2 a=r0 b=r1 c=r1
	setp.u32 mod=ge dst=p0 a=r2 b=#0x100
	@p0 exit
	ld.u64 mod=param dst=r3 a=- imm=0x0
	shl.u64 dst=r4 a=r2 b=#0x2
	add.u64 dst=r3 a=r3 b=r4
	ld.f32 mod=global dst=r5 a=r3
	fma.f32 mod=rz dst=r5 a=r5 b=r5 c=r5
	shfl.u32 mod=down mod2=2 dst=r6 a=r5 b=#0x1 c=#0x1f imm=0xffffffff
	atom.u32 mod=global mod2=add dst=r7 a=r3 b=r6
	st.f32 mod=global a=r3 b=r5
	exit
PROG
build/tools/vgpu-as "$tmp/a.s" -o "$tmp/a.bin" || exit 1
build/tools/vgpu-dis "$tmp/a.bin" > "$tmp/b.s" || exit 1
build/tools/vgpu-as "$tmp/b.s" -o "$tmp/b.bin" || exit 1
cmp -s "$tmp/a.bin" "$tmp/b.bin" || { echo "# round trip differs"; exit 1; }
printf 'exit\nadd.u32 dst=q1\n' > "$tmp/bad.s"
msg=$(build/tools/vgpu-as "$tmp/bad.s" -o "$tmp/bad.bin" 2>&1) && exit 1
[ "$msg" = "$tmp/bad.s:2: bad operand 'q1'" ] || { echo "# got: $msg"; exit 1; }
exit 0
