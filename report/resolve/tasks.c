/* Goroutines as the report's threads (see report/resolve/tasks.h). */
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/tasks.h"

/* Whether the code at an address is Go source, by (map, address): a sample stream hits the
 * same few addresses. */
struct go_code {
	const struct maps_map *map;
	uint64_t ip;
	int go;                      /* -1: empty slot */
};

struct task_resolver {
	struct maps *maps;
	struct sym_session *sym;
	struct go_code *tab;
	size_t cap, nr;
	uint64_t resolved;
};

struct task_resolver *task_resolver_new(struct maps *maps, struct sym_session *sym)
{
	struct task_resolver *r = xcalloc(1, sizeof(*r));

	r->maps = maps;
	r->sym = sym;
	return r;
}

void task_resolver_free(struct task_resolver *r)
{
	if (!r)
		return;
	free(r->tab);
	free(r);
}

static size_t slot(const struct go_code *tab, size_t cap, const struct maps_map *map, uint64_t ip)
{
	size_t i = (size_t)((ip * 0x9e3779b97f4a7c15ULL) ^ (uintptr_t)map) >> 7;

	for (i &= cap - 1; tab[i].go >= 0 && (tab[i].map != map || tab[i].ip != ip);
	     i = (i + 1) & (cap - 1))
		;
	return i;
}

static void grow(struct task_resolver *r)
{
	size_t cap = r->cap ? r->cap * 2 : 256;
	struct go_code *tab = xmalloc(cap * sizeof(*tab));

	for (size_t i = 0; i < cap; i++)
		tab[i].go = -1;
	for (size_t i = 0; i < r->cap; i++)
		if (r->tab[i].go >= 0)
			tab[slot(tab, cap, r->tab[i].map, r->tab[i].ip)] = r->tab[i];
	free(r->tab);
	r->tab = tab;
	r->cap = cap;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int go_code(struct task_resolver *r, const struct maps_map *map, uint64_t ip)
{
	struct sym_code_info ci = { 0 };
	size_t i;

	if (r->cap && r->tab[i = slot(r->tab, r->cap, map, ip)].go >= 0)
		return r->tab[i].go;
	if ((r->nr + 1) * 2 > r->cap)
		grow(r);
	i = slot(r->tab, r->cap, map, ip);
	r->tab[i].map = map;
	r->tab[i].ip = ip;
	r->tab[i].go = !sym_code(r->sym, &map->mmap, ip, &ci) && ci.srcfile &&
		       ends_with(ci.srcfile, ".go");
	r->nr++;
	return r->tab[i].go;
}

void task_resolve(struct task_resolver *r, struct trace_sample *s)
{
	struct maps_thread *th;
	struct maps_loc loc;

	if (!s->task || !r->sym || s->cpumode != MAPS_CPUMODE_USER)
		return;
	th = maps_findnew_thread(r->maps, (int32_t)s->pid, (int32_t)s->tid);
	if (!maps_find(r->maps, th, s->cpumode, s->ip, &loc) || !loc.map || loc.map->dso->kernel ||
	    !go_code(r, loc.map, s->ip))
		return;
	s->tid = (uint32_t)maps_task_thread(r->maps, (int32_t)s->pid, s->task)->tid;
	r->resolved++;
}

uint64_t task_resolved(const struct task_resolver *r)
{
	return r ? r->resolved : 0;
}
