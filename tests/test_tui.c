/* Tests of the TUI's view state, controller, list widget and drawing, without a terminal. The
 * fixtures are real traces written to a temporary file and loaded through tui_model_load(): the
 * report session, the model, its names, verdicts and findings are the report's. Their mappings
 * are this test binary's own (from /proc/self/maps), and their sample addresses are variables
 * and functions defined below, so names and symbols come from real DWARF. Key sequences go
 * through tui_view_key() and screens are drawn into a character grid. */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/uncore.h"
#include "c2c/xalloc.h"
#include "record/soft-decode.h"
#include "report/aggregate/dsrc.h"
#include "report/aggregate/topdown-time.h"
#include "report/json/json.h"
#include "report/model/sections-build.h"
#include "report/stdio/stdio-estimate.h"
#include "tui/draw.h"
#include "tui/list.h"
#include "tui/srcfile.h"
#include "tui/view.h"

/* --- what the traces sample: data and code of this binary ------------------------------------ */

struct tui_fx_data {
	long a, b, c;
} __attribute__((aligned(64)));
/* Initialized, so in .data: the file-backed mappings self_mmaps() writes cover it wherever the
 * linker puts it (a .bss array can fall in the anonymous tail past the file's last page, which
 * those records leave out: the samples' data would be "[unknown]", as it was in the ASan build
 * once code elsewhere grew). */
struct tui_fx_data tui_fx_lines[8] = { { 1, 0, 0 } };

__attribute__((noinline)) long tui_fx_reader(void);
__attribute__((noinline)) long tui_fx_reader(void)
{
	return tui_fx_lines[1].c + tui_fx_lines[0].a;
}

__attribute__((noinline)) void tui_fx_writer(void);
__attribute__((noinline)) void tui_fx_writer(void)
{
	tui_fx_lines[1].a++;
	tui_fx_lines[0].b++;
}

__attribute__((noinline)) long tui_fx_peer(void);
__attribute__((noinline)) long tui_fx_peer(void)
{
	return tui_fx_lines[2].a;
}

#define IP(f) ((uint64_t)(uintptr_t)&(f))
#define DA(i, m) ((uint64_t)(uintptr_t)&tui_fx_lines[i].m)
#define LINE(i) ((uint64_t)(uintptr_t)&tui_fx_lines[i])

static uint64_t ds(unsigned op, unsigned lvl, unsigned snoop, unsigned snoopx, unsigned remote)
{
	return (uint64_t)op << DSRC_OP_SHIFT | (uint64_t)lvl << DSRC_LVL_SHIFT |
	       (uint64_t)snoop << DSRC_SNOOP_SHIFT | (uint64_t)DSRC_LOCK_NA << DSRC_LOCK_SHIFT |
	       (uint64_t)snoopx << DSRC_SNOOPX_SHIFT | (uint64_t)remote << DSRC_REMOTE_SHIFT;
}

enum kind { LCL_HITM, RMT_HITM, STORE, LCL_PEER, SOFT_LD, SOFT_ST, SOFT_NOMEM };

static uint64_t kind_ds(enum kind k)
{
	switch (k) {
	case LCL_HITM: return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L3, DSRC_SNOOP_HITM, 0, 0);
	case RMT_HITM:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM, 0, 1);
	case STORE: return ds(DSRC_OP_STORE, DSRC_LVL_HIT | DSRC_LVL_L1, DSRC_SNOOP_NA, 0, 0);
	case LCL_PEER:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L2, DSRC_SNOOP_NONE, DSRC_SNOOPX_PEER, 0);
	case SOFT_LD: return softdec_data_src(SOFTDEC_LOAD);
	case SOFT_NOMEM: return softdec_data_src(SOFTDEC_KIND_NONE);
	case SOFT_ST: default: return softdec_data_src(SOFTDEC_STORE);
	}
}

struct smp {
	int line;            /* element of tui_fx_lines */
	int member;          /* 0 a, 1 b, 2 c, 4 the padding at 0x20 */
	uint64_t ip;
	enum kind kind;
	int n;
	uint32_t tid, cpu;
};

/* PMU: line 1 is read (c, 20 remote HITMs) by 101 and written (a) by 102: false sharing; line
 * 0 likewise with 10 + 5 HITMs; line 2 has peer snoops only; line 4 one HITM. 36 HITMs. */
static const struct smp pmu_fixture[] = {
	{ 0, 0, 0, LCL_HITM, 10, 101, 0 },
	{ 0, 1, 0, RMT_HITM, 5, 102, 2 },
	{ 0, 1, 1, STORE, 3, 102, 3 },
	{ 1, 2, 0, RMT_HITM, 20, 101, 1 },
	{ 1, 0, 1, STORE, 5, 102, 3 },
	{ 2, 0, 2, LCL_PEER, 4, 101, 0 },
	{ 4, 4, 0, LCL_HITM, 1, 101, 0 },
};

/* soft: line 3's a and b written by two threads at once (false sharing), line 5 one thread's */
static const struct smp soft_fixture[] = {
	{ 3, 0, 1, SOFT_ST, 30, 201, 0 },
	{ 3, 1, 1, SOFT_ST, 30, 202, 1 },
	{ 5, 0, 0, SOFT_LD, 10, 203, 0 },
};

/* the same, and 40 samples of 110 without a data address (no memory operand at the reader) */
static const struct smp soft_nomem_fixture[] = {
	{ 3, 0, 1, SOFT_ST, 30, 201, 0 },
	{ 3, 1, 1, SOFT_ST, 30, 202, 1 },
	{ 5, 0, 0, SOFT_LD, 10, 203, 0 },
	{ 0, 0, 0, SOFT_NOMEM, 40, 201, 0 },
};

static uint64_t fixture_ip(int which)
{
	switch (which) {
	case 0: return IP(tui_fx_reader);
	case 1: return IP(tui_fx_writer);
	default: return IP(tui_fx_peer);
	}
}

static uint64_t fixture_addr(const struct smp *s)
{
	switch (s->member) {
	case 0: return DA(s->line, a);
	case 1: return DA(s->line, b);
	case 2: return DA(s->line, c);
	default: return LINE(s->line) + 0x20;
	}
}

/* The mappings of this test binary, from /proc/self/maps, as trace MMAP records. */
static size_t self_mmaps(struct trace_event *ev, size_t max)
{
	char exe[4096], line[8192], path[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/maps", "r");
	size_t nr = 0;

	assert_true(n > 0);
	exe[n] = '\0';
	assert_non_null(f);
	while (nr < max && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095s", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, path) != 8 || strcmp(path, exe))
			continue;
		memset(&ev[nr], 0, sizeof(ev[nr]));
		ev[nr].type = TRACE_REC_MMAP;
		ev[nr].mmap = (struct trace_mmap){
			.pid = (uint32_t)getpid(), .tid = (uint32_t)getpid(), .start = start,
			.len = end - start, .pgoff = pgoff, .maj = maj, .min = min, .ino = ino,
			.prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) |
				(perms[2] == 'x' ? 4 : 0),
			.flags = 2, .cpumode = 2, .filename = xstrdup(exe),
		};
		nr++;
	}
	fclose(f);
	return nr;
}

