/* The curses side of the TUI (see tui/term.h). Signal handlers only set a flag: the main loop polls
 * keys with a timeout, sees the flag and leaves through the one cleanup path, which calls endwin().
 * An atexit() hook covers exits that skip that path. */
#define _GNU_SOURCE
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#include "tui/term.h"
#include "tui/view.h"

struct tui_term {
	struct tui_screen scr;
	SCREEN *sp;
	chtype attr[TUI_ATTR__NR];
	struct sigaction old_int, old_term, old_hup;
};

static volatile sig_atomic_t tui_signalled;
static int tui_in_curses;

static void tui_on_signal(int sig)
{
	tui_signalled = sig;
}

static void tui_atexit(void)
{
	if (tui_in_curses) {
		tui_in_curses = 0;
		endwin();
	}
}

static void tui_term_colours(struct tui_term *t)
{
	static const chtype mono[TUI_ATTR__NR] = {
		[TUI_ATTR_NORMAL] = A_NORMAL, [TUI_ATTR_TITLE] = A_REVERSE | A_BOLD,
		[TUI_ATTR_HEADER] = A_BOLD | A_UNDERLINE, [TUI_ATTR_SELECT] = A_REVERSE,
		[TUI_ATTR_HOT] = A_BOLD, [TUI_ATTR_STATUS] = A_REVERSE,
	};
	const char *no = getenv("NO_COLOR");

	memcpy(t->attr, mono, sizeof(mono));
	if (!has_colors() || (no && *no) || start_color() == ERR)
		return;
	use_default_colors();
	init_pair(1, COLOR_WHITE, COLOR_BLUE);
	init_pair(2, COLOR_CYAN, -1);
	init_pair(3, COLOR_BLACK, COLOR_CYAN);
	init_pair(4, COLOR_RED, -1);
	init_pair(5, COLOR_BLACK, COLOR_WHITE);
	t->attr[TUI_ATTR_TITLE] = COLOR_PAIR(1) | A_BOLD;
	t->attr[TUI_ATTR_HEADER] = COLOR_PAIR(2) | A_BOLD;
	t->attr[TUI_ATTR_SELECT] = COLOR_PAIR(3);
	t->attr[TUI_ATTR_HOT] = COLOR_PAIR(4) | A_BOLD;
	t->attr[TUI_ATTR_STATUS] = COLOR_PAIR(5);
}

static void tui_term_put(void *ctx, int row, enum tui_attr a, const char *text)
{
	struct tui_term *t = ctx;
	int y, x;

	attrset(t->attr[a]);
	mvaddstr(row, 0, text);
	getyx(stdscr, y, x);
	if (y == row && x < COLS)
		mvhline(row, x, ' ' | t->attr[a], COLS - x);
	attrset(A_NORMAL);
}

static void tui_term_signals(struct tui_term *t)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &t->old_int);
	sigaction(SIGTERM, &sa, &t->old_term);
	sigaction(SIGHUP, &sa, &t->old_hup);
}

int tui_term_open(struct tui_term **out)
{
	struct tui_term *t;
	static int registered;
	SCREEN *sp;

	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		return -ENOTTY;
	sp = newterm(NULL, stdout, stdin);
	if (!sp)
		return -ENOTTY;
	t = xcalloc(1, sizeof(*t));
	t->sp = sp;
	tui_in_curses = 1;
	if (!registered++)
		atexit(tui_atexit);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(250);
	mousemask(BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	tui_term_colours(t);
	tui_term_signals(t);
	t->scr.put = tui_term_put;
	t->scr.ctx = t;
	*out = t;
	return 0;
}

void tui_term_close(struct tui_term *t)
{
	if (!t)
		return;
	tui_atexit();
	delscreen(t->sp);
	sigaction(SIGINT, &t->old_int, NULL);
	sigaction(SIGTERM, &t->old_term, NULL);
	sigaction(SIGHUP, &t->old_hup, NULL);
	free(t);
}

struct tui_screen *tui_term_screen(struct tui_term *t)
{
	t->scr.rows = LINES;
	t->scr.cols = COLS;
	return &t->scr;
}

void tui_term_flush(struct tui_term *t)
{
	(void)t;
	refresh();
}

void tui_term_message(struct tui_term *t, const char *text)
{
	char clip[512];

	erase();
	tui_clip(text, 0, COLS, clip, sizeof(clip));
	tui_term_put(t, LINES / 2, TUI_ATTR_NORMAL, clip);
	refresh();
}

int tui_term_interrupted(const struct tui_term *t)
{
	(void)t;
	return tui_signalled != 0;
}

void tui_term_reraise(void)
{
	int sig = tui_signalled;

	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

static int tui_term_mouse(void)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return -1;
	if (ev.bstate & BUTTON4_PRESSED)
		return TUI_KEY_WHEEL_UP;
	if (ev.bstate & BUTTON5_PRESSED)
		return TUI_KEY_WHEEL_DOWN;
	return -1;
}

int tui_term_key(struct tui_term *t)
{
	int c = getch();

	(void)t;
	switch (c) {
	case ERR: return -1;
	case KEY_UP: return TUI_KEY_UP;
	case KEY_DOWN: return TUI_KEY_DOWN;
	case KEY_LEFT: return TUI_KEY_LEFT;
	case KEY_RIGHT: return TUI_KEY_RIGHT;
	case KEY_PPAGE: return TUI_KEY_PGUP;
	case KEY_NPAGE: return TUI_KEY_PGDN;
	case KEY_HOME: return TUI_KEY_HOME;
	case KEY_END: return TUI_KEY_END;
	case KEY_BACKSPACE: case 127: case 8: return TUI_KEY_BACKSPACE;
	case KEY_ENTER: case '\r': case '\n': return TUI_KEY_ENTER;
	case KEY_RESIZE: return TUI_KEY_RESIZE;
	case KEY_F(3): return TUI_KEY_F3;
	case KEY_F(15): return TUI_KEY_SHIFT_F3;   /* what terminfo calls Shift-F3 */
	case KEY_MOUSE: return tui_term_mouse();
	default: return c >= KEY_MIN ? -1 : c;
	}
}
