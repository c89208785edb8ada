// SPDX-License-Identifier: MIT
/*
 * PCI bus ids: cuDeviceGetPCIBusId and cuDeviceGetByPCIBusId. A vgpu
 * device has no PCI function; its address is the one its PCI attributes
 * report (attributes.c): domain 0, bus N of /dev/vgpuN, device 0, function
 * 0, so it stays the same whatever CUDA_VISIBLE_DEVICES does to ordinals.
 * The string form and the parsing rules are those of NVIDIA's driver
 * (tests/e2e/ref/h100_api.log).
 */
#include <stdio.h>
#include <string.h>

#include "vg.h"

/* "dddd:bb:dd.f", and its NUL. */
#define VG_BUS_ID_LEN 13

/**
 * vg_bus_id_parse() - reads a PCI bus id as NVIDIA's driver does:
 * "domain:bus:device.function", "domain:bus:device" (function 0) or
 * "bus:device.function" (domain 0), each field hexadecimal as scanf's %x
 * reads it (blanks before it, a sign, a 0x prefix, any number of digits),
 * and nothing after the last field.
 * Return: true when @s has one of the three forms.
 */
bool vg_bus_id_parse(const char *s, unsigned int *domain, unsigned int *bus,
		     unsigned int *device, unsigned int *function)
{
	char rest;

	*domain = 0;
	*function = 0;
	if (sscanf(s, "%x:%x:%x.%x%c", domain, bus, device, function,
		   &rest) == 4)
		return true;
	*function = 0;
	if (sscanf(s, "%x:%x:%x%c", domain, bus, device, &rest) == 3)
		return true;
	*domain = 0;
	return sscanf(s, "%x:%x.%x%c", bus, device, function, &rest) == 3;
}

/* The device's address, from its PCI attributes. */
static void vg_bus_address(const struct vgpu_info *info, int *domain,
			   int *bus, int *device)
{
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, domain);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, bus);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, device);
}

/*
 * A buffer shorter than the id gets as much of it as fits, terminated,
 * and CUDA_ERROR_INVALID_VALUE, as from NVIDIA's driver (which writes 12
 * bytes for a negative length; vgpu writes nothing there).
 */
CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice dev)
{
	char buf[32];
	int domain, bus, device;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (r)
		return r;
	vg_bus_address(&vg_devices[dev].info, &domain, &bus, &device);
	snprintf(buf, sizeof(buf), "%04X:%02X:%02X.0", domain, bus, device);
	if (len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(id, (size_t)len, "%s", buf);
	return len < VG_BUS_ID_LEN ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *id)
{
	unsigned int domain, bus, device, function;
	int d, dd, db, dv;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!dev || !id || !vg_bus_id_parse(id, &domain, &bus, &device,
					    &function))
		return CUDA_ERROR_INVALID_VALUE;
	for (d = 0; d < vg_device_count; d++) {
		vg_bus_address(&vg_devices[d].info, &dd, &db, &dv);
		if (domain == (unsigned int)dd && bus == (unsigned int)db &&
		    device == (unsigned int)dv && function == 0) {
			*dev = d;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_DEVICE;
}
