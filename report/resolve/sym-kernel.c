/* Kernel addresses. A vmlinux given with -k is used first (symbols, lines, data through DWARF,
 * shifted by the KASLR offset measured on _stext when kallsyms is known too); otherwise the
 * kallsyms text recorded in the trace, else /proc/kallsyms when the options allow it.
 *
 * kallsyms carries no sizes: a symbol is taken to end where the next higher symbol starts, and an
 * address only resolves when its nearest symbol below is of the wanted kind (text: t T w W; data:
 * d D b B r R v V g G s S), so a data address is never named after a function or the reverse. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"

/* A symbol past the last one still matches within this many bytes. */
#define KSYM_TAIL 0x10000

void sym_session_add_kallsyms(struct sym_session *s, const void *text, size_t len)
{
	if (!s || !text)
		return;
	free(s->kallsyms_text);
	s->kallsyms_text = xmalloc(len + 1);
	memcpy(s->kallsyms_text, text, len);
	s->kallsyms_text[len] = 0;
	s->kallsyms_len = len;
	/* reload on next use; cached results of the old snapshot go */
	s->ksyms_loaded = 0;
	s->nr_ksym = 0;
	sym_cache_release(&s->kcode);
	sym_cache_release(&s->kdata);
}

static int is_text(char t)
{
	return strchr("tTwW", t) != NULL;
}

static int is_data(char t)
{
	return strchr("dDbBrRvVgGsS", t) != NULL;
}

/* "ffffffff81000000 T _stext" or "ffffffffc0a01000 t fn\t[module]" */
static void parse_line(struct sym_session *s, char *line)
{
	char *end, *name, *mod;
	unsigned long long addr = strtoull(line, &end, 16);
	char type;

	if (end == line || !isspace((unsigned char)*end))
		return;
	while (*end == ' ' || *end == '\t')
		end++;
	type = *end;
	if (!type || !isspace((unsigned char)end[1]))
		return;
	name = end + 1;
	while (*name == ' ' || *name == '\t')
		name++;
	if (!*name)
		return;
	mod = strpbrk(name, " \t");
	if (mod)
		*mod = 0;
	s->ksym = xgrow(s->ksym, &s->cap_ksym, s->nr_ksym + 1, sizeof(*s->ksym));
	s->ksym[s->nr_ksym] = (struct sym_ksym){ addr, sym_str(&s->str, name), type,
						 (uint32_t)s->nr_ksym };
	s->nr_ksym++;
}

static void parse_kallsyms(struct sym_session *s, char *text)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		parse_line(s, l);
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct sym_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static char *read_proc_kallsyms(void)
{
	FILE *fp = fopen("/proc/kallsyms", "re");
	struct sym_buf b = {0};
	char chunk[65536];
	size_t n;

	if (!fp)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		sym_buf_add(&b, "%.*s", (int)n, chunk);
	fclose(fp);
	return b.p;
}

static void load_ksyms(struct sym_session *s)
{
	char *text = NULL;

	if (s->ksyms_loaded)
		return;
	s->ksyms_loaded = 1;
	if (s->kallsyms_text)
		text = xstrdup(s->kallsyms_text);
	else if (s->opts.use_proc_kallsyms)
		text = read_proc_kallsyms();
	if (!text)
		return;
	parse_kallsyms(s, text);
	free(text);
	if (s->nr_ksym)
		qsort(s->ksym, s->nr_ksym, sizeof(*s->ksym), ksym_cmp);
}

static int ksyms_hidden(const struct sym_session *s)
{
	return s->nr_ksym && s->ksym[s->nr_ksym - 1].addr == 0;
}

static const struct sym_ksym *ksym_by_name(const struct sym_session *s, const char *name)
{
	for (size_t i = 0; i < s->nr_ksym; i++)
		if (!strcmp(s->ksym[i].name, name))
			return &s->ksym[i];
	return NULL;
}

static uint64_t vmlinux_sym(struct sym_file *f, const char *want)
{
	int n = dwfl_module_getsymtab(f->mod);

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, NULL, NULL, NULL);
		if (name && !strcmp(name, want))
			return addr - f->bias;
	}
	return 0;
}

/* The vmlinux, loaded on first use, or NULL. */
static struct sym_file *vmlinux(struct sym_session *s)
{
	const struct sym_ksym *k;
	uint64_t v;

