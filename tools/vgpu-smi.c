// SPDX-License-Identifier: MIT
/*
 * vgpu-smi: lists the virtual GPUs of this machine and the processes that
 * hold them, answering as nvidia-smi does (-L, --query-gpu,
 * --query-compute-apps, --format=csv). Reads sysfs (/sys/class/vgpu) and
 * /proc with no driver calls: it works whatever libvgpu's state and
 * whoever may open the devices.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define CLASS_DIR "/sys/class/vgpu"
#define MIB (1024ULL * 1024)

static const char usage[] =
	"usage: vgpu-smi [-L | --query-gpu=FIELDS | --query-compute-apps=FIELDS]\n"
	"                [--format=csv[,noheader][,nounits]]\n"
	"Lists vgpu's virtual GPUs (from /sys/class/vgpu) and the processes that\n"
	"hold them open (from /proc), as nvidia-smi does.\n"
	"  (no option)                 a table of the GPUs, then their processes\n"
	"  -L, --list-gpus             one line per GPU: GPU N: NAME (UUID: GPU-...)\n"
	"  --query-gpu=FIELDS          the FIELDS of each GPU, comma-separated:\n"
	"                              index, name, uuid, memory.total, memory.used,\n"
	"                              memory.free, compute_cap, pci.bus_id,\n"
	"                              driver_version, count, and vgpu's own\n"
	"                              managed.faults.device and\n"
	"                              managed.faults.host (faults on managed\n"
	"                              memory, as the module models them)\n"
	"  --query-compute-apps=FIELDS the FIELDS of each process holding a GPU:\n"
	"                              pid, process_name, gpu_index, gpu_name,\n"
	"                              gpu_uuid, gpu_bus_id, used_memory\n"
	"  --format=csv[,noheader][,nounits]\n"
	"                              the output of the queries (required)\n"
	"  -h, --help                  this text\n"
	"Processes of other users are seen only by root.\n";

/* One device, as sysfs shows it. */
struct gpu {
	int index;		/* N of vgpuN */
	char name[128];
	char uuid[64];
	char cc[16];
	char sms[16];
	unsigned long long mem_size;
	unsigned long long mem_used;
	unsigned long long faults_device;	/* on managed memory */
	unsigned long long faults_host;
	dev_t devt;		/* of /dev/vgpuN */
};

/* One process holding one device open. */
struct app {
	long pid;
	const struct gpu *gpu;
	char name[256];
};

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

/* The devices in order of their index; -1 when the class is missing. */
static int read_gpus(struct gpu **gpus)
{
	struct dirent **list;
	int n = scandir(CLASS_DIR, &list, is_vgpu, by_minor), i;
	unsigned int maj, min;
	char buf[64];

	if (n < 0)
		return -1;
	*gpus = calloc(n ? n : 1, sizeof(**gpus));
	if (!*gpus) {
		perror("vgpu-smi");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		struct gpu *g = &(*gpus)[i];
		const char *d = list[i]->d_name;

		g->index = atoi(d + 4);
		attr(d, "name", g->name, sizeof(g->name));
		attr(d, "uuid", g->uuid, sizeof(g->uuid));
		attr(d, "compute_capability", g->cc, sizeof(g->cc));
		attr(d, "sm_count", g->sms, sizeof(g->sms));
		attr(d, "mem_size", buf, sizeof(buf));
		g->mem_size = strtoull(buf, NULL, 10);
		attr(d, "mem_used", buf, sizeof(buf));
		g->mem_used = strtoull(buf, NULL, 10);
		attr(d, "managed_faults_device", buf, sizeof(buf));
		g->faults_device = strtoull(buf, NULL, 10);
		attr(d, "managed_faults_host", buf, sizeof(buf));
		g->faults_host = strtoull(buf, NULL, 10);
		attr(d, "dev", buf, sizeof(buf));
		if (sscanf(buf, "%u:%u", &maj, &min) == 2)
			g->devt = makedev(maj, min);
		free(list[i]);
	}
	free(list);
	return n;
}

