#!/bin/sh
# tools/vm/run runs a user's program the way the README says, in one boot:
# the program, its libraries, an LD_PRELOAD library, a copy of vgpu.ko and
# the current directory all lie in different directories under the host's
# /tmp. Inside, the program must start (its library found through
# LD_LIBRARY_PATH), see LD_LIBRARY_PATH and LD_PRELOAD as given and the
# preloaded library run, open /dev/vgpu0 (the module under /tmp loaded),
# write a new file in /tmp that stays in the VM, and write a file in the
# current directory that comes back. The copy of vgpu.ko (--module) stands
# for a tree cloned under /tmp, which the VM loads its module from the same
# way, without a second build of the module.
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
cc=${CC:-cc}
tmp=$(mktemp -d /tmp/vgpu-vm-run-test.XXXXXX) || exit 1
junk=$tmp.junk	# a new entry of /tmp, written in the VM only
trap 'rm -rf "$tmp" "$junk"' EXIT
mkdir "$tmp/bin" "$tmp/lib" "$tmp/mod" "$tmp/cwd"

make -s vm-module-stock > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; exit 1; }
cp build/vm/stock/vgpu.ko "$tmp/mod/" || exit 1

cat > "$tmp/lib.c" <<'EOF'
int vmrun_answer(void) { return 42; }
EOF
cat > "$tmp/preload.c" <<'EOF'
#include <stdlib.h>
__attribute__((constructor)) static void mark(void) { setenv("VMRUN_PRELOADED", "yes", 1); }
EOF
cat > "$tmp/prog.c" <<'EOF'
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int vmrun_answer(void);
static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v ? v : "(unset)";
}
static const char *put(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs("written\n", f) < 0 || fclose(f))
		return strerror(errno);
	return "written";
}
int main(int argc, char **argv)
{
	int fd = open("/dev/vgpu0", O_RDWR);

	printf("LD_LIBRARY_PATH=%s\n", env("LD_LIBRARY_PATH"));
	printf("LD_PRELOAD=%s\n", env("LD_PRELOAD"));
	printf("preloaded=%s\n", env("VMRUN_PRELOADED"));
	printf("answer=%d\n", vmrun_answer());
	printf("vgpu0=%s\n", fd >= 0 ? "open" : strerror(errno));
	printf("tmp=%s\n", argc > 1 ? put(argv[1]) : "no path");
	printf("cwd=%s\n", put("back"));
	return 0;
}
EOF
"$cc" -shared -fPIC -o "$tmp/lib/libvmrun.so" "$tmp/lib.c" &&
	"$cc" -shared -fPIC -o "$tmp/lib/libmark.so" "$tmp/preload.c" &&
	"$cc" -o "$tmp/bin/prog" "$tmp/prog.c" -L"$tmp/lib" -lvmrun || exit 1

cd "$tmp/cwd" || exit 1
LD_LIBRARY_PATH=$tmp/lib LD_PRELOAD=$tmp/lib/libmark.so \
	"$top/tools/vm/run" --module "$tmp/mod/vgpu.ko" -- "$tmp/bin/prog" "$junk" \
	> "$tmp/out" 2>&1
status=$?
sed 's/^/# /' "$tmp/out"
fail=0

check() {	# check DESCRIPTION -- COMMAND...
	what=$1
	shift 2
	if "$@"; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		fail=1
	fi
}
has() { grep -qxF "$1" "$tmp/out"; }

check "the run exits 0 (status $status)" -- [ "$status" -eq 0 ]
check "LD_LIBRARY_PATH reaches the program" -- has "LD_LIBRARY_PATH=$tmp/lib"
check "LD_PRELOAD reaches the program" -- has "LD_PRELOAD=$tmp/lib/libmark.so"
check "the preloaded library under /tmp runs" -- has "preloaded=yes"
check "the program under /tmp finds its library under /tmp" -- has "answer=42"
check "vgpu.ko under /tmp is loaded: /dev/vgpu0 opens" -- has "vgpu0=open"
check "/tmp is writable in the VM" -- has "tmp=written"
check "what the VM writes in /tmp stays there" -- [ ! -e "$junk" ]
check "the current directory under /tmp is writable" -- has "cwd=written"
check "what the VM writes in the current directory comes back" -- \
	grep -sqx written "$tmp/cwd/back"

# A kernel that dies while booting is booted again: the first boot panics
# before vgpu.ko loads (VGPU_VM_FAIL_BOOTS=1), the second runs the command
# with its exit status; three failed boots end the run as a failed VM,
# the command never run.
VGPU_VM_FAIL_BOOTS=1 "$top/tools/vm/run" --module "$tmp/mod/vgpu.ko" -- \
	sh -c 'test -e /dev/vgpu0 && echo ran; exit 3' > "$tmp/retry" 2>&1
status=$?
sed 's/^/# /' "$tmp/retry"
check "a boot that panics before vgpu.ko loads is booted again; the command's status comes back (status $status)" -- \
	[ "$status" -eq 3 ]
check "the command ran once, with vgpu.ko loaded, after the second boot" -- \
	[ "$(grep -cx ran "$tmp/retry")" -eq 1 ]
check "the failed boot is reported with its console" -- \
	grep -q "boot 1 of 3); booting again" "$tmp/retry"
VGPU_VM_FAIL_BOOTS=3 "$top/tools/vm/run" --module "$tmp/mod/vgpu.ko" -- \
	sh -c 'echo ran' > "$tmp/retry3" 2>&1
status=$?
sed 's/^/# /' "$tmp/retry3"
check "three boots that panic fail the run (status $status)" -- [ "$status" -eq 1 ]
check "a third failed boot is not followed by a fourth, and the command never ran" -- \
	sh -c "! grep -q 'boot 3 of 3' '$tmp/retry3' && ! grep -qx ran '$tmp/retry3'"
exit $fail