static void write_comm(struct trace_writer *w, uint32_t tid, const char *comm)
{
	struct trace_event ev = { .type = TRACE_REC_COMM };

	ev.comm = (struct trace_comm){ .pid = (uint32_t)getpid(), .tid = tid, .comm = comm };
	assert_int_equal(trace_write(w, &ev), 0);
}

/* With it set, write_trace() gives each sample a callchain: its ip, called from tui_fx_peer
 * (odd samples) or from tui_fx_reader (even ones), both called from tui_fx_chain_root. */
static int with_chains;

__attribute__((noinline)) void tui_fx_chain_root(void);
__attribute__((noinline)) void tui_fx_chain_root(void)
{
	tui_fx_writer();
}

/* A trace of @nr samples kinds over this binary; samples interleave round-robin so that every
 * thread's accesses overlap the others' in time. @repeat repeats the whole fixture. */
static void write_trace(const char *path, enum trace_backend backend, const struct smp *fx,
			size_t nr, int repeat)
{
	static const int32_t node[4] = { 0, 0, 1, 1 };
	static char arch[] = "x86_64", cmdline[] = "c2c-lite record -o 'a b.data' -- ./app";
	struct trace_info info = { .arch = arch, .cmdline = cmdline, .cacheline_size = 64, .nr_cpus = 4,
				   .cpu_node = (int32_t *)node, .nr_nodes = 2, .backend = backend,
				   .flags = TRACE_INFO_SYNTHETIC };
	struct trace_event ev[32];
	struct trace_writer *w;
	size_t i, k = self_mmaps(ev, 32);
	uint64_t time = 1000;
	int left[16], more = 1, r;

	assert_true(k > 0 && nr <= 16);
	assert_int_equal(trace_writer_open(&w, path, &info, NULL), 0);
	for (i = 0; i < k; i++) {
		assert_int_equal(trace_write(w, &ev[i]), 0);
		free((char *)ev[i].mmap.filename);
	}
	write_comm(w, 101, "reader");
	write_comm(w, 102, "writer");
	for (r = 0; r < repeat; r++) {
		for (i = 0; i < nr; i++)
			left[i] = fx[i].n;
		for (more = 1; more;) {
			more = 0;
			for (i = 0; i < nr; i++) {
				struct trace_event s = { .type = TRACE_REC_SAMPLE };
				int soft = backend == TRACE_BACKEND_SOFT;

				if (!left[i])
					continue;
				left[i]--;
				more = 1;
				s.sample = (struct trace_sample){
					.time = time++, .ip = fixture_ip((int)fx[i].ip),
					.addr = fixture_addr(&fx[i]), .data_src = kind_ds(fx[i].kind),
					.weight = soft ? 1000 : 200, .pid = (uint32_t)getpid(),
					.tid = fx[i].tid, .cpu = fx[i].cpu, .cpumode = 2,
					.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR |
						 TRACE_SAMPLE_HAS_DSRC | TRACE_SAMPLE_HAS_WEIGHT,
				};
				uint64_t chain[4] = { TRACE_CHAIN_CONTEXT_USER, s.sample.ip,
						      (time & 1 ? IP(tui_fx_peer) : IP(tui_fx_reader)) + 2,
						      IP(tui_fx_chain_root) + 4 };

				if (with_chains) {
					s.sample.chain = chain;
					s.sample.chain_nr = 4;
				}
				if (soft)   /* decoded access, address computed (softdec detail) */
					s.sample.detail = (uint16_t)(SOFTDEC_ADDR |
						(fx[i].kind == SOFT_LD ? SOFTDEC_LOAD : SOFTDEC_STORE) << 5);
				if (fx[i].kind == SOFT_NOMEM) {   /* no access decoded */
					s.sample.detail = SOFTDEC_NO_MEM;
					s.sample.addr = 0;
					s.sample.flags &= (uint8_t)~TRACE_SAMPLE_HAS_ADDR;
				}
				assert_int_equal(trace_write(w, &s), 0);
			}
		}
	}
	assert_int_equal(trace_writer_close(w), 0);
}

struct fx {
	char dir[64], path[96];
	struct tui_model *m;
	struct tui_view v;
};

static struct fx *fx_load(enum trace_backend backend, const struct smp *s, size_t nr, int rows,
			  int cols)
{
	struct fx *f = xcalloc(1, sizeof(*f));
	struct tui_load_opts lo = { .display = -1 };

	snprintf(f->dir, sizeof(f->dir), "/tmp/c2c-tui-test-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/t.c2c", f->dir);
	write_trace(f->path, backend, s, nr, 1);
	lo.input = f->path;
	assert_int_equal(tui_model_load(&f->m, &lo, NULL, NULL), 0);
	tui_view_init(&f->v, f->m, rows, cols);
	return f;
}

static int setup(void **state)
{
	*state = fx_load(TRACE_BACKEND_PEBS, pmu_fixture,
			 sizeof(pmu_fixture) / sizeof(pmu_fixture[0]), 24, 80);
	return 0;
}

static void fx_free(struct fx *f)
{
	tui_view_release(&f->v);
	tui_model_free(f->m);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
}

static int teardown(void **state)
{
	fx_free(*state);
	return 0;
}

static enum tui_result keys(struct fx *f, const int *k, size_t n)
{
	enum tui_result r = TUI_RES_NONE;
	size_t i;

	for (i = 0; i < n; i++)
		r = tui_view_key(&f->v, f->m, k[i]);
	return r;
}

#define KEYS(f, ...) keys((f), (const int[]){ __VA_ARGS__ }, \
			  sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))

static uint64_t sel_addr(const struct fx *f)
{
	return f->m->rm->line[f->v.order[f->v.list.sel]].addr;
}

/* --- the list widget --------------------------------------------------------------------------- */

