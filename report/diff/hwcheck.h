/* hwcheck: the hardware acceptance kit's judgement (`c2c-lite selftest`). One workload recorded
 * twice on the same machine, by `perf c2c record` and by `c2c-lite record --backend=hw`, gives
 * two sides; each side is the figures our report draws from its file. The two must agree within
 * sampling noise:
 *
 *   top finding   the costliest contended data object (diff's key: pids left out) is the same,
 *                 with the same verdict; or neither run has one
 *   data names    every object of perf's top findings with 5% or more of its run's cost is among
 *                 ours
 *   HITM share    HITMs per load (and peer snoops per load), as proportions of two binomial
 *   peer share    samples: |p1 - p2| <= 3 standard errors + HWC_FLOOR (runs differ a little)
 *   top share     the top finding's share of its run's cost, the same test on the cost counts
 *   TopDown       level-1 fractions of our samples against `perf stat -M TopdownL1` of the same
 *                 workload: within HWC_TD_POINTS percentage points each
 *   expected      when the workload's answer is known (the bundled examples): that object
 *   perf report   perf's own `perf c2c report --stdio` of the perf.data and ours of the same
 *                 file show the same first line of the Shared Data Cache Line Table (address,
 *                 HITM or peer total, records): our reader on a real PEBS/IBS/SPE file
 *
 * A check whose figures are missing on either side is SKIPPED with the reason, never passed.
 * Pure: plain structs in, checks out; hwc_side_from() reads a report session. */
#ifndef C2C_REPORT_DIFF_HWCHECK_H
#define C2C_REPORT_DIFF_HWCHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HWC_TOP        5
#define HWC_FLOOR      0.03   /* proportions: run-to-run differences beyond sampling noise */
#define HWC_SIGMAS     3.0
#define HWC_TD_POINTS  5.0    /* TopDown: percentage points, sampled against counted */
#define HWC_NAMES_MIN  5.0    /* percent: perf's findings the data-names check requires */

struct hwc_finding {
	char key[256];           /* diff_key(): "buf1", "heap: *c" */
	int verdict;             /* enum rm_verdict */
	double share;            /* percent of the run's cost */
};

struct hwc_side {
	const char *label;       /* "perf c2c", "c2c-lite" */
	uint64_t loads, hitm, peer;      /* every sample: loads, HITM loads, peer-snoop loads */
	double total_cost;       /* the display metric's total (HITMs or peer snoops) */
	struct hwc_finding top[HWC_TOP];
	size_t nr_top;
	int has_td;              /* TopDown level 1 */
	double td[4];            /* percent: retiring, bad speculation, frontend, backend bound */
	int has_line;            /* the first line of the Shared Data Cache Line Table */
	uint64_t line_addr, line_total, line_records;
};

enum hwc_status { HWC_OK, HWC_FAIL, HWC_SKIP };

struct hwc_check {
	const char *what;
	enum hwc_status st;
	char detail[320];
};

#define HWC_MAX_CHECKS 10

/* Compare @perf and @ours; @expect: the object the workload's answer names ("" or NULL: none
 * known, "-": no contended line); @perf_report: `perf c2c report --stdio` of @perf's file (NULL:
 * not run, the check is skipped). Fills @out (at most HWC_MAX_CHECKS); returns how many. */
size_t hwc_compare(const struct hwc_side *perf, const struct hwc_side *ours, const char *expect,
		   const char *perf_report, struct hwc_check *out);
/* The first line of the Shared Data Cache Line Table of `perf c2c report --stdio` output: its
 * address, its Hitm (peer) Total and Total records. 0, or -ENOENT (no line, or no table). */
int hwc_parse_c2c_table(const char *text, uint64_t *addr, uint64_t *total, uint64_t *records);
/* HWC_FAIL when one check failed, HWC_OK when none failed and one passed, else HWC_SKIP. */
enum hwc_status hwc_verdict(const struct hwc_check *c, size_t n);
const char *hwc_status_name(enum hwc_status s);

/* Two proportions within noise: @tol gets the allowed difference. */
int hwc_within_noise(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, double *tol);

/* TopDown level 1 of `perf stat -M TopdownL1 -x,` output (perf-stat(1)'s CSV: the metric value
 * before its name, tma_retiring, tma_bad_speculation, tma_frontend_bound, tma_backend_bound; the
 * names without "tma_" and with spaces are accepted). 0 with all four, -ENOENT otherwise. */
int hwc_parse_perf_stat(const char *text, double td[4]);

struct report_session;
/* The figures of a report session (PMU data; -EINVAL for soft and watch reports). */
int hwc_side_from(const struct report_session *s, const char *label, struct hwc_side *out);

void hwc_print(FILE *f, const char *title, const struct hwc_check *c, size_t n);

#endif
