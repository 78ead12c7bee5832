/* The text form of the report's sections (see sections.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/sections.h"

#define WRAP_AT 90

/* @p as lines of at most 90 columns of text, cut at spaces; with @label, the first line starts
 * with it (padded to @indent columns) and the others are indented below it. */
static void print_wrapped(FILE *f, const char *label, int indent, const char *p)
{
	int width = WRAP_AT - indent;

	while (*p) {
		size_t n = strlen(p), cut = n;

		if (n > (size_t)width)
			for (cut = (size_t)width; cut > 0 && p[cut] != ' '; cut--)
				;
		if (!cut)
			cut = n;
		fprintf(f, "# %-*s%.*s\n", indent, label ? label : "", (int)cut, p);
		p += cut + (p[cut] == ' ');
		label = "";
	}
}

static void print_pair(FILE *f, const struct rm_section *sec, const struct rm_srow *r)
{
	char label[256];

	snprintf(label, sizeof(label), "%s:", r->label);
	if (r->flags & RM_SROW_WRAP)
		print_wrapped(f, label, sec->label_width + 1, r->text);
	else
		fprintf(f, "# %-*s %s\n", sec->label_width, label, r->text);
}

static void print_cells(FILE *f, const struct rm_section *sec, const struct rm_srow *r)
{
	char small[512], *buf = small;
	int n = rm_srow_cells_text(sec, r, small, sizeof(small));

	if (n >= (int)sizeof(small)) {         /* a long region name */
		buf = malloc((size_t)n + 1);
		if (!buf)
			return;
		rm_srow_cells_text(sec, r, buf, (size_t)n + 1);
	}
	fprintf(f, "# %s%s\n", r->indent ? "  " : "", buf);
	if (buf != small)
		free(buf);
}

static void print_row(FILE *f, const struct rm_section *sec, const struct rm_srow *r)
{
	switch (r->kind) {
	case RM_SROW_BLANK:
		fputs("#\n", f);
		break;
	case RM_SROW_TEXT:
		if (r->flags & RM_SROW_WRAP)
			print_wrapped(f, NULL, 0, r->text);
		else
			fprintf(f, "# %s%s\n", r->indent ? "  " : "", r->text);
		break;
	case RM_SROW_PAIR:
		print_pair(f, sec, r);
		break;
	default:
		print_cells(f, sec, r);
	}
}

int stdio_section_print(FILE *f, const struct rm_section *sec, size_t top)
{
	if (!sec)
		return 0;
	if (sec->title)
		fprintf(f, "# %s\n", sec->title);
	for (size_t i = 0; i < sec->nr_row; i++)
		if (rm_srow_shown(&sec->row[i], top))
			print_row(f, sec, &sec->row[i]);
	if (sec->blank_after)
		fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
