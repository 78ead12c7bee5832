/* view: all state of the browser and the pure controller that maps keys to actions.
 *
 * struct tui_view holds what the user changed (the screen stack, selections, scroll, sort
 * column, display mode, coalescing choice, toggles, search); the model (tui/model.h) is only
 * changed through tui_model_display(). Keys are the TUI_KEY_* codes below (term.c translates
 * curses keys into them) and go through one binding table to actions; tui_view_key() returns
 * what the main loop must do next. Nothing here touches the terminal, so tests drive it with key
 * sequences.
 *
 * Keys follow perf c2c's TUI where it has one: in the cacheline list d (or Enter) opens a line,
 * q quits; in a line n cycles the node info, s toggles full symbols, a shows the source of the
 * selected row (perf's annotate), q goes back; ? is help everywhere. Our own keys take letters
 * perf leaves free: / search (F3 or Ctrl-N next, Shift-F3 or Ctrl-P previous), o sort by a
 * column chosen from a menu, m display mode, c coalescing, f findings, F contending
 * functions and data types, v line map, t statistics. */
#ifndef C2C_TUI_VIEW_H
#define C2C_TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tui/list.h"
#include "tui/model.h"

/* Key codes: printable characters are themselves, special keys live above 0x10000. */
enum {
	TUI_KEY_CTRL_L = 12,
	TUI_KEY_CTRL_N = 14,
	TUI_KEY_CTRL_P = 16,
	TUI_KEY_ESC = 27,
	TUI_KEY_ENTER = '\n',
	TUI_KEY_UP = 0x10000, TUI_KEY_DOWN, TUI_KEY_LEFT, TUI_KEY_RIGHT,
	TUI_KEY_PGUP, TUI_KEY_PGDN, TUI_KEY_HOME, TUI_KEY_END,
	TUI_KEY_BACKSPACE, TUI_KEY_RESIZE, TUI_KEY_WHEEL_UP, TUI_KEY_WHEEL_DOWN,
	TUI_KEY_F3, TUI_KEY_SHIFT_F3,
};

enum tui_screen_id {
	TUI_SCR_LIST,      /* the cacheline list */
	TUI_SCR_LINE,      /* one line: findings, line map, offset rows */
	TUI_SCR_SOURCE,    /* source around a code address */
	TUI_SCR_STATS,     /* the statistics */
	TUI_SCR_HELP,
	TUI_SCR_FINDINGS,  /* the findings, as the text report gives them */
	TUI_SCR_SORT,      /* the sort-column menu */
	TUI_SCR_CALLERS,   /* a row's callers: perf's call graph */
	TUI_SCR_CONTEND,   /* contending functions and data types: a row opens its lines */
};

enum tui_result {
	TUI_RES_NONE,      /* nothing changed */
	TUI_RES_REDRAW,
	TUI_RES_QUIT,
	TUI_RES_RELOAD,    /* coalescing changed: rebuild the model, then tui_view_rebuild() */
	TUI_RES_SOURCE,    /* load view->src_file, then tui_view_set_source() */
};

/* Coalescing presets 'c' cycles through (perf's -c values). */
struct tui_coalesce {
	const char *name;                  /* as given to -c: "iaddr", "tid,iaddr" */
	enum cltab_coalesce key[CLTAB_CO_MAX];
	int nr;
};
extern const struct tui_coalesce tui_coalesce_presets[];
extern const int tui_nr_coalesce_presets;

/* Sort keys of the list: the model's order (cost), the address, or a declared column. */
enum { TUI_SORT_COST = -1, TUI_SORT_ADDRESS = -2 };

#define TUI_STACK_MAX 8
#define TUI_QUERY_MAX 128

