/* The AMD uncore summary's text form (see include/c2c/uncore.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/uncore.h"
#include "lib/textkv.h"

static const char *const kind_key[] = { "l3", "dram", "link" };

static const char *num(uint64_t v, char *buf, size_t len)
{
	if (v == C2C_UNCORE_NONE)
		return "-";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

int c2c_uncore_format(const struct c2c_uncore *u, char *buf, size_t len)
{
	size_t off = 0;

	if (textkv_put(buf, len, &off, "c2c-uncore 1\nseconds %.6f\n", u->seconds))
		return -1;
	for (size_t i = 0; i < u->nr; i++) {
		const struct c2c_uncore_row *r = &u->row[i];
		char a[24], b[24], in[24], out[24];

		if (textkv_put(buf, len, &off, "%s %u %u %s %s", kind_key[r->kind], r->unit, r->cpu,
			       num(r->a, a, sizeof(a)), num(r->b, b, sizeof(b))) ||
		    (r->kind != C2C_UNCORE_L3 &&
		     textkv_put(buf, len, &off, " %s %s", num(r->in, in, sizeof(in)),
				num(r->out, out, sizeof(out)))) ||
		    textkv_put(buf, len, &off, "\n"))
			return -1;
	}
	for (size_t i = 0; i < u->nr_notes; i++)
		if (textkv_put(buf, len, &off, "note %s\n", u->note[i]))
			return -1;
	return (int)off;
}

static int parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (!strcmp(s, "-")) {
		*v = C2C_UNCORE_NONE;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

static int parse_line(char *line, struct c2c_uncore *u)
{
	char key[8], a[24], b[24], in[24], out[24];
	unsigned unit, cpu;
	size_t counts[3] = { 0 };
	int n;

	if (!strncmp(line, "note ", 5)) {
		size_t len = strnlen(line + 5, sizeof(u->note[0]) - 1);

		if (u->nr_notes < C2C_UNCORE_NOTES) {
			memcpy(u->note[u->nr_notes], line + 5, len);   /* cut at the note's size */
			u->note[u->nr_notes++][len] = 0;
		}
		return 0;
	}
	if (!strncmp(line, "seconds ", 8))
		return sscanf(line + 8, "%lf", &u->seconds) == 1 && u->seconds >= 0 ? 0 : -1;
	n = sscanf(line, "%7s %u %u %23s %23s %23s %23s", key, &unit, &cpu, a, b, in, out);
	if (n < 5)
		return 0;                    /* a key of a later version */
	for (int k = 0; k < 3; k++) {
		struct c2c_uncore_row *r;

		if (strcmp(key, kind_key[k]))
			continue;
		for (size_t i = 0; i < u->nr; i++)
			counts[u->row[i].kind]++;
		if (counts[k] >= C2C_UNCORE_MAX)
			return 0;
		r = &u->row[u->nr];
		r->kind = (enum c2c_uncore_kind)k;
		r->unit = unit;
		r->cpu = cpu;
		if (parse_num(a, &r->a) || parse_num(b, &r->b))
			return -1;
		r->in = r->out = C2C_UNCORE_NONE;   /* L3 rows and traces before the split */
		if (k != C2C_UNCORE_L3 && n >= 7 && (parse_num(in, &r->in) || parse_num(out, &r->out)))
			return -1;
		u->nr++;
	}
	return 0;
}

int c2c_uncore_parse(const void *text, size_t len, struct c2c_uncore *u)
{
	const char *p = text, *end = p + len;
	int first = 1;

	memset(u, 0, sizeof(*u));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[256];

		if (n >= sizeof(line))
			return -EBADMSG;
		memcpy(line, p, n);
		line[n] = 0;
		if (first ? strcmp(line, "c2c-uncore 1") != 0 : parse_line(line, u) != 0)
			return -EBADMSG;
		first = 0;
		p += n + 1;
	}
	return first ? -EBADMSG : 0;
}
