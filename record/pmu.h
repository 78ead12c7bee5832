/* PMU discovery from sysfs (/sys/bus/event_source/devices/<pmu>/ below the sysfs root).
 *
 * A struct pmu names one PMU directory and its attr.type. Aliases (events/<name>), capabilities
 * (caps/<name>) and format fields (format/<field>) are read on demand. pmu_apply_terms() turns a
 * perf-style term list ("event=0xcd,umask=0x1,ldlat=30" or "mem-loads,ldlat=30") into the
 * config words exactly as perf's pmu.c places format bits: the value's bit 0 goes to the first
 * bit the format file lists, and so on; a value wider than the field is an error.
 * Errors: 0 or -errno; -ENOENT for a missing PMU/alias/field (logged by pmu_apply_terms only). */
#ifndef C2C_RECORD_PMU_H
#define C2C_RECORD_PMU_H

#include <stddef.h>
#include <stdint.h>

#define PMU_DEVICES "/sys/bus/event_source/devices"

struct pmu {
	char name[64];
	uint32_t type;
};

struct pmu_config {
	uint64_t config, config1, config2, config3;
};

/* Settings a term list may carry besides format fields (perf's non-format terms). */
struct pmu_term_extra {
	uint64_t period;          /* period=N (0: not given) */
	uint64_t freq;            /* freq=N (0: not given) */
	int inherit;              /* -1 not given, 0 no-inherit, 1 inherit */
	char name[64];            /* name=... */
};

/* Fill @p for the PMU directory @name (reads its type). -ENOENT when there is no such PMU. */
int pmu_open(struct pmu *p, const char *name);
/* The first PMU (in name order) whose name starts with @prefix, e.g. "arm_spe_". */
int pmu_open_prefix(struct pmu *p, const char *prefix);
/* The same among PMUs whose attr.type is @type (any when negative). */
int pmu_open_type(struct pmu *p, const char *prefix, int64_t type);
/* All PMU names, sorted; *names is a NULL-terminated array the caller frees with pmu_names_free. */
int pmu_list(char ***names);
void pmu_names_free(char **names);

/* caps/<cap>, events/<alias>, format/<field>: first line into @buf. */
int pmu_cap(const struct pmu *p, const char *cap, char *buf, size_t len);
/* caps/<cap> as an integer; @dflt when absent or not a number. */
uint64_t pmu_cap_u64(const struct pmu *p, const char *cap, uint64_t dflt);
int pmu_alias(const struct pmu *p, const char *alias, char *buf, size_t len);
int pmu_has_alias(const struct pmu *p, const char *alias);
int pmu_format(const struct pmu *p, const char *field, char *buf, size_t len);
int pmu_has_format(const struct pmu *p, const char *field);

/* Place @val into @cfg as the format spec @fmt ("config:0-7,32-35") says. Pure. -EINVAL for a bad
 * spec, -ERANGE when @val has bits above the field width. */
int pmu_format_place(const char *fmt, uint64_t val, struct pmu_config *cfg);
/* Apply a comma-separated term list (aliases expand in place; later terms win). @extra may be
 * NULL, then non-format terms are errors. */
int pmu_apply_terms(const struct pmu *p, const char *terms, struct pmu_config *cfg,
		    struct pmu_term_extra *extra);

#endif
