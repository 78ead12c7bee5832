/* Machine diagnosis for recording (see doctor.h). */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "c2c/capstone.h"
#include "c2c/region.h"
#include "c2c/xalloc.h"
#include "record/backend-soft.h"
#include "record/cpuinfo.h"
#include "record/doctor.h"
#include "record/rate-plan.h"
#include "record/events.h"
#include "record/pmu.h"
#include "record/priv.h"
#include "record/regs-x86.h"
#include "record/soft-decode.h"
#include "record/stat.h"
#include "record/topdown.h"
#include "record/uncore.h"
#include "record/sys.h"
#include "record/sysfs.h"

#if defined(__x86_64__) || defined(__i386__)
static void regs_str(char *out, uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(out, &a, 4);
	memcpy(out + 4, &b, 4);
	memcpy(out + 8, &c, 4);
	out[12] = '\0';
}

static void cpuid_pmu(struct doctor_cpuid *c, uint32_t max, uint32_t max_ext)
{
	uint32_t a, b, cx, d;

	if (!strcmp(c->vendor, "GenuineIntel") && max >= 0xa) {
		__cpuid_count(0xa, 0, a, b, cx, d);
		c->pmu_version = a & 0xff;
		c->gp_counters = (a >> 8) & 0xff;
		c->gp_width = (a >> 16) & 0xff;
		c->fixed_counters = c->pmu_version > 1 ? d & 0x1f : 0;
		c->fixed_width = c->pmu_version > 1 ? (d >> 5) & 0xff : 0;
	}
	if (!strcmp(c->vendor, "AuthenticAMD") && max_ext >= 0x80000001) {
		__cpuid(0x80000001, a, b, cx, d);
		c->amd_ibs = (cx >> 10) & 1;
		c->amd_core_counters = ((cx >> 23) & 1) ? 6 : 4;
		if (max_ext >= 0x80000022) {
			__cpuid(0x80000022, a, b, cx, d);
			if (a & 1) {               /* PerfMonV2 */
				c->pmu_version = 2;
				c->amd_core_counters = b & 0xf;
			}
		}
	}
}
#endif

void doctor_cpuid_read(struct doctor_cpuid *c)
{
	memset(c, 0, sizeof(*c));
#if defined(__x86_64__) || defined(__i386__)
	uint32_t a, b, cx, d, max, max_ext, fam;

	__cpuid(0, max, b, cx, d);
	regs_str(c->vendor, b, d, cx);
	__cpuid(1, a, b, cx, d);
	fam = (a >> 8) & 0xf;
	c->family = fam == 0xf ? fam + ((a >> 20) & 0xff) : fam;
	c->model = (fam == 6 || fam == 0xf) ? ((a >> 4) & 0xf) | ((a >> 12) & 0xf0) : (a >> 4) & 0xf;
	c->stepping = a & 0xf;
	c->hypervisor = (cx >> 31) & 1;
	if (c->hypervisor) {
		__cpuid(0x40000000, a, b, cx, d);
		regs_str(c->hv_vendor, b, cx, d);
	}
	__cpuid(0x80000000, max_ext, b, cx, d);
	cpuid_pmu(c, max, max_ext);
	c->valid = 1;
#endif
}

char doctor_kconfig_line(const char *line, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(line, name, n) && line[n] == '=')
		return line[n + 1] == 'y' ? 'y' : line[n + 1] == 'm' ? 'm' : 0;
	if (!strncmp(line, "# ", 2) && !strncmp(line + 2, name, n) &&
	    !strncmp(line + 2 + n, " is not set", 11))
		return 'n';
	return 0;
}

/* kpti= takes what the kernel's strtobool takes: 1/y/on and 0/n/off. */
static int kpti_arg(const char *cmdline)
{
	int v = -1;

	for (const char *p = cmdline; (p = strstr(p, "kpti=")); p += 5) {
		const char *a = p + 5;

		if (p != cmdline && p[-1] != ' ')
			continue;
		if (*a == '1' || *a == 'y' || *a == 'Y' || !strncmp(a, "on", 2))
			v = 1;
		else if (*a == '0' || *a == 'n' || *a == 'N' || !strncmp(a, "off", 3))
			v = 0;
	}
	return v;
}

void doctor_kernel_read(struct doctor_kernel *k)
{
	char cmdline[4096], path[4096], line[512];
	int zerr;
	gzFile f;

	memset(k, 0, sizeof(*k));
	k->kpti = -1;
	if (!sysfs_read_line("/proc/cmdline", cmdline, sizeof(cmdline)))
		k->kpti = kpti_arg(cmdline);
	if (sysfs_path(path, sizeof(path), "/proc/config.gz") || !(f = gzopen(path, "rb")))
		return;
	/* a line longer than the buffer comes in pieces: only a line's first piece is parsed */
	for (int start = 1; gzgets(f, line, sizeof(line)); start = strchr(line, '\n') != NULL) {
		char c;

		if (!start)
			continue;
		if ((c = doctor_kconfig_line(line, "CONFIG_ARM_SPE_PMU")))
			k->spe_pmu = c;
		else if ((c = doctor_kconfig_line(line, "CONFIG_PID_IN_CONTEXTIDR")))
			k->pid_in_contextidr = c;
	}
	gzerror(f, &zerr);
	if (zerr == Z_OK && gzeof(f)) {
		/* a whole config that does not name an option has it off */
		k->spe_pmu = k->spe_pmu ? k->spe_pmu : 'n';
		k->pid_in_contextidr = k->pid_in_contextidr ? k->pid_in_contextidr : 'n';
	} else {
		k->spe_pmu = k->pid_in_contextidr = 0;   /* corrupt: nothing is known */
	}
	gzclose(f);
}

