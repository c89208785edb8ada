#!/bin/sh
# tests/host/cycles.sh on small planted trees: it must see a call cycle
# (a.c and b.c calling each other), an include cycle (x.h and y.h
# including each other), pass a tree without either, and leave out an
# allowed edge.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# A tree of three files; $1 says whether b calls back into a, $2 whether
# y.h includes x.h.
tree() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t"
	echo '#include "y.h"' > "$tmp/t/x.h"	# read, never compiled
	if [ "$2" = yes ]; then echo '#include "x.h"' > "$tmp/t/y.h"; else : > "$tmp/t/y.h"; fi
	printf 'int b(void);\nint c(void);\nint a(void) { return b() + c(); }\n' > "$tmp/t/a.c"
	if [ "$1" = yes ]; then
		printf 'int a(void);\nint b(void) { return a(); }\n' > "$tmp/t/b.c"
	else
		printf 'int c(void);\nint b(void) { return c(); }\n' > "$tmp/t/b.c"
	fi
	printf 'int c(void) { return 1; }\n' > "$tmp/t/c.c"
	for f in a b c; do
		cc -c "$tmp/t/$f.c" -o "$tmp/t/$f.o" || exit 1
	done
}

expect() {	# expect STATUS DESCRIPTION -- cycles.sh arguments
	want=$1 what=$2
	shift 3
	tests/host/cycles.sh "$@" > "$tmp/out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then
		echo "ok - $what"
	else
		echo "not ok - $what (exit $got)"
		sed 's/^/# /' "$tmp/out"
		fail=1
	fi
}

tree no no
expect 0 "a layered tree passes" -- t "$tmp/t" "$tmp/t"
tree yes no
expect 1 "a call cycle fails" -- t "$tmp/t" "$tmp/t"
grep -q 'calls cycle among: a b' "$tmp/out" || { echo "not ok - the cycle's files are named"; fail=1; }
expect 0 "an allowed edge is left out" -- t "$tmp/t" "$tmp/t" b:a
tree no yes
expect 1 "an include cycle fails" -- t "$tmp/t" "$tmp/t"
grep -q 'includes cycle among: x.h y.h' "$tmp/out" || { echo "not ok - the headers are named"; fail=1; }
exit $fail
