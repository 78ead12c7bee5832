/* Tests of the AMD uncore context: the fake trees' format files against the kernel's; the
 * counters record/uncore.c plans on the fake machines, every attr of each generation (Zen 2
 * against seed 004's register values; Zen 3, Zen 4, Zen 5 against perf's data-fabric.json
 * encodings placed as the kernel's formats place them); the notes where the DF is left out (a
 * VM, not AMD, a kernel without the PerfMonV2 format, an unknown family); opening and reading
 * through a fake perf_event_open, with multiplexing and failures; the text summary (lib/uncore.c)
 * written, parsed and printed; and the report header and JSON of a trace that carries it. */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "c2c/uncore.h"
#include "report/model/sections-build.h"
#include "report/stdio/sections.h"
#include "record/sys.h"
#include "record/uncore.h"
#include "tests/fake-machine.h"

static int fail_open;           /* errno every open fails with, 0: none */
static uint64_t fail_config;    /* a config whose open fails (EBUSY), 0: none */
static uint64_t enabled = 1000, running = 1000;   /* the times every counter reads */

/* A counter whose count is its config: a pipe holding the read_format value, time enabled and
 * time running. */
int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	uint64_t v[3] = { attr->config, enabled, running };
	int p[2];

	(void)flags;
	if (fail_open || (fail_config && attr->config == fail_config)) {
		errno = fail_open ? fail_open : EBUSY;
		return -1;
	}
	if (pid != -1 || cpu < 0 || group_fd != -1 || attr->sample_period ||
	    attr->read_format != (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING) ||
	    pipe(p))
		return -1;
	if (write(p[1], v, sizeof(v)) != sizeof(v))
		return -1;
	close(p[1]);
	return p[0];
}

/* Seed 004's DF_PERF_CTL values (family 17h PPR) without the enable bit 22 the kernel sets. */
static const uint64_t dram_ctl[8] = {
	0x000403807, 0x000403847, 0x000403887, 0x0004038C7,
	0x100403807, 0x100403847, 0x100403887, 0x1004038C7,
};
static const uint64_t link_ctl[4] = {
	0x00000007004002C7ull, 0x0000000800400207ull, 0x0000000800400247ull, 0x0000000800400287ull,
};
#define ENABLE (1ull << 22)

/* The format files the kernel's amd uncore driver (arch/x86/events/amd/uncore.c) gives amd_df and
 * amd_l3, by what decides them: PerfMonV2 (Zen 4 and later) or family 17h+ for the DF; family 17h
 * or 19h+ for the L3 (its threadmask and the slice or core fields the driver adds). */
struct fmt {
	const char *field, *bits;
};
static const struct fmt df_f17[] = {                          /* event14, umask8 */
	{ "event", "config:0-7,32-35,59-60" }, { "umask", "config:8-15" }, { NULL, NULL } };
static const struct fmt df_v2[] = {                           /* event14v2, umask12 */
	{ "event", "config:0-7,32-37" }, { "umask", "config:8-15,24-27" }, { NULL, NULL } };
static const struct fmt l3_f17[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "threadmask", "config:56-63" },
	{ "slicemask", "config:48-51" }, { NULL, NULL } };
static const struct fmt l3_f19[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "threadmask", "config:56-57" },
	{ "coreid", "config:42-44" }, { "enallslices", "config:46" }, { "enallcores", "config:47" },
	{ "sliceid", "config:48-50" }, { NULL, NULL } };

static const struct {
	int line;
	const char *machine, *pmu;
	const struct fmt *want;
} tree_formats[] = {
	{ __LINE__, "zen2", "amd_df", df_f17 },
	{ __LINE__, "zen2", "amd_l3", l3_f17 },
	{ __LINE__, "zen3", "amd_df", df_f17 },
	{ __LINE__, "zen3", "amd_l3", l3_f19 },
	{ __LINE__, "zen4", "amd_df", df_v2 },
	{ __LINE__, "zen4", "amd_l3", l3_f19 },
	{ __LINE__, "zen5", "amd_df", df_v2 },
	{ __LINE__, "zen5", "amd_l3", l3_f19 },
};

