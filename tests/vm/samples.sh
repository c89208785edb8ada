#!/bin/sh
# The samples run and verify their own results: bandwidth (pageable and
# page-locked transfers), pitched_copy (2D and 3D) and vectoradd (a kernel
# compiled to PTX by nvcc, loaded and launched through the driver API).
cd "$(dirname "$0")/../.." || exit 1
n=0
fail=0
echo "1..3"
for s in "bandwidth 8" pitched_copy vectoradd; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	out=$(build/samples/$s 2>&1)
	status=$?
	if [ $status -eq 0 ] && echo "$out" | grep -q '^Result = PASS$'; then
		echo "ok $n sample $s verifies its results"
	else
		echo "not ok $n sample $s (exit status $status)"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