static void test_tui_list_moves(void **state)
{
	static const struct {
		int line;
		size_t nr, sel, top;
		long delta;
		int height;
		size_t want_sel, want_top;
	} rows[] = {
		{ __LINE__, 10, 0, 0, 1, 4, 1, 0 },
		{ __LINE__, 10, 3, 0, 1, 4, 4, 1 },
		{ __LINE__, 10, 4, 1, -10, 4, 0, 0 },
		{ __LINE__, 10, 0, 0, 100, 4, 9, 6 },
		{ __LINE__, 0, 0, 0, 1, 4, 0, 0 },
		{ __LINE__, 3, 2, 0, 4, 10, 2, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tui_list l = { rows[i].nr, rows[i].sel, rows[i].top };

		tui_list_move(&l, rows[i].delta, rows[i].height);
		if (l.sel != rows[i].want_sel || l.top != rows[i].want_top)
			fail_msg("row at line %d: sel %zu top %zu", rows[i].line, l.sel, l.top);
	}
}

static void test_tui_list_fit_after_shrink(void **state)
{
	struct tui_list l = { 100, 50, 45 };

	(void)state;
	tui_list_fit(&l, 3);
	assert_true(l.sel >= l.top && l.sel < l.top + 3);
	tui_list_fit(&l, 200);
	assert_int_equal(l.top, 0);   /* all rows fit: nothing scrolled away */
}

/* --- the controller ---------------------------------------------------------------------------- */

static void test_tui_view_initial(void **state)
{
	struct fx *f = *state;

	assert_int_equal(f->m->kind, RM_PMU);
	assert_int_equal(f->m->rm->display, CLTAB_DISPLAY_TOT);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	assert_int_equal(f->v.nr_line, 3);     /* line 2 has peer snoops only */
	assert_int_equal(sel_addr(f), LINE(1));
	assert_int_equal(f->m->rm->line[f->v.order[0]].verdict, RM_V_FALSE);
	assert_int_equal(f->m->rm->line[f->v.order[1]].addr, LINE(0));
	assert_int_equal(f->m->rm->line[f->v.order[2]].addr, LINE(4));
}

static void test_tui_view_moves(void **state)
{
	struct fx *f = *state;

	assert_int_equal(KEYS(f, TUI_KEY_DOWN), TUI_RES_REDRAW);
	assert_int_equal(sel_addr(f), LINE(0));
	assert_int_equal(KEYS(f, 'j', 'j', 'j'), TUI_RES_NONE);   /* clamped at the end */
	assert_int_equal(sel_addr(f), LINE(4));
	KEYS(f, 'g');
	assert_int_equal(sel_addr(f), LINE(1));
	KEYS(f, 'G');
	assert_int_equal(sel_addr(f), LINE(4));
	KEYS(f, TUI_KEY_HOME, TUI_KEY_PGDN);
	assert_int_equal(sel_addr(f), LINE(4));
	assert_int_equal(KEYS(f, 'x'), TUI_RES_NONE);             /* unbound */
	assert_int_equal(KEYS(f, 'n'), TUI_RES_NONE);             /* a line's key, not the list's */
}

static void test_tui_view_open_and_back(void **state)
{
	struct fx *f = *state;
	const struct rm_row *r;

	assert_int_equal(KEYS(f, 'd'), TUI_RES_REDRAW);           /* perf's details key */
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	assert_int_equal(tui_view_line(&f->v, f->m)->addr, LINE(1));
	assert_int_equal(f->v.nr_row_ix, 2);                      /* c read, a written */
	assert_true(f->v.nr_panel > 4);                           /* findings and line map */
	r = tui_view_row(&f->v, f->m);
	assert_non_null(r);
	assert_string_equal(r->data, "tui_fx_lines[1].a");       /* offset 0 first */
	assert_string_equal(r->code.symbol, "tui_fx_writer");
	assert_non_null(strstr(r->code.srcfile, "test_tui.c"));
	/* 'a' (perf's annotate) and Enter ask for the source of the selected row */
	assert_int_equal(KEYS(f, 'a'), TUI_RES_SOURCE);
	assert_non_null(strstr(f->v.src_file, "test_tui.c"));
	assert_int_equal(KEYS(f, TUI_KEY_ENTER), TUI_RES_SOURCE);
	KEYS(f, TUI_KEY_ESC);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	KEYS(f, TUI_KEY_ENTER, TUI_KEY_LEFT);                     /* Enter opens too, Left backs */
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	KEYS(f, 'd', 'q');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	assert_int_equal(KEYS(f, 'q'), TUI_RES_QUIT);
}

/* Enter on a row with callchains shows its callers (perf's graph, callee first); 'C' on a row
 * without them says how to get them. */
static void test_tui_view_callers(void **state)
{
	struct fx *f = *state, *g;
	size_t i;
	int root = 0, peer = 0, reader = 0;

	(void)state;
	KEYS(f, 'd', 'C');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	assert_non_null(strstr(f->v.msg, "record with -g"));
	with_chains = 1;
	g = fx_load(TRACE_BACKEND_PEBS, pmu_fixture, sizeof(pmu_fixture) / sizeof(pmu_fixture[0]),
		    24, 80);
	with_chains = 0;
	KEYS(g, 'd');
	assert_int_equal(KEYS(g, TUI_KEY_ENTER), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&g->v), TUI_SCR_CALLERS);
	for (i = 0; i < g->v.nr_text; i++) {
		root |= strstr(g->v.text_lines[i], "---tui_fx_writer") != NULL;
		peer |= strstr(g->v.text_lines[i], "%--tui_fx_peer") != NULL;
		reader |= strstr(g->v.text_lines[i], "%--tui_fx_reader") != NULL;
	}
	assert_true(root && peer && reader);
	assert_non_null(strstr(g->v.text_lines[0], "samples with callchains"));
	KEYS(g, TUI_KEY_ESC);
	assert_int_equal(tui_view_screen(&g->v), TUI_SCR_LINE);
	assert_int_equal(KEYS(g, 'a'), TUI_RES_SOURCE);   /* the source stays one key away */
	fx_free(g);
}

static void test_tui_view_source(void **state)
{
	struct fx *f = *state;
	char **text = NULL;
	size_t nr = 0;

	tui_fx_writer();
	KEYS(f, 'd');
	assert_int_equal(KEYS(f, 'a'), TUI_RES_SOURCE);
	assert_int_equal(tui_srcfile_read(f->v.src_file, NULL, &text, &nr), 0);
	assert_true(nr >= f->v.src_line);
	assert_non_null(strstr(text[f->v.src_line - 1], "tui_fx_lines[1].a++"));
	tui_view_set_source(&f->v, text, nr);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_SOURCE);
	tui_view_set_source(&f->v, NULL, 0);   /* an unreadable file: a message, no screen */
	assert_non_null(strstr(f->v.msg, "cannot read"));
}

static void test_tui_view_display_modes(void **state)
{
	struct fx *f = *state;

	assert_int_equal(KEYS(f, 'm'), TUI_RES_REDRAW);
	assert_int_equal(f->m->rm->display, CLTAB_DISPLAY_LCL);
	assert_int_equal(f->v.nr_line, 2);                        /* lines 0 and 4 */
	assert_int_equal(f->m->rm->line[f->v.order[0]].addr, LINE(0));
	assert_non_null(strstr(f->v.msg, "display lcl"));
	KEYS(f, 'm');
	assert_int_equal(f->m->rm->display, CLTAB_DISPLAY_RMT);
	assert_int_equal(f->v.nr_line, 2);                        /* lines 1 and 0 */
	KEYS(f, 'm');
	assert_int_equal(f->m->rm->display, CLTAB_DISPLAY_PEER);
	assert_int_equal(f->v.nr_line, 1);
	assert_int_equal(sel_addr(f), LINE(2));
	KEYS(f, 'm');
	assert_int_equal(f->m->rm->display, CLTAB_DISPLAY_TOT);
	assert_int_equal(f->v.nr_line, 3);
}

