/* Loading a model: the event source is read once, every record fed to the cacheline table, then
 * the table is finished with show_all so display-mode switches need no second pass. The plumbing
 * mirrors what `report` does with the same public APIs. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/advice.h"
#include "report/maps.h"
#include "report/source.h"
#include "report/symbols.h"
#include "tui/model.h"

#define TUI_PROGRESS_EVERY 65536

static int tui_sym_code(void *ctx, const struct maps_map *map, uint8_t cpumode, uint64_t ip,
			uint64_t al_ip, struct cltab_code *out)
{
	struct sym_session *s = ctx;
	struct sym_code_info ci;
	int rc;

	(void)cpumode;
	(void)al_ip;
	if (!map)
		return -ENOENT;
	if (map->dso->kernel)
		rc = sym_kernel_code(s, ip, &ci);
	else
		rc = sym_code(s, &map->mmap, ip, &ci);
	if (rc)
		return rc;
	out->symbol = ci.symbol;
	out->sym_offset = ci.sym_offset;
	out->srcfile = ci.srcfile;
	out->line = ci.line;
	return 0;
}

static enum cltab_display tui_default_display(const struct trace_info *info, int asked)
{
	if (asked >= 0)
		return (enum cltab_display)asked;
	/* perf defaults to peer snoops on arm64 (c2c-semantics.md §5.1) */
	if (info->arch && (!strcmp(info->arch, "aarch64") || !strcmp(info->arch, "arm64")))
		return CLTAB_DISPLAY_PEER;
	return CLTAB_DISPLAY_TOT;
}

/* perf uses the cacheline size of the machine running the report (c2c-semantics.md §3.1). */
static uint32_t tui_host_cl_size(const struct trace_info *info)
{
	long v = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	if (v > 0)
		return (uint32_t)v;
	return info->cacheline_size ? info->cacheline_size : 64;
}

static struct cltab *tui_new_table(struct tui_model *m, const struct trace_info *info)
{
	struct cltab_opts co = {
		.cl_size = m->opts.cl_size ? m->opts.cl_size : tui_host_cl_size(info),
		.display = m->display,
		.nr_coalesce = m->opts.nr_coalesce,
		.show_all = 1,
		.nr_cpus = info->nr_cpus,
		.cpu_node = info->cpu_node,
		.nr_nodes = info->nr_nodes,
		.mem_ranges = info->mem_ranges,
		.nr_mem_ranges = info->nr_mem_ranges,
		.sym = m->sym ? tui_sym_code : NULL,
		.sym_ctx = m->sym,
	};

	memcpy(co.coalesce, m->opts.coalesce, sizeof(co.coalesce));
	return cltab_new(&co);
}

static int tui_feed_all(struct tui_model *m, tui_progress_fn progress, void *ctx, uint64_t size)
{
	struct trace_event ev;
	int rc;

	while ((rc = source_next(m->src, &ev)) > 0) {
		if (ev.type == TRACE_REC_BLOB && ev.blob.kind == TRACE_BLOB_KALLSYMS && m->sym)
			sym_session_add_kallsyms(m->sym, ev.blob.data, ev.blob.size);
		cltab_feed(m->t, m->maps, &ev);
		if (++m->records % TUI_PROGRESS_EVERY == 0 && progress && progress(ctx, m->records, size))
			return c2c_err(-EINTR, "loading '%s' interrupted", m->opts.input);
	}
	if (rc < 0)
		return rc;
	m->truncated = source_truncated(m->src);
	return 0;
}

int tui_model_load(struct tui_model **out, const struct tui_load_opts *o, tui_progress_fn progress,
		   void *ctx)
{
	struct tui_model *m = xcalloc(1, sizeof(*m));
	struct sym_opts so = { .symfs = o->symfs, .vmlinux = o->vmlinux, .use_proc_kallsyms = 1 };
	struct stat st;
	int rc;

	m->opts = *o;
	m->owns_table = 1;
	rc = source_open(&m->src, o->input);
	if (rc)
		goto err;
	m->path = source_path(m->src);
	m->info = source_info(m->src);
	m->display = tui_default_display(m->info, o->display);
	so.kernel_release = m->info->kernel_release;
	if (sym_session_new(&m->sym, &so))
		m->sym = NULL;   /* reported through the log hook; symbols show as addresses */
	m->maps = maps_new();
	m->t = tui_new_table(m, m->info);
	rc = tui_feed_all(m, progress, ctx, stat(o->input, &st) ? 0 : (uint64_t)st.st_size);
	if (rc)
		goto err;
	cltab_finish(m->t);
	*out = m;
	return 0;
err:
	tui_model_free(m);
	return rc;
}

struct tui_model *tui_model_wrap(struct cltab *t, enum cltab_display display)
{
	struct tui_model *m = xcalloc(1, sizeof(*m));

	m->t = t;
	m->display = display;
	m->opts.display = (int)display;
	memcpy(m->opts.coalesce, cltab_opts(t)->coalesce, sizeof(m->opts.coalesce));
	m->opts.nr_coalesce = cltab_opts(t)->nr_coalesce;
	return m;
}

void tui_model_free(struct tui_model *m)
{
	if (!m)
		return;
	if (m->owns_table)
		cltab_free(m->t);
	maps_free(m->maps);
	sym_session_free(m->sym);
	source_free(m->src);
	free(m);
}

const char *tui_model_data_name(struct tui_model *m, const struct cltab_line *l,
				const struct cltab_offset *o, char *buf, size_t size)
{
	struct advice_sym_ctx ctx = { .sym = m->sym, .maps = m->maps };
	struct sym_data_info di;

	if (!m->sym || advice_sym_data(&ctx, l, o, o ? l->addr + o->offset : l->addr, &di) < 0 ||
	    !di.var)
		return NULL;
	/* the member path starts with the variable's name ("buf1.lock0") */
	if (di.member && *di.member)
		snprintf(buf, size, "%s", di.member);
	else if (di.var_offset)
		snprintf(buf, size, "%s+%llu", di.var, (unsigned long long)di.var_offset);
	else
		snprintf(buf, size, "%s", di.var);
	return buf;
}

const char *tui_model_line_name(struct tui_model *m, const struct cltab_line *l, char *buf,
				size_t size)
{
	return tui_model_data_name(m, l, l->nr_off ? l->off[0] : NULL, buf, size);
}
