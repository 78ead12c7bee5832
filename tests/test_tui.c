/* Tests of the TUI's view state, controller, list widget and drawing, without a terminal: a small
 * table is built in memory, key sequences go through tui_view_key() and screens are drawn into a
 * character grid. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "report/dsrc.h"
#include "tui/draw.h"
#include "tui/list.h"
#include "tui/srcfile.h"
#include "tui/view.h"

#define APP 0x400000ULL
#define LA (APP + 0x1000)
#define LB (APP + 0x2000)
#define LC (APP + 0x3000)
#define LE (APP + 0x5000)

static uint64_t ds(unsigned op, unsigned lvl, unsigned snoop, unsigned snoopx, unsigned remote)
{
	return (uint64_t)op << DSRC_OP_SHIFT | (uint64_t)lvl << DSRC_LVL_SHIFT |
	       (uint64_t)snoop << DSRC_SNOOP_SHIFT | (uint64_t)DSRC_LOCK_NA << DSRC_LOCK_SHIFT |
	       (uint64_t)snoopx << DSRC_SNOOPX_SHIFT | (uint64_t)remote << DSRC_REMOTE_SHIFT;
}

enum kind { LCL_HITM, RMT_HITM, STORE, LCL_PEER };

static const struct smp {
	uint64_t addr, ip;
	enum kind kind;
	int n;
	uint32_t cpu;
} fixture[] = {
	{ LA + 0x0, APP + 0x100, LCL_HITM, 10, 0 },
	{ LA + 0x8, APP + 0x200, RMT_HITM, 5, 2 },
	{ LA + 0x8, APP + 0x300, STORE, 3, 3 },
	{ LB + 0x10, APP + 0x400, RMT_HITM, 20, 1 },
	{ LC + 0x0, APP + 0x500, LCL_PEER, 4, 0 },
	{ LE + 0x20, APP + 0x700, LCL_HITM, 1, 0 },
};

static uint64_t kind_ds(enum kind k)
{
	switch (k) {
	case LCL_HITM: return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L3, DSRC_SNOOP_HITM, 0, 0);
	case RMT_HITM:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM, 0, 1);
	case STORE: return ds(DSRC_OP_STORE, DSRC_LVL_HIT | DSRC_LVL_L1, DSRC_SNOOP_NA, 0, 0);
	case LCL_PEER: default:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L2, DSRC_SNOOP_NONE, DSRC_SNOOPX_PEER, 0);
	}
}

static const int32_t cpu_node[4] = { 0, 0, 1, 1 };

/* A symbol function that names every code address, so drawing and search see symbols. */
static int fake_sym(void *ctx, const struct maps_map *map, uint8_t cpumode, uint64_t ip,
		    uint64_t al_ip, struct cltab_code *out)
{
	static const char *const names[] = { "x", "reader", "writer", "bumper", "counter_inc",
					     "peer_poll", "y", "lonely" };

	(void)ctx; (void)map; (void)cpumode; (void)al_ip;
	out->symbol = names[((ip - APP) >> 8) % 8];
	out->sym_offset = 4;
	out->srcfile = "/src/app.c";
	out->line = (uint32_t)((ip - APP) >> 8) * 10;
	return 0;
}