static void test_tui_view_display_keeps_selection(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'j');
	assert_int_equal(sel_addr(f), LINE(0));
	KEYS(f, 'm', 'm');                     /* lcl, then rmt: line 0 is in both */
	assert_int_equal(sel_addr(f), LINE(0));
	KEYS(f, 'm', 'm');                     /* peer, then tot again */
	KEYS(f, 'j', 'd', 'm');                /* in a line: the open line stays open in lcl */
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	assert_int_equal(tui_view_line(&f->v, f->m)->addr, LINE(0));
	KEYS(f, 'm', 'm');                     /* not in peer: back to the list */
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
}

static void test_tui_view_sort_menu(void **state)
{
	struct fx *f = *state;
	int k[RM_COL__NR + 2];
	size_t n = tui_sort_keys(f->m, k), i;

	assert_true(n > 5);
	assert_int_equal(k[0], TUI_SORT_COST);
	assert_int_equal(k[1], TUI_SORT_ADDRESS);
	assert_int_equal(KEYS(f, 'o'), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_SORT);
	KEYS(f, TUI_KEY_DOWN, TUI_KEY_ENTER);  /* address */
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	assert_int_equal(f->v.sort, TUI_SORT_ADDRESS);
	assert_non_null(strstr(f->v.msg, "ordered by address"));
	for (i = 1; i < f->v.nr_line; i++)
		assert_true(f->m->rm->line[f->v.order[i - 1]].addr <
			    f->m->rm->line[f->v.order[i]].addr);
	/* a column: stores; the selection stays on its line */
	KEYS(f, 'G');
	for (i = 0; i < n && k[i] != RM_COL_STORES; i++)
		;
	assert_true(i < n);
	KEYS(f, 'o', 'g');
	while (i--)
		KEYS(f, 'j');
	KEYS(f, TUI_KEY_ENTER);
	assert_int_equal(f->v.sort, RM_COL_STORES);
	assert_int_equal(sel_addr(f), LINE(4));
	assert_true(f->m->rm->line[f->v.order[0]].v[RM_COL_STORES] >=
		    f->m->rm->line[f->v.order[1]].v[RM_COL_STORES]);
	/* Esc leaves the menu and the order as they were */
	KEYS(f, 'o', 'g', TUI_KEY_ESC);
	assert_int_equal(f->v.sort, RM_COL_STORES);
}

/* The search looks in everything drawn for a row: addresses, data names, symbols, verdicts. */
static void test_tui_view_search(void **state)
{
	struct fx *f = *state;
	char q[32];

	assert_int_equal(KEYS(f, '/'), TUI_RES_REDRAW);
	assert_true(f->v.prompt);
	KEYS(f, 'x', 'y', TUI_KEY_BACKSPACE, TUI_KEY_BACKSPACE, 'u', 'n', 'c', TUI_KEY_ENTER);
	assert_false(f->v.prompt);
	assert_string_equal(f->v.last, "unc");
	assert_int_equal(sel_addr(f), LINE(4));                   /* its verdict: UNCLEAR */
	snprintf(q, sizeof(q), "%llx", (unsigned long long)LINE(0));
	KEYS(f, '/');
	for (size_t i = 0; q[i]; i++)
		KEYS(f, q[i]);
	KEYS(f, TUI_KEY_ENTER);
	assert_int_equal(sel_addr(f), LINE(0));                   /* its address */
	KEYS(f, '/', 'f', 'a', 'l', 's', 'e', TUI_KEY_ENTER);     /* the verdict */
	assert_int_equal(sel_addr(f), LINE(0));                   /* the current row first */
	KEYS(f, TUI_KEY_F3);
	assert_int_equal(sel_addr(f), LINE(1));                   /* wraps around */
	KEYS(f, TUI_KEY_CTRL_P);
	assert_int_equal(sel_addr(f), LINE(0));
	KEYS(f, TUI_KEY_CTRL_N);
	assert_int_equal(sel_addr(f), LINE(1));
	KEYS(f, '/', 'z', 'z', 'z', TUI_KEY_ENTER);
	assert_int_equal(sel_addr(f), LINE(1));
	assert_non_null(strstr(f->v.msg, "not found"));
	/* Esc abandons a prompt without searching */
	KEYS(f, '/', 'a', TUI_KEY_ESC);
	assert_false(f->v.prompt);
	assert_string_equal(f->v.last, "zzz");
}

static void test_tui_view_search_in_line(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'd', '/', 'r', 'e', 'a', 'd', 'e', 'r', TUI_KEY_ENTER);   /* a symbol */
	assert_string_equal(tui_view_row(&f->v, f->m)->code.symbol, "tui_fx_reader");
	KEYS(f, '/', '.', 'a', TUI_KEY_ENTER);                            /* a data name */
	assert_string_equal(tui_view_row(&f->v, f->m)->data, "tui_fx_lines[1].a");
}

static void test_tui_view_toggles_and_text_screens(void **state)
{
	struct fx *f = *state;
	size_t panel;

	KEYS(f, 'd');
	panel = f->v.nr_panel;
	KEYS(f, 'n');
	assert_int_equal(f->v.node_info, 1);
	KEYS(f, 'n', 'n');
	assert_int_equal(f->v.node_info, 0);
	KEYS(f, 's');
	assert_true(f->v.full_symbols);
	KEYS(f, 'v');
	assert_false(f->v.show_map);
	assert_true(f->v.nr_panel < panel);   /* the map takes rows; the table gets them back */
	KEYS(f, 'v', 'q');
	assert_int_equal(KEYS(f, 't'), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_STATS);
	assert_int_equal(KEYS(f, 't'), TUI_RES_NONE);   /* already there */
	KEYS(f, 'q', '?');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_HELP);
	KEYS(f, 'q', 'f');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_FINDINGS);
	assert_true(f->v.nr_text > 5);
	assert_non_null(strstr(f->v.text_lines[0], "c2c-lite summary"));
	KEYS(f, '/', 'a', 'd', 'v', 'i', 'c', 'e', TUI_KEY_ENTER);
	assert_non_null(strstr(f->v.text_lines[f->v.text.sel], "advice"));
	KEYS(f, 'q');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
}

static void test_tui_view_coalesce_reload(void **state)
{
	struct fx *f = *state;
	struct tui_load_opts lo = { .input = f->path, .display = -1 };
	struct tui_model *m2;
	const struct tui_coalesce *p;

	KEYS(f, 'j');
	assert_int_equal(sel_addr(f), LINE(0));
	assert_int_equal(KEYS(f, 'c'), TUI_RES_RELOAD);
	assert_int_equal(f->v.coalesce, 1);
	assert_string_equal(f->v.coalesce_name, "tid,iaddr");
	p = &tui_coalesce_presets[f->v.coalesce];
	memcpy(lo.coalesce, p->key, sizeof(p->key));
	lo.nr_coalesce = p->nr;
	assert_int_equal(tui_model_load(&m2, &lo, NULL, NULL), 0);
	tui_view_rebuild(&f->v, f->m, m2);
	tui_model_free(f->m);
	f->m = m2;
	assert_int_equal(sel_addr(f), LINE(0));                   /* kept by address */
}

