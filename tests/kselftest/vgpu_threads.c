// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads opening /dev/vgpuN, asking GET_INFO and closing at once,
 * on every device present. Also the body of the module reload stress test.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"

#define THREADS 8
#define ROUNDS 50

struct worker {
	pthread_t thread;
	int minor;
	int failures;
	int last_errno;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char path[32];
	int i;

	snprintf(path, sizeof(path), "/dev/vgpu%d", w->minor);
	for (i = 0; i < ROUNDS; i++) {
		struct vgpu_info info = { 0 };
		int fd = open(path, O_RDWR | O_CLOEXEC);

		if (fd < 0 || ioctl(fd, VGPU_IOCTL_GET_INFO, &info) ||
		    info.index != (__u32)w->minor ||
		    info.abi_version != VGPU_ABI_VERSION) {
			w->failures++;
			w->last_errno = errno;
		}
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

static int count_devices(void)
{
	char path[32];
	int n = 0;

	for (;;) {
		snprintf(path, sizeof(path), "/dev/vgpu%d", n);
		if (access(path, F_OK))
			return n;
		n++;
	}
}

TEST(threads_open_get_info_close)
{
	struct worker w[THREADS];
	int devices = count_devices(), i;

	ASSERT_LT(0, devices);
	memset(w, 0, sizeof(w));
	for (i = 0; i < THREADS; i++) {
		w[i].minor = i % devices;
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, worker_main, &w[i]));
	}
	for (i = 0; i < THREADS; i++) {
		ASSERT_EQ(0, pthread_join(w[i].thread, NULL));
		EXPECT_EQ(0, w[i].failures) TH_LOG("thread %d: %s", i,
						   strerror(w[i].last_errno));
	}
}

/* One file shared by all threads: a context used concurrently. */
static void *shared_main(void *arg)
{
	int fd = *(int *)arg, i;
	long bad = 0;

	for (i = 0; i < ROUNDS; i++) {
		struct vgpu_info info = { 0 };

		bad += ioctl(fd, VGPU_IOCTL_GET_INFO, &info) != 0;
	}
	return (void *)bad;
}

TEST(threads_share_one_file)
{
	pthread_t t[THREADS];
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC), i;
	void *bad;

	ASSERT_LE(0, fd);
	for (i = 0; i < THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, shared_main, &fd));
	for (i = 0; i < THREADS; i++) {
		ASSERT_EQ(0, pthread_join(t[i], &bad));
		EXPECT_EQ(NULL, bad);
	}
	close(fd);
}

TEST_HARNESS_MAIN