void doctor_env_detect(struct doctor_env *env)
{
	char line[32];

	memset(env, 0, sizeof(*env));
	doctor_cpuid_read(&env->cpuid);
	doctor_kernel_read(&env->kernel);
	env->privileged = geteuid() == 0 || priv_perfmon();
	env->paranoid = -100;
	if (!sysfs_read_line("/proc/sys/kernel/perf_event_paranoid", line, sizeof(line)))
		env->paranoid = atoi(line);
	env->probe_open = 1;
}

static struct doctor_row *add(struct doctor *d, const char *topic, enum doctor_status st,
			      const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static struct doctor_row *add(struct doctor *d, const char *topic, enum doctor_status st,
			      const char *fix, const char *fmt, ...)
{
	struct doctor_row *r;
	va_list ap;

	d->row = xgrow(d->row, &d->cap, d->nr + 1, sizeof(*d->row));
	r = &d->row[d->nr++];
	memset(r, 0, sizeof(*r));
	snprintf(r->topic, sizeof(r->topic), "%s", topic);
	r->st = st;
	snprintf(r->fix, sizeof(r->fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
	return r;
}

/* --- facts ---------------------------------------------------------------------------------- */

static void row_cpu(struct doctor *d, const struct doctor_env *env, const struct cpuinfo *ci)
{
	const struct doctor_cpuid *c = &env->cpuid;

	if (c->valid)
		add(d, "cpu", DOCTOR_INFO, NULL, "%s family 0x%x model 0x%x stepping %u (%s)",
		    c->vendor, c->family, c->model, c->stepping, ci->model_name);
	else
		add(d, "cpu", DOCTOR_INFO, NULL, "%s family 0x%x model 0x%x (%s)", ci->vendor_str,
		    ci->family, ci->model, ci->model_name);
	if (!c->valid)
		return;
	if (c->hypervisor)
		add(d, "hypervisor", DOCTOR_INFO, NULL, "running under a hypervisor (%s)",
		    c->hv_vendor[0] ? c->hv_vendor : "unknown vendor");
	else
		add(d, "hypervisor", DOCTOR_INFO, NULL, "bare metal (cpuid hypervisor bit clear)");
	if (!strcmp(c->vendor, "GenuineIntel"))
		add(d, "pmu-version", c->pmu_version ? DOCTOR_INFO : DOCTOR_NO,
		    c->pmu_version ? NULL : "enable the virtual PMU of the hypervisor",
		    "cpuid leaf 0xA: architectural PMU version %u, %u general counters of %u bits, "
		    "%u fixed counters of %u bits", c->pmu_version, c->gp_counters, c->gp_width,
		    c->fixed_counters, c->fixed_width);
	else if (!strcmp(c->vendor, "AuthenticAMD"))
		add(d, "pmu-version", DOCTOR_INFO, NULL, "AMD core counters: %u%s, IBS %s by cpuid",
		    c->amd_core_counters, c->pmu_version == 2 ? " (PerfMonV2)" : "",
		    c->amd_ibs ? "reported" : "not reported");
}

static const char *paranoid_meaning(int p)
{
	if (p <= -1)
		return "everything allowed to every user";
	if (p == 0)
		return "unprivileged users may record CPU-wide (-a) but not raw tracepoints";
	if (p == 1)
		return "unprivileged users may record their own tasks, user and kernel, with physical "
		       "addresses; not CPU-wide";
	if (p == 2)
		return "unprivileged users may record their own tasks in user space only (use -u); "
		       "no physical addresses, no -a";
	return "unprivileged users may not use perf events at all (Debian/Ubuntu level 3+)";
}

static void row_paranoid(struct doctor *d, const struct doctor_env *env)
{
	if (env->paranoid == -100) {
		add(d, "perf_event_paranoid", DOCTOR_NO, "mount /proc; the kernel may lack "
		    "CONFIG_PERF_EVENTS", "/proc/sys/kernel/perf_event_paranoid is missing");
		return;
	}
	if (env->privileged) {
		add(d, "perf_event_paranoid", DOCTOR_OK, NULL, "perf_event_paranoid=%d, but you are "
		    "root or have CAP_PERFMON: no restriction applies", env->paranoid);
		return;
	}
	if (env->paranoid >= 3) {
		char fix[200];

		snprintf(fix, sizeof(fix), "run as root or set kernel.perf_event_paranoid=1 (sysctl "
			 "-w kernel.perf_event_paranoid=1)");
		add(d, "perf_event_paranoid", DOCTOR_NO, fix, "perf_event_paranoid=%d: %s",
		    env->paranoid, paranoid_meaning(env->paranoid));
		return;
	}
	add(d, "perf_event_paranoid", env->paranoid <= 1 ? DOCTOR_OK : DOCTOR_INFO,
	    env->paranoid >= 2 ? "for kernel samples and physical addresses run as root or set "
	    "kernel.perf_event_paranoid=1" : NULL, "perf_event_paranoid=%d: %s", env->paranoid,
	    paranoid_meaning(env->paranoid));
}

static void row_rdpmc(struct doctor *d, const struct cpuinfo *ci)
{
	static const char *const pmus[] = { "cpu", "cpu_core" };
	char path[128], line[32];

	if (ci->vendor == CPU_VENDOR_ARM || ci->vendor == CPU_VENDOR_IBM)
		return;              /* an x86 control */
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), PMU_DEVICES "/%s/rdpmc", pmus[i]);
		if (sysfs_read_line(path, line, sizeof(line)))
			continue;
		add(d, "rdpmc", DOCTOR_INFO, !strcmp(line, "0") ? "echo 1 > " PMU_DEVICES
		    "/cpu/rdpmc" : NULL, "%s/rdpmc=%s: %s", pmus[i], line,
		    !strcmp(line, "0") ? "user-space counter reads disabled" :
		    !strcmp(line, "2") ? "user-space counter reads always allowed" :
		    "user-space counter reads allowed while an event is mapped");
		return;
	}
	add(d, "rdpmc", DOCTOR_INFO, NULL, "no x86 core PMU rdpmc control in sysfs");
}

/* --- backends ------------------------------------------------------------------------------- */