/* Every format file of the trees' uncore PMUs reads as the kernel writes it, and no other. */
static void test_trees_kernel_formats(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(tree_formats) / sizeof(tree_formats[0]); i++) {
		char dir[256], path[512], line[128];
		size_t nr = 0, files = 0;
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "data/sysfs/%s/sys/bus/event_source/devices/%s/format",
			 tree_formats[i].machine, tree_formats[i].pmu);
		for (const struct fmt *f = tree_formats[i].want; f->field; f++, nr++) {
			FILE *fp;

			snprintf(path, sizeof(path), "%s/%s", dir, f->field);
			if (!(fp = fopen(path, "r")) || !fgets(line, sizeof(line), fp))
				fail_msg("line %d: no %s", tree_formats[i].line, path);
			fclose(fp);
			line[strcspn(line, "\n")] = 0;
			if (strcmp(line, f->bits))
				fail_msg("line %d: %s is '%s', the kernel's '%s'", tree_formats[i].line,
					 path, line, f->bits);
		}
		assert_non_null(d = opendir(dir));
		while ((e = readdir(d)))
			files += e->d_name[0] != '.';
		closedir(d);
		if (files != nr)
			fail_msg("line %d: %s has %zu files, the kernel %zu", tree_formats[i].line, dir,
				 files, nr);
	}
}

static void test_plan_zen2(void **state)
{
	struct uncore u;

	(void)state;
	set_machine("zen2");
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr, 2 * 2 + 8 + 4);            /* 2 CCX x 2 L3 events, 1 node */
	assert_int_equal(u.nr_notes, 0);
	for (int i = 0; i < 4; i++) {
		const struct uncore_ev *e = &u.ev[i];

		assert_int_equal(e->attr.type, 12);
		assert_int_equal(e->attr.config, i % 2 ? 0x0104 : 0xff04);   /* misses, lookups */
		assert_int_equal(e->cpu, i < 2 ? 0 : 2);                     /* amd_l3 cpumask 0,2 */
		assert_int_equal(e->unit, i / 2);
		assert_int_equal(e->row, i / 2);
		assert_int_equal(e->part, i % 2 ? UNCORE_L3_MISSES : UNCORE_L3_LOOKUPS);
	}
	for (int ch = 0; ch < 8; ch++) {
		const struct uncore_ev *e = &u.ev[4 + ch];

		assert_int_equal(e->attr.type, 13);
		assert_int_equal(e->attr.config, dram_ctl[ch] & ~ENABLE);
		assert_int_equal(e->kind, C2C_UNCORE_DRAM);
		assert_int_equal(e->part, UNCORE_TOTAL);              /* reads and writes together */
		assert_int_equal(e->row, 2 + ch);
		assert_int_equal(e->bytes_per, 64);
	}
	for (int l = 0; l < 4; l++) {
		const struct uncore_ev *e = &u.ev[12 + l];

		assert_int_equal(e->attr.config, link_ctl[l] & ~ENABLE);
		assert_int_equal(e->kind, C2C_UNCORE_LINK);
		assert_int_equal(e->part, UNCORE_OUT);                /* outbound data */
		assert_int_equal(e->row, 10 + l);
		assert_int_equal(e->bytes_per, 32);
	}
	assert_int_equal(u.nr_rows, 2 + 8 + 4);
	for (size_t i = 0; i < u.nr; i++)
		assert_true(!u.ev[i].attr.sample_period && !u.ev[i].attr.sample_type &&
			    !u.ev[i].attr.disabled && !u.ev[i].attr.inherit &&
			    u.ev[i].attr.read_format == (PERF_FORMAT_TOTAL_TIME_ENABLED |
							 PERF_FORMAT_TOTAL_TIME_RUNNING) &&
			    u.ev[i].attr.size == sizeof(u.ev[i].attr));
	uncore_release(&u);
}

/* --- the DF events of Zen 3, Zen 4 and Zen 5 ---------------------------------------------------
 *
 * Each generation's events as perf's pmu-events JSON names them (EventCode of channel or link 0
 * and on, UMask), and the attr config the kernel's amd_df format makes of them: family 17h and
 * Zen 3 "event config:0-7,32-35,59-60", "umask config:8-15"; PerfMonV2 "event config:0-7,32-37",
 * "umask config:8-15,24-27" (arch/x86/events/amd/uncore.c). */
static uint64_t cfg_f17(unsigned event, unsigned umask)
{
	return (event & 0xff) | (uint64_t)((event >> 8) & 0xf) << 32 |
	       (uint64_t)((event >> 12) & 0x3) << 59 | (uint64_t)(umask & 0xff) << 8;
}

