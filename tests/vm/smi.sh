#!/bin/sh
# vgpu-smi answers as nvidia-smi, checked against the module's sysfs view
# of every device: -L, --query-gpu with --format=csv (header, units,
# noheader, nounits; vgpu's own managed-memory fault counts), and the
# processes holding a device, while
# gpu_holder keeps a context with 64 MiB on the last device.
cd "$(dirname "$0")/../.." || exit 1
smi=build/tools/vgpu-smi
tmp=$(mktemp -d)
holder=""
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; rm -rf "$tmp"' EXIT
n=0
fail=0

check() {	# check DESCRIPTION -- COMMAND...
	what=$1
	shift 2
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		fail=1
	fi
}

# same NAME EXPECTED-FILE COMMAND...: the command's output is the file's.
same() {
	what=$1 want=$2
	shift 2
	"$@" > "$tmp/got" 2>&1
	status=$?
	check "$what" -- sh -c "[ $status -eq 0 ] && cmp -s '$want' '$tmp/got'"
	if ! cmp -s "$want" "$tmp/got"; then
		echo "# expected:"; sed 's/^/#   /' "$want"
		echo "# got (status $status):"; sed 's/^/#   /' "$tmp/got"
	fi
}

# What sysfs says: one line per device, "INDEX|NAME|UUID|TOTAL|USED|CC".
sysfs() {
	for i in $(ls /sys/class/vgpu | sed 's/^vgpu//' | sort -n); do
		d=/sys/class/vgpu/vgpu$i
		echo "$i|$(cat "$d/name")|$(cat "$d/uuid")|$(($(cat "$d/mem_size") >> 20))|$(($(cat "$d/mem_used") >> 20))|$(cat "$d/compute_capability")"
	done
}
devices=$(ls -d /sys/class/vgpu/vgpu* | wc -l)
version=$(cat /sys/module/vgpu/version)
last=$((devices - 1))

sysfs | while IFS='|' read -r i name uuid total used cc; do
	echo "GPU $i: $name (UUID: $uuid)"
done > "$tmp/list"
same "-L lists each device as NVIDIA's: GPU N: NAME (UUID: GPU-...)" "$tmp/list" $smi -L

fields=index,name,uuid,memory.total,memory.used,memory.free,compute_cap,pci.bus_id,driver_version,count
{
	echo "index, name, uuid, memory.total [MiB], memory.used [MiB], memory.free [MiB], compute_cap, pci.bus_id, driver_version, count"
	sysfs | while IFS='|' read -r i name uuid total used cc; do
		printf '%s, %s, %s, %s MiB, %s MiB, %s MiB, %s, 00000000:%02X:00.0, %s, %s\n' \
			"$i" "$name" "$uuid" "$total" "$used" $((total - used)) "$cc" "$i" \
			"$version" "$devices"
	done
} > "$tmp/query"
same "--query-gpu=$fields --format=csv" "$tmp/query" $smi --query-gpu=$fields --format=csv
sed 1d "$tmp/query" | sed 's/ MiB//g' > "$tmp/query-bare"
same "--format=csv,noheader,nounits" "$tmp/query-bare" \
	$smi --query-gpu=$fields --format=csv,noheader,nounits
for i in $(ls /sys/class/vgpu | sed 's/vgpu//' | sort -n); do
	echo "$(cat /sys/class/vgpu/vgpu$i/managed_faults_device), $(cat /sys/class/vgpu/vgpu$i/managed_faults_host)"
done > "$tmp/faults"
same "managed.faults.device and managed.faults.host are sysfs's counts" \
	"$tmp/faults" $smi --query-gpu=managed.faults.device,managed.faults.host \
	--format=csv,noheader
$smi --query-gpu=nonsense --format=csv > "$tmp/out" 2>&1
status=$?
check "an unknown field is refused, exit status 2" -- \
	sh -c "[ $status -eq 2 ] && grep -q 'Field \"nonsense\" is not a valid field' '$tmp/out'"
$smi --query-gpu=index > "$tmp/out" 2>&1
status=$?
check "a query without --format is refused, exit status 2" -- [ $status -eq 2 ]
echo "pid, process_name, gpu_uuid, used_memory [MiB]" > "$tmp/apps"
same "no process holds a device: --query-compute-apps prints the header alone" \
	"$tmp/apps" $smi --query-compute-apps=pid,process_name,gpu_uuid,used_memory --format=csv
$smi > "$tmp/out" 2>&1
check "no process holds a device: the table says so" -- \
	grep -qx "No running processes found" "$tmp/out"

# A process with a context and 64 MiB on the last device.
build/tests/vm/gpu_holder $last 64 "$tmp/ready" &
holder=$!
i=0
while [ ! -e "$tmp/ready" ] && [ $i -lt 300 ] && kill -0 $holder 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
check "gpu_holder holds device $last" -- [ -e "$tmp/ready" ]
uuid=$(cat /sys/class/vgpu/vgpu$last/uuid)
printf '%s, build/tests/vm/gpu_holder, %s, [N/A]\n' $holder "$uuid" > "$tmp/apps"
same "--query-compute-apps: gpu_holder's pid, name and device, once" "$tmp/apps" \
	$smi --query-compute-apps=pid,process_name,gpu_uuid,used_memory --format=csv,noheader
printf '%s, %s\n' $holder $last > "$tmp/apps"
same "--query-compute-apps=pid,gpu_index" "$tmp/apps" \
	$smi --query-compute-apps=pid,gpu_index --format=csv,noheader
$smi > "$tmp/out" 2>&1
check "the table lists gpu_holder on vgpu$last" -- \
	grep -Eq "^vgpu$last +$holder +build/tests/vm/gpu_holder\$" "$tmp/out"
used=$($smi --query-gpu=memory.used --format=csv,noheader,nounits | tail -n 1)
check "memory.used of device $last counts the 64 MiB held ($used)" -- \
	[ "$used" -ge 64 ] 2>/dev/null
sysfs | sed 's/^/# sysfs: /'

kill $holder
wait $holder 2>/dev/null
holder=""
same "once gpu_holder is gone, no process is listed" /dev/null \
	$smi --query-compute-apps=pid --format=csv,noheader
used=$($smi --query-gpu=memory.used --format=csv,noheader,nounits | tail -n 1)
check "and memory.used of device $last is back to 0 ($used)" -- [ "$used" = 0 ]
exit $fail