struct hw {
	struct cpuinfo ci;
	const struct doctor_env *env;
	int core_pmu;                /* some core PMU directory exists */
	char why[200], fix[240];     /* why hardware sampling is missing altogether */
};

static int any_core_pmu(void)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom" };
	char **all;
	struct pmu p;
	int found = 0;

	for (size_t i = 0; i < 3; i++)
		found |= !pmu_open(&p, names[i]);
	if (found || pmu_list(&all))
		return found;
	for (char **s = all; *s; s++)
		found |= !strncmp(*s, "armv8", 5) || !strncmp(*s, "armv9", 5) ||
			 !strncmp(*s, "arm_cortex", 10) || !strncmp(*s, "arm_spe_", 8);
	pmu_names_free(all);
	return found;
}

static void hw_init(struct hw *h, const struct doctor_env *env)
{
	memset(h, 0, sizeof(*h));
	h->env = env;
	cpuinfo_read(&h->ci);
	h->core_pmu = any_core_pmu();
	if (h->core_pmu)
		return;
	if (env->cpuid.hypervisor) {
		snprintf(h->why, sizeof(h->why), "hypervisor without a virtual PMU (%s): hardware "
			 "memory sampling unavailable", env->cpuid.hv_vendor);
		snprintf(h->fix, sizeof(h->fix), "enable the guest PMU (KVM: -cpu host,pmu=on; "
			 "VMware: virtualize CPU performance counters; cloud: a bare-metal or "
			 "PMU-enabled instance), or do without: --backend=soft, --backend=watch, "
			 "-e page-faults");
	} else {
		snprintf(h->why, sizeof(h->why), "the kernel exposes no core PMU in " PMU_DEVICES);
		snprintf(h->fix, sizeof(h->fix), "use a kernel with hardware perf support for this "
			 "CPU, or do without: --backend=soft, --backend=watch, -e page-faults");
	}
}

/* Whether this machine's vendor is @want; an unknown vendor shows every vendor's rows. */
static int vendor_is(const struct hw *h, enum cpu_vendor want)
{
	return h->ci.vendor == want || h->ci.vendor == CPU_VENDOR_UNKNOWN;
}

/* One row for every PMU that has the event: a hybrid CPU's cpu_core and cpu_atom together. */
static void row_pebs_event(struct doctor *d, const char *topic, const char *event,
			   const char *leader)
{
	static const char *const names[] = { "cpu_core", "cpu_atom", "cpu" };
	char detail[sizeof(d->row->detail)] = "", val[128];
	size_t len = 0;
	struct pmu p;

	for (size_t i = 0; i < 3; i++) {
		if (pmu_open(&p, names[i]) || pmu_alias(&p, event, val, sizeof(val)))
			continue;
		len += (size_t)snprintf(detail + len, len < sizeof(detail) ? sizeof(detail) - len : 0,
					"%s%s/%s/ (%s)%s", len ? "; " : "", p.name, event, val,
					leader && pmu_has_alias(&p, leader) ?
					", with the mem-loads-aux leader" : "");
	}
	if (len)
		add(d, topic, DOCTOR_OK, NULL, "%s", detail);
	else if (leader)
		add(d, topic, DOCTOR_NO, "a newer kernel, or a hypervisor that passes PEBS "
		    "through (KVM on Ice Lake+ with pmu=on)", "the core PMU has no 'mem-loads' "
		    "event: this CPU/kernel/hypervisor gives no load-latency PEBS");
	else
		add(d, topic, DOCTOR_NO, NULL, "the core PMU has no 'mem-stores' event");
}

static void row_pebs(struct doctor *d)
{
	row_pebs_event(d, "pebs-loads", "mem-loads", "mem-loads-aux");
	row_pebs_event(d, "pebs-stores", "mem-stores", NULL);
}

static void row_ibs(struct doctor *d)
{
	struct pmu p;

	if (pmu_open(&p, "ibs_op")) {
		add(d, "ibs", DOCTOR_NO, "enable IBS in the firmware; hypervisors rarely expose it",
		    "no 'ibs_op' PMU in " PMU_DEVICES);
		return;
	}
	if (pmu_cap_u64(&p, "zen4_ibs_extensions", 0) != 1) {
		add(d, "ibs", DOCTOR_NO, "a Zen 4 or newer CPU", "ibs_op exists, but without the "
		    "Zen 4 extensions IBS gives no data source for cache-to-cache transfers (Zen 3 "
		    "and older: perf c2c does not support them either)");
		return;
	}
	add(d, "ibs", DOCTOR_OK, NULL, "ibs_op (type %u) with Zen 4 data-source extensions%s",
	    p.type, pmu_cap_u64(&p, "ldlat", 0) == 1 ? " and a load-latency filter (--ldlat "
	    "128..2048)" : "");
}

/* Which of the driver's format fields this kernel publishes, as "a b c" into @out; the
 * fields c2c needs that are missing into @missing. */
static void spe_formats(const struct pmu *p, char *out, size_t len, char *missing, size_t mlen)
{
	static const char *const fields[] = {
		"ts_enable", "pa_enable", "pct_enable", "jitter", "branch_filter", "load_filter",
		"store_filter", "event_filter", "inv_event_filter", "min_latency", "discard",
	};
	static const char *const needed[] = { "ts_enable", "load_filter", "store_filter",
					      "min_latency" };
	size_t n = 0, m = 0;

	out[0] = missing[0] = '\0';
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (pmu_has_format(p, fields[i]) && n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "", fields[i]);
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		if (!pmu_has_format(p, needed[i]) && m < mlen)
			m += (size_t)snprintf(missing + m, mlen - m, "%s%s", m ? ", " : "", needed[i]);
}

