// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl fuzzer of /dev/vgpu0 and /dev/vgpu1, run in the VM bench:
 *
 *	vgpu_ioctl_fuzz SECONDS [SEED] [-w WORKERS] [-t THREADS] [-H HANG_S]
 *
 * forks worker processes (vgpu_fuzz_worker.c; the last one as nobody)
 * that call every ioctl with arguments drawn from vgpu_ioctl_desc.c for
 * SECONDS, watches them for calls stuck in the kernel, and once all of
 * them and their children are dead checks that device memory, pinned
 * pages and the memory cgroup they ran in are back where they started,
 * and that the kernel logged nothing bad; and that every error an ioctl
 * returned is one uapi/vgpu.h documents for it (the table
 * tools/gen-errno-table makes from the header). TAP; the seed is printed
 * so that a failing run can be replayed (threads make it approximate).
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vgpu_errno.h"
#include "vgpu_fuzz_baseline.h"
#include "vgpu_fuzz_shared.h"
#include "vgpu_ioctl_desc.h"

#define TIMEOUT_PARAM "/sys/module/vgpu/parameters/timeout_ms"
/*
 * What a memory cgroup keeps of processes that have exited (slab and
 * per-CPU objects freed later): up to some 450 KiB seen after a stock
 * kernel's 40 s run. Device memory and pins are checked exactly.
 */
#define MEMCG_SLACK (1024 * 1024LL)
#define SETTLE_S 30

static int tests, failed;

static void tap(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed += !ok;
}

static void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tests, what, why);
}

static void print_file(const char *path, const char *prefix)
{
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		printf("# %s%s", prefix, line);
	fclose(f);
}

/* Where a task is stuck: its kernel stack when readable, else its wchan. */
static void report_task(int pid, int tid, const char *what, double secs)
{
	char path[96];

	printf("# pid %d tid %d stuck %.1f s in %s\n", pid, tid, secs, what);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", pid, tid);
	print_file(path, "  ");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/wchan", pid, tid);
	print_file(path, "  wchan: ");
	printf("\n");
}

