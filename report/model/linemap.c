/* The line map of a model line (see model.h): built from the touches; and its text, shared by
 * the text front ends (stdio --map, the TUI). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/model.h"

static int map_row_cmp(const void *pa, const void *pb)
{
	const struct rm_map_row *a = pa, *b = pb;

	return (a->thread->tid > b->thread->tid) - (a->thread->tid < b->thread->tid);
}

void rm_linemap_build(const struct rm_model *m, const struct rm_line *l, struct rm_linemap *out)
{
	uint32_t size = m->cl_size ? m->cl_size : 64;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	out->size = size;
	out->row = xcalloc(l->nr_touch ? l->nr_touch : 1, sizeof(*out->row));
	out->member = xcalloc(size, sizeof(*out->member));
	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *t = &l->touch[i];
		const struct rm_row *r = &l->row[t->row];
		struct rm_map_row *mr;
		uint32_t b, end = t->offset + (t->size ? t->size : 1);
		uint8_t kind = (uint8_t)((t->reads ? RM_MAP_READ : 0) | (t->writes ? RM_MAP_WRITE : 0) |
					 (t->atomics ? RM_MAP_ATOMIC : 0));

		for (k = 0; k < out->nr_row && out->row[k].thread != t->thread; k++)
			;
		mr = &out->row[k];
		if (k == out->nr_row) {
			mr->thread = t->thread;
			mr->cell = xcalloc(size, 1);
			out->nr_row++;
		}
		mr->reads += t->reads;
		mr->writes += t->writes;
		mr->atomics += t->atomics;
		mr->cost += t->cost;
		for (b = t->offset; b < end && b < size; b++) {
			mr->cell[b] |= kind;
			if (r->member && !out->member[b])
				out->member[b] = r->member;
		}
	}
	if (out->nr_row > 1)
		qsort(out->row, out->nr_row, sizeof(*out->row), map_row_cmp);
}

void rm_linemap_release(struct rm_linemap *map)
{
	size_t i;

	for (i = 0; i < map->nr_row; i++)
		free(map->row[i].cell);
	free(map->row);
	free(map->member);
	memset(map, 0, sizeof(*map));
}

char rm_map_char(uint8_t cell)
{
	if (cell & RM_MAP_ATOMIC)
		return 'a';
	if ((cell & RM_MAP_READ) && (cell & RM_MAP_WRITE))
		return 'x';
	if (cell & RM_MAP_WRITE)
		return 'w';
	if (cell & RM_MAP_READ)
		return 'r';
	return '.';
}


/* Letters for members: A..Z, then a..z. */
static char member_letter(size_t i)
{
	return i < 26 ? (char)('A' + i) : i < 52 ? (char)('a' + i - 26) : '*';
}

void rm_linemap_text(const struct rm_linemap *map, size_t max_rows,
		     void (*put)(void *ctx, const char *text), void *ctx)
{
	uint32_t per = map->size > 64 ? (map->size + 63) / 64 : 1, ncells = (map->size + per - 1) / per;
	const char *names[52];
	size_t nr_names = 0, i, k;
	char line[512], thr[64];
	uint32_t c, b;
	int len;

	/* the ruler: an offset every 8 cells */
	len = snprintf(line, sizeof(line), "%-14s", "offset");
	for (c = 0; c < ncells && len < (int)sizeof(line) - 8; c += 8)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%-8u", c * per);
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = 0;
	put(ctx, line);
	/* the members, by letter */
	len = snprintf(line, sizeof(line), "%-14s", "member");
	for (c = 0; c < ncells; c++) {
		const char *mb = map->member[c * per];
		char ch = '.';

		if (mb) {
			for (k = 0; k < nr_names && strcmp(names[k], mb); k++)
				;
			if (k == nr_names && nr_names < 52)
				names[nr_names++] = mb;
			ch = member_letter(k);
		}
		line[len++] = ch;
	}
	line[len] = 0;
	put(ctx, line);
	for (i = 0; i < map->nr_row && i < max_rows; i++) {
		const struct rm_map_row *r = &map->row[i];

		/* the tid first: comms are often alike */
		if (r->thread->task)
			snprintf(thr, sizeof(thr), "G%llu %s", (unsigned long long)r->thread->task,
				 r->thread->comm_set && r->thread->comm ? r->thread->comm : "");
		else if (r->thread->comm_set && r->thread->comm)
			snprintf(thr, sizeof(thr), "%d %s", r->thread->tid, r->thread->comm);
		else
			snprintf(thr, sizeof(thr), "tid %d", r->thread->tid);
		len = snprintf(line, sizeof(line), "%-13.13s ", thr);
		for (c = 0; c < ncells; c++) {
			uint8_t cell = 0;

			for (b = c * per; b < (c + 1) * per && b < map->size; b++)
				cell |= r->cell[b];
			line[len++] = rm_map_char(cell);
		}
		line[len] = 0;
		put(ctx, line);
	}
	if (map->nr_row > max_rows) {
		snprintf(line, sizeof(line), "%-14s(%zu more threads)", "", map->nr_row - max_rows);
		put(ctx, line);
	}
	/* the legend */
	len = snprintf(line, sizeof(line), "%-14s", "");
	for (k = 0; k < nr_names && len < (int)sizeof(line) - 80; k++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s%c %s", k ? "  " : "",
				member_letter(k), names[k]);
	if (nr_names)
		put(ctx, line);
	snprintf(line, sizeof(line), "%-14sr read, w written, x read and written, a atomic, . not "
		 "sampled%s", "", per > 1 ? "; a cell is 2 bytes" : "");
	put(ctx, line);
}
