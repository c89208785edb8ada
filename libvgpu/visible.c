// SPDX-License-Identifier: MIT
/*
 * CUDA_VISIBLE_DEVICES: which devices a process sees, and in what order.
 * Behaviour matched to NVIDIA's driver: entries are indices or "GPU-"
 * followed by a UUID prefix, separated by commas, blanks around them
 * ignored; the list ends at the first entry that names no present device;
 * naming one device twice is an error.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "vg.h"

void vg_format_uuid(char *buf, size_t len, const uint8_t *u)
{
	snprintf(buf, len,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* Index of the one present device whose UUID starts with @prefix, or -1. */
static int vg_match_uuid(const char *prefix, size_t n,
			 const uint8_t (*uuids)[VGPU_UUID_LEN], int present)
{
	char text[64];
	int i, found = -1;

	if (n <= 4)		/* "GPU-" alone names nothing */
		return -1;
	for (i = 0; i < present; i++) {
		vg_format_uuid(text, sizeof(text), uuids[i]);
		if (n <= strlen(text) && strncasecmp(text, prefix, n) == 0) {
			if (found >= 0)
				return -1;	/* ambiguous */
			found = i;
		}
	}
	return found;
}

/* Index named by the decimal entry [s, s+n), or -1. */
static int vg_match_index(const char *s, size_t n, int present)
{
	long v = 0;
	size_t i;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v >= present)
			return -1;
	}
	return (int)v;
}

/**
 * vg_parse_visible() - apply CUDA_VISIBLE_DEVICES.
 * @env: the variable's value, or NULL when unset (all devices, in order).
 * @uuids: UUIDs of the present devices.
 * @present: how many devices are present.
 * @order: out: present-device index of each visible ordinal.
 *
 * Return: the number of visible devices, or VG_VISIBLE_DUPLICATE.
 */
int vg_parse_visible(const char *env, const uint8_t (*uuids)[VGPU_UUID_LEN],
		     int present, int *order)
{
	int count = 0, i;
	const char *p = env;

	if (!env) {
		for (i = 0; i < present; i++)
			order[i] = i;
		return present;
	}
	/* A valid entry beyond @present must repeat one: order cannot overflow. */
	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *s = p;
		int idx;

		while (n && isspace((unsigned char)*s)) {
			s++;
			n--;
		}
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
		if (n >= 4 && strncasecmp(s, "GPU-", 4) == 0)
			idx = vg_match_uuid(s, n, uuids, present);
		else
			idx = vg_match_index(s, n, present);
		if (idx < 0)
			break;
		for (i = 0; i < count; i++)
			if (order[i] == idx)
				return VG_VISIBLE_DUPLICATE;
		order[count++] = idx;
		if (!end)
			break;
		p = end + 1;
	}
	return count;
}
