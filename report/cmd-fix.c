/* `c2c-lite fix`: the false-sharing findings of a trace as a patch of their declarations
 * (report/fix/). The report session reads the trace as `report` does; each finding's plan gets
 * its declarations from the debug info (sym_decl()), and the patch goes to stdout or -o. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "c2c/xalloc.h"
#include "report/fix/fix.h"
#include "report/model/session.h"
#include "report/resolve/maps.h"
#include "report/resolve/symbols.h"

static const char fix_usage[] =
	"usage: c2c-lite fix [options]\n"
	"\n"
	"Write a patch that separates what different threads write, for each false-sharing\n"
	"finding whose declaration is in your sources: align each thread's first member, the\n"
	"elements of an array, or adjacent variables, to the cacheline. patch -p1 (or git apply)\n"
	"in the source root takes it.\n"
	"\n"
	"  -i, --input FILE        the trace (default: c2c-lite.data)\n"
	"      --src DIR           the source root (default: the compile directory DWARF names)\n"
	"  -o, --output FILE       write the patch to FILE (default: stdout)\n"
	"      --dry-run           list what would change, one line per change, and write no patch\n"
	"      --double-cl         align to twice the cacheline (perf's --double-cl)\n"
	"  -v, --verbose           more messages\n"
	"  -q, --quiet             errors only\n"
	"  -h, --help              this text ('c2c-lite help fix': the manual)\n";

struct fix_cmd_opts {
	const char *input, *src, *output;
	int dry_run, double_cl;
};

enum { OPT_SRC = 256, OPT_DRY_RUN, OPT_DOUBLE_CL };

static int parse_opts(struct fix_cmd_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "input", required_argument, NULL, 'i' }, { "src", required_argument, NULL, OPT_SRC },
		{ "output", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "double-cl", no_argument, NULL, OPT_DOUBLE_CL },
		{ "verbose", no_argument, NULL, 'v' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = c2c_getopt(argc, argv, "i:o:vqh", lopts)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; break;
		case OPT_SRC: o->src = optarg; break;
		case 'o': o->output = optarg; break;
		case OPT_DRY_RUN: o->dry_run = 1; break;
		case OPT_DOUBLE_CL: o->double_cl = 1; break;
		case 'v': c2c_log_set_level(C2C_LOG_DEBUG); break;
		case 'q': c2c_log_set_level(C2C_LOG_ERROR); break;
		case 'h': fputs(fix_usage, stdout); return -1;
		default: return EXIT_USAGE;     /* c2c_getopt() said why */
		}
	}
	if (optind < argc) {
		c2c_usage("fix takes no arguments ('%s'); the trace is -i FILE", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}

/* Source texts and canonical paths, kept until the end: fix_opts.read's callee. */
struct texts {
	char **s;
	size_t nr, cap;
};

static const char *keep(struct texts *t, char *s)
{
	t->s = xgrow(t->s, &t->cap, t->nr + 1, sizeof(*t->s));
	return t->s[t->nr++] = s;
}

static const char *read_text(void *ctx, const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &n, '\0', f) < 0) {
		free(buf);
		buf = xstrdup("");
	}
	fclose(f);
	return keep(ctx, buf);
}

/* @p's file made canonical (symbolic links, "..") so that it compares with the root. */
static void canon(struct texts *t, struct fix_pos *p, const char *file, uint32_t line)
{
	char *r = file ? realpath(file, NULL) : NULL;

	p->file = r ? keep(t, r) : file;
	p->line = line;
}

static enum fix_lang lang_of(enum sym_lang l, const char **name)
{
	static const char *const names[] = { [SYM_LANG_GO] = "Go", [SYM_LANG_FORTRAN] = "Fortran",
					     [SYM_LANG_OTHER] = "this language's",
					     [SYM_LANG_UNKNOWN] = "this language's" };

	switch (l) {
	case SYM_LANG_C: return FIX_LANG_C;
	case SYM_LANG_CXX: return FIX_LANG_CXX;
	case SYM_LANG_RUST: return FIX_LANG_RUST;
	default:
		*name = l < sizeof(names) / sizeof(names[0]) ? names[l] : NULL;
		return FIX_LANG_OTHER;
	}
}

/* The query of @row's data on line @l: its data and code mappings. */
static void query(const struct report_session *s, const struct rm_line *l,
		  const struct rm_row *row, struct sym_decl_query *q)
{
	struct maps_loc dl = {0}, cl = {0};
	uint64_t addr = l->vaddr + row->offset;

	memset(q, 0, sizeof(*q));
	q->addr = addr;
	q->ip = row->code.ip;
	q->type = row->type;
	if (row->thread && maps_find(s->maps, row->thread, MAPS_CPUMODE_USER, addr, &dl) && dl.map)
		q->data_map = &dl.map->mmap;
	if (row->thread && maps_find_any(s->maps, row->thread, row->code.ip, &cl) && cl.map)
		q->code_map = &cl.map->mmap;
}

