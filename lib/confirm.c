/* The confirmation blobs of a soft trace: text forms and parsers (include/c2c/confirm.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/confirm.h"
#include "lib/textkv.h"

#define WINDOW_MAGIC "c2c-confirm-window 1"
#define RUN_MAGIC "c2c-confirm-run 1"

int c2c_confirm_window_format(const struct c2c_confirm_window *w, char *buf, size_t size)
{
	size_t off = 0;

	if (!size || textkv_put(buf, size, &off, "%s\nwindow %" PRIu64 "\npid %" PRIu32 "\nline 0x%"
				PRIx64 "\narmed_ns %" PRIu64 "\nhits %" PRIu64 "\n", WINDOW_MAGIC,
				w->window, w->pid, w->line, w->armed_ns, w->hits))
		return -ENOSPC;
	for (uint32_t i = 0; i < w->nr_words && i < C2C_CONFIRM_SLOTS; i++)
		if (textkv_put(buf, size, &off, "word 0x%" PRIx64 " %" PRIu32 "\n", w->word[i].addr,
			       w->word[i].len))
			return -ENOSPC;
	return (int)off;
}

const char *c2c_confirm_status_name(enum c2c_confirm_status s)
{
	switch (s) {
	case C2C_CONFIRM_ON: return "on";
	case C2C_CONFIRM_OFF: return "off";
	case C2C_CONFIRM_UNAVAILABLE: return "unavailable";
	}
	return "?";
}

int c2c_confirm_run_format(const struct c2c_confirm_run *r, char *buf, size_t size)
{
	size_t off = 0;
	char reason[sizeof(r->reason)];

	snprintf(reason, sizeof(reason), "%s", r->reason[0] ? r->reason : "-");
	reason[strcspn(reason, "\n")] = '\0';
	if (!size || textkv_put(buf, size, &off, "%s\nstatus %s\nreason %s\nbudget %.6g\n"
				"ns_per_hit %.1f\ncpu_ns %" PRIu64 "\ntrap_ns %" PRIu64 "\narmed_ns %"
				PRIu64 "\nhits %" PRIu64 "\nwindows %" PRIu64 "\nlines %" PRIu64 "\n",
				RUN_MAGIC, c2c_confirm_status_name(r->status), reason, r->budget,
				r->ns_per_hit, r->cpu_ns, r->trap_ns, r->armed_ns, r->hits,
				r->windows, r->lines))
		return -ENOSPC;
	return (int)off;
}

static int num(const char *val, uint64_t *v)
{
	const char *e;

	return textkv_u64(val, v, &e) || *e ? -EBADMSG : 0;
}

static int window_line(const char *key, const char *val, void *ctx)
{
	struct c2c_confirm_window *w = ctx;
	uint64_t v, len;
	const char *e;

	if (!strcmp(key, "window"))
		return num(val, &w->window);
	if (!strcmp(key, "line"))
		return num(val, &w->line);
	if (!strcmp(key, "armed_ns"))
		return num(val, &w->armed_ns);
	if (!strcmp(key, "hits"))
		return num(val, &w->hits);
	if (!strcmp(key, "pid")) {
		if (num(val, &v) || v > UINT32_MAX)
			return -EBADMSG;
		w->pid = (uint32_t)v;
		return 0;
	}
	if (strcmp(key, "word"))
		return 0;                /* a key of a later version */
	if (w->nr_words >= C2C_CONFIRM_SLOTS || textkv_u64(val, &v, &e) || *e++ != ' ' ||
	    textkv_u64(e, &len, &e) || *e || (len != 1 && len != 2 && len != 4 && len != 8) ||
	    (v & (len - 1)))
		return -EBADMSG;
	w->word[w->nr_words].addr = v;
	w->word[w->nr_words].len = (uint32_t)len;
	w->nr_words++;
	return 0;
}

int c2c_confirm_window_parse(const void *buf, size_t len, struct c2c_confirm_window *out)
{
	memset(out, 0, sizeof(*out));
	return textkv_parse(buf, len, WINDOW_MAGIC, 128, window_line, out) ? -EBADMSG : 0;
}

static int run_line(const char *key, const char *val, void *ctx)
{
	struct c2c_confirm_run *r = ctx;
	static const struct { const char *key; size_t off; } u64s[] = {
		{ "cpu_ns", offsetof(struct c2c_confirm_run, cpu_ns) },
		{ "trap_ns", offsetof(struct c2c_confirm_run, trap_ns) },
		{ "armed_ns", offsetof(struct c2c_confirm_run, armed_ns) },
		{ "hits", offsetof(struct c2c_confirm_run, hits) },
		{ "windows", offsetof(struct c2c_confirm_run, windows) },
		{ "lines", offsetof(struct c2c_confirm_run, lines) },
	};
	uint64_t v;

	if (!strcmp(key, "status")) {
		for (int s = C2C_CONFIRM_ON; s <= C2C_CONFIRM_UNAVAILABLE; s++)
			if (!strcmp(val, c2c_confirm_status_name((enum c2c_confirm_status)s))) {
				r->status = (enum c2c_confirm_status)s;
				return 0;
			}
		return -EBADMSG;
	}
	if (!strcmp(key, "reason")) {
		snprintf(r->reason, sizeof(r->reason), "%s", strcmp(val, "-") ? val : "");
		return 0;
	}
	if (!strcmp(key, "budget") || !strcmp(key, "ns_per_hit"))
		return textkv_double(val, 1e9, !strcmp(key, "budget") ? &r->budget : &r->ns_per_hit);
	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++) {
		if (strcmp(key, u64s[i].key))
			continue;
		if (num(val, &v))
			return -EBADMSG;
		memcpy((char *)r + u64s[i].off, &v, sizeof(v));
		return 0;
	}
	return 0;
}

int c2c_confirm_run_parse(const void *buf, size_t len, struct c2c_confirm_run *out)
{
	memset(out, 0, sizeof(*out));
	if (textkv_parse(buf, len, RUN_MAGIC, 512, run_line, out) || out->trap_ns > out->cpu_ns)
		return -EBADMSG;
	return 0;
}