static void test_tui_view_resize_keeps_selection(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'G');
	tui_view_resize(&f->v, f->m, 5, 40);
	assert_int_equal(sel_addr(f), LINE(4));
	assert_true(f->v.list.sel >= f->v.list.top &&
		    f->v.list.sel < f->v.list.top + (size_t)tui_view_body_rows(&f->v, TUI_SCR_LIST));
}

/* --- drawing ----------------------------------------------------------------------------------- */

struct grid {
	int rows, cols;
	char text[64][512];
	enum tui_attr attr[64];
	int puts[64];
};

static void grid_put(void *ctx, int row, enum tui_attr a, const char *t)
{
	struct grid *g = ctx;

	snprintf(g->text[row], sizeof(g->text[row]), "%s", t);
	g->attr[row] = a;
	g->puts[row]++;
}

static void draw(struct fx *f, struct grid *g, int rows, int cols)
{
	struct tui_screen s = { .rows = rows, .cols = cols, .put = grid_put, .ctx = g };

	memset(g, 0, sizeof(*g));
	g->rows = rows;
	g->cols = cols;
	tui_view_resize(&f->v, f->m, rows, cols);
	tui_draw(&s, f->m, &f->v);
}

static int grid_find(const struct grid *g, const char *s)
{
	int r;

	for (r = 0; r < g->rows; r++)
		if (strstr(g->text[r], s))
			return r;
	return -1;
}

static void dump(const struct grid *g)
{
	int r;

	for (r = 0; r < g->rows; r++)
		print_message("%2d|%s|\n", r, g->text[r]);
}

static void test_tui_draw_list(void **state)
{
	struct fx *f = *state;
	struct grid g;
	char addr[32];
	int r, row;

	draw(f, &g, 24, 80);
	for (r = 0; r < 24; r++) {
		assert_int_equal(g.puts[r], 1);           /* every row set exactly once */
		assert_true(strlen(g.text[r]) <= 80);      /* ASCII here: bytes == columns */
	}
	assert_non_null(strstr(g.text[0], "Shared Data Cache Line Table (3 entries, sorted on Total "
				       "HITMs)"));
	assert_non_null(strstr(g.text[2], "*Hitm"));
	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)LINE(1));
	row = grid_find(&g, addr);
	assert_int_equal(row, 3);
	assert_int_equal(g.attr[row], TUI_ATTR_SELECT);
	assert_non_null(strstr(g.text[row], "tui_fx_lines"));     /* what the line holds */
	assert_non_null(strstr(g.text[row], "55.56%"));           /* 20 of 36 HITMs */
	/* the verdict right after the data name: on the first screen of 80 columns */
	assert_non_null(strstr(g.text[row], "FALSE SHARING"));
	assert_int_equal(g.attr[23], TUI_ATTR_STATUS);
}

static void test_tui_draw_line(void **state)
{
	struct fx *f = *state;
	struct grid g;
	int r;

	KEYS(f, 'd');
	draw(f, &g, 30, 100);
	assert_non_null(strstr(g.text[0], "Cacheline 0x"));
	assert_non_null(strstr(g.text[1], "FALSE SHARING"));
	r = grid_find(&g, "advice: tui_fx_lines[1].a (written by writer/102) and "
			  "tui_fx_lines[1].c (read by reader/101)");
	if (r < 0)
		dump(&g);
	assert_true(r > 1);
	assert_true(grid_find(&g, "share a 64-byte line: put them on separate lines") == r + 1);
	assert_true(grid_find(&g, "false sharing: ") > 1);
	/* the line map: a row per thread, the writer's cells at a, the reader's at c */
	r = grid_find(&g, "101 reader");
	assert_true(r > 0);
	assert_non_null(strstr(g.text[r], "................rrrrrrrr"));
	r = grid_find(&g, "102 writer");
	assert_non_null(strstr(g.text[r], " wwwwwwww........"));
	assert_true(grid_find(&g, "A tui_fx_lines[1].a") > 0);
	/* the rows: what they touch, from where, then perf's shares of the line's HITMs and
	 * stores */
	r = grid_find(&g, "     0x10  tui_fx_lines[1].c  [.] tui_fx_reader  test_tui.c:");
	if (r < 0)
		dump(&g);
	assert_true(r > 0);
	assert_non_null(strstr(g.text[r], "  100.00%    0.00%"));
	assert_int_equal(grid_find(&g, "      0x0  tui_fx_lines[1].a  [.] tui_fx_writer  test_tui.c:"),
			 r - 1);
	assert_non_null(strstr(g.text[r - 1], "  0.00%    0.00%  100"));
	/* scrolling right reaches the object and node columns */
	f->v.hscroll = 150;
	draw(f, &g, 30, 100);
	assert_non_null(strstr(g.text[r], "test_tui"));
}

/* The column of @word in row @row of @g, -1 when absent. */
static int col_of(const struct grid *g, int row, const char *word)
{
	const char *p = row >= 0 ? strstr(g->text[row], word) : NULL;

	return p ? (int)(p - g->text[row]) : -1;
}

/* A row's data, symbol, Source:Line and code address come first, sized to their text: on 80
 * columns, and under their headers in compact and full ('s') columns alike. */
static void test_tui_draw_line_fit(void **state)
{
	struct fx *f = *state;
	const struct rm_row *row;
	struct grid g;
	char src[64], code[32];
	int r, h, full;

	KEYS(f, 'd');
	for (full = 0; full < 2; full++) {
		draw(f, &g, 30, 80);
		r = grid_find(&g, "      0x10  ");
		h = grid_find(&g, "    Offset  Data");
		if (r < 0 || h < 0)
			dump(&g);
		assert_true(r > h && h > 0);
		f->v.detail.sel = (size_t)(r - h - 1);
		row = tui_view_row(&f->v, f->m);
		snprintf(src, sizeof(src), "test_tui.c:%u", row->code.line);
		snprintf(code, sizeof(code), "0x%llx", (unsigned long long)row->code.al);
		assert_int_equal(col_of(&g, r, "tui_fx_lines[1].c"), col_of(&g, h, "Data"));
		assert_int_equal(col_of(&g, r, "[.] tui_fx_reader"), col_of(&g, h, "Symbol"));
		assert_int_equal(col_of(&g, r, src), col_of(&g, h, "Source:Line"));
		/* the code address right-aligned under its header */
		assert_int_equal(col_of(&g, r, code) + (int)strlen(code),
				 col_of(&g, h, "Code address") + 12);
		KEYS(f, 's');
		assert_int_equal(f->v.full_symbols, !full);
	}
	/* a narrow screen cuts Source:Line, then the symbol, then the data, each keeping its end
	 * (the line number, the function, the member) after "..", the symbol its "[.] " */
	assert_false(f->v.full_symbols);
	draw(f, &g, 30, 60);
	r = grid_find(&g, "      0x10  ");
	h = grid_find(&g, "    Offset  Data");
	assert_true(r > h && h > 0);
	{
		const struct tui_widths *w = &f->v.line_w;
		const char *sym = "tui_fx_reader", *data = "tui_fx_lines[1].c";
		char want[128];

		assert_true(w->src < (int)strlen(src) && w->sym < 4 + (int)strlen(sym) &&
			    w->data < (int)strlen(data));
		snprintf(want, sizeof(want), "  ..%s  [.] ..%s  ..%s",
			 data + strlen(data) - (size_t)(w->data - 2),
			 sym + strlen(sym) - (size_t)(w->sym - 6), src + strlen(src) - (size_t)(w->src - 2));
		if (!strstr(g.text[r], want))
			fail_msg("'%s' is not in '%s'", want, g.text[r]);
		assert_int_equal(col_of(&g, r, "[.] .."), col_of(&g, h, "Symbol"));
	}
}

