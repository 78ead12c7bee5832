/* The line buffer of the model's text builders (see text.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "c2c/xalloc.h"
#include "report/model/text.h"

void rm_text_init(struct rm_text *t, rm_put_fn *put, void *ctx)
{
	*t = (struct rm_text){ .put = put, .ctx = ctx };
}

void rm_text_release(struct rm_text *t)
{
	if (!t)
		return;
	free(t->s);
	t->s = NULL;
	t->len = t->cap = 0;
}

void rm_text_addf(struct rm_text *t, const char *fmt, ...)
{
	size_t room = t->cap - t->len;
	va_list ap;
	int n;

	/* most pieces fit what earlier lines grew the buffer to: format once */
	va_start(ap, fmt);
	n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? room : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (!t->s || (size_t)n >= room) {
		t->s = xgrow(t->s, &t->cap, t->len + (size_t)n + 1, 1);
		va_start(ap, fmt);
		vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	t->len += (size_t)n;
}

void rm_text_end(struct rm_text *t)
{
	t->put(t->ctx, t->s ? t->s : "");
	t->len = 0;
	if (t->s)
		*t->s = 0;
}