struct fx {
	struct maps *maps;
	struct cltab *t;
	struct tui_model *m;
	struct tui_view v;
};

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));
	struct cltab_opts o = { .cl_size = 64, .display = CLTAB_DISPLAY_TOT, .show_all = 1,
				.nr_cpus = 4, .cpu_node = cpu_node, .nr_nodes = 2, .sym = fake_sym };
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	size_t i;
	int k;

	f->t = cltab_new(&o);
	f->maps = maps_new();
	ev.mmap = (struct trace_mmap){ .pid = 100, .tid = 100, .start = APP, .len = 0x100000,
				       .prot = 3, .flags = 2, .maj = 8, .ino = 42, .cpumode = 2,
				       .filename = "/usr/bin/app" };
	cltab_feed(f->t, f->maps, &ev);
	for (i = 0; i < sizeof(fixture) / sizeof(fixture[0]); i++)
		for (k = 0; k < fixture[i].n; k++) {
			memset(&ev, 0, sizeof(ev));
			ev.type = TRACE_REC_SAMPLE;
			ev.sample = (struct trace_sample){
				.ip = fixture[i].ip, .addr = fixture[i].addr,
				.data_src = kind_ds(fixture[i].kind), .weight = 200, .pid = 100,
				.tid = 100, .cpu = fixture[i].cpu, .cpumode = 2,
				.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR |
					 TRACE_SAMPLE_HAS_DSRC | TRACE_SAMPLE_HAS_WEIGHT,
			};
			cltab_feed(f->t, f->maps, &ev);
		}
	cltab_finish(f->t);
	f->m = tui_model_wrap(f->t, CLTAB_DISPLAY_TOT);
	tui_view_init(&f->v, f->m, 24, 80);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tui_view_release(&f->v);
	tui_model_free(f->m);
	cltab_free(f->t);
	maps_free(f->maps);
	free(f);
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
	return f->v.line[f->v.list.sel]->addr;
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

	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	assert_int_equal(f->v.nr_line, 3);
	assert_int_equal(sel_addr(f), LB);
	assert_int_equal(f->v.display, CLTAB_DISPLAY_TOT);
	assert_int_equal(f->v.sort, CLTV_COL_SHARE);
	assert_string_equal(f->v.coalesce_name, "iaddr");
}

static void test_tui_view_moves(void **state)
{
	static const struct {
		int line;
		int key;
		uint64_t want;
	} rows[] = {
		{ __LINE__, 'j', LA }, { __LINE__, TUI_KEY_DOWN, LE }, { __LINE__, 'j', LE },
		{ __LINE__, 'k', LA }, { __LINE__, TUI_KEY_HOME, LB }, { __LINE__, TUI_KEY_END, LE },
		{ __LINE__, TUI_KEY_PGUP, LB }, { __LINE__, TUI_KEY_PGDN, LE },
		{ __LINE__, TUI_KEY_UP, LA }, { __LINE__, TUI_KEY_WHEEL_UP, LB },
	};
	struct fx *f = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		tui_view_key(&f->v, f->m, rows[i].key);
		if (sel_addr(f) != rows[i].want)
			fail_msg("row at line %d: selected %#llx", rows[i].line,
				 (unsigned long long)sel_addr(f));
	}
	/* moving past the end changes nothing and asks for no redraw */
	KEYS(f, TUI_KEY_HOME);
	assert_int_equal(tui_view_key(&f->v, f->m, 'k'), TUI_RES_NONE);
}