/* No arm_spe_* PMU on an Arm machine: the driver's absence, or why it registered nothing. */
static void row_spe_missing(struct doctor *d, const struct hw *h)
{
	const struct doctor_kernel *k = &h->env->kernel;

	if (sysfs_exists("/sys/bus/platform/drivers/arm_spe_pmu"))
		add(d, "spe", DOCTOR_NO, k->kpti == 1 ? "boot without kpti=1 (kpti=off)" :
		    "see 'dmesg | grep -i spe'; boot with kpti=off if it says 'profiling buffer "
		    "inaccessible'; otherwise the firmware must describe SPE (ACPI MADT or the "
		    "devicetree) and a hypervisor must pass it through",
		    "the arm_spe_pmu driver is loaded but registered no 'arm_spe_*' PMU: %s",
		    k->kpti == 1 ? "the command line forces kpti=1, and the driver refuses to "
		    "profile when the kernel is unmapped at EL0" : "the kernel is unmapped at EL0 "
		    "(KPTI), or the firmware or hypervisor did not describe SPE");
	else if (k->spe_pmu == 'm')
		add(d, "spe", DOCTOR_NO, "modprobe arm_spe_pmu", "no 'arm_spe_*' PMU: the kernel "
		    "has the driver as a module (CONFIG_ARM_SPE_PMU=m) and it is not loaded");
	else if (k->spe_pmu == 'n')
		add(d, "spe", DOCTOR_NO, "a kernel built with CONFIG_ARM_SPE_PMU", "no 'arm_spe_*' "
		    "PMU: the kernel is built without the SPE driver (CONFIG_ARM_SPE_PMU is not set)");
	else
		add(d, "spe", DOCTOR_NO, "modprobe arm_spe_pmu, or a kernel with CONFIG_ARM_SPE_PMU "
		    "and SPE enabled by the firmware (not passed through by most hypervisors)",
		    "no 'arm_spe_*' PMU and no arm_spe_pmu driver (no /proc/config.gz to tell "
		    "whether the kernel has it)");
}

/* What perf_event_paranoid and privileges leave of an SPE recording (the 6.1 driver and
 * perf's arm_spe_recording_options()). */
static void row_spe_access(struct doctor *d, const struct doctor_env *env)
{
	const char pid = env->kernel.pid_in_contextidr;
	const char *ctx = !env->privileged ? "no CONTEXT packets without CAP_PERFMON, so threads "
			  "come from the context-switch records" : pid == 'y' ? "CONTEXT packets "
			  "name each record's thread (CONFIG_PID_IN_CONTEXTIDR=y)" : pid == 'n' ?
			  "no CONTEXT packets (CONFIG_PID_IN_CONTEXTIDR is not set), so threads come "
			  "from the context-switch records" : "CONTEXT packets name each record's "
			  "thread if the kernel has CONFIG_PID_IN_CONTEXTIDR (no /proc/config.gz to "
			  "tell), else the context-switch records do";
	const char *bufs = env->privileged || env->paranoid == -1 ? "4 MiB AUX area per CPU" :
			   "128 KiB AUX area and 256 KiB ring per CPU (perf's unprivileged sizes, "
			   "within kernel.perf_event_mlock_kb)";

	if (env->privileged)
		add(d, "spe-access", DOCTOR_OK, NULL, "root or CAP_PERFMON: user and kernel, per "
		    "task or -a; %s; %s", bufs, ctx);
	else if (env->paranoid == -100 || env->paranoid >= 3)
		add(d, "spe-access", DOCTOR_NO, "run as root or set kernel.perf_event_paranoid=1",
		    "perf_event_paranoid=%d: no SPE recording for unprivileged users",
		    env->paranoid);
	else
		add(d, "spe-access", env->paranoid <= 0 ? DOCTOR_OK : DOCTOR_INFO,
		    env->paranoid == 2 ? "run as root, or set kernel.perf_event_paranoid=1 for "
		    "kernel samples and 0 for -a" : env->paranoid == 1 ? "run as root, or set "
		    "kernel.perf_event_paranoid=0 for -a" : NULL,
		    "perf_event_paranoid=%d without CAP_PERFMON: %s; %s; %s", env->paranoid,
		    env->paranoid <= 0 ? "user and kernel, per task or -a" : env->paranoid == 1 ?
		    "user and kernel, own tasks only (no -a)" :
		    "user space only (record falls back to it), own tasks only (no -a)", bufs, ctx);
}

static void row_spe(struct doctor *d, const struct hw *h)
{
	const struct doctor_env *env = h->env;
	char formats[200], missing[80], cpus[64] = "?", caps[120], path[128];
	struct pmu p;

	if (pmu_open_prefix(&p, "arm_spe_")) {    /* only asked on Arm (or an unknown vendor) */
		row_spe_missing(d, h);
		return;
	}
	spe_formats(&p, formats, sizeof(formats), missing, sizeof(missing));
	snprintf(path, sizeof(path), PMU_DEVICES "/%s/cpumask", p.name);
	sysfs_read_line(path, cpus, sizeof(cpus));
	snprintf(caps, sizeof(caps), "min_interval %llu, count_size %llu, arch_inst %llu, ernd %llu",
		 (unsigned long long)pmu_cap_u64(&p, "min_interval", 0),
		 (unsigned long long)pmu_cap_u64(&p, "count_size", 0),
		 (unsigned long long)pmu_cap_u64(&p, "arch_inst", 0),
		 (unsigned long long)pmu_cap_u64(&p, "ernd", 0));
	if (missing[0]) {
		add(d, "spe", DOCTOR_NO, "a newer kernel (the arm_spe driver of 4.15 and later)",
		    "%s (type %u) lacks the format fields %s that c2c record needs (it has: %s)",
		    p.name, p.type, missing, formats);
		return;
	}
	add(d, "spe", DOCTOR_OK, NULL, "%s (type %u) on CPUs %s; %s; record opens it as perf c2c "
	    "record does (load and store filters, min_latency from -l, ts_enable, pa_enable, a "
	    "fixed period: caps/min_interval or -c, no -F) and stores its AUX data raw", p.name,
	    p.type, cpus, caps);
	/* pa_enable: the 6.1 driver wants perfmon_capable(), whatever perf_event_paranoid says */
	if (!pmu_has_format(&p, "pa_enable"))
		add(d, "spe-pa", DOCTOR_NO, NULL, "no pa_enable format field: SPE records carry no "
		    "physical addresses");
	else if (env->privileged)
		add(d, "spe-pa", DOCTOR_OK, NULL, "pa_enable: root or CAP_PERFMON, so SPE records "
		    "carry physical data addresses (NUMA nodes of the lines)");
	else
		add(d, "spe-pa", DOCTOR_INFO, "run as root or give the recorder CAP_PERFMON "
		    "(setcap cap_perfmon+ep)", "pa_enable needs CAP_PERFMON (the 6.1 driver checks "
		    "perfmon_capable(), whatever perf_event_paranoid says): record "
		    "drops it with a warning, so the report has no physical addresses (perf c2c "
		    "record fails instead)");
	row_spe_access(d, env);
}

