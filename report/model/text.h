/* text: the line buffer of the model's text builders (the findings summary, the call graph, the
 * line map). A builder writes a line in pieces, then hands the finished line, without its
 * newline, to the front end's put callback: stdio prints it, the TUI keeps it as a list row.
 * Nothing ever splits printed text back into lines.
 *
 * The buffer owns its text; the put callback borrows it for the call only. */
#ifndef C2C_REPORT_MODEL_TEXT_H
#define C2C_REPORT_MODEL_TEXT_H

#include <stddef.h>

/* Receives one finished line (no newline); @text is valid during the call only. */
typedef void rm_put_fn(void *ctx, const char *text);

struct rm_text {
	rm_put_fn *put;
	void *ctx;
	char *s;                 /* the line so far, NUL-terminated once anything was added */
	size_t len, cap;
};

/* Start lines for @put(@ctx); release with rm_text_release(). */
void rm_text_init(struct rm_text *t, rm_put_fn *put, void *ctx);
void rm_text_release(struct rm_text *t);
/* Add to the current line (a format without newlines). */
void rm_text_addf(struct rm_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hand the current line to the callback (an empty line when nothing was added), start anew. */
void rm_text_end(struct rm_text *t);

#endif
