/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Channel helpers shared by the kselftests: a channel with its ring in
 * this process, commands written into the next slot, the doorbell and
 * fence waits.
 */
#ifndef VGPU_CHAN_UTIL_H
#define VGPU_CHAN_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uapi/vgpu.h"

#define RING 64
#define MIB (1ULL << 20)

struct chan {
	int fd;
	__u32 handle;
	__u64 put;
	struct vgpu_cmd *ring;
	const volatile struct vgpu_chan_status *status;
};

static inline __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Sets the module's launch watchdog (timeout_ms); 0 or -1. */
/* The calling thread's voluntary context switches so far, or -1. */
static inline long voluntary_switches(void)
{
	char path[64], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", gettid());
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static inline int set_timeout_ms(const char *value)
{
	int fd = open("/sys/module/vgpu/parameters/timeout_ms", O_WRONLY);
	int ok = fd >= 0 && write(fd, value, strlen(value)) == (ssize_t)strlen(value);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Waits up to @ms for child @pid to end; whether it did. */
static inline bool reaped_within(pid_t pid, unsigned int ms)
{
	int status;

	for (; ms; ms -= 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return true;
		usleep(10000);
	}
	return false;
}

static inline int chan_open(int fd, struct chan *c, const void *status_page)
{
	struct vgpu_chan_create cc = { .ring_size = RING };

	c->fd = fd;
	c->put = 0;
	c->ring = aligned_alloc(64, RING * sizeof(struct vgpu_cmd));
	memset(c->ring, 0, RING * sizeof(struct vgpu_cmd));
	cc.ring = (__u64)(uintptr_t)c->ring;
	if (ioctl(fd, VGPU_IOCTL_CHAN_CREATE, &cc))
		return -1;
	c->handle = cc.handle;
	c->status = (const struct vgpu_chan_status *)status_page + cc.handle;
	return 0;
}

static inline struct vgpu_cmd *slot(struct chan *c)
{
	struct vgpu_cmd *cmd = &c->ring[c->put++ % RING];

	memset(cmd, 0, sizeof(*cmd));
	return cmd;
}

static inline int submit(struct chan *c)
{
	struct vgpu_chan_submit s = { .put = c->put, .handle = c->handle };

	return ioctl(c->fd, VGPU_IOCTL_CHAN_SUBMIT, &s);
}

static inline int wait_for(struct chan *c, __u64 seqno)
{
	struct vgpu_chan_wait w = {
		.seqno = seqno, .handle = c->handle,
		.deadline_ns = (__s64)(now_ns() + 20000000000ULL),
	};

	return ioctl(c->fd, VGPU_IOCTL_CHAN_WAIT, &w);
}

static inline void cmd_copy(struct chan *c, __u64 dst, __u64 src, __u64 width,
		     __u32 height, __u64 dst_pitch, __u64 src_pitch)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = VGPU_CMD_COPY;
	cmd->copy.dst = dst;
	cmd->copy.src = src;
	cmd->copy.width = width;
	cmd->copy.height = height;
	cmd->copy.dst_pitch = dst_pitch;
	cmd->copy.src_pitch = src_pitch;
}

static inline void cmd_memset(struct chan *c, __u64 dst, __u32 value, __u32 es,
		       __u64 width)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = VGPU_CMD_MEMSET;
	cmd->memset.dst = dst;
	cmd->memset.value = value;
	cmd->memset.elem_size = es;
	cmd->memset.width = width;
	cmd->memset.height = 1;
}

/*
 * Copies @n bytes and waits; the channel's error (0: none). A wait on a
 * failed channel fails too (-EIO), its fence having advanced.
 */
static inline __u32 copy_wait(struct chan *c, __u64 dst, __u64 src, __u64 n)
{
	cmd_copy(c, dst, src, n, 1, 0, 0);
	if (submit(c))
		return ~0u;
	if (wait_for(c, c->put) && errno != EIO)
		return ~0u;
	return c->status->error;
}

/*
 * A context of /dev/vgpu0 with its device addresses at @base and its
 * status page mapped at *@status; the file, or -1.
 */
static inline int open_ctx(void **status, __u64 base)
{
	struct vgpu_va_window w = { .base = base, .size = 1ULL << 32 };
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w))
		return -1;
	*status = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	return *status == MAP_FAILED ? -1 : fd;
}

#endif /* VGPU_CHAN_UTIL_H */