static void row_power(struct doctor *d)
{
	struct pmu p;

	if (!pmu_open(&p, "cpu") && pmu_has_alias(&p, "mem-loads"))
		add(d, "power-mem", DOCTOR_OK, NULL, "cpu/mem-loads/ and cpu/mem-stores/ "
		    "(marked-instruction thresholding)");
	else
		add(d, "power-mem", DOCTOR_NO, "a POWER8+ kernel with the core PMU driver",
		    "the core PMU has no 'mem-loads' event");
}

/* AMD and Arm: record --topdown opens the model's level-1 counters as a group of their own
 * beside IBS or SPE (record/topdown.h); nothing is probed here. */
static void row_topdown_beside(struct doctor *d, const struct hw *h)
{
	const char *sampler = h->ci.vendor == CPU_VENDOR_AMD ? "IBS" :
			      h->ci.vendor == CPU_VENDOR_ARM ? "SPE" : NULL;
	struct td_model m;
	struct td_cpu tc;
	struct pmu p;
	char why[256];
	int have;

	if (!sampler) {
		add(d, "topdown", DOCTOR_NO, NULL, "TopDown beside the memory samples needs Intel "
		    "PERF_METRICS, AMD IBS or Arm SPE; %s has none of them", h->ci.vendor_str);
		return;
	}
	have = !topdown_core_pmu(&p, h->ci.vendor);
	topdown_cpu_of(&tc, &h->ci, &p, have);
	if (td_model_select(&m, &tc, why, sizeof(why))) {
		add(d, "topdown", DOCTOR_NO, NULL, "record --topdown beside %s: %s", sampler, why);
		return;
	}
	if (!have) {
		add(d, "topdown", DOCTOR_NO, NULL, "record --topdown beside %s: %s, but no core PMU",
		    sampler, m.cpu);
		return;
	}
	add(d, "topdown", DOCTOR_INFO, "-a counts per CPU on kernels before 6.12",
	    "record --topdown: the %s level-1 counters on %s/, a group of their own beside %s read "
	    "every %d cycles (per thread it needs PERF_SAMPLE_READ with inherit, kernel 6.12+); not "
	    "probed", m.cpu, p.name, sampler, TOPDOWN_READ_PERIOD);
}

static void row_topdown(struct doctor *d, const struct hw *h)
{
	static const char *const names[] = { "cpu_core", "cpu" };
	struct pmu p;

	for (size_t i = 0; i < 2 && h->ci.vendor == CPU_VENDOR_INTEL; i++) {
		if (pmu_open(&p, names[i]))
			continue;
		if (pmu_has_alias(&p, "slots") && pmu_has_alias(&p, "topdown-retiring")) {
			add(d, "topdown", DOCTOR_OK, NULL, "%s/slots/ with %s metrics in the load "
			    "sampling group", p.name, pmu_has_alias(&p, "topdown-mem-bound") ?
			    "8 (level 1 and 2)" : "4 level-1");
			return;
		}
		add(d, "topdown", DOCTOR_NO, "Ice Lake or newer", "%s: no 'slots'/'topdown-*' "
		    "events (PERF_METRICS arrived with Ice Lake); older TopDown needs 5 counters "
		    "beside the PEBS event%s", p.name, pmu_has_alias(&p, "topdown-total-slots") ?
		    " (stat --topdown counts them)" : "");
		return;
	}
	row_topdown_beside(d, h);
}

/* The hardware rows of this machine's vendor only (every vendor's when it is unknown); without
 * a core PMU one row says why, and its fix, for all of them. */
static void row_hw(struct doctor *d, const struct hw *h)
{
	static const struct {
		enum cpu_vendor v;
		const char *what;
	} backends[] = {
		{ CPU_VENDOR_INTEL, "Intel PEBS" }, { CPU_VENDOR_AMD, "AMD IBS" },
		{ CPU_VENDOR_ARM, "Arm SPE" }, { CPU_VENDOR_IBM, "POWER marked loads/stores" },
	};
	char what[160] = "";
	size_t len = 0;

	if (!h->core_pmu) {
		for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
			if (vendor_is(h, backends[i].v))
				len += (size_t)snprintf(what + len, sizeof(what) - len, "%s, ",
							backends[i].what);
		add(d, "hw-pmu", DOCTOR_NO, h->fix, "%s: no %sno TopDown", h->why, what);
		return;
	}
	if (vendor_is(h, CPU_VENDOR_INTEL))
		row_pebs(d);
	if (vendor_is(h, CPU_VENDOR_AMD))
		row_ibs(d);
	if (vendor_is(h, CPU_VENDOR_ARM))
		row_spe(d, h);
	if (vendor_is(h, CPU_VENDOR_IBM))
		row_power(d);
	row_topdown(d, h);
}

/* --- probes --------------------------------------------------------------------------------- */

