/* sections: the titled blocks of rows a report shows beside its cacheline tables (the run
 * header, program regions, AMD uncore, both TopDown methods, a soft or watch run's totals),
 * built once from what aggregate/ and lib/ compute (the rm_sec_* builders, sections-build.c)
 * and shown by every printer: report/stdio/sections.c as "# " comment lines, the TUI's
 * statistics screen, JSON. As rm_model.stats does for perf's run totals, the rows hold values,
 * not finished lines, so each printer lays them out its way.
 *
 * A row is prose (TEXT, BLANK), a label with its value (PAIR) or a table row over the
 * section's columns (HEAD: the column names; CELLS: one cell per column). Rows of a ranked
 * list (the costliest lines and functions of TopDown) carry their place, 1 up, so a printer
 * shows as many as it has room for; every other row has rank 0 and is always shown.
 *
 * Ownership: an rm_sections owns its sections, a section its title, columns, rows and their
 * strings (copies), until rm_sections_free(). Not thread-safe. */
#ifndef C2C_REPORT_MODEL_SECTIONS_H
#define C2C_REPORT_MODEL_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

enum rm_section_id {
	RM_SEC_HEADER,               /* the run header: input, host, events, counts */
	RM_SEC_REGIONS,              /* program regions (c2c-region markers) */
	RM_SEC_UNCORE,               /* AMD L3 and DF counts of the run */
	RM_SEC_TOPDOWN,              /* TopDown in the sampling group (Intel) */
	RM_SEC_TOPDOWN_TIME,         /* TopDown beside IBS/SPE, attributed by time */
	RM_SEC_RUN,                  /* soft and watch: samples, recovered, reasons */
	RM_SEC__NR,
};

enum rm_scol_flags {
	RM_SCOL_LEFT = 1 << 0,       /* left-aligned (text) */
	RM_SCOL_CUT = 1 << 1,        /* text cut at the width */
	RM_SCOL_PCT = 1 << 2,        /* a number followed by '%' (inside the width) */
};

struct rm_scol {
	char *name;                  /* the header; "" for a column without one */
	int width, prec;             /* prec: digits after the point of RM_CELL_NUM */
	unsigned flags;              /* enum rm_scol_flags */
};

enum rm_cell_kind { RM_CELL_NONE, RM_CELL_TEXT, RM_CELL_U64, RM_CELL_NUM };

struct rm_scell {
	enum rm_cell_kind kind;      /* NONE: blank (nothing at the end of a row) */
	char *text;
	uint64_t u;
	double num;
};

enum rm_srow_kind { RM_SROW_TEXT, RM_SROW_BLANK, RM_SROW_PAIR, RM_SROW_HEAD, RM_SROW_CELLS };

enum rm_srow_flags {
	RM_SROW_WRAP = 1 << 0,       /* long text: the text report wraps it at 90 columns */
};

struct rm_srow {
	enum rm_srow_kind kind;
	int indent;                  /* 0, or 1 under a title */
	unsigned flags;              /* enum rm_srow_flags */
	char *label;                 /* PAIR: without the colon */
	char *text;                  /* TEXT; PAIR: the value */
	struct rm_scell *cell;       /* CELLS: [section's nr_col] */
	uint32_t rank;               /* 0, or the place in a ranked list */
};

struct rm_section {
	enum rm_section_id id;
	char *title;                 /* NULL: none */
	struct rm_scol *col;
	size_t nr_col, cap_col;
	struct rm_srow *row;
	size_t nr_row, cap_row;
	int label_width;             /* PAIR labels (with their colon) padded to it in text */
	int blank_after;             /* the text report leaves a blank line after it */
};

struct rm_sections {
	struct rm_section *sec[RM_SEC__NR];   /* NULL: not built (nothing to show) */
};

struct rm_sections *rm_sections_new(void);
void rm_sections_free(struct rm_sections *ss);
/* The section @id, or NULL (also for a NULL @ss). */
const struct rm_section *rm_sections_get(const struct rm_sections *ss, enum rm_section_id id);
/* A JSON-friendly name of @id ("topdown_by_time"). */
const char *rm_section_name(enum rm_section_id id);

/* Building: a new section @id (replacing one built before) titled @fmt (NULL: none), then
 * its columns and rows in order. */
struct rm_section *rm_section_add(struct rm_sections *ss, enum rm_section_id id,
				  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rm_section_col(struct rm_section *sec, const char *name, int width, int prec,
		    unsigned flags);
void rm_section_text(struct rm_section *sec, int indent, unsigned flags, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void rm_section_blank(struct rm_section *sec);
void rm_section_pair(struct rm_section *sec, unsigned flags, const char *label,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void rm_section_head(struct rm_section *sec, int indent);
/* A CELLS row: its cells, all NONE, for the caller to fill with rm_scell_*(). Valid until the
 * next row is added. */
struct rm_scell *rm_section_cells(struct rm_section *sec, int indent, uint32_t rank);
void rm_scell_text(struct rm_scell *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rm_scell_u64(struct rm_scell *c, uint64_t v);
void rm_scell_num(struct rm_scell *c, double v);

/* Whether row @r shows when a printer has room for @top rows of each ranked list. */
int rm_srow_shown(const struct rm_srow *r, size_t top);
/* The columns of a HEAD or CELLS row as one line of text (no indent, no newline), at the
 * columns' widths with one space between; cut at @n. Returns the length snprintf() would. */
int rm_srow_cells_text(const struct rm_section *sec, const struct rm_srow *r, char *buf,
		       size_t n);

#endif