static void test_tui_view_open_and_back(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'j');
	assert_int_equal(KEYS(f, TUI_KEY_ENTER), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	assert_int_equal(f->v.open->addr, LA);
	assert_int_equal(f->v.nr_off, 3);
	assert_int_equal(tui_view_offset(&f->v)->ip, APP + 0x100);
	KEYS(f, 'j', 'j', 'j');
	assert_int_equal(tui_view_offset(&f->v)->ip, APP + 0x300);
	/* Enter on an offset asks the main loop for the source file */
	assert_int_equal(KEYS(f, TUI_KEY_ENTER), TUI_RES_SOURCE);
	assert_string_equal(f->v.src_file, "/src/app.c");
	assert_int_equal(f->v.src_line, 30);
	{
		char **text = xcalloc(40, sizeof(*text));
		int i;

		for (i = 0; i < 40; i++)
			text[i] = xasprintf("line %d", i + 1);
		tui_view_set_source(&f->v, text, 40);
	}
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_SOURCE);
	assert_int_equal(f->v.source.sel, 29);
	assert_int_equal(KEYS(f, TUI_KEY_ESC), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	assert_int_equal(KEYS(f, TUI_KEY_BACKSPACE), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
	assert_int_equal(KEYS(f, TUI_KEY_ESC), TUI_RES_NONE);     /* the top stays */
	assert_int_equal(KEYS(f, TUI_KEY_ENTER, 'q'), TUI_RES_REDRAW); /* q goes back */
	assert_int_equal(KEYS(f, 'q'), TUI_RES_QUIT);                /* q on top quits */
}

static void test_tui_view_unreadable_source(void **state)
{
	struct fx *f = *state;

	KEYS(f, TUI_KEY_ENTER);
	assert_int_equal(KEYS(f, TUI_KEY_ENTER), TUI_RES_SOURCE);
	tui_view_set_source(&f->v, NULL, 0);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	assert_non_null(strstr(f->v.msg, "cannot read '/src/app.c'"));
}

static void test_tui_view_display_modes(void **state)
{
	static const struct {
		int line;
		enum cltab_display d;
		size_t nr;
		uint64_t first;
	} rows[] = {
		{ __LINE__, CLTAB_DISPLAY_LCL, 2, LA },
		{ __LINE__, CLTAB_DISPLAY_RMT, 2, LB },
		{ __LINE__, CLTAB_DISPLAY_PEER, 1, LC },
		{ __LINE__, CLTAB_DISPLAY_TOT, 3, LB },
	};
	struct fx *f = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		KEYS(f, TUI_KEY_HOME);
		assert_int_equal(KEYS(f, 'd'), TUI_RES_REDRAW);
		if (f->v.display != rows[i].d || f->v.nr_line != rows[i].nr ||
		    f->v.line[0]->addr != rows[i].first)
			fail_msg("row at line %d: mode %d, %zu lines, first %#llx", rows[i].line,
				 f->v.display, f->v.nr_line, (unsigned long long)f->v.line[0]->addr);
	}
}

/* Switching modes keeps the selected line selected when the new mode lists it. */
static void test_tui_view_display_keeps_selection(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'j');                 /* A in tot */
	KEYS(f, 'd');                 /* lcl: A first */
	assert_int_equal(sel_addr(f), LA);
	KEYS(f, 'd');                 /* rmt: B, A */
	assert_int_equal(sel_addr(f), LA);
	assert_int_equal(f->v.list.sel, 1);
}

/* The open line's offsets follow the display mode (rmt hides the local-HITM-only row). */
static void test_tui_view_display_in_line(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'j', TUI_KEY_ENTER);
	assert_int_equal(f->v.nr_off, 3);
	KEYS(f, 'd', 'd');
	assert_int_equal(f->v.display, CLTAB_DISPLAY_RMT);
	assert_int_equal(f->v.nr_off, 2);
}

static void test_tui_view_sort(void **state)
{
	struct fx *f = *state;
	int n = 0;

	while (f->v.sort != CLTV_COL_STORES && n++ < CLTV_COL__NR)
		KEYS(f, 's');
	assert_int_equal(f->v.sort, CLTV_COL_STORES);
	assert_int_equal(f->v.line[0]->addr, LA);
	assert_non_null(strstr(f->v.msg, "Stores"));
	/* the index column still shows the position in the display order */
	assert_int_equal(f->v.rank[f->v.line[0]->index], 1);
	KEYS(f, 'S');
	assert_int_equal(f->v.sort, CLTV_COL_LOADS);
	/* a full cycle skips Index and comes back */
	for (n = 0; n < CLTV_COL__NR - 1; n++)
		KEYS(f, 's');
	assert_int_equal(f->v.sort, CLTV_COL_LOADS);
}