static uint64_t cfg_v2(unsigned event, unsigned umask)
{
	return (event & 0xff) | (uint64_t)((event >> 8) & 0x3f) << 32 |
	       (uint64_t)(umask & 0xff) << 8 | (uint64_t)((umask >> 8) & 0xf) << 24;
}

struct want_part {
	unsigned umask;
	enum uncore_part part;
};

struct want_gen {
	const char *machine;
	uint64_t (*cfg)(unsigned, unsigned);
	unsigned dram_event[12], nr_dram;               /* channel 0, 1, ... */
	struct want_part dram[4];
	unsigned nr_dram_parts, dram_bytes;
	unsigned link_event[8], nr_link;
	struct want_part link[2];
	unsigned nr_link_parts, link_bytes;
	const char *df;                                  /* u.df */
};

static const struct want_gen gens[] = {
	/* amdzen3/data-fabric.json: dram_channel_data_controller_0..7 (0x07 ... 0x1c7, 0x38),
	 * remote_outbound_data_controller_0..3 (0x7c7 ... 0x887, 0x02); recommended.json scales
	 * them by 64 and 32 bytes (nps1_die_to_dram, all_remote_links_outbound) */
	{ "zen3", cfg_f17, { 0x07, 0x47, 0x87, 0xc7, 0x107, 0x147, 0x187, 0x1c7 }, 8,
	  { { 0x38, UNCORE_TOTAL } }, 1, 64, { 0x7c7, 0x807, 0x847, 0x887 }, 4,
	  { { 0x02, UNCORE_OUT } }, 1, 32,
	  "Zen 3: 8 DRAM channels, 4 remote links (out); perf's amdzen3 data-fabric.json" },
	/* amdzen4/data-fabric.json: {local,remote}_processor_{read,write}_data_beats_cs0..11
	 * (0x1f ... 0x2df; 0x7fe, 0xbfe, 0x7ff, 0xbff), local_socket_outbound_data_beats_link0..7
	 * (0xb5f ... 0xd1f, 0xf3e); 64-byte beats */
	{ "zen4", cfg_v2, { 0x1f, 0x5f, 0x9f, 0xdf, 0x11f, 0x15f, 0x19f, 0x1df, 0x21f, 0x25f, 0x29f,
			    0x2df }, 12,
	  { { 0x7fe, UNCORE_IN }, { 0xbfe, UNCORE_IN }, { 0x7ff, UNCORE_OUT }, { 0xbff, UNCORE_OUT } },
	  4, 64, { 0xb5f, 0xb9f, 0xbdf, 0xc1f, 0xc5f, 0xc9f, 0xcdf, 0xd1f }, 8,
	  { { 0xf3e, UNCORE_OUT } }, 1, 64,
	  "Zen 4: 12 DRAM channels (read, write), 8 xGMI links (out); perf's amdzen4 "
	  "data-fabric.json" },
	/* amdzen5/data-fabric.json: local_or_remote_socket_{read,write}_data_beats_dram_0..11
	 * (0x1f ... 0x2df; 0xffe, 0xfff), local_socket_{inbound,outbound}_data_beats_link_0..5
	 * (0xd5f ... 0xe9f; 0xf3f, 0xf3e); 64-byte beats */
	{ "zen5", cfg_v2, { 0x1f, 0x5f, 0x9f, 0xdf, 0x11f, 0x15f, 0x19f, 0x1df, 0x21f, 0x25f, 0x29f,
			    0x2df }, 12,
	  { { 0xffe, UNCORE_IN }, { 0xfff, UNCORE_OUT } }, 2, 64,
	  { 0xd5f, 0xd9f, 0xddf, 0xe1f, 0xe5f, 0xe9f }, 6,
	  { { 0xf3f, UNCORE_IN }, { 0xf3e, UNCORE_OUT } }, 2, 64,
	  "Zen 5: 12 DRAM channels (read, write), 6 xGMI links (in, out); perf's amdzen5 "
	  "data-fabric.json" },
};

static void check_df_ev(const struct uncore_ev *e, const struct want_gen *g, unsigned event,
			const struct want_part *w, enum c2c_uncore_kind kind, uint32_t unit,
			uint32_t row, unsigned bytes)
{
	if (e->attr.type != 13 || e->attr.config != g->cfg(event, w->umask) || e->kind != kind ||
	    e->part != w->part || e->unit != unit || e->row != row || e->cpu != 0 ||
	    e->bytes_per != bytes)
		fail_msg("%s: event 0x%x umask 0x%x: type %u config 0x%llx kind %d part %d unit %u "
			 "row %u cpu %u bytes %u", g->machine, event, w->umask, e->attr.type,
			 (unsigned long long)e->attr.config, e->kind, e->part, e->unit, e->row,
			 e->cpu, e->bytes_per);
}

