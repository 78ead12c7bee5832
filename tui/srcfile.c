/* Reading a source file for the source view (see tui/srcfile.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c2c/xalloc.h"
#include "tui/srcfile.h"

#define TUI_SRC_MAX (64u << 20)

static FILE *tui_srcfile_open(const char *path, const char *root)
{
	FILE *f = NULL;

	if (root && *root) {
		char *p = xasprintf("%s/%s", root, path);

		f = fopen(p, "r");
		free(p);
	}
	return f ? f : fopen(path, "r");
}

int tui_srcfile_read(const char *path, const char *root, char ***lines, size_t *nr)
{
	FILE *f = tui_srcfile_open(path, root);
	char *line = NULL, **out = NULL;
	size_t cap = 0, n = 0, lcap = 0;
	struct stat st;
	ssize_t len;

	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > TUI_SRC_MAX) {
		fclose(f);
		return S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
	}
	while ((len = getline(&line, &lcap, f)) >= 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		out = xgrow(out, &cap, n + 1, sizeof(*out));
		out[n++] = xstrdup(line);
	}
	free(line);
	fclose(f);
	if (!n) {   /* an empty file is readable: one empty line */
		out = xcalloc(1, sizeof(*out));
		out[n++] = xstrdup("");
	}
	*lines = out;
	*nr = n;
	return 0;
}
