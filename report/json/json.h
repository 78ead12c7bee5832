/* json: the machine-readable front ends over the report model, for every backend.
 *
 * --json writes one JSON document, schema "c2c-lite-report" version 1 (docs/report-json.md
 * describes it, docs/report-schema.json is its JSON Schema): the header, the statistics, the
 * declared columns, the lines with their rows, members, line maps and verdicts, and the
 * findings. --csv writes one table as RFC 4180 CSV with a header row: the lines (one row per
 * line), the rows (one per offset row, with its line's index and address) or the members. */
#ifndef C2C_REPORT_JSON_JSON_H
#define C2C_REPORT_JSON_JSON_H

#include <stdio.h>

#include "report/model/session.h"

#define REPORT_JSON_VERSION 3   /* 2: code.ip of soft rows is the access; 3: sections
				 * (docs/report-json.md) */

/* The document of session @s. 0, or -EIO. */
int json_print(FILE *f, const struct report_session *s);

enum csv_table { CSV_LINES, CSV_ROWS, CSV_MEMBERS };
/* "lines", "rows", "members" -> the table; -1 when unknown. */
int csv_table_parse(const char *s);
int csv_print(FILE *f, const struct report_session *s, enum csv_table t);

#endif