/* Every counter the plan opens on the Zen 3, 4 and 5 trees: the two L3 CCX (amd_l3 type 12,
 * cpumask 0,2) and one DF instance (amd_df type 13, cpumask 0), in row order. */
static void test_plan_generations(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(gens) / sizeof(gens[0]); k++) {
		const struct want_gen *g = &gens[k];
		size_t i = 4;
		uint32_t row = 2;
		struct uncore u;

		set_machine(g->machine);
		assert_int_equal(uncore_plan(&u), 0);
		assert_int_equal(u.nr_notes, 0);
		assert_string_equal(u.df, g->df);
		assert_int_equal(u.nr, 4 + g->nr_dram * g->nr_dram_parts + g->nr_link * g->nr_link_parts);
		assert_int_equal(u.nr_rows, 2 + g->nr_dram + g->nr_link);
		for (int j = 0; j < 4; j++) {   /* L3 lookups 0x04/0xff, misses 0x04/0x01 */
			assert_int_equal(u.ev[j].attr.type, 12);
			assert_int_equal(u.ev[j].attr.config, j % 2 ? 0x0104 : 0xff04);
			assert_int_equal(u.ev[j].cpu, j < 2 ? 0 : 2);
			assert_int_equal(u.ev[j].row, j / 2);
		}
		for (unsigned ch = 0; ch < g->nr_dram; ch++, row++)
			for (unsigned p = 0; p < g->nr_dram_parts; p++)
				check_df_ev(&u.ev[i++], g, g->dram_event[ch], &g->dram[p],
					    C2C_UNCORE_DRAM, ch, row, g->dram_bytes);
		for (unsigned l = 0; l < g->nr_link; l++, row++)
			for (unsigned p = 0; p < g->nr_link_parts; p++)
				check_df_ev(&u.ev[i++], g, g->link_event[l], &g->link[p],
					    C2C_UNCORE_LINK, l, row, g->link_bytes);
		for (i = 0; i < u.nr; i++)
			assert_true(!u.ev[i].attr.sample_period && !u.ev[i].attr.sample_type &&
				    !u.ev[i].attr.disabled && !u.ev[i].attr.inherit &&
				    !u.ev[i].attr.exclude_guest && !u.ev[i].attr.config1 &&
				    u.ev[i].attr.read_format == (PERF_FORMAT_TOTAL_TIME_ENABLED |
								 PERF_FORMAT_TOTAL_TIME_RUNNING) &&
				    u.ev[i].attr.size == sizeof(u.ev[i].attr) && u.ev[i].fd == -1);
		uncore_release(&u);
	}
	/* spot checks of the placement itself: Zen 4 cs0 local read, cs11 remote write, link 7;
	 * Zen 5 link 5 inbound; Zen 3 link 3 (seed 004's 0x800400287 less the enable bit 22) */
	assert_int_equal(cfg_v2(0x1f, 0x7fe), 0x0700fe1f);
	assert_int_equal(cfg_v2(0x2df, 0xbff), 0x20b00ffdfull);
	assert_int_equal(cfg_v2(0xd1f, 0xf3e), 0xd0f003e1full);
	assert_int_equal(cfg_v2(0xe9f, 0xf3f), 0xe0f003f9full);
	assert_int_equal(cfg_f17(0x887, 0x02), link_ctl[3] & ~ENABLE);
}

/* root/@rel with its parents. */
static void put_dir(const char *root, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *c = path + strlen(root) + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(path, 0700);
			*c = '/';
		}
	assert_int_equal(mkdir(path, 0700), 0);
}

static void put_text(const char *root, const char *rel, const char *text)
{
	assert_int_equal(fake_put_text(root, rel, text), 0);
}

/* An AMD tree in a temporary directory: @base's PMUs, a cpuinfo of @family and @model, and amd_df
 * with the format files @event and @umask (NULL: @base's amd_df). */
