/* Sections of labelled rows (see sections.h): growing arrays of columns and rows whose strings
 * the section owns, and the one layout of a table row every printer shares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/sections.h"

static const char *const sec_names[RM_SEC__NR] = {
	[RM_SEC_HEADER] = "header", [RM_SEC_REGIONS] = "regions", [RM_SEC_UNCORE] = "amd_uncore",
	[RM_SEC_TOPDOWN] = "topdown", [RM_SEC_TOPDOWN_TIME] = "topdown_by_time",
	[RM_SEC_RUN] = "run",
};

static char *vfmt(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *s;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	s = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	vsnprintf(s, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	return s;
}

struct rm_sections *rm_sections_new(void)
{
	return xcalloc(1, sizeof(struct rm_sections));
}

static void section_free(struct rm_section *sec)
{
	size_t i, j;

	if (!sec)
		return;
	for (i = 0; i < sec->nr_row; i++) {
		struct rm_srow *r = &sec->row[i];

		free(r->label);
		free(r->text);
		for (j = 0; r->cell && j < sec->nr_col; j++)
			free(r->cell[j].text);
		free(r->cell);
	}
	for (i = 0; i < sec->nr_col; i++)
		free(sec->col[i].name);
	free(sec->row);
	free(sec->col);
	free(sec->title);
	free(sec);
}

void rm_sections_free(struct rm_sections *ss)
{
	if (!ss)
		return;
	for (int i = 0; i < RM_SEC__NR; i++)
		section_free(ss->sec[i]);
	free(ss);
}

const struct rm_section *rm_sections_get(const struct rm_sections *ss, enum rm_section_id id)
{
	return ss && id < RM_SEC__NR ? ss->sec[id] : NULL;
}

const char *rm_section_name(enum rm_section_id id)
{
	return id < RM_SEC__NR ? sec_names[id] : "?";
}

struct rm_section *rm_section_add(struct rm_sections *ss, enum rm_section_id id,
				  const char *fmt, ...)
{
	struct rm_section *sec = xcalloc(1, sizeof(*sec));
	va_list ap;

	sec->id = id;
	if (fmt) {
		va_start(ap, fmt);
		sec->title = vfmt(fmt, ap);
		va_end(ap);
	}
	section_free(ss->sec[id]);
	ss->sec[id] = sec;
	return sec;
}

void rm_section_col(struct rm_section *sec, const char *name, int width, int prec,
		    unsigned flags)
{
	/* columns come before the rows: a CELLS row has one cell per column */
	sec->col = xgrow(sec->col, &sec->cap_col, sec->nr_col + 1, sizeof(*sec->col));
	sec->col[sec->nr_col++] = (struct rm_scol){ .name = xstrdup(name), .width = width,
						    .prec = prec, .flags = flags };
}

static struct rm_srow *new_row(struct rm_section *sec, enum rm_srow_kind kind, int indent)
{
	struct rm_srow *r;

	sec->row = xgrow(sec->row, &sec->cap_row, sec->nr_row + 1, sizeof(*sec->row));
	r = &sec->row[sec->nr_row++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->indent = indent;
	return r;
}

void rm_section_text(struct rm_section *sec, int indent, unsigned flags, const char *fmt, ...)
{
	struct rm_srow *r = new_row(sec, RM_SROW_TEXT, indent);
	va_list ap;

	r->flags = flags;
	va_start(ap, fmt);
	r->text = vfmt(fmt, ap);
	va_end(ap);
}

void rm_section_blank(struct rm_section *sec)
{
	new_row(sec, RM_SROW_BLANK, 0);
}

void rm_section_pair(struct rm_section *sec, unsigned flags, const char *label,
		     const char *fmt, ...)
{
	struct rm_srow *r = new_row(sec, RM_SROW_PAIR, 0);
	va_list ap;

	r->flags = flags;
	r->label = xstrdup(label);
	va_start(ap, fmt);
	r->text = vfmt(fmt, ap);
	va_end(ap);
}

void rm_section_head(struct rm_section *sec, int indent)
{
	new_row(sec, RM_SROW_HEAD, indent);
}

struct rm_scell *rm_section_cells(struct rm_section *sec, int indent, uint32_t rank)
{
	struct rm_srow *r = new_row(sec, RM_SROW_CELLS, indent);

	r->rank = rank;
	r->cell = xcalloc(sec->nr_col ? sec->nr_col : 1, sizeof(*r->cell));
	return r->cell;
}

void rm_scell_text(struct rm_scell *c, const char *fmt, ...)
{
	va_list ap;

	free(c->text);
	c->kind = RM_CELL_TEXT;
	va_start(ap, fmt);
	c->text = vfmt(fmt, ap);
	va_end(ap);
}

void rm_scell_u64(struct rm_scell *c, uint64_t v)
{
	c->kind = RM_CELL_U64;
	c->u = v;
}

void rm_scell_num(struct rm_scell *c, double v)
{
	c->kind = RM_CELL_NUM;
	c->num = v;
}

int rm_srow_shown(const struct rm_srow *r, size_t top)
{
	return !r->rank || r->rank <= top;
}

/* One cell (or, for a HEAD row, the column's name) at the column's width. */
static int cell_text(const struct rm_scol *c, const struct rm_scell *v, char *buf, size_t n)
{
	int left = !!(c->flags & RM_SCOL_LEFT), w = c->width;

	if (!v)
		return snprintf(buf, n, left ? "%-*s" : "%*s", w, c->name);
	switch (v->kind) {
	case RM_CELL_TEXT:
		if (left && (c->flags & RM_SCOL_CUT))
			return snprintf(buf, n, "%-*.*s", w, w, v->text);
		return snprintf(buf, n, left ? "%-*s" : "%*s", w, v->text);
	case RM_CELL_U64:
		return snprintf(buf, n, "%*llu", w, (unsigned long long)v->u);
	case RM_CELL_NUM:
		if (c->flags & RM_SCOL_PCT)
			return snprintf(buf, n, "%*.*f%%", w - 1, c->prec, v->num);
		return snprintf(buf, n, "%*.*f", w, c->prec, v->num);
	default:
		return snprintf(buf, n, "%*s", w, "");
	}
}

int rm_srow_cells_text(const struct rm_section *sec, const struct rm_srow *r, char *buf,
		       size_t n)
{
	size_t i, end = sec->nr_col, off = 0;
	int k;

	if (n)
		buf[0] = '\0';
	/* blank cells at the end of a row print nothing (no trailing spaces) */
	while (r->kind == RM_SROW_CELLS && end && r->cell[end - 1].kind == RM_CELL_NONE)
		end--;
	for (i = 0; i < end; i++) {
		if (i) {
			k = snprintf(buf + (off < n ? off : n), off < n ? n - off : 0, " ");
			off += (size_t)k;
		}
		k = cell_text(&sec->col[i], r->kind == RM_SROW_CELLS ? &r->cell[i] : NULL,
			      buf + (off < n ? off : n), off < n ? n - off : 0);
		off += (size_t)(k > 0 ? k : 0);
	}
	return (int)off;
}
