/* view: all state of the browser and the pure controller that maps keys to actions.
 *
 * struct tui_view holds what the user changed (the screen stack, selections, scroll, sort column,
 * display mode, coalescing choice, search); the model (tui/model.h) is never written. Keys are
 * the TUI_KEY_* codes below (term.c translates curses keys into them) and go through one binding
 * table to actions; tui_view_key() returns what the main loop must do next. Nothing here touches
 * the terminal, so tests drive it with key sequences. */
#ifndef C2C_TUI_VIEW_H
#define C2C_TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "report/cltable-view.h"
#include "tui/list.h"
#include "tui/model.h"

/* Key codes: printable characters are themselves, special keys live above 0x10000. */
enum {
	TUI_KEY_ESC = 27,
	TUI_KEY_ENTER = '\n',
	TUI_KEY_UP = 0x10000, TUI_KEY_DOWN, TUI_KEY_LEFT, TUI_KEY_RIGHT,
	TUI_KEY_PGUP, TUI_KEY_PGDN, TUI_KEY_HOME, TUI_KEY_END,
	TUI_KEY_BACKSPACE, TUI_KEY_RESIZE, TUI_KEY_WHEEL_UP, TUI_KEY_WHEEL_DOWN,
};

enum tui_screen_id {
	TUI_SCR_LIST,      /* the cacheline list */
	TUI_SCR_LINE,      /* one line's offset Pareto */
	TUI_SCR_SOURCE,    /* source around a code address */
	TUI_SCR_STATS,     /* Trace Event / Global Shared Cache Line information */
	TUI_SCR_HELP,
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
/* Parse a -c value ("tid,iaddr"); 0 or -EINVAL. */
int tui_coalesce_parse(const char *s, struct tui_coalesce *out);

#define TUI_STACK_MAX 8
#define TUI_QUERY_MAX 128

struct tui_view {
	enum tui_screen_id stack[TUI_STACK_MAX];
	int depth;                         /* stack[depth - 1] is on screen */
	int rows, cols;                    /* screen size */
	enum cltab_display display;
	enum cltv_col sort;
	int coalesce;                      /* index into tui_coalesce_presets, -1: from -c */
	char coalesce_name[64];
	int node_info;                     /* 0, 1, 2: perf's -N levels in the Pareto */
	int hscroll;                       /* columns scrolled right in wide tables */
	/* the cacheline list */
	struct cltab_line **line;
	size_t nr_line;
	uint32_t *rank;                    /* by cltab_line.index: position in the mode's order */
	struct tui_list list;
	/* the open line */
	const struct cltab_line *open;
	uint32_t *off;                     /* indexes into open->off */
	size_t nr_off;
	struct tui_list detail;
	/* the source view */
	char *src_file;                    /* file asked for (owned) */
	uint32_t src_line;
	char **src_text;                   /* owned lines, NULL: unreadable */
	size_t nr_src;
	struct tui_list source;
	struct tui_list text;              /* stats and help scroll */
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
/* After the model was rebuilt: refilter, keep the open line and selection by address. */
void tui_view_rebuild(struct tui_view *v, struct tui_model *m);
void tui_view_resize(struct tui_view *v, int rows, int cols);
/* Hand over the lines of the source file asked for (NULL: unreadable); the view owns them. */
void tui_view_set_source(struct tui_view *v, char **text, size_t nr);

/* One key binding: the key, how help names it (NULL: an alias shown with the first), what it does. */
struct tui_binding {
	int key;
	const char *keys;
	const char *help;
	int action;
};
extern const struct tui_binding tui_bindings[];   /* ends with key 0 */

enum tui_result tui_view_key(struct tui_view *v, struct tui_model *m, int key);

static inline enum tui_screen_id tui_view_screen(const struct tui_view *v)
{
	return v->stack[v->depth - 1];
}

/* Rows available to a scrolling body (screen minus title, header and status lines). */
int tui_view_body_rows(const struct tui_view *v, enum tui_screen_id s);

/* The selected offset row of the open line, or NULL. */
const struct cltab_offset *tui_view_offset(const struct tui_view *v);

#endif
