/* put-line: the FILE adapter of the model's text builders (report/model/text.h): each line
 * they hand over is printed with its newline. */
#ifndef C2C_REPORT_STDIO_PUT_LINE_H
#define C2C_REPORT_STDIO_PUT_LINE_H

/* An rm_put_fn: @ctx is the FILE. Write errors stay in the stream (ferror()). */
void stdio_put_line(void *ctx, const char *text);

#endif