/* The list's data column is as wide as what the lines hold, on a wide screen all of it. */
static void test_tui_draw_list_fit(void **state)
{
	struct fx *f = *state;
	const struct rm_line *l = &f->m->rm->line[f->v.order[0]];
	struct grid g;
	char want[256];
	int r;

	assert_true(strlen(l->what) > 24);
	snprintf(want, sizeof(want), "  %s  FALSE SHARING", l->what);
	draw(f, &g, 24, 160);
	r = grid_find(&g, want);
	if (r < 0)
		dump(&g);
	assert_int_equal(r, 3);
	assert_int_equal(col_of(&g, 2, "Data"), col_of(&g, 3, l->what));
	assert_int_equal(col_of(&g, 2, "Verdict"), col_of(&g, 3, "FALSE SHARING"));
	/* on 80 columns the data shrinks to keep the verdict and the first figure */
	draw(f, &g, 24, 80);
	assert_non_null(strstr(g.text[3], "FALSE SHARING"));
	assert_non_null(strstr(g.text[3], "55.56%"));
	assert_int_equal(col_of(&g, 2, "Verdict"), col_of(&g, 3, "FALSE SHARING"));
}

static void test_tui_draw_stats_and_help(void **state)
{
	struct fx *f = *state;
	struct grid g;

	KEYS(f, 't');
	draw(f, &g, 64, 100);
	assert_true(grid_find(&g, "  Total records                     :         48") >= 0);
	assert_true(grid_find(&g, "  Load Remote HITM                  :         25") >= 0);
	assert_true(grid_find(&g, "  Total Shared Cache Lines          :          4") >= 0);
	assert_true(grid_find(&g, "Global Shared Cache Line Event Information") >= 0);
	/* where the figures come from: the recorded command line */
	assert_true(grid_find(&g, "  Recorded with                     : c2c-lite record -o 'a b.data' "
			      "-- ./app") >= 0);
	KEYS(f, 'q', '?');
	draw(f, &g, 50, 100);
	assert_true(grid_find(&g, "search any text on the screen") >= 0);
	assert_true(grid_find(&g, "d, Enter") >= 0);
	assert_true(grid_find(&g, "full length of data, symbol and source line columns") >= 0);
	assert_true(grid_find(&g, "display mode (PMU data)") >= 0);
}

/* The statistics screen carries the run's context as report prints it: AMD uncore counts and
 * TopDown counted beside IBS, attributed by time (a Zen 4 reading shared by two samples). */
static void test_tui_draw_context(void **state)
{
	struct fx *f = *state;
	struct td_reader r = { .model = { .kind = TD_KIND_AMD_SLOTS, .cpu = "Zen 4", .width = 6 },
			       .period = 1000000, .event = 7, .lead = TDI_CYCLES, .nr = 4,
			       .in = { TDI_AMD_DISPATCHED, TDI_AMD_RET_OPS, TDI_AMD_FE_EMPTY,
				       TDI_AMD_BE_STALLS, -1, -1, -1, -1 } };
	struct tdt *tdt = tdt_new(&r, 64);
	struct c2c_uncore *u = xcalloc(1, sizeof(*u));
	struct trace_sample s = { .cpu = 0, .tid = 9, .time = 10, .addr = 0x1000,
				  .flags = TRACE_SAMPLE_HAS_ADDR };
	struct td_counts c = { .have = (1ull << TDI_CYCLES) | (1ull << TDI_AMD_DISPATCHED) |
				       (1ull << TDI_AMD_RET_OPS) | (1ull << TDI_AMD_FE_EMPTY) |
				       (1ull << TDI_AMD_BE_STALLS) };
	struct rm_sections *ss;
	struct grid g;
	int row;

	tdt_sample(tdt, &s);
	s.addr = 0x1040;
	tdt_sample(tdt, &s);
	c.v[TDI_CYCLES] = 1000, c.v[TDI_AMD_DISPATCHED] = 3000, c.v[TDI_AMD_RET_OPS] = 2400;
	c.v[TDI_AMD_FE_EMPTY] = 1200, c.v[TDI_AMD_BE_STALLS] = 1800;
	tdt_reading(tdt, 0, 9, 20, &c);
	tdt_finish(tdt);
	u->seconds = 2;
	u->row[u->nr++] = (struct c2c_uncore_row){ C2C_UNCORE_L3, 0, 0, 1000, 250 };
	ss = rm_sections_new();
	rm_sec_uncore(ss, u);
	rm_sec_topdown_time(ss, tdt, NULL, NULL);
	f->m->sections = ss;
	KEYS(f, 't');
	draw(f, &g, 64, 160);
	row = grid_find(&g, "AMD uncore over the run (2.000 s):");
	if (row < 0)
		dump(&g);
	assert_true(row > 0);
	assert_int_equal(g.attr[row], TUI_ATTR_HEADER);
	assert_int_equal(grid_find(&g, "  L3 of CCX 0 (CPU 0): 1000 accesses, 250 misses (25.0%)"),
			 row + 1);
	row = grid_find(&g, "TopDown by time: Zen 4 counters in a group apart from the sampler");
	assert_true(row > 0);
	assert_int_equal(g.attr[row], TUI_ATTR_HEADER);
	/* each sample's line got half of the 6000 slots: 40/10/20/30 % */
	assert_true(grid_find(&g, "  line 0x1000                             1           3000"
			      "     40.0     10.0     20.0     30.0") > row);
	/* perf's statistics follow */
	assert_true(grid_find(&g, "Trace Event Information") > row);
	f->m->sections = f->m->own;
	rm_sections_free(ss);
	tdt_free(tdt);
	free(u);
}

static void test_tui_draw_small_and_prompt(void **state)
{
	struct fx *f = *state;
	struct grid g;

	KEYS(f, '/', 'a', 'b');
	draw(f, &g, 6, 20);
	assert_string_equal(g.text[5], "/ab_");
	assert_true(strlen(g.text[0]) <= 20);
	KEYS(f, TUI_KEY_ESC, 'd');
	draw(f, &g, 10, 40);   /* the panel leaves rows for the table */
	assert_true(tui_view_body_rows(&f->v, TUI_SCR_LINE) >= 3);
}

