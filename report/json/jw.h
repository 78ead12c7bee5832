/* jw: a small streaming JSON writer for the machine-readable front ends: objects and arrays
 * opened and closed in order, two-space indentation, strings escaped (bytes that are not UTF-8
 * become U+FFFD), NaN and infinities written as null. */
#ifndef C2C_REPORT_JSON_JW_H
#define C2C_REPORT_JSON_JW_H

#include <stdint.h>
#include <stdio.h>

#define JW_DEPTH 32

struct jw {
	FILE *f;
	int depth;
	int count[JW_DEPTH];     /* members written at each level */
};

void jw_string(FILE *f, const char *s);
/* The separator and, inside an object, "@key": (NULL inside an array). */
void jw_key(struct jw *w, const char *key);
void jw_open(struct jw *w, const char *key, char c);
void jw_close(struct jw *w, char c);
void jw_str(struct jw *w, const char *key, const char *s);     /* NULL: null */
void jw_num(struct jw *w, const char *key, double v);
void jw_u64(struct jw *w, const char *key, uint64_t v);
void jw_bool(struct jw *w, const char *key, int v);
void jw_hex(struct jw *w, const char *key, uint64_t v);       /* "0x..." */

#define jw_obj(w, key) jw_open(w, key, '{')
#define jw_end(w) jw_close(w, '}')
#define jw_arr(w, key) jw_open(w, key, '[')
#define jw_aend(w) jw_close(w, ']')

#endif