static int probe(struct perf_event_attr *a)
{
	int fd = sys_perf_event_open(a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Does a counting read/write watchpoint on @word see accesses? 1 yes, 0 it opened and counted
 * none (some hypervisors accept the breakpoint and never raise its debug exception), -errno
 * when it cannot be opened or read (the open was probed already: counted as firing). */
static int watch_fires(volatile uint64_t *word)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_BREAKPOINT,
				     .bp_type = HW_BREAKPOINT_RW, .bp_addr = (uintptr_t)word,
				     .bp_len = HW_BREAKPOINT_LEN_8, .exclude_kernel = 1,
				     .exclude_hv = 1, .disabled = 1 };
	uint64_t count = 0;
	int fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < 100; i++)
		*word = *word + 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count)) {
		int err = errno ? -errno : -EIO;

		close(fd);
		return err;
	}
	close(fd);
	return count != 0;
}

static const char *errno_fix(int err)
{
	if (err == -EACCES || err == -EPERM)
		return "run as root or set kernel.perf_event_paranoid=1";
	if (err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP)
		return "a kernel with CONFIG_PERF_EVENTS and CONFIG_HAVE_HW_BREAKPOINT";
	if (err == -ENOSPC)
		return "free a debug register (another debugger or watchpoint holds them)";
	return NULL;
}

static void row_software(struct doctor *d, const struct doctor_env *env)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 100000,
				     .exclude_kernel = 1, .disabled = 1 };
	int err;

	if (!env->probe_open) {
		add(d, "software", DOCTOR_INFO, NULL, "not probed");
		return;
	}
	err = probe(&a);
	d->sw_events = !err;
	if (err)
		add(d, "software", DOCTOR_NO, errno_fix(err), "cpu-clock sampling on this task "
		    "fails: %s", strerror(-err));
	else
		add(d, "software", DOCTOR_OK, NULL, "cpu-clock, page-faults and other software "
		    "events open (-e page-faults gives data addresses of faults)");
}

/* The rate record samples at without -F or -c, as its plan gives it (record/rate-plan.h): the
 * default, or the kernel's cap below it; the soft backend's own bound is its row's. */
static void row_rate(struct doctor *d)
{
	struct rate_req req = { .ns_per_sample = -1 };
	struct rate_plan p;
	uint64_t max;

	rate_plan_here(&req, &p);
	max = p.req.kernel_max;
	if (p.source == RATE_KERNEL_CAP)
		add(d, "sample-rate", DOCTOR_INFO, NULL, "record samples at %llu Hz without -F or -c, "
		    "the kernel's perf_event_max_sample_rate, under the default %u Hz (sysctl -w "
		    "kernel.perf_event_max_sample_rate=%u raises it)", (unsigned long long)p.freq,
		    RATE_DEFAULT_HZ, RATE_DEFAULT_HZ);
	else if (max)
		add(d, "sample-rate", DOCTOR_INFO, NULL, "record samples at %llu Hz without -F or -c "
		    "(the default; -F up to %llu, kernel.perf_event_max_sample_rate)",
		    (unsigned long long)p.freq, (unsigned long long)max);
	else
		add(d, "sample-rate", DOCTOR_INFO, NULL, "record samples at %llu Hz without -F or -c "
		    "(the default; kernel.perf_event_max_sample_rate unreadable: the kernel may refuse "
		    "-F above its cap)", (unsigned long long)p.freq);
}

#if defined(__x86_64__)
/* The soft backend records here: what a sample costs a thread, and the rate record takes (the
 * one rate plan, record/rate-plan.h, with the kernel's cap). */
static void row_soft_ok(struct doctor *d, const struct perf_event_attr *a)
{
	struct rate_req req = { .soft = 1, .ns_per_sample = 0 };
	const char *sep, *src;
	struct rate_plan p;

	if (soft_calibrate(a, &req.ns_per_sample)) {
		add(d, "soft", DOCTOR_OK, NULL, "--backend=soft: cpu-clock samples with user "
		    "registers, decoded into data accesses (estimates of where time goes)");
		return;
	}
	rate_plan_here(&req, &p);
	sep = p.source == RATE_DEFAULT ? "" : ", ";
	src = p.source == RATE_DEFAULT ? "" : rate_source_name(p.source);
	if (req.ns_per_sample <= 0)
		add(d, "soft", DOCTOR_OK, NULL, "--backend=soft: cpu-clock samples with user "
		    "registers, decoded into data accesses (estimates of where time goes); a sample "
		    "costs a thread too little to measure here: record samples at %llu Hz by "
		    "default%s%s (-F sets the rate)", (unsigned long long)p.freq, sep, src);
	else
		add(d, "soft", DOCTOR_OK, NULL, "--backend=soft: cpu-clock samples with user "
		    "registers, decoded into data accesses (estimates of where time goes); a sample "
		    "costs a thread about %.1f us here: record samples at %llu Hz by default%s%s "
		    "(%.2g%% of a thread's time, bound %.0f%%: --soft-overhead; -F sets the rate)",
		    req.ns_per_sample / 1e3, (unsigned long long)p.freq, sep, src, p.share * 100,
		    p.budget * 100);
}
#endif

/* --backend=soft: cpu-clock samples with the user registers the decoder needs (x86-64). */
static void row_soft(struct doctor *d, const struct doctor_env *env)
{
#if defined(__x86_64__)
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 100000,
				     .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
						    PERF_SAMPLE_PERIOD | PERF_SAMPLE_REGS_USER,
				     .sample_regs_user = REGS_X86_SOFT_MASK,
				     .exclude_kernel = 1, .disabled = 1 };
	struct softdec *sd;
	int err;

	if (softdec_new(&sd)) {
		add(d, "soft", DOCTOR_NO, "a capstone library with x86 support (libcapstone4)",
		    "the soft backend needs capstone's x86-64 decoder, which does not open%s%s",
		    c2c_cs_missing() ? ": " : "", c2c_cs_missing() ? c2c_cs_missing() : "");
		return;
	}
	softdec_free(sd);
	if (!env->probe_open) {
		add(d, "soft", DOCTOR_INFO, NULL, "cpu-clock with user registers, not probed");
		return;
	}
	err = probe(&a);
	if (err)
		add(d, "soft", DOCTOR_NO, errno_fix(err), "cpu-clock sampling with user registers "
		    "(PERF_SAMPLE_REGS_USER) fails: %s", strerror(-err));
	else
		row_soft_ok(d, &a);