/* argv[0] of the process, else its comm; "" when it is gone. */
static void process_name(long pid, char *buf, size_t len)
{
	char path[64];
	size_t got = 0;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	f = fopen(path, "r");
	if (f) {
		got = fread(buf, 1, len - 1, f);
		buf[got] = '\0';
		fclose(f);
	}
	if (buf[0])
		return;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * The processes with a file descriptor on a device, each (process,
 * device) once, by pid. Directories we may not read (other users'
 * processes) are skipped.
 */
static int read_apps(const struct gpu *gpus, int ngpus, struct app **apps)
{
	DIR *proc = opendir("/proc"), *fds;
	struct dirent *p, *fd;
	int n = 0, cap = 0, i, j;

	*apps = NULL;
	if (!proc)
		return 0;
	while ((p = readdir(proc))) {
		char path[300], seen[64] = { 0 };
		long pid;

		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		pid = atol(p->d_name);
		snprintf(path, sizeof(path), "/proc/%ld/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((fd = readdir(fds))) {
			struct stat st;

			if (!isdigit((unsigned char)fd->d_name[0]))
				continue;
			snprintf(path, sizeof(path), "/proc/%ld/fd/%s", pid,
				 fd->d_name);
			if (stat(path, &st) || !S_ISCHR(st.st_mode))
				continue;
			for (i = 0; i < ngpus && i < 64; i++) {
				if (gpus[i].devt != st.st_rdev || seen[i])
					continue;
				seen[i] = 1;
				if (n == cap) {
					cap = cap ? 2 * cap : 16;
					*apps = realloc(*apps, cap * sizeof(**apps));
					if (!*apps) {
						perror("vgpu-smi");
						exit(1);
					}
				}
				(*apps)[n].pid = pid;
				(*apps)[n].gpu = &gpus[i];
				process_name(pid, (*apps)[n].name,
					     sizeof((*apps)[n].name));
				n++;
			}
		}
		closedir(fds);
	}
	closedir(proc);
	/* By pid, then device: a few entries, an insertion sort. */
	for (i = 1; i < n; i++) {
		struct app a = (*apps)[i];

		for (j = i; j > 0 && ((*apps)[j - 1].pid > a.pid ||
				      ((*apps)[j - 1].pid == a.pid &&
				       (*apps)[j - 1].gpu->index > a.gpu->index)); j--)
			(*apps)[j] = (*apps)[j - 1];
		(*apps)[j] = a;
	}
	return n;
}

static void driver_version(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/vgpu/version", "r");

	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "[N/A]");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static void bus_id(const struct gpu *g, char *buf, size_t len)
{
	/* No PCI: the bus number is the index, as libvgpu reports it. */
	snprintf(buf, len, "00000000:%02X:00.0", g->index);
}

/* --format=csv[,noheader][,nounits] */
struct format {
	int header;
	int units;
};

static int parse_format(const char *s, struct format *fmt)
{
	char buf[128], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", s);
	tok = strtok_r(buf, ",", &save);
	if (!tok || strcmp(tok, "csv"))
		return -1;
	fmt->header = 1;
	fmt->units = 1;
	while ((tok = strtok_r(NULL, ",", &save))) {
		if (!strcmp(tok, "noheader"))
			fmt->header = 0;
		else if (!strcmp(tok, "nounits"))
			fmt->units = 0;
		else
			return -1;
	}
	return 0;
}

/* What a field is printed for: a device, and a process holding it. */
struct row {
	const struct gpu *g;
	const struct app *a;	/* NULL for --query-gpu */
	int ngpus;
};

/*
 * One field of a query: its names (the first is the header's, the others
 * nvidia-smi's aliases), whether it counts MiB, and how to print it for a
 * device (and a process, for --query-compute-apps).
 */
struct field {
	const char *names[3];
	int mib;
	void (*show)(const struct row *r, char *buf, size_t len);
};

static void f_index(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%d", r->g->index);
}

static void f_name(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%s", r->g->name);
}

static void f_uuid(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%s", r->g->uuid);
}

static void f_mem_total(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%llu", r->g->mem_size / MIB);
}

static void f_mem_used(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%llu", r->g->mem_used / MIB);
}

static void f_mem_free(const struct row *r, char *b, size_t l)
{
	unsigned long long used = r->g->mem_used / MIB, total = r->g->mem_size / MIB;

	snprintf(b, l, "%llu", used < total ? total - used : 0);
}

static void f_cc(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%s", r->g->cc);
}

static void f_bus_id(const struct row *r, char *b, size_t l)
{
	bus_id(r->g, b, l);
}

static void f_driver(const struct row *r, char *b, size_t l)
{
	(void)r;
	driver_version(b, l);
}

static void f_count(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%d", r->ngpus);
}

static void f_faults_device(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%llu", r->g->faults_device);
}

static void f_faults_host(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%llu", r->g->faults_host);
}

static void f_pid(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%ld", r->a->pid);
}

static void f_pname(const struct row *r, char *b, size_t l)
{
	snprintf(b, l, "%s", r->a->name);
}

static void f_na(const struct row *r, char *b, size_t l)
{
	/* The module does not count memory per process. */
	(void)r;
	snprintf(b, l, "[N/A]");
}

static const struct field gpu_fields[] = {
	{ { "index" }, 0, f_index },
	{ { "name", "gpu_name" }, 0, f_name },
	{ { "uuid", "gpu_uuid" }, 0, f_uuid },
	{ { "memory.total" }, 1, f_mem_total },
	{ { "memory.used" }, 1, f_mem_used },
	{ { "memory.free" }, 1, f_mem_free },
	{ { "compute_cap" }, 0, f_cc },
	{ { "pci.bus_id", "gpu_bus_id" }, 0, f_bus_id },
	{ { "driver_version" }, 0, f_driver },
	{ { "count" }, 0, f_count },
	{ { "managed.faults.device" }, 0, f_faults_device },
	{ { "managed.faults.host" }, 0, f_faults_host },
	{ { NULL }, 0, NULL },
};

static const struct field app_fields[] = {
	{ { "pid" }, 0, f_pid },
	{ { "process_name", "name" }, 0, f_pname },
	{ { "gpu_index" }, 0, f_index },
	{ { "gpu_name" }, 0, f_name },
	{ { "gpu_uuid" }, 0, f_uuid },
	{ { "gpu_bus_id" }, 0, f_bus_id },
	{ { "used_memory", "used_gpu_memory" }, 1, f_na },
	{ { NULL }, 0, NULL },
};

/* The fields of a comma-separated list; NULL (and a message) if one is unknown. */
static const struct field **parse_fields(const char *list, const struct field *table,
					 int *nfields)
{
	const struct field **out;
	char *buf = strdup(list), *tok, *save;
	int n = 0, i, k;

	out = calloc(strlen(list) + 1, sizeof(*out));
	if (!buf || !out) {
		perror("vgpu-smi");
		exit(1);
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		for (i = 0; table[i].names[0]; i++)
			for (k = 0; k < 3 && table[i].names[k]; k++)
				if (!strcmp(tok, table[i].names[k]))
					goto found;
		fprintf(stderr, "Field \"%s\" is not a valid field to query.\n", tok);
		free(buf);
		free(out);
		return NULL;
found:
		out[n++] = &table[i];
	}
	free(buf);
	*nfields = n;
	return out;
}

static void print_row(const struct field **f, int nf, const struct format *fmt,
		      const struct row *r)
{
	char buf[300];
	int i;

	for (i = 0; i < nf; i++) {
		f[i]->show(r, buf, sizeof(buf));
		printf("%s%s%s", i ? ", " : "", buf,
		       fmt->units && f[i]->mib && buf[0] != '[' ? " MiB" : "");
	}
	printf("\n");
}

static void print_header(const struct field **f, int nf, const struct format *fmt)
{
	int i;

	if (!fmt->header)
		return;
	for (i = 0; i < nf; i++)
		printf("%s%s%s", i ? ", " : "", f[i]->names[0],
		       fmt->units && f[i]->mib ? " [MiB]" : "");
	printf("\n");
}

static void print_table(const struct gpu *gpus, int n, const struct app *apps, int napps)
{
	char mem[32];
	int i;

	printf("%-8s %-28s %-5s %-5s %-10s %s\n", "DEVICE", "NAME", "CC",
	       "SMS", "MEMORY", "UUID");
	for (i = 0; i < n; i++) {
		snprintf(mem, sizeof(mem), "%llu", gpus[i].mem_size);
		printf("vgpu%-4d %-28s %-5s %-5s %-10s %s\n", gpus[i].index,
		       gpus[i].name, gpus[i].cc, gpus[i].sms, mem, gpus[i].uuid);
	}
	if (n == 0)
		printf("(no devices)\n");
	printf("\nPROCESSES\n");
	if (napps == 0) {
		printf("No running processes found\n");
		return;
	}
	printf("%-8s %-8s %s\n", "DEVICE", "PID", "NAME");
	for (i = 0; i < napps; i++)
		printf("vgpu%-4d %-8ld %s\n", apps[i].gpu->index, apps[i].pid,
		       apps[i].name);
}

int main(int argc, char **argv)
{
	const char *query_gpu = NULL, *query_apps = NULL, *format = NULL;
	const struct field **fields = NULL;
	struct format fmt;
	struct app *apps = NULL;
	struct gpu *gpus;
	int list = 0, n, napps = 0, nf = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "-L") || !strcmp(argv[i], "--list-gpus")) {
			list = 1;
		} else if (!strncmp(argv[i], "--query-gpu=", 12)) {
			query_gpu = argv[i] + 12;
		} else if (!strncmp(argv[i], "--query-compute-apps=", 21)) {
			query_apps = argv[i] + 21;
		} else if (!strncmp(argv[i], "--format=", 9)) {
			format = argv[i] + 9;
		} else {
			fprintf(stderr, "vgpu-smi: unknown argument %s\n%s", argv[i], usage);
			return 2;
		}
	}
	if (list + !!query_gpu + !!query_apps > 1) {
		fprintf(stderr, "vgpu-smi: -L, --query-gpu and --query-compute-apps exclude each other\n");
		return 2;
	}
	if (query_gpu || query_apps) {
		if (!format || parse_format(format, &fmt)) {
			fprintf(stderr, "vgpu-smi: the queries need --format=csv[,noheader][,nounits]\n");
			return 2;
		}
		fields = parse_fields(query_gpu ? query_gpu : query_apps,
				      query_gpu ? gpu_fields : app_fields, &nf);
		if (!fields)
			return 2;
	} else if (format) {
		fprintf(stderr, "vgpu-smi: --format goes with --query-gpu or --query-compute-apps\n");
		return 2;
	}

	n = read_gpus(&gpus);
	if (n < 0) {
		fprintf(stderr, "vgpu-smi: %s: no vgpu devices (is vgpu.ko loaded?)\n",
			CLASS_DIR);
		return 1;
	}
	if (!list && !query_gpu)
		napps = read_apps(gpus, n, &apps);

	if (list) {
		for (i = 0; i < n; i++)
			printf("GPU %d: %s (UUID: %s)\n", gpus[i].index,
			       gpus[i].name, gpus[i].uuid);
	} else if (query_gpu) {
		print_header(fields, nf, &fmt);
		for (i = 0; i < n; i++) {
			struct row r = { &gpus[i], NULL, n };

			print_row(fields, nf, &fmt, &r);
		}
	} else if (query_apps) {
		print_header(fields, nf, &fmt);
		for (i = 0; i < napps; i++) {
			struct row r = { apps[i].gpu, &apps[i], n };

			print_row(fields, nf, &fmt, &r);
		}
	} else {
		print_table(gpus, n, apps, napps);
	}
	free(fields);
	free(apps);
	free(gpus);
	return 0;
}
