// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl-level tests of /dev/vgpu0: opening and closing, GET_INFO against
 * sysfs, and every class of bad input the dispatcher must refuse, each with
 * its exact errno. Needs vgpu.ko loaded (run inside the VM bench).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"

#define DEV "/dev/vgpu0"
#define SYSFS "/sys/class/vgpu/vgpu0/"

/* An ioctl number like GET_INFO's with another size. */
#define GET_INFO_SIZED(size) \
	_IOC(_IOC_READ | _IOC_WRITE, VGPU_IOCTL_TYPE, 0x00, (size))

static void read_sysfs(const char *name, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SYSFS "%s", name);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, len - 1);
	if (fd >= 0)
		close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

FIXTURE(vgpu) {
	int fd;
	long page;
};

FIXTURE_SETUP(vgpu)
{
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV, strerror(errno));
	self->page = sysconf(_SC_PAGESIZE);
}

FIXTURE_TEARDOWN(vgpu)
{
	close(self->fd);
}

TEST(open_close_independent_files)
{
	int a = open(DEV, O_RDWR), b = open(DEV, O_RDWR);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_NE(a, b);
	EXPECT_EQ(0, close(a));
	EXPECT_EQ(0, close(b));
}

TEST(open_read_only_is_allowed)
{
	int fd = open(DEV, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, close(fd));
}

TEST_F(vgpu, get_info_matches_sysfs)
{
	struct vgpu_info info = { 0 };
	char buf[128], want[128];

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(VGPU_ABI_VERSION, info.abi_version);
	EXPECT_EQ(0, info.flags);
	EXPECT_EQ(0, info.pad);
	EXPECT_EQ(0, info.index);
	EXPECT_EQ(32, info.warp_size);
	EXPECT_EQ(1024, info.max_threads_per_block);
	EXPECT_NE(0, info.sm_count);
	EXPECT_NE(0, info.copy_engines);
	ASSERT_NE(NULL, memchr(info.name, '\0', sizeof(info.name)));

	read_sysfs("name", buf, sizeof(buf));
	EXPECT_STREQ(buf, info.name);
	read_sysfs("mem_size", buf, sizeof(buf));
	EXPECT_EQ(strtoull(buf, NULL, 10), info.mem_size);
	read_sysfs("sm_count", buf, sizeof(buf));
	EXPECT_EQ(strtoul(buf, NULL, 10), info.sm_count);
	read_sysfs("compute_capability", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%u.%u", info.cc_major, info.cc_minor);
	EXPECT_STREQ(want, buf);
	read_sysfs("uuid", buf, sizeof(buf));
	snprintf(want, sizeof(want),
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 info.uuid[0], info.uuid[1], info.uuid[2], info.uuid[3],
		 info.uuid[4], info.uuid[5], info.uuid[6], info.uuid[7],
		 info.uuid[8], info.uuid[9], info.uuid[10], info.uuid[11],
		 info.uuid[12], info.uuid[13], info.uuid[14], info.uuid[15]);
	EXPECT_STREQ(want, buf);
}

TEST_F(vgpu, get_info_overwrites_output_fields)
{
	struct vgpu_info info, ref = { 0 };

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &ref));
	memset(&info, 0xa5, sizeof(info));
	info.flags = 0;
	info.pad = 0;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(0, memcmp(&ref, &info, sizeof(info)));
}

TEST_F(vgpu, unknown_ioctl_number)
{
	struct vgpu_info info = { 0 };

	EXPECT_EQ(-1, ioctl(self->fd, _IOWR(VGPU_IOCTL_TYPE, 0x3f, struct vgpu_info), &info));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR(VGPU_IOCTL_TYPE, 0xff, struct vgpu_info), &info));
	EXPECT_EQ(ENOTTY, errno);
}

TEST_F(vgpu, foreign_ioctl_type)
{
	struct vgpu_info info = { 0 };

	EXPECT_EQ(-1, ioctl(self->fd, _IOWR('x', 0x00, struct vgpu_info), &info));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, TCGETS, &info));
	EXPECT_EQ(ENOTTY, errno);
}

