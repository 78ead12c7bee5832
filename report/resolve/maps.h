/* maps: the process model of a report, built from MMAP/COMM/FORK/EXIT records with perf 6.1's
 * semantics (tools/perf/util/machine.c, thread.c, map.c, event.c).
 *
 * Threads are found by tid; a thread whose pid differs from its tid shares the address space of
 * its leader (created on demand). FORK into another pid copies the parent's maps, FORK into the
 * same pid shares them, and a FORK for a tid that already exists replaces that thread (entries
 * that referenced the old one keep it). A new mapping trims the ones it overlaps. Kernel-mode
 * MMAPs ("[kernel.kallsyms]..." and modules) form the kernel address space.
 *
 * Lookups follow perf's thread__find_map(): user-mode addresses search the process maps,
 * kernel-mode addresses only the kernel maps, hypervisor and guest modes find nothing.
 *
 * Ownership: the model owns every thread, map and DSO it ever created; pointers returned stay valid
 * until maps_free() even after the map was replaced or the thread exited. Not thread-safe. */
#ifndef C2C_REPORT_MAPS_H
#define C2C_REPORT_MAPS_H

#include <stdint.h>

#include "c2c/trace.h"

enum {
	MAPS_CPUMODE_KERNEL = 1,
	MAPS_CPUMODE_USER = 2,
	MAPS_CPUMODE_HV = 3,
	MAPS_CPUMODE_GUEST_KERNEL = 4,
	MAPS_CPUMODE_GUEST_USER = 5,
};

/* A DSO as perf identifies it: long name plus (maj, min, ino, ino_generation). */
struct maps_dso {
	const char *name;        /* long name: the path as mapped, "[kernel.kallsyms]", "//anon" */
	const char *short_name;  /* basename; interned: equal names give the same pointer */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	int kernel;              /* kernel image or module */
};

struct maps_map {
	uint64_t start, end, pgoff;  /* [start, end) */
	uint32_t prot, flags;
	int identity;                /* map-relative address = address (anon, heap, stack, kernel) */
	const struct maps_dso *dso;
	struct trace_mmap mmap;      /* the record, filename = dso->name (for report/resolve/symbols.h) */
};

struct maps_thread {
	int32_t pid, tid;
	const char *comm;            /* current comm; ":<tid>" until one is set */
	int comm_set, dead;
	struct maps_space *space;    /* shared by the threads of a process */
	/* a user-level task standing as a thread of its process (trace_sample.task: a goroutine,
	 * by its goid), tid a pseudo one (MAPS_TASK_TID_BASE and up); 0: an OS thread */
	uint64_t task;
};

#define MAPS_TASK_TID_BASE 0x40000000   /* above any pid_max (2^22) */

/* Where an address landed: the map (NULL: none) and the map-relative address (perf's al_addr:
 * addr - start + pgoff for file maps; addr itself for identity maps and when there is no map). */
struct maps_loc {
	const struct maps_map *map;
	uint64_t al_addr;
};

struct maps;

struct maps *maps_new(void);
void maps_free(struct maps *m);

/* Feed side-band records. Unknown pids are created on demand. */
void maps_mmap(struct maps *m, const struct trace_mmap *mm);
void maps_comm(struct maps *m, const struct trace_comm *c);
void maps_fork(struct maps *m, const struct trace_task *t);
void maps_exit(struct maps *m, const struct trace_task *t);

/* perf's machine__findnew_thread(pid, tid). Never NULL. */
struct maps_thread *maps_findnew_thread(struct maps *m, int32_t pid, int32_t tid);
/* The thread that stands for task @task (non-zero) of process @pid, made on first use with the
 * process's comm as it is then. Never NULL. */
struct maps_thread *maps_task_thread(struct maps *m, int32_t pid, uint64_t task);

/* Look @addr up as perf's thread__find_map() with @cpumode. Returns 1 when a map was found. */
int maps_find(const struct maps *m, const struct maps_thread *t, uint8_t cpumode, uint64_t addr,
	      struct maps_loc *loc);
/* maps_find() with a memo of the last map it found for the same address space and mode: a
 * sample stream hits the same few maps over and over. The memo is the caller's (zero it to
 * start); it stays valid until the next maps_mmap(), maps_fork() or maps_exit(), after which
 * the caller zeroes it again. Same results as maps_find(). */
struct maps_memo {
	const void *space;
	const struct maps_map *map;
	uint8_t cpumode;
};
int maps_find_memo_slow(const struct maps *m, const struct maps_thread *t, uint8_t cpumode,
			uint64_t addr, struct maps_loc *loc, struct maps_memo *memo);

/* The map-relative address of @addr in @map as maps_find() gives it (@addr itself for identity
 * maps and for no map). */
static inline uint64_t maps_rel_addr(const struct maps_map *map, uint64_t addr)
{
	return !map || map->identity ? addr : addr - map->start + map->pgoff;
}

/* Whether @memo answers the lookup of @addr in @t's @cpumode maps. */
static inline int maps_memo_hit(const struct maps_memo *memo, const struct maps_thread *t,
				uint8_t cpumode, uint64_t addr)
{
	const struct maps_map *map = memo->map;

	/* kernel maps are every thread's; user maps are the thread's address space's */
	return map && memo->cpumode == cpumode && map->start <= addr && addr < map->end &&
	       (cpumode == MAPS_CPUMODE_KERNEL || (t && memo->space == (const void *)t->space));
}

/* maps_find() through @n memos: the first that answers, else a lookup that replaces memo
 * *@next % @n (and advances *@next): threads that take turns in the input each keep their own
 * data map memoized. Returns 1 if found. */
static inline int maps_find_memo(const struct maps *m, const struct maps_thread *t,
				 uint8_t cpumode, uint64_t addr, struct maps_loc *loc,
				 struct maps_memo *memo, uint32_t n, uint32_t *next)
{
	for (uint32_t i = 0; i < n; i++) {
		if (maps_memo_hit(&memo[i], t, cpumode, addr)) {
			loc->map = memo[i].map;
			loc->al_addr = maps_rel_addr(memo[i].map, addr);
			return 1;
		}
	}
	return maps_find_memo_slow(m, t, cpumode, addr, loc, &memo[(*next)++ % n]);
}

/* Code-address lookup trying user then kernel maps (perf's ip__resolve_ams). Returns 1 if found. */
int maps_find_any(const struct maps *m, const struct maps_thread *t, uint64_t addr,
		  struct maps_loc *loc);

/* Anonymous private user memory (perf sorts it by pid): private map, all-zero DSO id, not kernel
 * mode. */
int maps_is_anon_private(const struct maps_map *map, uint8_t cpumode);

/* 1 when @map of @t's process is its brk heap, which the kernel reports as "//anon" when it
 * is first made (perf_event_mmap() names a mapping "[heap]" only when it lies between
 * mm->start_brk and mm->brk, and brk() updates mm->brk after the event) and as "[heap]" only
 * when it grows: a private, not executable "//anon" mapping above the executable (the lowest
 * file mapped) with no other file between them, within the range the kernel randomizes the
 * start of the heap in (1 GiB on x86-64; 2 GiB allowed). */
int maps_is_brk_heap(const struct maps_thread *t, const struct maps_map *map);

/* The level character perf shows before a symbol: '.', 'k', or 'H' (hypervisor, guest). */
char maps_level_char(uint8_t cpumode);

#endif