struct tui_view {
	enum tui_screen_id stack[TUI_STACK_MAX];
	int depth;                         /* stack[depth - 1] is on screen */
	int rows, cols;                    /* screen size */
	int sort;                          /* TUI_SORT_* or an enum rm_col_id */
	int coalesce;                      /* index into tui_coalesce_presets, -1: from -c */
	char coalesce_name[64];
	int node_info;                     /* 0, 1, 2: perf's node info levels in a line's rows */
	int full_symbols;                  /* perf's 's' in a line */
	int show_map;                      /* the line map in a line's panel */
	int hscroll;                       /* columns scrolled right in wide tables */
	/* column widths fitted to the screen (draw-list.c, draw-line.c: tui_list_layout(),
	 * tui_line_layout()): the list's address and data, the open line's data, symbol,
	 * Source:Line and code address */
	struct tui_widths { int addr, data, sym, src, code; } list_w, line_w;
	int warn_lines;                    /* soft: lines of the warning that much of the sampled
					    * time has no data address (report/model/attrib.h),
					    * 0: none; the list shows tui_view_warn_rows() of them */
	/* the cacheline list: indexes into the model's lines */
	uint32_t *order;
	size_t nr_line;
	struct tui_list list;
	/* the open line */
	size_t open;                       /* index into the model's lines, SIZE_MAX: none */
	uint32_t *row_ix;                  /* indexes into its rows, in the order shown */
	size_t nr_row_ix;
	struct tui_list detail;
	char **panel;                      /* the line's findings panel and map, as text */
	size_t nr_panel;
	/* the source view */
	char *src_file;                    /* file asked for (owned) */
	uint32_t src_line;
	char **src_text;                   /* owned lines, NULL: unreadable */
	size_t nr_src;
	struct tui_list source;
	/* text screens: statistics, help, findings */
	struct tui_list text;
	char **text_lines;                 /* the findings text, built when shown */
	size_t nr_text;
	/* the contend screen's rows (in text_lines): its pairs from row pair0, its type lines from
	 * row type0 */
	size_t pair0, type0;
	/* the list shows only these lines (a contend row's), NULL: all; q shows all again */
	uint32_t *filter;
	size_t nr_filter;
	char filter_name[256];
	/* the sort menu */
	struct tui_list menu;
	/* search */
	int prompt;                        /* typing a query */
	char query[TUI_QUERY_MAX];
	size_t qlen;
	char last[TUI_QUERY_MAX];          /* the last query run */
	char msg[256];                     /* message line */
};

/* Set up the list for @m (display mode and coalescing from how it was built). */
void tui_view_init(struct tui_view *v, struct tui_model *m, int rows, int cols);
void tui_view_release(struct tui_view *v);
/* The model @old was replaced by @m (another coalescing): re-order, keep the open line and the
 * selection by address. */
void tui_view_rebuild(struct tui_view *v, struct tui_model *old, struct tui_model *m);
void tui_view_resize(struct tui_view *v, struct tui_model *m, int rows, int cols);
/* Hand over the lines of the source file asked for (NULL: unreadable); the view owns them. */
void tui_view_set_source(struct tui_view *v, char **text, size_t nr);

/* One key binding: the key, how help names it (NULL: an alias shown with the first), the
 * screens it works on (a TUI_ON_* mask), what it does. */
enum { TUI_ON_LIST = 1, TUI_ON_LINE = 2, TUI_ON_OTHER = 4, TUI_ON_ALL = 7 };
struct tui_binding {
	int key;
	const char *keys;
	int on;
	const char *help;
	int action;
};
extern const struct tui_binding tui_bindings[];   /* ends with key 0 */

enum tui_result tui_view_key(struct tui_view *v, struct tui_model *m, int key);

static inline enum tui_screen_id tui_view_screen(const struct tui_view *v)
{
	return v->stack[v->depth - 1];
}

/* Rows available to a scrolling body (screen minus title, panel, header and status lines). */
/* Rows of the list screen the warning takes, under its title: all of it (at most 6 lines) on a
 * screen of 20 rows or more, its first line on a smaller one. */
int tui_view_warn_rows(const struct tui_view *v);
int tui_view_body_rows(const struct tui_view *v, enum tui_screen_id s);

/* The open line and the selected row of it, or NULL. */
const struct rm_line *tui_view_line(const struct tui_view *v, const struct tui_model *m);
const struct rm_row *tui_view_row(const struct tui_view *v, const struct tui_model *m);

/* The sortable columns of the list in menu order: TUI_SORT_COST, TUI_SORT_ADDRESS, then the
 * model's line columns. Returns how many; @out (room for RM_COL__NR + 2) gets them. */
size_t tui_sort_keys(const struct tui_model *m, int *out);
/* The name a sort key has in the menu and the title. */
const char *tui_sort_name(const struct tui_model *m, int key);

#endif