static void test_tui_clip_utf8(void **state)
{
	static const struct {
		int line;
		const char *in;
		int skip, width;
		const char *want;
		int cols;
	} rows[] = {
		{ __LINE__, "hello", 0, 3, "hel", 3 },
		{ __LINE__, "hello", 2, 10, "llo", 3 },
		{ __LINE__, "h\xc3\xa9llo", 1, 3, "\xc3\xa9ll", 3 },
		{ __LINE__, "\xe6\xbc\xa2\xe5\xad\x97x", 0, 3, "\xe6\xbc\xa2", 2 },  /* wide: 2 cols each */
		{ __LINE__, "a\xffz", 0, 5, "a?z", 3 },
	};
	char out[64];
	size_t i;

	(void)state;
	if (!setlocale(LC_ALL, "C.UTF-8"))
		skip();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int w = tui_clip(rows[i].in, rows[i].skip, rows[i].width, out, sizeof(out));

		if (strcmp(out, rows[i].want) || w != rows[i].cols)
			fail_msg("row at line %d: '%s' (%d columns)", rows[i].line, out, w);
	}
	setlocale(LC_ALL, "C");
}

/* --- soft traces -------------------------------------------------------------------------------- */

static void test_tui_soft(void **state)
{
	struct fx *f = fx_load(TRACE_BACKEND_SOFT, soft_fixture,
			       sizeof(soft_fixture) / sizeof(soft_fixture[0]), 30, 110);
	struct grid g;
	int r;

	(void)state;
	assert_int_equal(f->m->kind, RM_SOFT);
	assert_int_equal(f->v.nr_line, 1);   /* line 5 is one thread's: not contended */
	assert_int_equal(sel_addr(f), LINE(3));
	draw(f, &g, 30, 110);
	assert_non_null(strstr(g.text[0], "Estimated Cache Line Table"));
	assert_non_null(strstr(g.text[0], "1 contended line,"));
	assert_non_null(strstr(g.text[3], "tui_fx_lines"));
	{
		struct tui_buf b = { 0 };

		tui_list_row_text(f->m, &f->v, 0, &b);
		assert_non_null(strstr(b.s, "FALSE SHARING"));
		free(b.s);
	}
	/* HITM modes and coalescing are PMU views: a message, nothing else */
	assert_int_equal(KEYS(f, 'm'), TUI_RES_REDRAW);
	assert_non_null(strstr(f->v.msg, "display modes are HITM and peer views"));
	assert_int_equal(KEYS(f, 'c'), TUI_RES_REDRAW);
	KEYS(f, 'd');
	draw(f, &g, 30, 110);
	r = grid_find(&g, "advice: tui_fx_lines[3].a (written by tid 201) and tui_fx_lines[3].b "
			  "(written by tid 202)");
	if (r < 0)
		dump(&g);
	assert_true(r > 0);
	r = grid_find(&g, "tid 201");
	assert_true(r > 0);
	assert_non_null(strstr(g.text[grid_find(&g, "tid 201       ")], "wwwwwwww........"));
	KEYS(f, 'q', 't');
	draw(f, &g, 30, 110);
	assert_true(grid_find(&g, "Soft backend: timer samples") > 0);
	assert_true(grid_find(&g, "Data address recovered            : 70 (100.00% of samples") > 0);
	/* every address recovered: no reasons, and no heading over nothing */
	assert_true(grid_find(&g, "by reason") < 0);
	fx_free(f);
}

/* F: the contending functions and data types; Enter on a pair lists its lines alone, q shows
 * every line again (and does not quit). */
static void test_tui_view_contend(void **state)
{
	struct fx *f = *state;
	const struct rm_contend *c = f->m->contend;
	size_t all = f->v.nr_line;

	assert_non_null(c);
	assert_true(c->nr_pair > 0);
	assert_int_equal(KEYS(f, 'F'), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_CONTEND);
	assert_int_equal(f->v.pair0, 2);
	assert_int_equal(f->v.text.sel, f->v.pair0);
	assert_non_null(strstr(f->v.text_lines[0], "Contending functions"));
	assert_int_equal(KEYS(f, TUI_KEY_ENTER), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	assert_non_null(f->v.filter);
	assert_int_equal(f->v.nr_line, c->pair[0].nr_line);
	assert_int_equal(f->m->rm->line[f->v.order[0]].index, f->m->rm->line[c->pair[0].line[0]].index);
	assert_non_null(strstr(f->v.msg, "(q: all lines)"));
	assert_int_equal(KEYS(f, 'q'), TUI_RES_REDRAW);
	assert_null(f->v.filter);
	assert_int_equal(f->v.nr_line, all);
	assert_int_equal(KEYS(f, 'q'), TUI_RES_QUIT);
}

/* Printer @print's output, as a string to free. */
static char *printed(int (*print)(FILE *f, void *ctx), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(print(f, ctx), 0);
	fclose(f);
	return buf;
}

static int print_stdio(FILE *f, void *ctx)
{
	struct report_session *s = ctx;
	struct stdio_estim_opts o = { .sections = s->sections, .info = s->info };

	return stdio_estim_print(f, s->m, s->fs, &o);
}

static int print_csv(FILE *f, void *ctx)
{
	return csv_print(f, ctx, CSV_LINES);
}

static int print_json(FILE *f, void *ctx)
{
	return json_print(f, ctx);
}

/* A column the model declares is a column of every printer: one added to a soft model (the
 * transfers only watch models declare) shows, with its values, in the stdio table, the CSV, the
 * JSON and the TUI's list, and no printer is told about it. */
static void test_model_column_in_every_printer(void **state)
{
	struct fx *f = fx_load(TRACE_BACKEND_SOFT, soft_fixture,
			       sizeof(soft_fixture) / sizeof(soft_fixture[0]), 30, 200);
	struct report_session *s = f->m->s;
	struct rm_model *rm = s->m;
	const enum rm_col_id *declared = rm->line_cols;
	enum rm_col_id *ids = xcalloc(rm->nr_line_cols + 1, sizeof(*ids));
	char *out;
	struct grid g;
	size_t i;

	(void)state;
	for (i = 0; i < rm->nr_line_cols; i++)
		assert_int_not_equal(declared[i], RM_COL_XFERS);
	memcpy(ids, declared, rm->nr_line_cols * sizeof(*ids));
	ids[rm->nr_line_cols] = RM_COL_XFERS;
	rm->line_cols = ids;
	rm->nr_line_cols++;
	assert_true(rm->nr_line > 0);
	for (i = 0; i < rm->nr_line; i++)
		rm->line[i].v[RM_COL_XFERS] = 4242 + (double)i;
	tui_view_release(&f->v);
	tui_view_init(&f->v, f->m, 30, 200);

	out = printed(print_stdio, s);
	assert_non_null(strstr(out, "Estimated Cache Line Table"));
	assert_true(strstr(out, "  Xfers") > strstr(out, "Estimated Cache Line Table"));
	assert_true(strstr(out, "   4242") > strstr(out, "  Xfers"));
	free(out);
	out = printed(print_csv, s);
	assert_non_null(strstr(out, ",transfers"));
	assert_non_null(strstr(out, ",4242"));
	free(out);
	out = printed(print_json, s);
	assert_non_null(strstr(out, "\"key\": \"transfers\""));
	assert_non_null(strstr(out, "\"transfers\": 4242"));
	free(out);
	draw(f, &g, 30, 200);
	if (grid_find(&g, "Xfers") < 0 || grid_find(&g, "4242") < 0)
		dump(&g);
	assert_true(grid_find(&g, "Xfers") > 0);
	assert_true(grid_find(&g, "4242") > grid_find(&g, "Xfers"));

	rm->line_cols = declared;
	rm->nr_line_cols--;
	free(ids);
	fx_free(f);
}

/* More than 10% of the sampled time without a data address: the list says so under its title
 * (the whole warning on 30 rows, its first line on 16), and the statistics screen too. */
static void test_tui_soft_warning(void **state)
{
	struct fx *f = fx_load(TRACE_BACKEND_SOFT, soft_nomem_fixture,
			       sizeof(soft_nomem_fixture) / sizeof(soft_nomem_fixture[0]), 30, 110);
	struct grid g;
	int r;

	(void)state;
	draw(f, &g, 30, 110);
	assert_non_null(strstr(g.text[1], "WARNING: 36.4% of the sampled time (40 of 110 samples)"));
	r = grid_find(&g, "tui_fx_reader");
	if (r < 0)
		dump(&g);
	assert_true(r > 1 && r < 7);
	assert_non_null(strstr(g.text[r], "no memory operand"));
	r = grid_find(&g, "tui_fx_lines");
	assert_true(r >= 7);                 /* the list's first line, below the warning */
	assert_int_equal(tui_view_body_rows(&f->v, TUI_SCR_LIST), 30 - 4 - 4);   /* 1 address */
	fx_free(f);
	f = fx_load(TRACE_BACKEND_SOFT, soft_nomem_fixture,
		    sizeof(soft_nomem_fixture) / sizeof(soft_nomem_fixture[0]), 16, 110);
	draw(f, &g, 16, 110);
	assert_non_null(strstr(g.text[1], "WARNING: 36.4%"));
	assert_non_null(strstr(g.text[4], "tui_fx_lines"));
	KEYS(f, 't');
	draw(f, &g, 16, 110);
	assert_true(grid_find(&g, "WARNING: 36.4%") > 0);
	/* the reasons under their heading */
	draw(f, &g, 60, 110);
	r = grid_find(&g, "Address not recovered, by reason");
	if (r < 0)
		dump(&g);
	assert_true(r > 0);
	assert_non_null(strstr(g.text[r + 1], "reason"));          /* the table's heading */
	assert_non_null(strstr(g.text[r + 2], "no memory operand"));
	fx_free(f);
	/* under the threshold: no warning, the list right under its header */
	f = fx_load(TRACE_BACKEND_SOFT, soft_fixture,
		    sizeof(soft_fixture) / sizeof(soft_fixture[0]), 30, 110);
	draw(f, &g, 30, 110);
	assert_true(grid_find(&g, "WARNING") < 0);
	assert_int_equal(f->v.warn_lines, 0);
	fx_free(f);
}

/* --- loading ------------------------------------------------------------------------------------ */

static int count_progress(void *ctx, uint64_t records, uint64_t total)
{
	int *calls = ctx;

	assert_true(records > 0 && total > 0);
	return ++*calls >= 1000;   /* never stops in this test */
}

static int stop_progress(void *ctx, uint64_t records, uint64_t total)
{
	(void)ctx, (void)records, (void)total;
	return 1;
}

static void capture_log(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)level;
	snprintf(ctx, 256, "%s", msg);
}