#else
	(void)env;
	add(d, "soft", DOCTOR_NO, NULL, "--backend=soft decodes x86-64 code only");
#endif
}

/* --backend=watch: read/write hardware watchpoints whose samples carry the address. */
static void row_watch(struct doctor *d, const struct doctor_env *env)
{
	static volatile uint64_t target;
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_BREAKPOINT,
				     .bp_type = HW_BREAKPOINT_RW, .bp_addr = (uintptr_t)&target,
				     .bp_len = HW_BREAKPOINT_LEN_8, .sample_period = 1,
				     .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
						    PERF_SAMPLE_CPU,
				     .inherit = 1, .exclude_kernel = 1, .disabled = 1 };
	struct pmu p;
	int err;

	if (pmu_open(&p, "breakpoint")) {
		add(d, "watch", DOCTOR_NO, errno_fix(-ENOENT), "no 'breakpoint' PMU: "
		    "--backend=watch unavailable");
		return;
	}
	if (!env->probe_open) {
		add(d, "watch", DOCTOR_INFO, NULL, "breakpoint PMU present, not probed");
		return;
	}
	err = probe(&a);
	if (err)
		add(d, "watch", DOCTOR_NO, errno_fix(err), "a read/write watchpoint "
		    "(PERF_TYPE_BREAKPOINT) fails: %s", strerror(-err));
	else if ((err = watch_fires(&target)) == 0)
		add(d, "watch", DOCTOR_NO, "a machine or hypervisor that delivers debug exceptions "
		    "to the guest (KVM does); here: --backend=soft",
		    "a read/write watchpoint opens but never fires: 100 accesses to its word counted "
		    "0 (the hypervisor does not pass the debug registers through)");
	else
		add(d, "watch", DOCTOR_OK, NULL, "--backend=watch: read/write watchpoints on up to "
		    "4 words at once (more rotate), every access counted");
}

/* `stat --topdown`: the model for this CPU and, probed, whether its counters open here. */
static void row_topdown_stat(struct doctor *d, const struct doctor_env *env)
{
	struct stat_opts o = { .topdown = 1 };
	pid_t self = 0;
	struct stat_target t = { .tids = &self, .nr_tids = 1 };
	struct stat_plan p;
	size_t nr_td = 0;
	char lvl[256];

	if (stat_plan_build(&p, &o)) {
		add(d, "topdown-stat", DOCTOR_NO, NULL, "stat --topdown: the counter plan fails");
		return;
	}
	for (size_t i = 0; i < p.nr; i++)
		nr_td += p.c[i].td_in >= 0;
	if (p.td_ok && td_model_level2(&p.model, lvl, sizeof(lvl)))
		snprintf(lvl, sizeof(lvl), "level 1 and 2");
	if (!p.td_ok)
		add(d, "topdown-stat", DOCTOR_NO, NULL, "stat --topdown: %s", p.td_why);
	else if (!env->probe_open)
		add(d, "topdown-stat", DOCTOR_INFO, NULL, "stat --topdown: %s model, %zu counters "
		    "(%s%s), not probed; %s", p.model.cpu, nr_td, p.c[p.nr - nr_td].name,
		    nr_td > 1 ? " ..." : "", lvl);
	else if (stat_open(&p, &t), p.td_missing[0])
		add(d, "topdown-stat", DOCTOR_NO, errno_fix(p.c[p.nr - nr_td].err), "stat --topdown: "
		    "%s model, but %s did not open: %s", p.model.cpu, p.td_missing,
		    p.c[p.nr - nr_td].why);
	else
		add(d, "topdown-stat", DOCTOR_OK, NULL, "stat --topdown: %s model, %zu counters open "
		    "on this task; %s", p.model.cpu, nr_td, lvl);
	stat_plan_release(&p);
}

/* `stat` without options: the software counters, opened on this task. */
static void row_stat(struct doctor *d, const struct doctor_env *env)
{
	struct stat_opts o = { 0 };
	pid_t self = 0;
	struct stat_target t = { .tids = &self, .nr_tids = 1 };
	struct stat_plan p;
	int err;

	if (!env->probe_open) {
		add(d, "stat", DOCTOR_INFO, NULL, "stat: task-clock, context-switches, cpu-migrations, "
		    "page-faults; not probed");
		return;
	}
	if (stat_plan_build(&p, &o))
		return;
	err = stat_open(&p, &t);
	if (err)
		add(d, "stat", DOCTOR_NO, errno_fix(err), "stat: %s", p.c[0].why);
	else
		add(d, "stat", DOCTOR_OK, NULL, "stat: %s, %s, %s, %s count on this task",
		    p.c[0].name, p.c[1].name, p.c[2].name, p.c[3].name);
	stat_plan_release(&p);
}

/* The region library as a program would use it here: which counters, read how. */
/* begin/end pairs timed for the cost of a marker */
#define DOCTOR_REGION_PAIRS 500

