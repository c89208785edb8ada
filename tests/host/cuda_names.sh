#!/bin/sh
# Every name of the toolkit's cuda.h is in vgpu's, with the same meaning:
# tools/cuda-facts reads the toolkit header (CUDA_INC) at test time and
# writes (1) a probe, built against the toolkit, that prints an assertion
# for every enumerator value, typedef size, struct field offset and
# object-like macro value, and (2) a pointer of the exact function type for
# every entry point. Both are then built against vgpu's cuda.h, from C and
# C++, before and after the toolkit's runtime headers, with cudaTypedefs.h
# after cuda.h, and with and without the per-thread default stream.
# Prints the count of names vgpu's header lacks; exits 1 if any check fails.
cd "$(dirname "$0")/../.." || exit 1
inc=${CUDA_INC:-/usr/local/cuda/include}
[ -f "$inc/cuda.h" ] || { echo "# no toolkit headers in $inc"; exit 1; }
command -v clang > /dev/null || { echo "# clang is needed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tools/cuda-facts missing "$inc/cuda.h" libvgpu/include/cuda.h |
	sed 's/^/# /' | tee "$tmp/missing"
fail=0
grep -q '^# [1-9]' "$tmp/missing" && fail=1

for stream in legacy per-thread; do
	defs=
	[ $stream = per-thread ] && defs=-DCUDA_API_PER_THREAD_DEFAULT_STREAM
	# shellcheck disable=SC2086
	tools/cuda-facts probe "$inc/cuda.h" $defs > "$tmp/probe.c" &&
	gcc $defs -w -I"$inc" "$tmp/probe.c" -o "$tmp/probe" &&
	"$tmp/probe" > "$tmp/facts-$stream" &&
	tools/cuda-facts names "$inc/cuda.h" $defs > "$tmp/names-$stream" || {
		echo "# cannot read the toolkit's facts ($stream)"
		exit 1
	}
	grep '^A(' "$tmp/facts-$stream" > "$tmp/asserts-$stream.h"
	grep '^M(' "$tmp/facts-$stream" > "$tmp/macros-$stream.h"
done

cat > "$tmp/names.c" <<'PROG'
#ifdef DRIVER_FIRST
#include <cuda.h>
#include <cudaTypedefs.h>
#endif
#include <cuda_runtime_api.h>
#include <driver_types.h>
#include <vector_types.h>
#ifndef DRIVER_FIRST
#include <cuda.h>
#include <cudaTypedefs.h>
#endif
#include <stdio.h>
#include <string.h>
#include <stddef.h>

#ifdef __cplusplus
#define A(x) static_assert(x, #x);
#else
#define A(x) _Static_assert(x, #x);
#endif
#include ASSERTS

#define S(x) #x
#define XS(x) S(x)
/* Token spellings compare without white space. */
static int differ(const char *a, const char *b)
{
	for (;; a++, b++) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (*a != *b)
			return 1;
		if (!*a)
			return 0;
	}
}

#define M(name, value) \
	if (differ(XS(name), value)) { \
		printf("# %s is %s, not %s\n", #name, XS(name), value); \
		bad++; \
	}

#ifdef WITH_NAMES
void names(void);
void names(void)
{
#include NAMES
}
#endif

int main(void)
{
	int bad = 0;

#include MACROS
	return bad != 0;
}
PROG

for lang in c c++; do
	if [ $lang = c ]; then
		cc="gcc -std=c11"
	else
		cc="g++ -std=c++17"
	fi
	for order in DRIVER_FIRST RUNTIME_FIRST; do
		for stream in legacy per-thread; do
			flags=
			[ $stream = per-thread ] && flags=-DCUDA_API_PER_THREAD_DEFAULT_STREAM
			name="$lang, $order, $stream stream"
			# shellcheck disable=SC2086
			set -- $cc -x $lang -Wall -Werror -D$order $flags \
				"-DASSERTS=\"$tmp/asserts-$stream.h\"" \
				"-DNAMES=\"$tmp/names-$stream\"" \
				"-DMACROS=\"$tmp/macros-$stream.h\"" \
				-Ilibvgpu/include -I"$inc" "$tmp/names.c"
			# The functions are named in an object only: whether the
			# library has them is symbols.sh's question.
			if ! "$@" -DWITH_NAMES -c -o "$tmp/names.o" \
				> "$tmp/log" 2>&1 ||
				! "$@" -o "$tmp/names" > "$tmp/log" 2>&1; then
				echo "# $name: $(grep -c 'error' "$tmp/log") errors"
				sed 's/^/# /' "$tmp/log" | grep error | head -n 10
				fail=1
			elif ! "$tmp/names"; then
				echo "# $name: macros differ"
				fail=1
			else
				echo "# $name: every name builds with its value"
			fi
		done
	done
done
exit $fail