static void temp_tree(char *root, const char *base, unsigned family, unsigned model,
		      const char *event, const char *umask)
{
	char path[PATH_MAX], real[PATH_MAX], text[160];
	struct dirent *e;
	DIR *d;

	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "data/sysfs/%s/sys/bus/event_source/devices", base);
	assert_non_null(realpath(path, real));
	put_dir(root, "proc");
	snprintf(text, sizeof(text), "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: %u\n"
		 "model\t\t: %u\nmodel name\t: AMD test\n\n", family, model);
	put_text(root, "proc/cpuinfo", text);
	put_dir(root, "sys/bus/event_source/devices");
	assert_non_null(d = opendir(real));
	while ((e = readdir(d))) {
		char from[PATH_MAX + 256];

		if (e->d_name[0] == '.' || (event && !strcmp(e->d_name, "amd_df")))
			continue;
		snprintf(from, sizeof(from), "%s/%s", real, e->d_name);
		snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s", root, e->d_name);
		assert_int_equal(symlink(from, path), 0);
	}
	closedir(d);
	if (!event)
		return;
	put_dir(root, "sys/bus/event_source/devices/amd_df/format");
	put_text(root, "sys/bus/event_source/devices/amd_df/type", "13\n");
	put_text(root, "sys/bus/event_source/devices/amd_df/cpumask", "0\n");
	put_text(root, "sys/bus/event_source/devices/amd_df/format/event", event);
	put_text(root, "sys/bus/event_source/devices/amd_df/format/umask", umask);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Why the DF part is left out: no uncore PMUs (a VM), not AMD, a kernel whose amd_df format has
 * 8-bit umasks on Zen 4, a family with no known DF events. */
static void test_plan_notes(void **state)
{
	char root[] = "/tmp/c2c-test-uncore-XXXXXX";
	struct uncore u;

	(void)state;
	set_machine("vm-no-pmu");                           /* AMD without uncore PMUs */
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr, 0);
	assert_non_null(strstr(u.note[0], "no amd_l3 PMU"));
	assert_non_null(strstr(u.note[1], "no amd_df PMU"));
	uncore_release(&u);
	set_machine("sapphire-rapids");                     /* not AMD: nothing at all */
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr + u.nr_notes, 0);
	uncore_release(&u);

	/* Zen 4 under a kernel without the PerfMonV2 DF format: L3 only */
	temp_tree(root, "zen4", 0x19, 0x11, "config:0-7,32-35,59-60\n", "config:8-15\n");
	setenv("C2C_SYSFS_ROOT", root, 1);
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr, 4);
	assert_int_equal(u.nr_notes, 1);
	assert_string_equal(u.note[0], "amd_df: this kernel's format (event config:0-7,32-35,59-60, "
			    "umask config:8-15) cannot place Zen 4's DF umask 0xf3e: a kernel with "
			    "the PerfMonV2 DF format counts them");
	assert_string_equal(u.df, "");
	uncore_release(&u);
	assert_int_equal(nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS), 0);

	/* a family after Zen 5 */
	strcpy(root, "/tmp/c2c-test-uncore-XXXXXX");
	temp_tree(root, "zen5", 0x1b, 0x1, NULL, NULL);
	setenv("C2C_SYSFS_ROOT", root, 1);
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr, 4);
	assert_string_equal(u.note[0], "amd_df: family 0x1b has no Data Fabric events known here "
			    "(family 17h, Zen 3, Zen 4 and Zen 5 have)");
	uncore_release(&u);
	assert_int_equal(nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS), 0);
}

/* Zen 4 and Zen 5 rows from their counters (counts are the configs): a DRAM channel's reads and
 * writes each of two counters on Zen 4, a row not counted when one of its counters did not open
 * but its other part kept; Zen 5's links in and out. */