static void row_region(struct doctor *d, const struct doctor_env *env)
{
	static const char *const how[] = { "no counter opened", "rdpmc", "read() of the group" };
	struct c2c_region *r;
	struct c2c_region_stats st;
	char names[160] = "";
	size_t off = 0;
	struct timespec t0, t1;
	double ns;

	if (!env->probe_open) {
		add(d, "region-markers", DOCTOR_INFO, NULL, "c2c-region markers: not probed");
		return;
	}
	r = c2c_region_new("doctor");
	if (!r)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < DOCTOR_REGION_PAIRS; i++) {
		c2c_region_begin(r);
		c2c_region_end(r);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
	     (2.0 * DOCTOR_REGION_PAIRS);
	c2c_region_stats(r, &st);
	c2c_region_free(r);
	for (unsigned i = 0; i < st.nr && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
					st.counter[i]);
	add(d, "region-markers", st.how == C2C_REGION_READ_RDPMC ? DOCTOR_OK : DOCTOR_INFO,
	    st.how == C2C_REGION_READ_SYSCALL ? "a hardware PMU whose counters user space may read "
	    "(rdpmc: /sys/bus/event_source/devices/cpu/rdpmc 1 or 2)" : NULL,
	    "c2c-region markers read %s by %s: %.2f us a marker, measured here over %d", st.nr ?
	    names : "nothing", how[st.how], ns / 1000.0, 2 * DOCTOR_REGION_PAIRS);
}

/* The CPUs the counters of one kind (L3, or DF) run on, "0,2". */
static void uncore_cpus(const struct uncore *u, int l3, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < u->nr && off < len; i++) {
		int seen = 0;

		if ((u->ev[i].kind == C2C_UNCORE_L3) != l3)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = (u->ev[j].kind == C2C_UNCORE_L3) == l3 && u->ev[j].cpu == u->ev[i].cpu;
		if (!seen)
			off += (size_t)snprintf(buf + off, len - off, "%s%u", off ? "," : "",
						u->ev[i].cpu);
	}
}

/* AMD L3 and DF context: which counters record adds beside the samples, where, or why none. */
static void row_uncore(struct doctor *d, const struct hw *h)
{
	char l3_cpus[64], df_cpus[64], l3[128] = "", df[320] = "";
	struct uncore u;
	size_t nr_l3 = 0, nr_df = 0;

	if (!vendor_is(h, CPU_VENDOR_AMD))   /* only this vendor's rows */
		return;
	if (uncore_plan(&u)) {
		add(d, "amd-uncore", DOCTOR_NO, NULL, "AMD L3/DF context: the uncore PMUs' sysfs "
		    "does not read");
		return;
	}
	for (size_t i = 0; i < u.nr; i++)
		nr_l3 += u.ev[i].kind == C2C_UNCORE_L3, nr_df += u.ev[i].kind != C2C_UNCORE_L3;
	uncore_cpus(&u, 1, l3_cpus, sizeof(l3_cpus));
	uncore_cpus(&u, 0, df_cpus, sizeof(df_cpus));
	if (nr_l3)
		snprintf(l3, sizeof(l3), "%zu L3 counters (amd_l3 on CPUs %s, a CCX each)", nr_l3,
			 l3_cpus);
	if (nr_df)
		snprintf(df, sizeof(df), "%s%zu DRAM/link counters (amd_df on CPU %s; %s)",
			 nr_l3 ? " and " : "", nr_df, df_cpus, u.df);
	if (!u.nr)
		add(d, "amd-uncore", DOCTOR_NO, NULL, "AMD L3/DF context: %s", u.note[0]);
	else
		add(d, "amd-uncore", DOCTOR_INFO, h->env->privileged || h->env->paranoid <= 0 ? NULL :
		    "run as root or set kernel.perf_event_paranoid=0 (uncore counters are CPU-wide)",
		    "record adds %s%s to the trace%s%s", l3, df, u.nr_notes ? "; " : "",
		    u.nr_notes ? u.note[0] : "");
	uncore_release(&u);
}

int doctor_run(struct doctor *d, const struct doctor_env *env)
{
	struct hw h;

	memset(d, 0, sizeof(*d));
	hw_init(&h, env);
	row_cpu(d, env, &h.ci);
	row_paranoid(d, env);
	row_rdpmc(d, &h.ci);
	row_hw(d, &h);
	row_software(d, env);
	row_rate(d);
	row_soft(d, env);
	row_watch(d, env);
	row_stat(d, env);
	row_topdown_stat(d, env);
	row_region(d, env);
	row_uncore(d, &h);
	for (size_t i = 0; i < d->nr; i++)
		if (d->row[i].st == DOCTOR_OK && (!strcmp(d->row[i].topic, "pebs-loads") ||
		    !strcmp(d->row[i].topic, "ibs") || !strcmp(d->row[i].topic, "spe") ||
		    !strcmp(d->row[i].topic, "power-mem")))
			d->hw_memory = 1;
	d->soft = doctor_find(d, "soft") && doctor_find(d, "soft")->st == DOCTOR_OK;
	d->watch = doctor_find(d, "watch") && doctor_find(d, "watch")->st == DOCTOR_OK;
	return 0;
}

void doctor_release(struct doctor *d)
{
	if (!d)
		return;
	free(d->row);
	memset(d, 0, sizeof(*d));
}

const struct doctor_row *doctor_find(const struct doctor *d, const char *topic)
{
	for (size_t i = 0; i < d->nr; i++)
		if (!strcmp(d->row[i].topic, topic))
			return &d->row[i];
	return NULL;
}

void doctor_summary(const struct doctor *d, int quiet, char *buf, size_t len)
{
	const struct doctor_row *sw = doctor_find(d, "software");

	if (d->hw_memory)
		snprintf(buf, len, "hardware memory sampling is available: 'c2c-lite record -- CMD'");
	else if (d->soft)
		snprintf(buf, len, "no hardware memory sampling here; 'c2c-lite record -- CMD' uses "
			 "the soft backend (estimates)%s", d->watch ? "; '--backend=watch --watch "
			 "SYMBOL' counts every access to a few words" : "");
	else if (d->sw_events)
		snprintf(buf, len, "no hardware memory sampling here; software events work: "
			 "'c2c-lite record -e page-faults -- CMD' (fault addresses) or -e cpu-clock");
	else if (sw && sw->st == DOCTOR_NO)
		snprintf(buf, len, "nothing can be recorded as this user; %s",
			 quiet ? "'c2c-lite doctor' shows the fixes" : "see the fixes above");
	else
		snprintf(buf, len, "no hardware memory sampling; software events were not probed");
}
