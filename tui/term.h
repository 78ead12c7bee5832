/* term: the only file that touches curses. It owns initscr/endwin, colours (monochrome when the
 * terminal has none or NO_COLOR is set), key translation to TUI_KEY_* codes, resize, and restoring
 * the terminal on every way out: normal return, errors, SIGINT/SIGTERM/SIGHUP, and exit(). */
#ifndef C2C_TUI_TERM_H
#define C2C_TUI_TERM_H

#include "tui/draw.h"

struct tui_term;

/* Enter curses mode on the terminal. 0 or -ENOTTY. */
int tui_term_open(struct tui_term **out);
/* Leave curses mode (idempotent) and free. NULL is a no-op. */
void tui_term_close(struct tui_term *t);
/* The screen to draw into; its size follows the terminal. */
struct tui_screen *tui_term_screen(struct tui_term *t);
/* Show what was drawn. */
void tui_term_flush(struct tui_term *t);
/* One line in the middle of an otherwise blank screen (progress while loading). */
void tui_term_message(struct tui_term *t, const char *text);
/* Wait for a key (up to a quarter second): a TUI_KEY_* code, or -1 when none came. */
int tui_term_key(struct tui_term *t);
/* A termination signal arrived: the caller should leave. */
int tui_term_interrupted(const struct tui_term *t);
/* After tui_term_close(): die of the termination signal that arrived, if one did, so the parent
 * sees it (the shell's 130 for Ctrl-C). Returns when there was none. */
void tui_term_reraise(void);

#endif