static void test_tui_view_search(void **state)
{
	struct fx *f = *state;

	assert_int_equal(KEYS(f, '/'), TUI_RES_REDRAW);
	assert_true(f->v.prompt);
	KEYS(f, 'l', 'o', 'n', 'x', TUI_KEY_BACKSPACE, 'e', TUI_KEY_ENTER);
	assert_false(f->v.prompt);
	assert_string_equal(f->v.last, "lone");
	assert_int_equal(sel_addr(f), LE);             /* symbol "lonely" */
	KEYS(f, '/', '0', 'x', '4', '0', '1', TUI_KEY_ENTER);
	assert_int_equal(sel_addr(f), LA);             /* address */
	KEYS(f, '/', 'e', 'r', TUI_KEY_ENTER);        /* reader, writer, bumper, counter_inc ... */
	assert_int_equal(sel_addr(f), LA);             /* the current row matches first */
	KEYS(f, 'n');
	assert_int_equal(sel_addr(f), LB);             /* wraps around */
	KEYS(f, 'N');
	assert_int_equal(sel_addr(f), LA);
	KEYS(f, 'p');
	assert_int_equal(sel_addr(f), LB);
	KEYS(f, '/', 'z', 'z', 'z', TUI_KEY_ENTER);
	assert_int_equal(sel_addr(f), LB);
	assert_non_null(strstr(f->v.msg, "not found"));
	/* Esc abandons a prompt without searching */
	KEYS(f, '/', 'a', TUI_KEY_ESC);
	assert_false(f->v.prompt);
	assert_string_equal(f->v.last, "zzz");
}

static void test_tui_view_search_in_line(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'j', TUI_KEY_ENTER, '/', 'b', 'u', 'm', 'p', TUI_KEY_ENTER);
	assert_int_equal(tui_view_offset(&f->v)->ip, APP + 0x300);
}

static void test_tui_view_node_info_and_text_screens(void **state)
{
	struct fx *f = *state;

	KEYS(f, 'N');   /* no search yet: node info */
	assert_int_equal(f->v.node_info, 1);
	KEYS(f, 'i', 'i');
	assert_int_equal(f->v.node_info, 0);
	assert_int_equal(KEYS(f, '?'), TUI_RES_REDRAW);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_HELP);
	assert_true(f->v.text.nr > 10);
	KEYS(f, 'q', 't');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_STATS);
	KEYS(f, TUI_KEY_END);
	assert_true(f->v.text.top > 0);
	KEYS(f, TUI_KEY_ESC, 'h');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_HELP);
	KEYS(f, 'q');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LIST);
}

static void test_tui_view_coalesce_reload(void **state)
{
	struct fx *f = *state;

	assert_int_equal(f->v.coalesce, 0);
	assert_int_equal(KEYS(f, 'c'), TUI_RES_RELOAD);
	assert_int_equal(f->v.coalesce, 1);
	assert_string_equal(f->v.coalesce_name, "tid,iaddr");
	/* the main loop rebuilds; the same table stands in for the new one here */
	KEYS(f, 'j');
	tui_view_rebuild(&f->v, f->m);
	assert_int_equal(sel_addr(f), LA);
	/* a source view under the help screen goes away with the old table; the line stays open */
	KEYS(f, TUI_KEY_ENTER, TUI_KEY_ENTER);
	tui_view_set_source(&f->v, NULL, 0);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	{
		char **text = xcalloc(1, sizeof(*text));

		text[0] = xstrdup("only line");
		tui_view_set_source(&f->v, text, 1);
	}
	KEYS(f, '?');
	assert_int_equal(KEYS(f, 'c'), TUI_RES_RELOAD);
	tui_view_rebuild(&f->v, f->m);
	assert_int_equal(f->v.depth, 3);
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_HELP);
	KEYS(f, 'q');
	assert_int_equal(tui_view_screen(&f->v), TUI_SCR_LINE);
	assert_int_equal(f->v.open->addr, LA);
}

static void test_tui_view_resize_keeps_selection(void **state)
{
	struct fx *f = *state;

	KEYS(f, TUI_KEY_END);
	tui_view_resize(&f->v, 5, 40);
	assert_int_equal(sel_addr(f), LE);
	assert_true(f->v.list.sel >= f->v.list.top);
	assert_true(f->v.list.sel < f->v.list.top + (size_t)tui_view_body_rows(&f->v, TUI_SCR_LIST));
	assert_int_equal(KEYS(f, TUI_KEY_RESIZE), TUI_RES_REDRAW);
}

