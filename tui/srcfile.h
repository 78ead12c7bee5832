/* srcfile: reading a source file for the source view, line by line. */
#ifndef C2C_TUI_SRCFILE_H
#define C2C_TUI_SRCFILE_H

#include <stddef.h>

/* Read @path (tried under @root first when @root is not NULL) into *lines (each without its
 * newline, the array and the strings owned by the caller) and *nr. 0, or a negative errno;
 * files over 64 MiB give -EFBIG. */
int tui_srcfile_read(const char *path, const char *root, char ***lines, size_t *nr);

#endif
