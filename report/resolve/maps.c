/* The process model (see report/resolve/maps.h): threads in an open-addressing table keyed by tid,
 * address spaces as arrays of maps sorted by start, DSOs and short names interned in hash tables.
 * Everything ever allocated is kept on lists and released by maps_free(), so pointers handed out
 * stay valid for the life of the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/maps.h"

#define MAPS_MAP_SHARED 0x01
#define MAPS_PROT_EXEC  0x04

struct maps_space {
	struct maps_map **map;       /* sorted by start, non-overlapping */
	size_t nr, cap;
	struct maps_space *next_all;
};

struct maps_dso_node {
	struct maps_dso dso;
	struct maps_dso_node *next;  /* hash chain */
};

struct maps_str {
	struct maps_str *next;
	char s[];
};

struct maps {
	struct maps_thread **thread; /* open addressing on tid; NULL = empty */
	size_t thread_cap, thread_nr;
	struct maps_thread **all_thread;
	size_t all_nr, all_cap;
	struct maps_space *spaces;   /* every space, for freeing */
	struct maps_space kernel;
	struct maps_dso_node *dso_bucket[1024];
	struct maps_str *str_bucket[1024];
	struct maps_map **all_map;
	size_t map_nr, map_cap;
	struct maps_thread **task;   /* open addressing on (pid, task); NULL = empty */
	size_t task_cap, task_nr;
	int32_t next_task_tid;
};

static uint64_t maps_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static const char *maps_intern(struct maps *m, const char *s)
{
	size_t b = maps_hash_str(s) % 1024;
	struct maps_str *p;

	for (p = m->str_bucket[b]; p; p = p->next)
		if (!strcmp(p->s, s))
			return p->s;
	p = xmalloc(sizeof(*p) + strlen(s) + 1);
	strcpy(p->s, s);
	p->next = m->str_bucket[b];
	m->str_bucket[b] = p;
	return p->s;
}

struct maps *maps_new(void)
{
	struct maps *m = xcalloc(1, sizeof(*m));

	m->thread_cap = 256;
	m->thread = xcalloc(m->thread_cap, sizeof(*m->thread));
	/* perf registers the idle task before it reads a file (perf_session__register_idle_thread):
	 * samples of pid 0 belong to "swapper" */
	maps_comm(m, &(struct trace_comm){ .comm = "swapper" });
	return m;
}

static void maps_space_release(struct maps_space *sp)
{
	free(sp->map);
}

void maps_free(struct maps *m)
{
	struct maps_space *sp, *nsp;
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->all_nr; i++)
		free(m->all_thread[i]);
	free(m->all_thread);
	free(m->thread);
	free(m->task);
	for (sp = m->spaces; sp; sp = nsp) {
		nsp = sp->next_all;
		maps_space_release(sp);
		free(sp);
	}
	maps_space_release(&m->kernel);
	for (i = 0; i < m->map_nr; i++)
		free(m->all_map[i]);
	free(m->all_map);
	for (i = 0; i < 1024; i++) {
		struct maps_dso_node *d, *nd;
		struct maps_str *s, *ns;

		for (d = m->dso_bucket[i]; d; d = nd) {
			nd = d->next;
			free(d);
		}
		for (s = m->str_bucket[i]; s; s = ns) {
			ns = s->next;
			free(s);
		}
	}
	free(m);
}

/* --- DSOs ----------------------------------------------------------------------------------- */

static const char *maps_basename(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash && slash[1] ? slash + 1 : name;
}