static void test_read_generations(void **state)
{
	struct c2c_uncore *sum = malloc(sizeof(*sum));
	const struct c2c_uncore_row *r;
	struct uncore u;

	(void)state;
	set_machine("zen4");
	assert_int_equal(uncore_plan(&u), 0);
	fail_config = cfg_v2(0x1f, 0x7fe);                   /* cs0 local reads */
	assert_int_equal(uncore_open(&u), 0);
	fail_config = 0;
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->nr, 2 + 12 + 8);
	r = &sum->row[2];                                     /* channel 0 */
	assert_int_equal(r->kind, C2C_UNCORE_DRAM);
	assert_int_equal(r->a, C2C_UNCORE_NONE);
	assert_int_equal(r->b, C2C_UNCORE_NONE);
	assert_int_equal(r->in, C2C_UNCORE_NONE);
	assert_int_equal(r->out, (cfg_v2(0x1f, 0x7ff) + cfg_v2(0x1f, 0xbff)) * 64);
	r = &sum->row[3];                                     /* channel 1 */
	assert_int_equal(r->unit, 1);
	assert_int_equal(r->a, cfg_v2(0x5f, 0x7fe) + cfg_v2(0x5f, 0xbfe) + cfg_v2(0x5f, 0x7ff) +
			 cfg_v2(0x5f, 0xbff));
	assert_int_equal(r->b, r->a * 64);
	assert_int_equal(r->in, (cfg_v2(0x5f, 0x7fe) + cfg_v2(0x5f, 0xbfe)) * 64);
	assert_int_equal(r->in + r->out, r->b);
	r = &sum->row[2 + 12 + 7];                            /* xGMI link 7: outbound only */
	assert_int_equal(r->kind, C2C_UNCORE_LINK);
	assert_int_equal(r->unit, 7);
	assert_int_equal(r->b, cfg_v2(0xd1f, 0xf3e) * 64);
	assert_int_equal(r->out, r->b);
	assert_int_equal(r->in, C2C_UNCORE_NONE);
	assert_int_equal(sum->nr_notes, 1);
	assert_string_equal(sum->note[0], "1 of 60 uncore counters did not open: Device or resource "
			    "busy");
	uncore_release(&u);

	set_machine("zen5");
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(uncore_open(&u), 0);
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->nr, 2 + 12 + 6);
	r = &sum->row[2 + 12];                                /* link 0 */
	assert_int_equal(r->a, cfg_v2(0xd5f, 0xf3f) + cfg_v2(0xd5f, 0xf3e));
	assert_int_equal(r->in, cfg_v2(0xd5f, 0xf3f) * 64);
	assert_int_equal(r->out, cfg_v2(0xd5f, 0xf3e) * 64);
	assert_int_equal(sum->row[2].in, cfg_v2(0x1f, 0xffe) * 64);
	assert_int_equal(sum->row[2].out, cfg_v2(0x1f, 0xfff) * 64);
	assert_int_equal(sum->nr_notes, 0);
	uncore_release(&u);
	free(sum);
}

/* The report header of a recording's uncore summary: the Zen 4 plan's counts, as record writes
 * them, in a trace that `c2c-lite report --stdio` and `--json` read back. */
static void test_report_header(void **state)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	char dir[] = "/tmp/c2c-test-uncore-XXXXXX", cmd[1024], want[256], line[512];
	struct c2c_uncore *sum = malloc(sizeof(*sum));
	uint64_t rd, wr, link;
	static char text[65536];
	struct uncore u;
	int n, found = 0;
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd), "%s/c2c-lite", build);
	snprintf(line, sizeof(line), "%s/tests/tools/c2c-gen", build);
	if (access(cmd, X_OK) || access(line, X_OK))
		skip();
	set_machine("zen4");
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(uncore_open(&u), 0);
	uncore_read(&u, 2.0, sum);
	uncore_release(&u);
	assert_true((n = c2c_uncore_format(sum, text, sizeof(text))) > 0);
	assert_non_null(mkdtemp(dir));
	snprintf(line, sizeof(line), "%s/unc.txt", dir);
	assert_non_null(f = fopen(line, "w"));
	assert_int_equal(fwrite(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/tests/tools/c2c-gen -s padded -t %s/t.c2c --blob 16:%s/unc.txt"
		 " && %s/c2c-lite report --stdio -i %s/t.c2c", build, dir, dir, build, dir);
	assert_non_null(f = popen(cmd, "r"));
	rd = (cfg_v2(0x2df, 0x7fe) + cfg_v2(0x2df, 0xbfe)) * 64;
	wr = (cfg_v2(0x2df, 0x7ff) + cfg_v2(0x2df, 0xbff)) * 64;
	link = cfg_v2(0xd1f, 0xf3e) * 64;
	while (fgets(line, sizeof(line), f)) {
		snprintf(want, sizeof(want), "#   DRAM channel 11 (CPU 0): %.1f MB, %.1f MB/s (read "
			 "%.1f MB, write %.1f MB)\n", (double)(rd + wr) / 1e6, (double)(rd + wr) / 2e6,
			 (double)rd / 1e6, (double)wr / 1e6);
		found += !strcmp(line, want);
		snprintf(want, sizeof(want), "#   remote link 7 (CPU 0): %.1f MB, %.1f MB/s (out %.1f "
			 "MB)\n", (double)link / 1e6, (double)link / 2e6, (double)link / 1e6);
		found += !strcmp(line, want);
		snprintf(want, sizeof(want), "#   L3 of CCX 1 (CPU 2): %u accesses, %u misses (0.4%%)\n",
			 0xff04, 0x0104);
		found += !strcmp(line, want);
		found += !strcmp(line, "# AMD uncore over the run (2.000 s):\n");
	}
	assert_int_equal(pclose(f), 0);
	assert_int_equal(found, 4);
	/* the same rows in JSON: channel 11's bytes, read and write */
	snprintf(cmd, sizeof(cmd), "%s/c2c-lite report --json -i %s/t.c2c", build, dir);
	assert_non_null(f = popen(cmd, "r"));
	n = (int)fread(text, 1, sizeof(text) - 1, f);
	text[n > 0 ? n : 0] = 0;
	assert_int_equal(pclose(f), 0);
	snprintf(want, sizeof(want), "\"bytes\": %llu,", (unsigned long long)(rd + wr));
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\"read_bytes\": %llu,", (unsigned long long)rd);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\"write_bytes\": %llu", (unsigned long long)wr);
	assert_non_null(strstr(text, want));
	assert_int_equal(nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS), 0);
	free(sum);
}