static void test_tui_coalesce_parse(void **state)
{
	static const struct {
		int line;
		const char *s;
		int rc, nr;
	} rows[] = {
		{ __LINE__, "iaddr", 0, 1 }, { __LINE__, "tid,iaddr", 0, 2 },
		{ __LINE__, "offset,pid,dso", 0, 2 }, { __LINE__, "bogus", -1, 0 },
		{ __LINE__, "", -1, 0 },
	};
	struct tui_coalesce c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int rc = tui_coalesce_parse(rows[i].s, &c);

		if ((rc < 0 ? -1 : 0) != rows[i].rc || (!rc && c.nr != rows[i].nr))
			fail_msg("row at line %d: rc %d nr %d", rows[i].line, rc, c.nr);
	}
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
	tui_view_resize(&f->v, rows, cols);
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

static void test_tui_draw_list(void **state)
{
	struct fx *f = *state;
	struct grid g;
	int r, row;

	draw(f, &g, 24, 80);
	for (r = 0; r < 24; r++) {
		assert_int_equal(g.puts[r], 1);           /* every row set exactly once */
		assert_true(strlen(g.text[r]) <= 80);      /* ASCII here: bytes == columns */
	}
	assert_non_null(strstr(g.text[0], "(3 entries, sorted on Total HITMs)"));
	assert_non_null(strstr(g.text[2], "*Hitm"));
	row = grid_find(&g, "0x402000");
	assert_int_equal(row, 3);
	assert_int_equal(g.attr[row], TUI_ATTR_SELECT);
	assert_non_null(strstr(g.text[row], "55.56%"));   /* 20 of 36 HITMs */
	assert_non_null(strstr(g.text[grid_find(&g, "0x401000")], "41.67%"));
	assert_int_equal(g.attr[23], TUI_ATTR_STATUS);
}

static void test_tui_draw_line_pareto(void **state)
{
	struct fx *f = *state;
	struct grid g;
	int r;

	KEYS(f, 'j', TUI_KEY_ENTER);
	draw(f, &g, 24, 80);
	assert_non_null(strstr(g.text[0], "Cacheline 0x401000"));
	assert_non_null(strstr(g.text[1], "rmt 5 lcl 10"));
	/* offset 0x0: all local HITMs of the line; offset 0x8: all remote ones, then the stores */
	r = grid_find(&g, "[.] reader");
	if (r < 5)
		for (r = 0; r < 24; r++)
			print_message("%2d|%s|\n", r, g.text[r]);
	assert_true(r >= 5);
	assert_non_null(strstr(g.text[r], "  0.00%  100.00%"));
	r = grid_find(&g, "[.] writer");
	assert_non_null(strstr(g.text[r], "100.00%    0.00%"));
	assert_non_null(strstr(g.text[r], "0x8"));
	r = grid_find(&g, "[.] bumper");
	assert_non_null(strstr(g.text[r], "100.00%    0.00%    0.00%"));
	/* scrolling right reaches the Source:Line and cycles columns */
	f->v.hscroll = 70;
	draw(f, &g, 24, 80);
	assert_true(grid_find(&g, "app.c:20") >= 0);
	f->v.hscroll = 140;
	draw(f, &g, 24, 120);
	assert_true(grid_find(&g, "200") >= 0);          /* mean weight of the HITM samples */
}

