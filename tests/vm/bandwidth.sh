#!/bin/sh
# The bandwidth sample moves data both ways from pageable and page-locked
# memory and verifies every byte.
cd "$(dirname "$0")/../.." || exit 1
echo "1..1"
out=$(build/samples/bandwidth 8 2>&1)
status=$?
if [ $status -eq 0 ] && echo "$out" | grep -q '^Result = PASS$'; then
	echo "ok 1 bandwidth sample verifies its transfers"
else
	echo "not ok 1 bandwidth sample (exit status $status)"
	echo "$out" | sed 's/^/# /'
	exit 1
fi
