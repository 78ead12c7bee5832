/* The watch backend's duty-cycle summary: text form and parser (include/c2c/watch.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/watch.h"
#include "lib/textkv.h"

#define DUTY_MAGIC "c2c-watch-duty 1"

int c2c_watch_duty_format(const struct c2c_watch_duty *d, char *buf, size_t size)
{
	size_t off = 0;
	int n;

#define PUT(...) do { \
	n = snprintf(buf + off, size - off, __VA_ARGS__); \
	if (n < 0 || (size_t)n >= size - off) \
		return -ENOSPC; \
	off += (size_t)n; \
} while (0)
	if (!size)
		return -ENOSPC;
	PUT("%s\nbudget %.6g\nns_per_hit %.1f\n", DUTY_MAGIC, d->budget, d->ns_per_hit);
	PUT("cpu_ns %" PRIu64 "\ntrap_ns %" PRIu64 "\narmed_ns %" PRIu64 "\narmed_cpu_ns %" PRIu64
	    "\n", d->cpu_ns, d->trap_ns, d->armed_ns, d->armed_cpu_ns);
	PUT("hits %" PRIu64 "\nswitches %" PRIu64 "\n", d->hits, d->switches);
	for (uint32_t i = 0; i < d->nr_words && i < C2C_WATCH_WORDS_MAX; i++)
		PUT("word 0x%" PRIx64 " %" PRIu32 " %" PRIu64 "\n", d->word[i].addr, d->word[i].len,
		    d->word[i].armed_ns);
#undef PUT
	return (int)off;
}

static int parse_line(const char *key, const char *val, void *ctx)
{
	struct c2c_watch_duty *d = ctx;
	static const struct { const char *key; size_t off; } u64s[] = {
		{ "cpu_ns", offsetof(struct c2c_watch_duty, cpu_ns) },
		{ "trap_ns", offsetof(struct c2c_watch_duty, trap_ns) },
		{ "armed_ns", offsetof(struct c2c_watch_duty, armed_ns) },
		{ "armed_cpu_ns", offsetof(struct c2c_watch_duty, armed_cpu_ns) },
		{ "hits", offsetof(struct c2c_watch_duty, hits) },
		{ "switches", offsetof(struct c2c_watch_duty, switches) },
	};
	const char *e;
	uint64_t v, len, ns;

	if (!strcmp(key, "budget") || !strcmp(key, "ns_per_hit"))
		return textkv_double(val, 1e9, !strcmp(key, "budget") ? &d->budget : &d->ns_per_hit);
	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++) {
		if (strcmp(key, u64s[i].key))
			continue;
		if (textkv_u64(val, &v, &e) || *e)
			return -EBADMSG;
		memcpy((char *)d + u64s[i].off, &v, sizeof(v));
		return 0;
	}
	if (strcmp(key, "word"))
		return 0;                /* a key of a later version */
	if (d->nr_words >= C2C_WATCH_WORDS_MAX || textkv_u64(val, &v, &e) || *e++ != ' ' ||
	    textkv_u64(e, &len, &e) || *e++ != ' ' || textkv_u64(e, &ns, &e) || *e ||
	    (len != 1 && len != 2 && len != 4 && len != 8))
		return -EBADMSG;
	d->word[d->nr_words].addr = v;
	d->word[d->nr_words].len = (uint32_t)len;
	d->word[d->nr_words].armed_ns = ns;
	d->nr_words++;
	return 0;
}

int c2c_watch_duty_parse(const void *buf, size_t len, struct c2c_watch_duty *out)
{
	memset(out, 0, sizeof(*out));
	if (textkv_parse(buf, len, DUTY_MAGIC, 128, parse_line, out) || out->trap_ns > out->cpu_ns)
		return -EBADMSG;
	return 0;
}

static double seen(uint64_t armed, const struct c2c_watch_duty *d)
{
	uint64_t useful = d->cpu_ns - d->trap_ns;

	if (!useful)
		return 1;
	return armed >= useful ? 1 : (double)armed / (double)useful;
}

double c2c_watch_duty_seen(const struct c2c_watch_duty *d)
{
	return seen(d->armed_ns, d);
}

double c2c_watch_word_seen(const struct c2c_watch_duty *d, uint32_t i)
{
	return i < d->nr_words ? seen(d->word[i].armed_ns, d) : 0;
}

int c2c_watch_duty_bound(const struct c2c_watch_duty *d)
{
	return d->armed_cpu_ns && (double)d->trap_ns >= C2C_WATCH_TRAP_BOUND * (double)d->armed_cpu_ns;
}

void c2c_watch_duty_describe(const struct c2c_watch_duty *d, char *buf, size_t size)
{
	uint64_t useful = d->cpu_ns - d->trap_ns;
	double seen = c2c_watch_duty_seen(d), cost = useful ? (double)d->trap_ns / (double)useful : 0;

	if (seen >= 0.995) {
		snprintf(buf, size, "The watchpoints were armed for the whole run: every access to the "
			 "watched words was counted (the traps added about %.0f%% to the workload's CPU "
			 "time).", cost * 100);
		return;
	}
	if (seen < 0.001) {
		snprintf(buf, size, "The watchpoints were paused whenever their traps would have cost "
			 "more than %.0f%% of the workload's CPU time: they saw too small a share of its "
			 "work to measure (under 0.1%%), so the counts are a small sample; shares, "
			 "transfers per access and verdicts need no scaling.", d->budget * 100);
		return;
	}
	snprintf(buf, size, "The watchpoints were paused whenever their traps would have cost more "
		 "than %.0f%% of the workload's CPU time: they saw %s %.3g%% of its work, so the counts "
		 "are a sample%s%.3g for the whole run; shares, transfers per access and verdicts need "
		 "no scaling.", d->budget * 100, c2c_watch_duty_bound(d) ? "at most" : "about",
		 seen * 100, c2c_watch_duty_bound(d) ? " (traps took most of the armed time, so the "
		 "share is a bound): multiply by at least " : ": multiply by about ", 1 / seen);
}