/* The declarations of plan @p: 0, or -ENOENT when the debug info has none. */
static int lookup(const struct report_session *s, struct texts *t, const struct fix_plan *p,
		  struct fix_decl *d, const char **comp_dir)
{
	const struct rm_line *l = p->f->line[0];
	struct sym_decl_query q;
	struct sym_decl sd, one;
	struct sym_decl_pos pos;

	memset(d, 0, sizeof(*d));
	query(s, l, p->row, &q);
	if (!s->sym || sym_decl(s->sym, &q, &sd))
		return -ENOENT;
	d->lang = lang_of(sd.type_name ? sd.lang : (enum sym_lang)p->row->lang, &d->lang_name);
	d->old_std = sd.old_std;
	canon(t, &d->var, sd.var.file, sd.var.line);
	canon(t, &d->type, sd.type.file, sd.type.line);
	canon(t, &d->first, sd.first.file, sd.first.line);
	d->first_name = sd.first_name;
	d->type_name = sd.type_name;
	d->var_name = sd.var_name;
	*comp_dir = sd.comp_dir;
	for (size_t i = 0; p->kind == FIX_MEMBERS && i < p->nr; i++)
		if (!sym_decl_member(s->sym, &sd, p->g[i].name, &pos))
			canon(t, &d->grp[i], pos.file, pos.line);
	for (size_t i = 0; p->kind == FIX_VARIABLES && i < p->nr; i++) {
		query(s, l, p->g[i].row, &q);
		if (!sym_decl(s->sym, &q, &one))
			canon(t, &d->grp[i], one.var.file, one.var.line);
	}
	return 0;
}

struct planned {
	struct fix_plan p;
	struct fix_decl d;
	int found;
};

static int write_out(const struct fix_cmd_opts *o, const struct fix_set *set)
{
	FILE *f = stdout;
	char *diff;
	int refused, err = 0;

	for (size_t i = 0; i < fix_nr_notes(set); i++) {
		const char *n = fix_note(set, i, &refused);

		if (o->dry_run)
			printf("%s\n", n);
		else if (refused)
			fprintf(stderr, "c2c-lite: %s\n", n);
	}
	if (o->dry_run)
		return fflush(stdout) ? -EIO : 0;
	if (o->output && !(f = fopen(o->output, "w")))
		return c2c_err(-errno, "cannot open '%s': %s", o->output, strerror(errno));
	diff = fix_diff(set);
	fputs(diff, f);
	free(diff);
	if (ferror(f) || (f == stdout ? fflush(f) : fclose(f)))
		err = -EIO;
	return err;
}

/* The root: --src, else the compile directory of the first declaration found. */
static char *root_of(const struct fix_cmd_opts *o, const char *comp_dir)
{
	const char *r = o->src ? o->src : comp_dir ? comp_dir : ".";
	char *c = realpath(r, NULL);

	if (!c)
		c2c_err(-errno, "cannot use '%s' as the source root: %s", r, strerror(errno));
	return c;
}

static int run(const struct fix_cmd_opts *o, struct report_session *s)
{
	struct planned *pl = xcalloc(s->fs->nr + 1, sizeof(*pl));
	struct texts t = {0};
	const char *comp_dir = NULL, *cd;
	struct fix_set *set;
	char *root;
	int err;

	for (size_t i = 0; i < s->fs->nr; i++) {
		fix_plan(s->m, &s->fs->f[i], &pl[i].p);
		if (pl[i].p.kind != FIX_NONE && !lookup(s, &t, &pl[i].p, &pl[i].d, &cd)) {
			pl[i].found = 1;
			comp_dir = comp_dir ? comp_dir : cd;
		}
	}
	if (!(root = root_of(o, comp_dir))) {
		free(pl);
		return -ENOENT;
	}
	set = fix_new(&(struct fix_opts){ .root = root, .read = read_text, .ctx = &t,
				.align = s->cl_size * (o->double_cl ? 2 : 1) });
	for (size_t i = 0; i < s->fs->nr; i++)
		fix_add(set, &pl[i].p, pl[i].found ? &pl[i].d : NULL);
	if (!s->fs->nr)
		c2c_info("no finding in '%s': nothing to fix", o->input);
	err = write_out(o, set);
	fix_free(set);
	for (size_t i = 0; i < t.nr; i++)
		free(t.s[i]);
	free(t.s);
	free(root);
	free(pl);
	return err;
}

int cmd_fix(int argc, char **argv)
{
	struct fix_cmd_opts o = { .input = "c2c-lite.data" };
	struct report_session *s = NULL;
	int ret = parse_opts(&o, argc, argv);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (rs_open(&s, &(struct rs_opts){ .input = o.input, .display = -1, .no_topdown = 1,
					   .no_callchains = 1 }))
		return EXIT_FAIL;
	ret = run(&o, s);
	rs_free(s);
	return ret ? EXIT_FAIL : EXIT_OK;
}
