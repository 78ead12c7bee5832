/* The sampling rate of a recording (see rate-plan.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "record/rate-plan.h"
#include "record/sysfs.h"

const char *rate_source_name(enum rate_source s)
{
	switch (s) {
	case RATE_GIVEN_FREQ: return "-F";
	case RATE_GIVEN_PERIOD: return "-c";
	case RATE_KERNEL_CAP: return "the kernel's perf_event_max_sample_rate";
	case RATE_CALIBRATED: return "lowered to the soft backend's aim, 75% of its bound";
	case RATE_FEW: return "raised past the aim toward 200 samples a second, within the bound";
	case RATE_FLOOR: return "the floor, past the soft backend's bound";
	case RATE_DEFAULT: break;
	}
	return "the default";
}

uint64_t rate_kernel_max(void)
{
	uint64_t max;

	return sysfs_read_u64("/proc/sys/kernel/perf_event_max_sample_rate", &max) ? 0 : max;
}

/* @f rounded down to two significant digits. */
static uint64_t two_digits(double f)
{
	double scale = 1;

	while (f >= 100 * scale)
		scale *= 10;
	return (uint64_t)(f / scale) * (uint64_t)scale;
}

/* A cost in microseconds as the info lines write it: 8.1, 48, 287. */
static void fmt_us(char *buf, size_t size, double ns)
{
	snprintf(buf, size, ns < 9950 ? "%.1f" : "%.0f", ns / 1e3);
}

/* A share in percent: 0.4, 2.9, 18, 110. */
static void fmt_pct(char *buf, size_t size, double share)
{
	snprintf(buf, size, share < 0.0995 ? "%.2g" : "%.0f", share * 100);
}

/* The soft backend's bound over a measured cost: lower p->freq where the samples would take
 * more than the bound's aim. */
static void plan_soft(const struct rate_req *in, struct rate_plan *p)
{
	double ns = in->ns_per_sample, b = p->budget, aim = b * SOFT_BUDGET_AIM;
	uint64_t from = p->freq, f;
	char us[32], pct[32];

	fmt_us(us, sizeof(us), ns);
	if (ns * (double)from <= aim * 1e9) {
		p->share = ns * (double)from / 1e9;
		if (p->source == RATE_KERNEL_CAP)    /* its reason stands */
			return;
		fmt_pct(pct, sizeof(pct), p->share);
		snprintf(p->reason, sizeof(p->reason), "sampling at %llu Hz: %s us a sample here, "
			 "%s%% of a thread's time (bound %.0f%%)", (unsigned long long)from, us, pct,
			 b * 100);
		return;
	}
	p->say = 1;
	f = two_digits(aim * 1e9 / ns);
	if (f >= SOFT_FREQ_WANT) {
		p->source = RATE_CALIBRATED;
		p->freq = f;
		snprintf(p->reason, sizeof(p->reason), "soft backend: sampling at %llu Hz: %s us a "
			 "sample here, %.0f%% at %llu Hz (bound %.0f%%)", (unsigned long long)f, us,
			 ns * (double)from / 1e7, (unsigned long long)from, b * 100);
	} else {
		/* the aim leaves a second of a thread under 200 samples: spend the whole bound */
		f = two_digits(b * 1e9 / ns);
		if (f > SOFT_FREQ_WANT)
			f = SOFT_FREQ_WANT;
		if (f > from)
			f = from;
		if (f >= SOFT_FREQ_MIN || f == from) {
			p->source = RATE_FEW;
			fmt_pct(pct, sizeof(pct), ns * (double)f / 1e9);
			snprintf(p->reason, sizeof(p->reason), "soft backend: sampling at %llu Hz: %s "
				 "us a sample here, %s%% (bound %.0f%%)", (unsigned long long)f, us, pct,
				 b * 100);
		} else {
			f = from < SOFT_FREQ_MIN ? from : SOFT_FREQ_MIN;
			p->source = RATE_FLOOR;
			fmt_pct(pct, sizeof(pct), ns * (double)f / 1e9);
			snprintf(p->reason, sizeof(p->reason), "soft backend: sampling at %llu Hz, the "
				 "floor: %s us a sample here, %s%% (bound %.0f%%)",
				 (unsigned long long)f, us, pct, b * 100);
		}
		p->freq = f;
		if (f < SOFT_FREQ_WANT)
			snprintf(p->detail, sizeof(p->detail), "soft backend: about %llu samples per "
				 "thread-second, few (-F sets the rate)", (unsigned long long)f);
	}
	p->share = ns * (double)p->freq / 1e9;
}

int rate_plan(const struct rate_req *in, struct rate_plan *p)
{
	struct rate_req req = *in;     /* @in may be p->req */

	memset(p, 0, sizeof(*p));
	p->req = req;
	in = &p->req;
	if (in->freq && in->period) {
		snprintf(p->reason, sizeof(p->reason), "-c and -F exclude each other");
		return p->err = -EINVAL;
	}
	if (in->budget && (in->freq || in->period)) {
		snprintf(p->reason, sizeof(p->reason), "--soft-overhead chooses the sampling rate: "
			 "not with %s", in->freq ? "-F" : "-c");
		return p->err = -EINVAL;
	}
	if (in->period) {
		p->period = in->period;
		p->source = RATE_GIVEN_PERIOD;
		snprintf(p->reason, sizeof(p->reason), "sampling every %llu events (-c)",
			 (unsigned long long)in->period);
		return 0;
	}
	if (in->freq) {
		if (in->kernel_max && in->freq > in->kernel_max) {
			snprintf(p->reason, sizeof(p->reason), "-F %llu is above the kernel's limit of "
				 "%llu samples a second; use -F %llu or less, or raise it: sysctl -w "
				 "kernel.perf_event_max_sample_rate=%llu", (unsigned long long)in->freq,
				 (unsigned long long)in->kernel_max, (unsigned long long)in->kernel_max,
				 (unsigned long long)in->freq);
			return p->err = -EINVAL;
		}
		p->freq = in->freq;
		p->source = RATE_GIVEN_FREQ;
		snprintf(p->reason, sizeof(p->reason), "sampling at %llu Hz (-F)",
			 (unsigned long long)in->freq);
		return 0;
	}
	p->freq = RATE_DEFAULT_HZ;
	p->source = RATE_DEFAULT;
	snprintf(p->reason, sizeof(p->reason), "sampling at %u Hz (the default)", RATE_DEFAULT_HZ);
	if (in->kernel_max && in->kernel_max < p->freq) {
		p->freq = in->kernel_max;
		p->source = RATE_KERNEL_CAP;
		p->say = 1;
		snprintf(p->reason, sizeof(p->reason), "sampling at %llu Hz, the kernel's "
			 "perf_event_max_sample_rate", (unsigned long long)p->freq);
	}
	if (!in->soft || in->budget < 0)
		return 0;
	p->budget = in->budget ? in->budget : SOFT_BUDGET_DEFAULT;
	if (in->ns_per_sample < 0)
		p->measure = 1;
	else if (in->ns_per_sample > 0)
		plan_soft(in, p);
	return 0;
}

int rate_plan_here(const struct rate_req *in, struct rate_plan *out)
{
	struct rate_req req = *in;

	req.kernel_max = rate_kernel_max();
	return rate_plan(&req, out);
}

int rate_replan(struct rate_plan *p, int soft, double ns_per_sample)
{
	struct rate_req req = p->req;

	req.soft = soft;
	req.ns_per_sample = ns_per_sample;
	return rate_plan(&req, p);
}