static const struct maps_dso *maps_findnew_dso(struct maps *m, const char *name,
					       const struct trace_mmap *mm, int kernel)
{
	size_t b = maps_hash_str(name) % 1024;
	struct maps_dso_node *d;
	char buf[64];
	int tid;

	for (d = m->dso_bucket[b]; d; d = d->next)
		if (!strcmp(d->dso.name, name) && d->dso.maj == mm->maj && d->dso.min == mm->min &&
		    d->dso.ino == mm->ino && d->dso.ino_generation == mm->ino_generation &&
		    d->dso.kernel == kernel)
			return &d->dso;
	d = xcalloc(1, sizeof(*d));
	d->dso.name = maps_intern(m, name);
	if (sscanf(name, "/tmp/perf-%d.map", &tid) == 1) {
		snprintf(buf, sizeof(buf), "[JIT] tid %d", tid);
		d->dso.short_name = maps_intern(m, buf);
	} else {
		d->dso.short_name = maps_intern(m, maps_basename(name));
	}
	d->dso.maj = mm->maj;
	d->dso.min = mm->min;
	d->dso.ino = mm->ino;
	d->dso.ino_generation = mm->ino_generation;
	d->dso.kernel = kernel;
	d->next = m->dso_bucket[b];
	m->dso_bucket[b] = d;
	return &d->dso;
}

/* --- address spaces ------------------------------------------------------------------------- */

static struct maps_space *maps_space_new(struct maps *m)
{
	struct maps_space *sp = xcalloc(1, sizeof(*sp));

	sp->next_all = m->spaces;
	m->spaces = sp;
	return sp;
}

static struct maps_map *maps_map_dup(struct maps *m, const struct maps_map *src)
{
	struct maps_map *map = xmalloc(sizeof(*map));

	*map = *src;
	m->all_map = xgrow(m->all_map, &m->map_cap, m->map_nr + 1, sizeof(*m->all_map));
	m->all_map[m->map_nr++] = map;
	return map;
}

