/* What a finding asks to separate (fix.h, fix_plan()), from its costliest line's members: the
 * members in offset order fall into groups by the thread that writes them (a member several
 * threads write is a group of its own: it is shared truly, and moving it off the others' line
 * is still right); each group's first member is what gets aligned. */
#include <stdio.h>
#include <string.h>

#include "report/fix/fix.h"

/* The key of a member's group: its one writer, or NULL for a member several threads write. */
static const void *writer_key(const struct rm_member *mb)
{
	return mb->nr_writers == 1 ? (const void *)mb->writers[0] : NULL;
}

static const char *object_of(const struct rm_member *mb)
{
	return mb->named && mb->named->object ? mb->named->object : NULL;
}

/* The line's members are of different objects: adjacent variables. */
static int several_objects(const struct rm_line *l)
{
	const char *first = NULL;

	for (size_t i = 0; i < l->nr_mem; i++) {
		const char *o = object_of(&l->mem[i]);

		if (!l->mem[i].nr_writers || !o)
			continue;
		if (first && strcmp(first, o))
			return 1;
		first = first ? first : o;
	}
	return 0;
}

static void add_group(struct fix_plan *p, const struct rm_member *mb, int by_object)
{
	struct fix_group *g = &p->g[p->nr++];

	g->name = by_object ? object_of(mb) : mb->name;
	g->row = mb->named ? mb->named : mb->writer_row;
	rm_threads_text(mb->writers, mb->nr_writers, g->threads, sizeof(g->threads));
}

static void groups(struct fix_plan *p, const struct rm_line *l, int by_object)
{
	const struct rm_member *prev = NULL;

	for (size_t i = 0; i < l->nr_mem && p->nr < FIX_MAX_GROUPS; i++) {
		const struct rm_member *mb = &l->mem[i];

		if (!mb->nr_writers || !mb->name || (by_object && !object_of(mb)))
			continue;
		if (prev && (by_object ? !strcmp(object_of(prev), object_of(mb)) :
					 writer_key(prev) == writer_key(mb) && writer_key(mb)))
			continue;
		add_group(p, mb, by_object);
		prev = mb;
	}
}

static void comment(const struct rm_model *m, struct fix_plan *p)
{
	const struct rm_finding *f = p->f;
	size_t len = (size_t)snprintf(p->comment, sizeof(p->comment), "%s of %s by ",
				      rm_verdict_name(f->verdict), f->object ? f->object : f->addr);

	for (size_t i = 0; i < p->nr && len < sizeof(p->comment); i++)
		len += (size_t)snprintf(p->comment + len, sizeof(p->comment) - len, "%s%s (%s)",
					i ? ", " : "", p->g[i].threads, p->g[i].name);
	if (len < sizeof(p->comment))
		snprintf(p->comment + len, sizeof(p->comment) - len, ": %.2f%% of %s", f->share,
			 m->cost_name);
}

static const struct rm_row *costliest_row(const struct rm_line *l)
{
	const struct rm_member *best = NULL;

	for (size_t i = 0; i < l->nr_mem; i++)
		if (l->mem[i].named && (!best || l->mem[i].cost > best->cost))
			best = &l->mem[i];
	return best ? best->named : l->nr_row ? &l->row[0] : NULL;
}

void fix_plan(const struct rm_model *m, const struct rm_finding *f, struct fix_plan *out)
{
	const struct rm_line *l = f->nr_line ? f->line[0] : NULL;

	memset(out, 0, sizeof(*out));
	out->f = f;
	out->kind = FIX_NONE;
	if (f->verdict == RM_V_TRUE) {
		out->reason = "true sharing: the threads share the same bytes, padding cannot help";
		return;
	}
	if (f->verdict != RM_V_FALSE && f->verdict != RM_V_MIXED) {
		out->reason = "not false sharing";
		return;
	}
	if (!l || !f->object) {
		out->reason = "no variable or type names the data";
		return;
	}
	out->row = costliest_row(l);
	if (f->array) {
		out->kind = FIX_ELEMENTS;
		groups(out, l, 0);
	} else {
		int by_object = several_objects(l);

		out->kind = by_object ? FIX_VARIABLES : FIX_MEMBERS;
		groups(out, l, by_object);
		if (out->nr < 2) {
			out->kind = FIX_NONE;
			out->reason = "fewer than two threads write the line's members";
		}
	}
	comment(m, out);
}
