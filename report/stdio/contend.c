/* The contend views in the text reports (see contend.h). */
#include <errno.h>

#include "report/model/contend-text.h"
#include "report/stdio/contend.h"

struct out {
	FILE *f;
	const char *prefix;
	size_t lines;
};

static void put(void *ctx, const char *text)
{
	struct out *o = ctx;

	fprintf(o->f, "%s%s\n", o->prefix, text);
	o->lines++;
}

int stdio_contend_print(FILE *f, const struct rm_model *m, const struct rm_contend *c, size_t top,
			const char *prefix)
{
	struct out o = { f, prefix, 0 };
	size_t before;

	rm_contend_pairs_text(m, c, top, put, &o);
	if (o.lines)
		fprintf(f, "%s\n", prefix[0] == '#' ? "#" : "");
	before = o.lines;
	rm_contend_types_text(m, c, top, put, &o);
	if (o.lines > before)
		fprintf(f, "%s\n", prefix[0] == '#' ? "#" : "");
	return ferror(f) ? -EIO : 0;
}