TEST_F(vgpu, wrong_direction)
{
	struct vgpu_info info = { 0 };

	EXPECT_EQ(-1, ioctl(self->fd, _IOR(VGPU_IOCTL_TYPE, 0x00, struct vgpu_info), &info));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOW(VGPU_IOCTL_TYPE, 0x00, struct vgpu_info), &info));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IO(VGPU_IOCTL_TYPE, 0x00), &info));
	EXPECT_EQ(ENOTTY, errno);
}

TEST_F(vgpu, struct_shorter_than_first_version)
{
	struct vgpu_info info = { 0 };

	EXPECT_EQ(-1, ioctl(self->fd, GET_INFO_SIZED(8), &info));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, GET_INFO_SIZED(VGPU_INFO_SIZE_V1 - 8), &info));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, GET_INFO_SIZED(0), &info));
	EXPECT_EQ(EINVAL, errno);
}

/* A caller built against the first layout: served, and nothing written past it. */
TEST_F(vgpu, struct_of_first_version)
{
	unsigned char buf[sizeof(struct vgpu_info)];
	struct vgpu_info *info = (struct vgpu_info *)buf;

	memset(buf, 0, sizeof(buf));
	memset(buf + VGPU_INFO_SIZE_V1, 0x5a, sizeof(buf) - VGPU_INFO_SIZE_V1);
	ASSERT_EQ(0, ioctl(self->fd, GET_INFO_SIZED(VGPU_INFO_SIZE_V1), buf));
	EXPECT_EQ(VGPU_ABI_VERSION, info->abi_version);
	EXPECT_EQ(0x5a5a5a5a5a5a5a5aULL, info->mem_free);
}

TEST_F(vgpu, get_info_reports_free_memory)
{
	struct vgpu_info info = { 0 };

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_LE(info.mem_free, info.mem_size);
	EXPECT_NE(0, info.mem_free);
}

/* A newer caller's longer structure: accepted while its extra bytes are zero. */
TEST_F(vgpu, struct_longer_with_zero_tail)
{
	unsigned char buf[sizeof(struct vgpu_info) + 64];
	size_t i;

	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, ioctl(self->fd, GET_INFO_SIZED(sizeof(buf)), buf));
	EXPECT_EQ(VGPU_ABI_VERSION, ((struct vgpu_info *)buf)->abi_version);
	for (i = sizeof(struct vgpu_info); i < sizeof(buf); i++)
		ASSERT_EQ(0, buf[i]) TH_LOG("byte %zu of the tail was written", i);
}

TEST_F(vgpu, struct_longer_with_nonzero_tail)
{
	unsigned char buf[sizeof(struct vgpu_info) + 64];

	memset(buf, 0, sizeof(buf));
	buf[sizeof(buf) - 1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, GET_INFO_SIZED(sizeof(buf)), buf));
	EXPECT_EQ(E2BIG, errno);
}

TEST_F(vgpu, nonzero_flags)
{
	static const __u32 bad[] = { 1, 2, 0x80000000u, 0xffffffffu };
	struct vgpu_info info;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&info, 0, sizeof(info));
		info.flags = bad[i];
		EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
		EXPECT_EQ(EINVAL, errno);
	}
}

TEST_F(vgpu, nonzero_padding)
{
	struct vgpu_info info = { 0 };

	info.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(vgpu, null_argument)
{
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_GET_INFO, NULL));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(vgpu, unmapped_argument)
{
	void *p = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, self->page));
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_GET_INFO, p));
	EXPECT_EQ(EFAULT, errno);
}

/* The structure ends in a page the process cannot touch. */
TEST_F(vgpu, argument_straddles_unmapped_page)
{
	char *p = mmap(NULL, 2 * self->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, mprotect(p + self->page, self->page, PROT_NONE));
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_GET_INFO,
			    p + self->page - sizeof(struct vgpu_info) / 2));
	EXPECT_EQ(EFAULT, errno);
	munmap(p, 2 * self->page);
}

/* Readable but not writable: the input is fine, the answer cannot land. */
TEST_F(vgpu, read_only_argument)
{
	void *p = mmap(NULL, self->page, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_GET_INFO, p));
	EXPECT_EQ(EFAULT, errno);
	munmap(p, self->page);
}

TEST_F(vgpu, not_seekable)
{
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
}

TEST_F(vgpu, no_read_or_write)
{
	char c = 0;

	EXPECT_EQ(-1, read(self->fd, &c, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(self->fd, &c, 1));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