	if (!s->vmlinux_path)
		return NULL;
	if (!s->vmlinux) {
		s->vmlinux = sym_file_open_path(s, "[kernel.kallsyms]", s->vmlinux_path);
		if (s->vmlinux->rc)
			c2c_warn("cannot use vmlinux '%s': %s", s->vmlinux_path, s->vmlinux->reason);
		load_ksyms(s);
		k = ksym_by_name(s, "_stext");
		if (!s->vmlinux->rc && k && k->addr && (v = vmlinux_sym(s->vmlinux, "_stext")))
			s->kaslr = (int64_t)(k->addr - v);
	}
	return s->vmlinux->rc ? NULL : s->vmlinux;
}

/* The nearest symbol at or below @addr whose kind @want accepts, if nothing of another kind lies
 * between. Among aliases, the last one in kallsyms' order, as perf 6.1 chooses: its
 * symbols__fixup_end() gives a length only to the last of the symbols sharing an address (the
 * others end where the next one starts, at the same address), and symbols__fixup_duplicate()
 * prefers a symbol with a length over any other rule. */
static const struct sym_ksym *ksym_find(const struct sym_session *s, uint64_t addr,
					int (*want)(char))
{
	size_t lo = 0, hi = s->nr_ksym;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ksym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (lo == s->nr_ksym && addr - s->ksym[lo - 1].addr >= KSYM_TAIL)
		return NULL;
	for (size_t i = lo; i-- > 0 && s->ksym[i].addr == s->ksym[lo - 1].addr;)
		if (want(s->ksym[i].type))
			return &s->ksym[i];
	return NULL;
}

static const char *kernel_reason(const struct sym_session *s)
{
	if (!s->nr_ksym)
		return s->kallsyms_text || s->opts.use_proc_kallsyms ? "kallsyms unreadable or empty"
								    : "no kallsyms or vmlinux";
	if (ksyms_hidden(s))
		return "kallsyms addresses hidden (kptr_restrict)";
	return NULL;
}

static int kcode(struct sym_session *s, uint64_t ip, struct sym_code_info *out)
{
	struct sym_file *vm = vmlinux(s);
	const struct sym_ksym *k;

	if (vm && sym_code_vaddr(s, vm, ip - s->kaslr, out) == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	load_ksyms(s);
	if ((out->reason = kernel_reason(s)))
		return -ENOENT;
	k = ksym_find(s, ip, is_text);
	if (!k) {
		out->reason = "no kernel function at address";
		return -ENOENT;
	}
	out->symbol = k->name;
	out->sym_offset = ip - k->addr;
	out->reason = "no debug info";
	return 0;
}

int sym_kernel_code(struct sym_session *s, uint64_t ip, struct sym_code_info *out)
{
	struct sym_cache_ent *e;

	memset(out, 0, sizeof(*out));
	if (!s)
		return -EINVAL;
	e = sym_cache_slot(&s->kcode, ip);
	if (!e->used) {
		e->rc = kcode(s, ip, &e->code);
		e->used = 1;
		sym_cache_added(&s->kcode);
	}
	*out = e->code;
	return e->rc;
}

static int kdata(struct sym_session *s, uint64_t addr, struct sym_data_info *out)
{
	struct sym_file *vm = vmlinux(s);
	const struct sym_ksym *k;

	if (vm && sym_data_vaddr(s, vm, addr - s->kaslr, out) == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	load_ksyms(s);
	if ((out->reason = kernel_reason(s)))
		return -ENOENT;
	k = ksym_find(s, addr, is_data);
	if (!k) {
		out->reason = "no kernel data symbol at address";
		return -ENOENT;
	}
	out->var = k->name;
	out->var_offset = addr - k->addr;
	/* the size is the distance to the next symbol */
	for (const struct sym_ksym *n = k + 1; n < s->ksym + s->nr_ksym; n++) {
		if (n->addr > k->addr) {
			out->var_size = n->addr - k->addr;
			break;
		}
	}
	struct sym_buf b = {0};
	sym_buf_add(&b, "%s", k->name);
	if (out->var_offset)
		sym_buf_add(&b, " (+%llu)", (unsigned long long)out->var_offset);
	out->member = sym_str(&s->str, b.p);
	free(b.p);
	out->reason = "no debug info";
	return 0;
}

int sym_kernel_data(struct sym_session *s, uint64_t addr, struct sym_data_info *out)
{
	struct sym_cache_ent *e;

	memset(out, 0, sizeof(*out));
	if (!s)
		return -EINVAL;
	e = sym_cache_slot(&s->kdata, addr);
	if (!e->used) {
		e->rc = kdata(s, addr, &e->data);
		e->used = 1;
		sym_cache_added(&s->kdata);
	}
	*out = e->data;
	return e->rc;
}