/* Plan, open, read, format, parse, print: counts are the configs (the fake's rule). */
/* The uncore section as the text report prints it. */
static void print_uncore(FILE *f, const struct c2c_uncore *u)
{
	struct rm_sections *ss = rm_sections_new();

	rm_sec_uncore(ss, u);
	stdio_section_print(f, rm_sections_get(ss, RM_SEC_UNCORE), SIZE_MAX);
	rm_sections_free(ss);
}

static void test_counts_roundtrip(void **state)
{
	struct uncore u;
	struct c2c_uncore *sum = malloc(sizeof(*sum)), *back = malloc(sizeof(*back));
	char buf[65536], *out = NULL;
	size_t len = 0;
	FILE *f;
	int n;

	(void)state;
	set_machine("zen2");
	assert_int_equal(uncore_plan(&u), 0);
	fail_open = 0;
	assert_int_equal(uncore_open(&u), 0);
	uncore_read(&u, 2.0, sum);
	assert_int_equal(sum->nr, 2 + 8 + 4);
	assert_int_equal(sum->row[0].a, 0xff04);
	assert_int_equal(sum->row[0].b, 0x0104);
	assert_int_equal(sum->row[2 + 7].a, 0x1000038c7ull);
	assert_int_equal(sum->row[2 + 7].b, 0x1000038c7ull * 64);
	assert_int_equal(sum->row[2 + 7].in, C2C_UNCORE_NONE);   /* family 17h: one DRAM figure */
	assert_int_equal(sum->row[2 + 7].out, C2C_UNCORE_NONE);
	assert_int_equal(sum->row[2 + 8].b, 0x7000002c7ull * 32);
	assert_int_equal(sum->row[2 + 8].out, 0x7000002c7ull * 32);   /* links: outbound */
	assert_int_equal(sum->row[2 + 8].in, C2C_UNCORE_NONE);
	assert_int_equal(sum->nr_notes, 0);
	n = c2c_uncore_format(sum, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(c2c_uncore_parse(buf, (size_t)n, back), 0);
	assert_int_equal(back->nr, sum->nr);
	assert_memory_equal(back->row, sum->row, sum->nr * sizeof(sum->row[0]));
	f = open_memstream(&out, &len);
	print_uncore(f, back);
	fclose(f);
	assert_non_null(strstr(out, "# AMD uncore over the run (2.000 s):\n"));
	assert_non_null(strstr(out, "#   L3 of CCX 0 (CPU 0): 65284 accesses, 260 misses (0.4%)\n"));
	assert_non_null(strstr(out, "#   DRAM channel 0 (CPU 0): 0.9 MB, 0.5 MB/s\n"));
	assert_non_null(strstr(out, "#   remote link 0 (CPU 0): 962072.7 MB, 481036.3 MB/s (out 962072.7 MB)\n"));
	free(out);
	uncore_release(&u);

	/* multiplexed: each counter ran a quarter of the time, so each count is 4 times its config */
	assert_int_equal(uncore_plan(&u), 0);
	running = 250;   /* the kernel scales nothing: read_format gives both times */
	assert_int_equal(uncore_open(&u), 0);
	running = 1000;
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->row[0].a, 4 * 0xff04);
	assert_int_equal(sum->row[2].b, 4 * 0x3807ull * 64);
	assert_int_equal(sum->nr_notes, 1);
	assert_string_equal(sum->note[0], "16 of 16 uncore counters shared the PMU's counters (one "
			    "ran 25% of the run): their counts are scaled by time enabled / running, "
			    "estimates");
	uncore_release(&u);
	/* one that never ran is not counted, not zero */
	assert_int_equal(uncore_plan(&u), 0);
	running = 0;
	assert_int_equal(uncore_open(&u), 0);
	running = 1000;
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->row[0].a, C2C_UNCORE_NONE);
	assert_int_equal(sum->row[13].b, C2C_UNCORE_NONE);
	assert_int_equal(sum->row[13].out, C2C_UNCORE_NONE);
	uncore_release(&u);

	/* nothing opens (paranoid): the rows say not counted and a note says why */
	assert_int_equal(uncore_plan(&u), 0);
	fail_open = EACCES;
	assert_int_equal(uncore_open(&u), -EACCES);
	fail_open = 0;
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->row[0].a, C2C_UNCORE_NONE);
	assert_non_null(strstr(sum->note[0], "16 of 16 uncore counters did not open"));
	assert_non_null(strstr(sum->note[0], "perf_event_paranoid <= 0"));
	n = c2c_uncore_format(sum, buf, sizeof(buf));
	assert_int_equal(c2c_uncore_parse(buf, (size_t)n, back), 0);
	f = open_memstream(&out, &len);
	print_uncore(f, back);
	fclose(f);
	assert_non_null(strstr(out, "#   L3 of CCX 1 (CPU 2): not counted\n"));
	assert_non_null(strstr(out, "#   remote link 3 (CPU 0): not counted\n"));
	free(out);
	uncore_release(&u);
	free(sum);
	free(back);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"", "c2c-uncore 2\n", "seconds 1\n", "c2c-uncore 1\nseconds x\n",
		"c2c-uncore 1\nl3 0 0 12x 4\n", "c2c-uncore 1\ndram 0 0 -1 4\n",
		"c2c-uncore 1\ndram 0 0 1 64 64x 0\n", "c2c-uncore 1\nlink 0 0 1 64 - -5\n",
	};
	struct c2c_uncore *u = malloc(sizeof(*u));
	const char ok[] = "c2c-uncore 1\nseconds 0.5\nfuture 1 2 3 4\nlink 1 0 - -\nnote why";
	const char split[] = "c2c-uncore 1\ndram 0 0 10 640 512 - later\nl3 0 0 5 1 7 8\n";

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (c2c_uncore_parse(bad[i], strlen(bad[i]), u) != -EBADMSG)
			fail_msg("accepted: '%s'", bad[i]);
	assert_int_equal(c2c_uncore_parse(ok, sizeof(ok) - 1, u), 0);   /* unknown keys skipped */
	assert_int_equal(u->nr, 1);
	assert_int_equal(u->row[0].b, C2C_UNCORE_NONE);
	assert_int_equal(u->row[0].in, C2C_UNCORE_NONE);   /* a trace before the split */
	assert_int_equal(u->row[0].out, C2C_UNCORE_NONE);
	assert_string_equal(u->note[0], "why");
	/* read and write bytes; an L3 row has none, whatever follows; later fields skipped */
	assert_int_equal(c2c_uncore_parse(split, sizeof(split) - 1, u), 0);
	assert_int_equal(u->nr, 2);
	assert_int_equal(u->row[0].in, 512);
	assert_int_equal(u->row[0].out, C2C_UNCORE_NONE);
	assert_int_equal(u->row[1].a, 5);
	assert_int_equal(u->row[1].in, C2C_UNCORE_NONE);
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees_kernel_formats),
		cmocka_unit_test(test_plan_zen2),
		cmocka_unit_test(test_plan_generations),
		cmocka_unit_test(test_plan_notes),
		cmocka_unit_test(test_read_generations),
		cmocka_unit_test(test_report_header),
		cmocka_unit_test(test_counts_roundtrip),
		cmocka_unit_test(test_parse_bad),
	};

	c2c_log_set_hook(quiet, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
