/* The FILE adapter of the model's text builders (see put-line.h). */
#include <stdio.h>

#include "report/stdio/put-line.h"

void stdio_put_line(void *ctx, const char *text)
{
	FILE *f = ctx;

	fputs(text, f);
	fputc('\n', f);
}