/* Index of the first map whose end is above @addr. */
static size_t maps_space_lower(const struct maps_space *sp, uint64_t addr)
{
	size_t lo = 0, hi = sp->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp->map[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void maps_space_put(struct maps_space *sp, size_t at, struct maps_map *map)
{
	sp->map = xgrow(sp->map, &sp->cap, sp->nr + 1, sizeof(*sp->map));
	memmove(sp->map + at + 1, sp->map + at, (sp->nr - at) * sizeof(*sp->map));
	sp->map[at] = map;
	sp->nr++;
}

/* Insert @map, trimming the maps it overlaps (perf's maps__fixup_overlappings). */
static void maps_space_insert(struct maps *m, struct maps_space *sp, struct maps_map *map)
{
	size_t i = maps_space_lower(sp, map->start);

	while (i < sp->nr && sp->map[i]->start < map->end) {
		struct maps_map *old = sp->map[i];

		memmove(sp->map + i, sp->map + i + 1, (sp->nr - i - 1) * sizeof(*sp->map));
		sp->nr--;
		if (old->start < map->start) {
			struct maps_map *before = maps_map_dup(m, old);

			before->end = map->start;
			maps_space_put(sp, i++, before);
		}
		if (old->end > map->end) {
			struct maps_map *after = maps_map_dup(m, old);

			after->pgoff += map->end - old->start;
			after->start = map->end;
			maps_space_put(sp, i++, after);
		}
	}
	/* The pieces kept before and after the new map are in place; it goes between them. */
	i = maps_space_lower(sp, map->start);
	maps_space_put(sp, i, map);
}

static const struct maps_map *maps_space_find(const struct maps_space *sp, uint64_t addr)
{
	size_t i = maps_space_lower(sp, addr);

	if (i < sp->nr && sp->map[i]->start <= addr && addr < sp->map[i]->end)
		return sp->map[i];
	return NULL;
}

/* --- threads -------------------------------------------------------------------------------- */

static size_t maps_slot(const struct maps *m, int32_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (m->thread_cap - 1);

	while (m->thread[i] && m->thread[i]->tid != tid)
		i = (i + 1) & (m->thread_cap - 1);
	return i;
}

static void maps_thread_grow(struct maps *m)
{
	struct maps_thread **old = m->thread;
	size_t i, cap = m->thread_cap;

	m->thread_cap *= 2;
	m->thread = xcalloc(m->thread_cap, sizeof(*m->thread));
	for (i = 0; i < cap; i++)
		if (old[i])
			m->thread[maps_slot(m, old[i]->tid)] = old[i];
	free(old);
}

static struct maps_thread *maps_find_thread(const struct maps *m, int32_t tid)
{
	return m->thread[maps_slot(m, tid)];
}

static void maps_remove_thread(struct maps *m, int32_t tid)
{
	size_t i = maps_slot(m, tid), j;

	if (!m->thread[i])
		return;
	m->thread[i] = NULL;
	m->thread_nr--;
	/* Re-insert the rest of the cluster (linear probing deletion). */
	for (j = (i + 1) & (m->thread_cap - 1); m->thread[j]; j = (j + 1) & (m->thread_cap - 1)) {
		struct maps_thread *t = m->thread[j];

		m->thread[j] = NULL;
		m->thread[maps_slot(m, t->tid)] = t;
	}
}

static struct maps_thread *maps_thread_new(struct maps *m, int32_t pid, int32_t tid)
{
	struct maps_thread *t = xcalloc(1, sizeof(*t));
	char buf[24];

	t->pid = pid;
	t->tid = tid;
	snprintf(buf, sizeof(buf), ":%d", tid);
	t->comm = maps_intern(m, buf);
	m->all_thread = xgrow(m->all_thread, &m->all_cap, m->all_nr + 1, sizeof(*m->all_thread));
	m->all_thread[m->all_nr++] = t;
	if ((m->thread_nr + 1) * 2 > m->thread_cap)
		maps_thread_grow(m);
	m->thread[maps_slot(m, tid)] = t;
	m->thread_nr++;
	return t;
}

/* machine__update_thread_pid(): a thread first seen without a pid (an Arm SPE sample of a task
 * no record had named) takes the pid it is given later, and its leader's maps. */
static void maps_update_pid(struct maps *m, struct maps_thread *t, int32_t pid)
{
	if (pid == t->pid || pid == -1 || t->pid != -1)
		return;
	__atomic_store_n(&t->pid, pid, __ATOMIC_RELAXED);   /* aggregation threads read it */
	if (pid != t->tid)
		t->space = maps_findnew_thread(m, pid, pid)->space;
}

struct maps_thread *maps_findnew_thread(struct maps *m, int32_t pid, int32_t tid)
{
	struct maps_thread *t = maps_find_thread(m, tid);

	if (t) {
		maps_update_pid(m, t, pid);
		return t;
	}
	t = maps_thread_new(m, pid, tid);
	if (pid == tid || pid == -1) {
		t->space = maps_space_new(m);
	} else {
		struct maps_thread *leader = maps_findnew_thread(m, pid, pid);

		t->space = leader->space;
	}
	return t;
}

static size_t maps_task_slot(struct maps_thread *const *tab, size_t cap, int32_t pid,
			     uint64_t task)
{
	size_t i = (size_t)(((uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ULL) ^
			    (task * 0xff51afd7ed558ccdULL)) >> 7;

	for (i &= cap - 1; tab[i] && (tab[i]->pid != pid || tab[i]->task != task);
	     i = (i + 1) & (cap - 1))
		;
	return i;
}

struct maps_thread *maps_task_thread(struct maps *m, int32_t pid, uint64_t task)
{
	struct maps_thread *t, *leader;
	size_t i;

	if (m->task_cap && (t = m->task[maps_task_slot(m->task, m->task_cap, pid, task)]))
		return t;
	if ((m->task_nr + 1) * 2 > m->task_cap) {
		size_t cap = m->task_cap ? m->task_cap * 2 : 64;
		struct maps_thread **tab = xcalloc(cap, sizeof(*tab));

		for (i = 0; i < m->task_cap; i++)
			if (m->task[i])
				tab[maps_task_slot(tab, cap, m->task[i]->pid, m->task[i]->task)] =
					m->task[i];
		free(m->task);
		m->task = tab;
		m->task_cap = cap;
	}
	leader = maps_findnew_thread(m, pid, pid);
	if (!m->next_task_tid)
		m->next_task_tid = MAPS_TASK_TID_BASE;
	t = maps_thread_new(m, pid, m->next_task_tid++);
	t->space = leader->space;
	t->comm = leader->comm;
	t->comm_set = leader->comm_set;
	t->task = task;
	m->task[maps_task_slot(m->task, m->task_cap, pid, task)] = t;
	m->task_nr++;
	return t;
}

/* --- records -------------------------------------------------------------------------------- */

static int maps_is_anon_name(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14);
}

static int maps_is_nodso_name(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

static void maps_kernel_mmap(struct maps *m, const struct trace_mmap *mm)
{
	struct maps_map map = { .start = mm->start, .end = mm->start + mm->len,
				.pgoff = mm->pgoff, .prot = mm->prot, .flags = mm->flags };
	char name[256];
	const char *f = mm->filename ? mm->filename : "";

	if (!strncmp(f, "[kernel.kallsyms]", 17)) {
		map.identity = 1;
		map.dso = maps_findnew_dso(m, "[kernel.kallsyms]", mm, 1);
	} else if (f[0] == '/') {
		/* A module: perf names it "[name]" after the file's basename without extension. */
		const char *b = maps_basename(f);
		size_t n = strcspn(b, ".");

		snprintf(name, sizeof(name), "[%.*s]", (int)(n < 200 ? n : 200), b);
		for (char *p = name; *p; p++)
			if (*p == '-')
				*p = '_';
		map.pgoff = 0;
		map.dso = maps_findnew_dso(m, name, mm, 1);
	} else {
		map.identity = 1;
		map.dso = maps_findnew_dso(m, f, mm, 1);
	}
	map.mmap = *mm;
	map.mmap.filename = map.dso->name;
	if (map.end <= map.start)
		map.end = UINT64_MAX;
	maps_space_insert(m, &m->kernel, maps_map_dup(m, &map));
}

void maps_mmap(struct maps *m, const struct trace_mmap *mm)
{
	struct maps_map map = { .start = mm->start, .end = mm->start + mm->len,
				.pgoff = mm->pgoff, .prot = mm->prot, .flags = mm->flags };
	const char *f = mm->filename ? mm->filename : "";
	struct maps_thread *t;
	char jit[64];
	int anon, nodso;

	if (mm->cpumode == MAPS_CPUMODE_KERNEL || mm->cpumode == MAPS_CPUMODE_GUEST_KERNEL) {
		maps_kernel_mmap(m, mm);
		return;
	}
	if (!mm->len)
		return;
	t = maps_findnew_thread(m, (int32_t)mm->pid, (int32_t)mm->tid);
	anon = maps_is_anon_name(f) || (mm->flags & 0x40000 /* MAP_HUGETLB */);
	nodso = maps_is_nodso_name(f);
	if ((anon || nodso) && (mm->prot & MAPS_PROT_EXEC)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", t->pid);
		f = jit;
	}
	map.identity = anon || nodso;
	map.dso = maps_findnew_dso(m, f, mm, 0);
	map.mmap = *mm;
	map.mmap.filename = map.dso->name;
	maps_space_insert(m, t->space, maps_map_dup(m, &map));
}

void maps_comm(struct maps *m, const struct trace_comm *c)
{
	struct maps_thread *t = maps_findnew_thread(m, (int32_t)c->pid, (int32_t)c->tid);

	t->comm = maps_intern(m, c->comm ? c->comm : "");
	t->comm_set = 1;
}

static void maps_clone_space(struct maps *m, struct maps_space *dst, const struct maps_space *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++)
		maps_space_insert(m, dst, maps_map_dup(m, src->map[i]));
}

void maps_fork(struct maps *m, const struct trace_task *tk)
{
	int32_t pid = (int32_t)tk->pid, tid = (int32_t)tk->tid;
	struct maps_thread *parent = maps_findnew_thread(m, (int32_t)tk->ppid, (int32_t)tk->ptid);
	struct maps_thread *t;

	if (parent->pid != (int32_t)tk->ppid) {
		maps_remove_thread(m, parent->tid);
		parent = maps_findnew_thread(m, (int32_t)tk->ppid, (int32_t)tk->ptid);
	}
	if (maps_find_thread(m, tid))
		maps_remove_thread(m, tid);
	t = maps_findnew_thread(m, pid, tid);
	if (parent->comm_set) {
		t->comm = parent->comm;
		t->comm_set = 1;
	}
	/* a new process gets a copy of its parent's maps, unless perf synthesized the FORK for a
	 * task that already ran: its own MMAPs follow (perf's thread__fork without do_maps_clone) */
	if (t->pid != parent->pid && t->space != parent->space &&
	    !(tk->flags & TRACE_TASK_SYNTHESIZED))
		maps_clone_space(m, t->space, parent->space);
}

void maps_exit(struct maps *m, const struct trace_task *tk)
{
	struct maps_thread *t = maps_find_thread(m, (int32_t)tk->tid);

	if (t) {
		maps_update_pid(m, t, (int32_t)tk->pid);   /* machine__find_thread(pid, tid) */
		t->dead = 1;
	}
}

/* --- lookups -------------------------------------------------------------------------------- */

static void maps_locate(const struct maps_map *map, uint64_t addr, struct maps_loc *loc)
{
	loc->map = map;
	loc->al_addr = maps_rel_addr(map, addr);
}

int maps_find(const struct maps *m, const struct maps_thread *t, uint8_t cpumode, uint64_t addr,
	      struct maps_loc *loc)
{
	const struct maps_map *map = NULL;

	if (cpumode == MAPS_CPUMODE_KERNEL)
		map = maps_space_find(&m->kernel, addr);
	else if (cpumode == MAPS_CPUMODE_USER && t && t->space)
		map = maps_space_find(t->space, addr);
	maps_locate(map, addr, loc);
	return map != NULL;
}

int maps_find_memo_slow(const struct maps *m, const struct maps_thread *t, uint8_t cpumode,
			uint64_t addr, struct maps_loc *loc, struct maps_memo *memo)
{
	const void *sp = cpumode == MAPS_CPUMODE_KERNEL ? (const void *)&m->kernel
			 : cpumode == MAPS_CPUMODE_USER && t ? (const void *)t->space : NULL;

	if (!maps_find(m, t, cpumode, addr, loc) || !sp)
		return 0;
	memo->space = sp;
	memo->map = loc->map;
	memo->cpumode = cpumode;
	return 1;
}

int maps_find_any(const struct maps *m, const struct maps_thread *t, uint64_t addr,
		  struct maps_loc *loc)
{
	if (maps_find(m, t, MAPS_CPUMODE_USER, addr, loc))
		return 1;
	return maps_find(m, t, MAPS_CPUMODE_KERNEL, addr, loc);
}

/* A file the process mapped (not anonymous memory, a JIT map, [stack], [vdso]). */
static int maps_is_file(const struct maps_map *map)
{
	const char *f = map->dso->name;

	return !map->dso->kernel && f[0] == '/' && !maps_is_anon_name(f) && !maps_is_nodso_name(f) &&
	       strncmp(f, "/tmp/perf-", 10);
}

#define MAPS_BRK_RANGE (2ull << 30)

int maps_is_brk_heap(const struct maps_thread *t, const struct maps_map *map)
{
	const struct maps_space *sp = t ? t->space : NULL;
	const struct maps_dso *exe = NULL;
	uint64_t exe_end = 0;
	size_t i;

	if (!sp || map->dso->kernel || strcmp(map->dso->name, "//anon") ||
	    (map->flags & MAPS_MAP_SHARED) || (map->prot & MAPS_PROT_EXEC))
		return 0;
	for (i = 0; i < sp->nr && sp->map[i]->start < map->start; i++) {
		const struct maps_map *p = sp->map[i];
		if (!maps_is_file(p))
			continue;
		if (!exe)
			exe = p->dso;  /* the lowest file: the executable */
		else if (p->dso != exe)
			return 0;      /* another file between the executable and the map */
		exe_end = p->end;
	}
	return exe && map->start >= exe_end && map->start - exe_end < MAPS_BRK_RANGE;
}

int maps_is_anon_private(const struct maps_map *map, uint8_t cpumode)
{
	const struct maps_dso *d = map->dso;

	return cpumode != MAPS_CPUMODE_KERNEL && !(map->flags & MAPS_MAP_SHARED) && !d->maj &&
	       !d->min && !d->ino && !d->ino_generation;
}

char maps_level_char(uint8_t cpumode)
{
	switch (cpumode) {
	case MAPS_CPUMODE_KERNEL:
		return 'k';
	case MAPS_CPUMODE_USER:
		return '.';
	default:
		return 'H';
	}
}