static void test_tui_load_progress(void **state)
{
	char dir[] = "/tmp/c2c-tui-test-XXXXXX", path[64], msg[256] = "";
	struct tui_load_opts lo = { .input = path, .display = -1 };
	struct tui_model *m = NULL;
	int calls = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/big.c2c", dir);
	write_trace(path, TRACE_BACKEND_PEBS, pmu_fixture,
		    sizeof(pmu_fixture) / sizeof(pmu_fixture[0]), 1500);   /* 72000 samples */
	assert_int_equal(tui_model_load(&m, &lo, count_progress, &calls), 0);
	assert_int_equal(calls, 1);                      /* one progress call per 65536 records */
	tui_model_free(m);
	c2c_log_set_hook(capture_log, msg);
	assert_int_equal(tui_model_load(&m, &lo, stop_progress, NULL), -EINTR);
	assert_null(m);
	assert_non_null(strstr(msg, "interrupted"));
	c2c_log_set_hook(NULL, NULL);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_tui_load_errors(void **state)
{
	char msg[256] = "";
	char dir[] = "/tmp/c2c-tui-test-XXXXXX", path[64];
	struct tui_load_opts lo = { .input = path, .display = -1 };
	struct tui_model *m = NULL;
	char **text;
	size_t nr;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/none", dir);
	c2c_log_set_hook(capture_log, msg);
	assert_int_equal(tui_model_load(&m, &lo, NULL, NULL), -ENOENT);
	assert_null(m);
	assert_non_null(strstr(msg, "/none"));
	assert_int_equal(tui_srcfile_read(path, NULL, &text, &nr), -ENOENT);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("garbage, not a trace\n", f);
	fclose(f);
	assert_true(tui_model_load(&m, &lo, NULL, NULL) < 0);
	assert_non_null(strstr(msg, "not a c2c-lite trace or perf.data file"));
	c2c_log_set_hook(NULL, NULL);
	/* a source file under --symfs DIR is found there first */
	assert_int_equal(tui_srcfile_read("none", dir, &text, &nr), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(text[0], "garbage, not a trace");
	free(text[0]);
	free(text);
	unlink(path);
	rmdir(dir);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tui_list_moves),
		cmocka_unit_test(test_tui_list_fit_after_shrink),
		T(test_tui_view_initial),
		T(test_tui_view_moves),
		T(test_tui_view_open_and_back),
		T(test_tui_view_callers),
		T(test_tui_view_source),
		T(test_tui_view_display_modes),
		T(test_tui_view_display_keeps_selection),
		T(test_tui_view_sort_menu),
		T(test_tui_view_search),
		T(test_tui_view_search_in_line),
		T(test_tui_view_toggles_and_text_screens),
		T(test_tui_view_coalesce_reload),
		T(test_tui_view_resize_keeps_selection),
		T(test_tui_draw_list),
		T(test_tui_draw_line),
		T(test_tui_draw_line_fit),
		T(test_tui_draw_list_fit),
		T(test_tui_draw_stats_and_help),
		T(test_tui_draw_context),
		T(test_tui_draw_small_and_prompt),
		cmocka_unit_test(test_tui_clip_utf8),
		cmocka_unit_test(test_tui_soft),
		cmocka_unit_test(test_tui_soft_warning),
		cmocka_unit_test(test_model_column_in_every_printer),
		cmocka_unit_test_setup_teardown(test_tui_view_contend, setup, teardown),
		cmocka_unit_test(test_tui_load_progress),
		cmocka_unit_test(test_tui_load_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
