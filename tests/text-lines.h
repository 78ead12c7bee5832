/* Helpers of the suites that check the model's text builders (report/model/text.h): collect the
 * lines a front end is handed, joined with a newline after each, and compare them with what the
 * text report prints. Include after <cmocka.h>. */
#ifndef C2C_TESTS_TEXT_LINES_H
#define C2C_TESTS_TEXT_LINES_H

#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"

struct text_lines {
	char *s;                 /* the lines, each ended by a newline */
	size_t len, n;
};

/* An rm_put_fn into the struct text_lines @ctx: a handed line never holds a newline. */
static inline void text_lines_put(void *ctx, const char *text)
{
	struct text_lines *j = ctx;
	size_t k = strlen(text);

	assert_null(strchr(text, '\n'));
	j->s = xrealloc(j->s, j->len + k + 2);
	memcpy(j->s + j->len, text, k);
	j->len += k;
	j->s[j->len++] = '\n';
	j->s[j->len] = 0;
	j->n++;
}

/* The lines are the text @printed, one per printed line; frees them. */
static inline void text_lines_check(struct text_lines *j, const char *printed)
{
	size_t nl = 0;

	for (const char *p = printed; *p; p++)
		nl += *p == '\n';
	assert_int_equal(j->n, nl);
	assert_string_equal(j->s ? j->s : "", printed);
	free(j->s);
	*j = (struct text_lines){ 0 };
}

#endif