static void test_tui_draw_stats_and_help(void **state)
{
	struct fx *f = *state;
	struct grid g;

	KEYS(f, 't');
	draw(f, &g, 64, 100);
	assert_true(grid_find(&g, "  Total records                     :         43") >= 0);
	assert_true(grid_find(&g, "  Load Remote HITM                  :         25") >= 0);
	assert_true(grid_find(&g, "  Total Shared Cache Lines          :          4") >= 0);
	assert_true(grid_find(&g, "  Total Merged records              :         39") >= 0);
	assert_true(grid_find(&g, "Global Shared Cache Line Event Information") >= 0);
	KEYS(f, 'q', '?');
	draw(f, &g, 40, 80);
	assert_true(grid_find(&g, "search a symbol, an address or a data name") >= 0);
	assert_true(grid_find(&g, "display mode: tot, lcl, rmt, peer") >= 0);
}

static void test_tui_draw_small_and_prompt(void **state)
{
	struct fx *f = *state;
	struct grid g;

	KEYS(f, '/', 'a', 'b');
	draw(f, &g, 6, 20);
	assert_string_equal(g.text[5], "/ab_");
	assert_true(strlen(g.text[0]) <= 20);
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

/* --- loading a real trace with real symbols ---------------------------------------------------- */

/* Sampled by the trace below: the loader must name them through DWARF. */
struct tui_test_pair {
	long a, b;
};
struct tui_test_pair tui_test_shared[2];

__attribute__((noinline)) void tui_test_bump(void);
__attribute__((noinline)) void tui_test_bump(void)
{
	tui_test_shared[0].b++;
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

static void write_self_trace(const char *path, int samples)
{
	static const int32_t node[2] = { 0, 0 };
	static char arch[] = "x86_64";
	struct trace_info info = { .arch = arch, .cacheline_size = 64, .nr_cpus = 2,
				   .cpu_node = (int32_t *)node, .nr_nodes = 1,
				   .backend = TRACE_BACKEND_SYNTHETIC, .flags = TRACE_INFO_SYNTHETIC };
	struct trace_event ev[32];
	struct trace_writer *w;
	size_t i, nr = self_mmaps(ev, 32);
	int k;

	assert_true(nr > 0);
	assert_int_equal(trace_writer_open(&w, path, &info, NULL), 0);
	for (i = 0; i < nr; i++) {
		assert_int_equal(trace_write(w, &ev[i]), 0);
		free((char *)ev[i].mmap.filename);
	}
	for (k = 0; k < samples; k++) {
		struct trace_event s = { .type = TRACE_REC_SAMPLE };

		s.sample = (struct trace_sample){
			.ip = (uint64_t)(uintptr_t)&tui_test_bump,
			.addr = (uint64_t)(uintptr_t)&tui_test_shared[0].b,
			.data_src = kind_ds(k % 3 ? LCL_HITM : STORE), .weight = 50,
			.pid = (uint32_t)getpid(), .tid = (uint32_t)getpid(), .cpu = (uint32_t)(k % 2),
			.cpumode = 2,
			.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_DSRC |
				 TRACE_SAMPLE_HAS_WEIGHT,
		};
		assert_int_equal(trace_write(w, &s), 0);
	}
	assert_int_equal(trace_writer_close(w), 0);
}

static int count_progress(void *ctx, uint64_t records, uint64_t total)
{
	int *calls = ctx;

	assert_true(records > 0 && total > 0);
	return ++*calls >= 1000;   /* never stops in this test */
}

static void test_tui_load_real_symbols(void **state)
{
	char dir[] = "/tmp/c2c-tui-test-XXXXXX", path[64], name[256], **text = NULL;
	struct tui_load_opts lo = { .input = path, .display = -1 };
	struct tui_model *m = NULL;
	struct tui_view v;
	const struct cltab_offset *o;
	size_t nr = 0;
	int calls = 0;

	(void)state;
	tui_test_bump();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/self.c2c", dir);
	write_self_trace(path, 70000);
	assert_int_equal(tui_model_load(&m, &lo, count_progress, &calls), 0);
	assert_int_equal(calls, 1);                      /* one progress call per 65536 records */
	assert_int_equal(m->display, CLTAB_DISPLAY_TOT);
	tui_view_init(&v, m, 24, 80);
	assert_int_equal(v.nr_line, 1);
	{
		const struct cltab_line *l = v.line[0];
		const struct cltab_offset *o = NULL;
		size_t k;

		for (k = 0; k < l->nr_off; k++)
			if (l->addr + l->off[k]->offset == (uint64_t)(uintptr_t)&tui_test_shared[0].b)
				o = l->off[k];
		assert_non_null(o);
		assert_non_null(tui_model_data_name(m, l, o, name, sizeof(name)));
		assert_string_equal(name, "tui_test_shared[0].b");
	}
	{
		struct grid g;
		struct tui_screen s = { .rows = 24, .cols = 80, .put = grid_put, .ctx = &g };

		memset(&g, 0, sizeof(g));
		g.rows = 24;
		tui_draw(&s, m, &v);
		assert_true(grid_find(&g, "tui_test_shared[0].b") == 3);   /* the list's Data column */
	}
	/* search by data name */
	tui_view_key(&v, m, '/');
	tui_view_key(&v, m, 'b');
	tui_view_key(&v, m, '+');
	tui_view_key(&v, m, TUI_KEY_ENTER);
	assert_non_null(strstr(v.msg, "not found"));
	tui_view_key(&v, m, '/');
	tui_view_key(&v, m, 's');
	tui_view_key(&v, m, 'h');
	tui_view_key(&v, m, 'a');
	tui_view_key(&v, m, TUI_KEY_ENTER);
	assert_string_equal(v.msg, "/sha");
	tui_view_key(&v, m, TUI_KEY_ENTER);
	o = tui_view_offset(&v);
	assert_non_null(o);
	assert_true(o->has_sym);
	assert_string_equal(o->code.symbol, "tui_test_bump");
	assert_non_null(o->code.srcfile);
	assert_non_null(strstr(o->code.srcfile, "test_tui.c"));
	/* the source view reads this very file */
	assert_int_equal(tui_view_key(&v, m, TUI_KEY_ENTER), TUI_RES_SOURCE);
	assert_int_equal(tui_srcfile_read(v.src_file, NULL, &text, &nr), 0);
	assert_true(nr >= v.src_line);
	assert_non_null(strstr(text[v.src_line - 1], "tui_test_shared[0].b++"));
	tui_view_set_source(&v, text, nr);
	{
		struct grid g;
		struct tui_screen s = { .rows = 24, .cols = 120, .put = grid_put, .ctx = &g };
		int r;

		memset(&g, 0, sizeof(g));
		g.rows = 24;
		tui_draw(&s, m, &v);
		r = grid_find(&g, "tui_test_shared[0].b++");
		assert_true(r > 0);
		assert_int_equal(g.attr[r], TUI_ATTR_SELECT);
		if (!strstr(g.text[r], "46666    70000"))   /* HITMs and records */
			fail_msg("row %d: %s", r, g.text[r]);
	}
	tui_view_release(&v);
	tui_model_free(m);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void capture_log(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)level;
	snprintf(ctx, 256, "%s", msg);
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
		T(test_tui_view_unreadable_source),
		T(test_tui_view_display_modes),
		T(test_tui_view_display_keeps_selection),
		T(test_tui_view_display_in_line),
		T(test_tui_view_sort),
		T(test_tui_view_search),
		T(test_tui_view_search_in_line),
		T(test_tui_view_node_info_and_text_screens),
		T(test_tui_view_coalesce_reload),
		T(test_tui_view_resize_keeps_selection),
		cmocka_unit_test(test_tui_coalesce_parse),
		T(test_tui_draw_list),
		T(test_tui_draw_line_pareto),
		T(test_tui_draw_stats_and_help),
		T(test_tui_draw_small_and_prompt),
		cmocka_unit_test(test_tui_clip_utf8),
		cmocka_unit_test(test_tui_load_real_symbols),
		cmocka_unit_test(test_tui_load_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
