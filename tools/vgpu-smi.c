// SPDX-License-Identifier: MIT
/*
 * vgpu-smi: lists the virtual GPUs of this machine from sysfs
 * (/sys/class/vgpu), with no driver calls: it works whatever libvgpu's
 * state and whoever may open the devices.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASS_DIR "/sys/class/vgpu"

static void attr(const char *dev, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), CLASS_DIR "/%s/%s", dev, name);
	f = fopen(path, "r");
	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static int by_minor(const struct dirent **a, const struct dirent **b)
{
	return atoi((*a)->d_name + 4) - atoi((*b)->d_name + 4);
}

static int is_vgpu(const struct dirent *e)
{
	return strncmp(e->d_name, "vgpu", 4) == 0;
}

int main(void)
{
	struct dirent **list;
	int n = scandir(CLASS_DIR, &list, is_vgpu, by_minor), i;

	if (n < 0) {
		fprintf(stderr, "vgpu-smi: %s: no vgpu devices (is vgpu.ko loaded?)\n",
			CLASS_DIR);
		return 1;
	}
	printf("%-8s %-28s %-5s %-5s %-10s %s\n", "DEVICE", "NAME", "CC",
	       "SMS", "MEMORY", "UUID");
	for (i = 0; i < n; i++) {
		char name[128], cc[16], sms[16], mem[32], uuid[64];

		attr(list[i]->d_name, "name", name, sizeof(name));
		attr(list[i]->d_name, "compute_capability", cc, sizeof(cc));
		attr(list[i]->d_name, "sm_count", sms, sizeof(sms));
		attr(list[i]->d_name, "mem_size", mem, sizeof(mem));
		attr(list[i]->d_name, "uuid", uuid, sizeof(uuid));
		printf("%-8s %-28s %-5s %-5s %-10s %s\n", list[i]->d_name, name,
		       cc, sms, mem, uuid);
		free(list[i]);
	}
	free(list);
	if (n == 0)
		printf("(no devices)\n");
	return 0;
}