/* Every process left below this one (a subreaper), with its stack. */
static int report_leftovers(void)
{
	char path[64], buf[512];
	struct dirent *e;
	int n = 0, me = getpid();
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		int pid = atoi(e->d_name), ppid;
		FILE *f;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strrchr(buf, ')') &&
		    sscanf(strrchr(buf, ')') + 2, "%*c %d", &ppid) == 1 && ppid == me) {
			printf("# process %d did not die: %s", pid, buf);
			snprintf(path, sizeof(path), "/proc/%d/stack", pid);
			print_file(path, "  ");
			n++;
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Appends the name of errno @err to @buf (of @size bytes). */
static void append_errno(char *buf, size_t size, int err)
{
	const char *name = strerrorname_np(err);
	size_t len = strlen(buf);

	if (name)
		snprintf(buf + len, size - len, " %s", name);
	else
		snprintf(buf + len, size - len, " %d", err);
}

/*
 * One TAP line for the errors of row @row (an ioctl of fz_ioctls, or
 * FZ_ERR_UNKNOWN): each must be one uapi/vgpu.h lists for what the calls
 * reached. The errors seen go to a comment line first.
 */
static void check_errnos(const struct fz_shared *sh, unsigned int row)
{
	const struct vgpu_errno_list *l;
	char seen[256] = "", bad[256] = "";
	const char *name;
	int err;

	if (row == FZ_ERR_UNKNOWN) {
		l = &vgpu_errnos_unknown;
		name = "unknown ioctl numbers";
	} else {
		l = vgpu_errno_list_of(fz_ioctls[row].nr);
		name = fz_ioctls[row].name;
		if (!l || l == &vgpu_errnos_unknown) {
			tap(0, "%s: uapi/vgpu.h has no Errors: paragraph for it", name);
			return;
		}
	}
	for (err = 1; err < FZ_ERRNO_BITS; err++) {
		if (!(sh->errs[row][err / 64] & (1ULL << (err % 64))))
			continue;
		append_errno(seen, sizeof(seen), err);
		if (!vgpu_errno_documented(l, err))
			append_errno(bad, sizeof(bad), err);
	}
	if (sh->big_errno[row]) {
		append_errno(seen, sizeof(seen), sh->big_errno[row]);
		append_errno(bad, sizeof(bad), sh->big_errno[row]);
	}
	printf("# %s returned:%s\n", name, seen[0] ? seen : " no errors");
	if (bad[0])
		tap(0, "%s returned%s, which uapi/vgpu.h does not list for it", name, bad);
	else
		tap(1, "%s returned only errors uapi/vgpu.h lists for it", name);
}

static void usage(void)
{
	fprintf(stderr, "usage: vgpu_ioctl_fuzz SECONDS [SEED] [-w WORKERS] [-t THREADS] "
		"[-H HANG_SECONDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int workers = 4, threads = 3, hang_s = 30, opt, i, crashed = 0, hung = 0;
	int have_memcg, kmsg, old_timeout = -1, unpriv = getuid() == 0;
	int old_mode[2] = { -1, -1 };
	unsigned int row, nrows = fz_nioctls < FZ_MAX_IOCTLS ? fz_nioctls : FZ_MAX_IOCTLS;
	struct stat st;
	char cg[128], why[256], buf[32];
	struct fz_baseline base, now;
	struct fz_shared *sh;
	uint64_t seed, end_ns, t0;
	pid_t pids[FZ_MAX_WORKERS], groups[FZ_MAX_WORKERS];
	double seconds;
	long long cg_left;
	FILE *f;

	while ((opt = getopt(argc, argv, "w:t:H:")) != -1) {
		switch (opt) {
		case 'w': workers = atoi(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 'H': hang_s = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind >= argc || workers < 1 || workers > FZ_MAX_WORKERS ||
	    threads < 1 || threads > FZ_MAX_THREADS)
		usage();
	seconds = atof(argv[optind]);
	seed = optind + 1 < argc ? strtoull(argv[optind + 1], NULL, 0) :
		(uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* 7 tests of the run, then one per ioctl and one for unknown numbers. */
	printf("TAP version 13\n1..%u\n", 7 + nrows + 1);
	printf("# seed %llu: replay with %s %g %llu -w %d -t %d\n",
	       (unsigned long long)seed, argv[0], seconds, (unsigned long long)seed,
	       workers, threads);
	if (access("/dev/vgpu0", F_OK) || access("/dev/vgpu1", F_OK)) {
		printf("# SKIP needs /dev/vgpu0 and /dev/vgpu1 (num_devices=2)\n");
		return 0;
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);	/* orphans of the workers come here */
	kmsg = fz_kmsg_open();
	fz_baseline_read(&base);
	have_memcg = getuid() == 0 && !fz_memcg_create(cg, sizeof(cg), why, sizeof(why));
	if (!have_memcg && getuid() != 0)
		snprintf(why, sizeof(why), "not root");
	/*
	 * Nobody opens the devices as users do, whom a udev rule lets in:
	 * for the run's length.
	 */
	for (i = 0; i < 2; i++) {
		snprintf(why, sizeof(why), "/dev/vgpu%d", i);
		if (!stat(why, &st)) {
			old_mode[i] = st.st_mode & 07777;
			chmod(why, 0666);
		}
	}
	/* Spinning kernels end in a second rather than the default budget. */
	f = fopen(TIMEOUT_PARAM, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			old_timeout = atoi(buf);
		fclose(f);
		f = fopen(TIMEOUT_PARAM, "w");
		if (f) {
			fputs("1000", f);
			fclose(f);
		}
	}

	t0 = fz_now_ns();
	end_ns = t0 + (uint64_t)(seconds * 1e9);
	for (i = 0; i < workers; i++) {
		struct fz_worker_cfg wc = {
			.index = i, .threads = threads, .seed = seed, .end_ns = end_ns,
			.unprivileged = unpriv && i == workers - 1 && workers > 1,
			.shared = sh,
		};

		pids[i] = fork();
		if (pids[i] == 0) {
			setpgid(0, 0);	/* its children too: killed as a group */
			if (have_memcg && fz_memcg_enter(cg))
				_exit(5);
			fz_worker_main(&wc);
		}
		if (pids[i] > 0)
			setpgid(pids[i], pids[i]);
		groups[i] = pids[i];
	}

	/* The watchdog: every worker thread's heartbeat, until all are gone. */
	for (;;) {
		int alive = 0, status, w;
		uint64_t t = fz_now_ns();
		pid_t pid;

		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			for (w = 0; w < workers; w++) {
				if (pid != pids[w])
					continue;
				pids[w] = 0;
				if (WIFSIGNALED(status) || WEXITSTATUS(status)) {
					printf("# worker %d died: %s %d\n", w,
					       WIFSIGNALED(status) ? "signal" : "status",
					       WIFSIGNALED(status) ? WTERMSIG(status) :
					       WEXITSTATUS(status));
					crashed++;
				}
			}
		}
		for (w = 0; w < workers; w++) {
			if (pids[w] <= 0)
				continue;
			alive++;
			for (i = 0; i < threads; i++) {
				struct fz_beat *b = &sh->beat[w][i];

				/* A beat newer than t is no hang. */
				if (!__atomic_load_n(&b->busy, __ATOMIC_ACQUIRE) ||
				    b->since_ns > t ||
				    t - b->since_ns < (uint64_t)hang_s * 1000000000ULL)
					continue;
				report_task(pids[w], b->tid, b->what, (t - b->since_ns) / 1e9);
				hung++;
				b->busy = 0;
			}
		}
		if (!alive)
			break;
		if (hung || t > end_ns + (uint64_t)hang_s * 1000000000ULL) {
			if (!hung) {
				printf("# workers still running %d s after the end\n", hang_s);
				hung++;
			}
			for (w = 0; w < workers; w++)
				if (groups[w] > 0)
					kill(-groups[w], SIGKILL);
		}
		usleep(200000);
	}
	/* The workers' children, orphaned: killed, reaped, within the hang limit. */
	for (i = 0; i < workers; i++)
		if (groups[i] > 0)
			kill(-groups[i], SIGKILL);
	t0 = fz_now_ns();
	while (waitpid(-1, NULL, WNOHANG) >= 0 || errno != ECHILD) {
		if (fz_now_ns() - t0 > (uint64_t)hang_s * 1000000000ULL) {
			hung += report_leftovers();
			break;
		}
		usleep(50000);
	}
	for (i = 0; i < 2; i++) {
		snprintf(why, sizeof(why), "/dev/vgpu%d", i);
		if (old_mode[i] >= 0)
			chmod(why, (mode_t)old_mode[i]);
	}
	if (old_timeout >= 0) {
		f = fopen(TIMEOUT_PARAM, "w");
		if (f) {
			fprintf(f, "%d", old_timeout);
			fclose(f);
		}
	}

	for (i = 0; i < (int)fz_nioctls && i < FZ_MAX_IOCTLS; i++)
		printf("# %-28s %8llu calls %8llu ok\n", fz_ioctls[i].name,
		       (unsigned long long)sh->ioctl_calls[i], (unsigned long long)sh->ioctl_ok[i]);
	for (i = 0; i < (int)fz_ncmds && i < FZ_MAX_CMDS; i++)
		printf("# command %-20s %8llu written\n", fz_cmds[i].name,
		       (unsigned long long)sh->cmds_sent[i]);
	printf("# %llu opens, %llu closes, %llu maps, %llu unmaps, %llu forks, %llu kills\n",
	       (unsigned long long)sh->opens, (unsigned long long)sh->closes,
	       (unsigned long long)sh->maps, (unsigned long long)sh->unmaps,
	       (unsigned long long)sh->forks, (unsigned long long)sh->kills);

	tap(!crashed, "workers ran %g s and exited cleanly (%d crashed)", seconds, crashed);
	tap(!hung, "no call stuck in the kernel for %d s (%d were)", hang_s, hung);
	if (hung) {
		/* Memory held by stuck tasks would read as leaks. */
		skip("device memory back to baseline", "a task is stuck");
		skip("pinned pages back to baseline", "a task is stuck");
		skip("memory cgroup charge back to baseline", "a task is stuck");
	} else {
		if (fz_baseline_wait_mem(&base, &now, SETTLE_S, why, sizeof(why)))
			tap(0, "device memory back to baseline: %s", why);
		else
			tap(1, "device memory back to baseline (%lld, %lld bytes; kernel memory %lld, %lld bytes)",
			    now.mem_used[0], now.mem_used[1], now.kmem_used[0],
			    now.kmem_used[1]);
		if (base.pins < 0)
			skip("pinned pages back to baseline", "no nr_foll_pin_* in /proc/vmstat");
		else if (fz_baseline_wait_pins(&base, &now, SETTLE_S, why, sizeof(why)))
			tap(0, "pinned pages back to baseline: %s", why);
		else
			tap(1, "pinned pages back to baseline (%lld outstanding)", now.pins);
		if (!have_memcg) {
			skip("memory cgroup charge back to baseline", why);
		} else {
			cg_left = fz_memcg_settle(cg, MEMCG_SLACK, SETTLE_S);
			tap(cg_left >= 0 && cg_left <= MEMCG_SLACK,
			    "memory cgroup charge back to baseline (%lld bytes left, at most %lld)",
			    cg_left, MEMCG_SLACK);
		}
	}
	if (have_memcg)
		fz_memcg_remove(cg);
	if (!unpriv || workers < 2)
		skip("unprivileged worker made calls", "not root, or one worker");
	else
		tap(sh->unpriv_calls > 0, "unprivileged worker made calls (%llu)",
		    (unsigned long long)sh->unpriv_calls);
	if (kmsg < 0)
		skip("kernel log has no reports", "/dev/kmsg unreadable");
	else
		tap(!fz_kmsg_reports(kmsg), "kernel log has no reports");
	for (row = 0; row < nrows; row++)
		check_errnos(sh, row);
	check_errnos(sh, FZ_ERR_UNKNOWN);
	printf("# %d passed, %d failed\n", tests - failed, failed);
	return failed ? 1 : 0;
}
