/* Data-type profiling: the type and member a memory access touches, named from the code side.
 * The instruction at the sample's IP is decoded (capstone) to its memory operand; the variables
 * of the DWARF scopes around that pc (inlined ones included, concrete nesting; the function
 * found among nested ones too, as OpenMP's outlined functions) are searched for a pointer whose
 * location there is the operand's base register; the pointee type and the displacement give the
 * member path, with sym-data.c's naming rules and "->" after the pointer. The registers are
 * followed forward through the function (symt_step()): loads of pointer members, pointer variables
 * kept in memory, static pointers, variables DWARF locates through the memory loaded (a chain
 * of derefs), copies, pointer arithmetic, the addresses of locals, and integers known to be a
 * multiple of a step (scaled indexes) type the destination. A forward dataflow over the
 * function's control-flow graph (basic blocks split at branch targets and after branches, calls
 * and returns; edges for fall-through and direct jumps) gives each block's entry state: the meet
 * of its predecessors' exit states, where a register stays typed only when every predecessor
 * gives a pointer into the same object (offsets that differ widen to a multiple of their
 * distance), so a join of disagreeing paths names nothing. The entry block starts empty. The
 * variable in the base register names the access, unless what the code put there is a larger
 * object holding it (a hoisted member pointer); else what the code put there; last, an access
 * into the stack frame is matched against the locals' slots (DW_OP_fbreg with the CFA from the
 * CFI).
 * Results are cached per (file, ELF address); per file each function's blocks and their entry
 * states are computed once, its subprogram DIE is remembered, and sym_data_type_back() keeps
 * each function's instruction boundaries. The disassemblers and caches live in the session
 * (struct sym_type_ctx).
 *
 * This file holds the entry points (sym_data_type(), sym_data_type_back(), sym_insn_back(),
 * sym_access_size(), sym_member_at()) and the session's per-file state; the stages are in
 * sym-type-decode.c, sym-type-vars.c, sym-type-name.c, sym-type-block.c and sym-type-flow.c,
 * their shared structs in sym-type-int.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-type-int.h"

/* --- session state ---------------------------------------------------------------------- */

static void type_free(struct sym_session *s)
{
	struct sym_type_ctx *c = s ? s->type : NULL;

	if (!c)
		return;
	if (c->x86_state > 0)
		c2c_cs_close(&c->cs_x86);
	if (c->a64_state > 0)
		c2c_cs_close(&c->cs_a64);
	for (size_t i = 0; i < c->nr_tf; i++) {
		sym_cache_release(&c->tf[i].cache);
		free(c->tf[i].cur);
		for (size_t j = 0; j < c->tf[i].nr_fb; j++) {
			free(c->tf[i].fb[j].lead);
			free(c->tf[i].fb[j].slot);
			free(c->tf[i].fb[j].slot_at);
		}
		free(c->tf[i].fb);
		for (size_t j = 0; j < c->tf[i].nr_fi; j++)
			free(c->tf[i].fi[j].off);
		free(c->tf[i].fi);
		free(c->tf[i].fd);
		free(c->tf[i].last);
	}
	free(c->tf);
	free(c);
	s->type = NULL;
}

static struct type_file *type_file(struct sym_session *s, struct sym_file *f)
{
	struct sym_type_ctx *c = s->type;
	struct type_file *t;

	if (!c) {
		c = s->type = xcalloc(1, sizeof(*c));
		s->type_free = type_free;
	}
	for (size_t i = 0; i < c->nr_tf; i++)
		if (c->tf[i].f == f)
			return &c->tf[i];
	c->tf = xgrow(c->tf, &c->cap_tf, c->nr_tf + 1, sizeof(*c->tf));
	t = &c->tf[c->nr_tf++];
	memset(t, 0, sizeof(*t));
	t->f = f;
	t->machine = -1;
	return t;
}

static int open_cs(csh *h, int *state, cs_arch arch, cs_mode mode)
{
	if (!*state) {
		*state = c2c_cs_open(arch, mode, h) == CS_ERR_OK ? 1 : -1;
		if (*state > 0)
			c2c_cs_option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	}
	return *state > 0 ? 0 : -1;
}

/* The disassembler for @machine, or NULL. */
csh *symt_disasm(struct sym_type_ctx *c, int machine)
{
	if (machine == EM_X86_64 && open_cs(&c->cs_x86, &c->x86_state, CS_ARCH_X86, CS_MODE_64) == 0)
		return &c->cs_x86;
	if (machine == EM_AARCH64 &&
	    open_cs(&c->cs_a64, &c->a64_state, CS_ARCH_ARM64, CS_MODE_ARM) == 0)
		return &c->cs_a64;
	return NULL;
}

/* --- entry ---------------------------------------------------------------------------------- */

/* The stack pointer (x86-64 rsp, AArch64 sp). */
static int is_sp(int machine, int reg)
{
	return reg == (machine == EM_X86_64 ? 7 : 31);
}

/* "[type unknown]: why", a pool string. */
static const char *unknown(struct sym_session *s, const char *why)
{
	struct sym_buf b = {0};
	const char *r;

	sym_buf_add(&b, "[type unknown]: %s", why);
	r = sym_str(&s->str, b.p);
	free(b.p);
	return r;
}

static void build_cu_ranges(struct type_file *t)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	t->ranges_built = 1;
	while (dwarf_nextcu(t->f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;
		Dwarf_Die cu;
		if (dwarf_offdie(t->f->dw, off + hsize, &cu)) {
			while ((r = dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0) {
				t->cur = xgrow(t->cur, &t->cap_cur, t->nr_cur + 1, sizeof(*t->cur));
				t->cur[t->nr_cur++] = (struct cu_range){ lo, hi, off + hsize };
			}
		}
		off = next;
	}
}

/* The CU holding @vaddr when libdwfl finds none (no .debug_aranges): from the CUs' ranges. */
static Dwarf_Die *cu_by_ranges(struct type_file *t, uint64_t vaddr, Dwarf_Die *cu,
			       Dwarf_Addr *cubias)
{
	Dwarf_Addr a = vaddr + t->f->bias - t->f->dw_bias;

	if (!t->ranges_built)
		build_cu_ranges(t);
	for (size_t i = 0; i < t->nr_cur; i++) {
		if (a >= t->cur[i].lo && a < t->cur[i].hi && dwarf_offdie(t->f->dw, t->cur[i].off, cu)) {
			*cubias = t->f->dw_bias;
			return cu;
		}
	}
	return NULL;
}

/* The index of the first entry of @t->fd starting past @vaddr. */
static size_t fn_die_after(const struct type_file *t, uint64_t vaddr)
{
	size_t i = 0, j = t->nr_fd;

	while (i < j) {
		size_t mid = i + (j - i) / 2;
		if (t->fd[mid].lo <= vaddr)
			i = mid + 1;
		else
			j = mid;
	}
	return i;
}

/* Remember the range of the function scope sc->die[0] holding CU address @pc. */
static void fn_die_add(struct type_file *t, struct scopes *sc, Dwarf_Addr pc, Dwarf_Addr cubias)
{
	int64_t delta = (int64_t)(cubias - t->f->bias);
	Dwarf_Addr lo, hi;
	size_t i;

	if (symt_func_start(sc, pc, &lo, &hi) || lo >= hi)
		return;
	lo += delta;
	hi += delta;
	i = fn_die_after(t, lo);
	if ((i && t->fd[i - 1].hi > lo) || (i < t->nr_fd && t->fd[i].lo < hi))
		return;  /* overlaps a known one: keep the walk for it */
	t->fd = xgrow(t->fd, &t->cap_fd, t->nr_fd + 1, sizeof(*t->fd));
	memmove(&t->fd[i + 1], &t->fd[i], (t->nr_fd++ - i) * sizeof(*t->fd));
	t->fd[i] = (struct fn_die){ .lo = lo, .hi = hi, .die = sc->die[0], .cubias = cubias };
}

/* The DWARF scopes at @vaddr: CU-relative *pc, 0, or -ENOENT with *why. */
static int scopes_at(struct type_file *t, uint64_t vaddr, struct scopes *sc, Dwarf_Addr *pc,
		     Dwarf_Addr *cubias, const char **why)
{
	struct sym_file *f = t->f;
	Dwarf_Die *cu, cu_mem;
	size_t i;

	if (sym_file_dwarf(f)) {
		*why = "no debug info";
		return -ENOENT;
	}
	i = fn_die_after(t, vaddr);
	if (i && vaddr < t->fd[i - 1].hi) {
		Dwarf_Die fn = t->fd[i - 1].die;
		*cubias = t->fd[i - 1].cubias;
		*pc = vaddr + f->bias - *cubias;
		sc->die[0] = fn;
		sc->n = 1;
		symt_collect(&fn, *pc, sc, 1);
		return 0;
	}
	cu = dwfl_module_addrdie(f->mod, vaddr + f->bias, cubias);
	if (!cu)
		cu = cu_by_ranges(t, vaddr, &cu_mem, cubias);
	if (!cu) {
		*why = "no debug info at this pc";
		return -ENOENT;
	}
	*pc = vaddr + f->bias - *cubias;
	sc->n = 0;
	symt_collect(cu, *pc, sc, 0);
	if (!sc->n && symt_find_nested(cu, *pc, &sc->die[0], 0) == 0) {
		sc->n = 1;
		symt_collect(&sc->die[0], *pc, sc, 1);
	}
	if (!sc->n) {
		*why = "no function in the debug info at this pc";
		return -ENOENT;
	}
	fn_die_add(t, sc, *pc, *cubias);
	return 0;
}

/* 1 when the tracked pointer @tr explains access @m better than the pointer variable @var in
 * its base register: it points into a larger object holding the variable's pointee ("blue",
 * an int *, computed as &thread_arg->blue[0] before the loop: the object is *thread_arg), and
 * names the access inside it. */
static int encloses(const struct ptr *tr, const struct ptr *var, const struct mem_op *m)
{
	struct mem_op e = symt_effective(tr, m);
	struct sym_buf path = {0};
	struct sym_elem el;
	char elem[32];
	uint64_t off;
	int ok;

	if (tr->size <= var->size || symt_fit(tr, m) < 2 || tr->name == var->name)
		return 0;
	ok = symt_place(tr, &e, &path, elem, sizeof(elem), &off, &el) == 0 && !elem[0];
	free(path.p);
	return ok;
}

/* Name the access @m at @vaddr through the DWARF variables: a pointer variable in the base
 * register, or what the code before put there when that is a larger object holding it (the
 * register state of its block), a constant address, a local's stack slot. The index
 * register's step is what the code shows it a multiple of. 0, or -ENOENT with *why. */
static int name_access(struct sym_session *s, struct type_file *t, uint64_t vaddr,
		       const struct mem_op *m, cs_insn *in, struct sym_data_info *out,
		       const char **why)
{
	struct scopes *sc = xmalloc(sizeof(*sc));
	struct regstate *st = xmalloc(sizeof(*st));
	struct mem_op mm = *m, e;
	struct pcscopes *ps = NULL;
	Dwarf_Addr pc, cubias;
	struct ptr var, *tr = NULL;
	int rc = -ENOENT, have_var, have_st;

	if (scopes_at(t, vaddr, sc, &pc, &cubias, why))
		goto out;
	have_st = symt_track_block(s, t, sc, vaddr, pc, cubias, in, st) == 0;
	if (have_st && m->index >= 0 && st->mult[m->index]) {
		uint32_t k = mmul(st->mult[m->index], m->scale);
		if (k == MULT_ZERO)
			mm.index = -1, mm.scale = 0;  /* the index register holds 0 */
		else if (k)
			mm.scale = k;
	}
	have_var = symt_find_ptr_var(s, sc, pc, &mm, &var) == 0;
	if (have_st && st->valid[m->base] && symt_fit(&st->p[m->base], &mm) > 0)
		tr = &st->p[m->base];
	if (tr && have_var && !encloses(tr, &var, &mm))
		tr = NULL;
	if (tr || have_var) {
		e = symt_effective(tr ? tr : &var, &mm);
		if (symt_describe(s, tr ? tr : &var, &e, out) == 0) {
			rc = 0;
			goto out;
		}
	}
	if (have_st && st->kvalid[m->base] && mm.index < 0) {
		/* a constant address (adrp + ldr): static data */
		if (sym_data_vaddr(s, t->f, st->k[m->base] + (uint64_t)mm.disp, out) == 0) {
			rc = 0;
			goto out;
		}
	}
	memset(out, 0, sizeof(*out));  /* a failed static-data lookup may have filled it */
	ps = xcalloc(1, sizeof(*ps));
	ps->fn = sc->die[0];
	ps->f = t->f;
	ps->delta = (int64_t)(cubias - t->f->bias);
	if (symt_local_ptr(s, ps, pc, m->base, m->disp, &var) == 0 && symt_fit(&var, &mm) == 2) {
		e = symt_effective(&var, &mm);
		if (symt_describe(s, &var, &e, out) == 0) {
			rc = 0;
			goto out;
		}
		memset(out, 0, sizeof(*out));
	}
	*why = is_sp(t->machine, m->base) ? "stack access, no local variable there" :
	       "no pointer variable in the base register at this pc";
out:
	free(ps);
	free(st);
	free(sc);
	return rc;
}

static int resolve(struct sym_session *s, struct type_file *t, uint64_t vaddr,
		   struct sym_data_info *out)
{
	uint8_t buf[INSN_MAX];
	const char *why = NULL;
	struct mem_op m;
	cs_insn *in;
	csh *cs;
	size_t n;
	int rc;

	if (!(cs = symt_disasm(s->type, symt_file_machine(t)))) {
		out->reason = unknown(s, c2c_cs_missing() ? "capstone cannot be loaded"
							  : "unsupported architecture");
		return -ENOENT;
	}
	if (!(n = symt_code_bytes(t->f, vaddr, buf, sizeof(buf)))) {
		out->reason = unknown(s, "no code bytes at this address in the file");
		return -ENOENT;
	}
	in = c2c_cs_malloc(*cs);
	if (!in)
		return -ENOMEM;  /* capstone's allocation failed */
	rc = symt_decode(cs, t->machine, buf, n, vaddr, in, &m, &why);
	if (rc == 0 && (m.rip || (m.base < 0 && m.index < 0))) {
		/* a fixed address: static data, named by the ELF/DWARF data path */
		rc = sym_data_vaddr(s, t->f, m.rip ? m.target : (uint64_t)m.disp, out);
		why = NULL;
	} else if (rc == 0 && m.base < 0) {
		why = "no base register (absolute address with an index)";
		rc = -ENOENT;
	} else if (rc == 0) {
		rc = name_access(s, t, vaddr, &m, in, out, &why);
	}
	if (rc && why)
		out->reason = unknown(s, why);
	c2c_cs_free(in, 1);
	return rc;
}

static int type_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		      struct sym_data_info *out)
{
	struct type_file *t = type_file(s, f);
	struct sym_cache_ent *e = sym_cache_slot(&t->cache, vaddr);

	if (!e->used) {
		/* resolve() never touches t->cache, so @e stays valid */
		e->rc = resolve(s, t, vaddr, &e->data);
		e->used = 1;
		sym_cache_added(&t->cache);
	}
	*out = e->data;
	return e->rc;
}

const char *sym_member_at(struct sym_session *s, const struct sym_data_info *d, uint64_t off)
{
	struct sym_buf b = {0}, path = {0};
	const char *v = d ? d->var : NULL, *out = NULL;
	Dwarf_Die t;

	if (!s || !v || !d->type_ref.dwarf || off >= d->var_size ||
	    !dwarf_offdie(d->type_ref.dwarf, d->type_ref.die, &t))
		return NULL;
	sym_buf_add(&path, "%s", "");
	sym_type_path(&t, off, 0, &path, NULL);
	if (v[0] != '*')
		sym_buf_add(&b, "%s%s", v, path.p);
	else if (path.p[0] == '.')
		sym_buf_add(&b, "%s->%s", v + 1, path.p + 1);
	else if (path.p[0] == '[')
		sym_buf_add(&b, "(%s)%s", v, path.p);
	else
		sym_buf_add(&b, "%s%s", v, path.p);
	out = sym_str(&s->str, b.p);
	free(path.p);
	free(b.p);
	return out;
}

int sym_data_type(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		  uint64_t addr, struct sym_data_info *out)
{
	struct sym_file *f = NULL;
	uint64_t vaddr;
	const char *reason;
	int rc;

	(void)addr;  /* the answer depends on the instruction only, so it is cached per ip */
	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!s || (code_map && !code_map->filename))
		return -EINVAL;
	rc = sym_locate(s, code_map, ip, &f, &vaddr, &reason);
	if (rc) {
		out->reason = reason;
		return rc;
	}
	return type_vaddr(s, f, vaddr, out);
}

/* --- the access some instructions before the sample ------------------------------------------ */

#define BACK_MAX 15            /* the soft backend's count saturates here: "15 or more" */
#define FUNC_BYTES_MAX (1u << 20)

/* The function holding ELF @vaddr of @t as [lo, hi): its ELF function symbol, else its DWARF
 * range. 0, else -ENOENT. */
static int func_range(struct type_file *t, uint64_t vaddr, uint64_t *lo, uint64_t *hi)
{
	struct sym_file *f = t->f;
	struct scopes *sc;
	Dwarf_Addr pc, cubias, dlo, dhi;
	const char *why;
	GElf_Off off;
	GElf_Sym sym;
	int rc = -ENOENT;

	if (f->mod && dwfl_module_addrinfo(f->mod, vaddr + f->bias, &off, &sym, NULL, NULL, NULL) &&
	    (GELF_ST_TYPE(sym.st_info) == STT_FUNC || GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) &&
	    off < sym.st_size) {
		*lo = vaddr - off;
		*hi = *lo + sym.st_size;
		return 0;
	}
	sc = xmalloc(sizeof(*sc));
	if (scopes_at(t, vaddr, sc, &pc, &cubias, &why) == 0 && symt_func_start(sc, pc, &dlo, &dhi) == 0) {
		*lo = dlo + cubias - f->bias;
		*hi = dhi + cubias - f->bias;
		rc = 0;
	}
	free(sc);
	return rc;
}

/* The instruction boundaries of the function of @t holding @vaddr, decoded once: the cached
 * entry, else NULL with *why. */
static const struct fn_insns *fn_insns(struct sym_session *s, struct type_file *t,
				       uint64_t vaddr, const char **why)
{
	size_t i = 0, j = t->nr_fi;
	struct fn_insns *fi;
	uint64_t lo, hi, a;
	uint8_t *buf;
	const uint8_t *p;
	size_t n;
	csh *cs;
	cs_insn *in;

	while (i < j) {  /* the first function starting past @vaddr */
		size_t mid = i + (j - i) / 2;
		if (t->fi[mid].lo <= vaddr)
			i = mid + 1;
		else
			j = mid;
	}
	if (i && vaddr < t->fi[i - 1].hi)
		return &t->fi[i - 1];
	if (!(cs = symt_disasm(s->type, symt_file_machine(t)))) {
		*why = "unsupported architecture";
		return NULL;
	}
	if (func_range(t, vaddr, &lo, &hi) || hi - lo > FUNC_BYTES_MAX) {
		*why = "no function (symbol or debug info) holds this address";
		return NULL;
	}
	for (i = 0, j = t->nr_fi; i < j;) {  /* the first function starting at or past lo */
		size_t mid = i + (j - i) / 2;
		if (t->fi[mid].lo < lo)
			i = mid + 1;
		else
			j = mid;
	}
	for (j = i; j < t->nr_fi && t->fi[j].lo == lo; j++)
		if (t->fi[j].hi == hi)
			return &t->fi[j];  /* overlapping symbols: found under another address */
	buf = xmalloc(hi - lo);
	n = symt_code_bytes(t->f, lo, buf, hi - lo);
	if (!(in = c2c_cs_malloc(*cs))) {
		free(buf);
		*why = "out of memory in the disassembler";
		return NULL;
	}
	t->fi = xgrow(t->fi, &t->cap_fi, t->nr_fi + 1, sizeof(*t->fi));
	memmove(&t->fi[i + 1], &t->fi[i], (t->nr_fi++ - i) * sizeof(*t->fi));
	fi = &t->fi[i];
	memset(fi, 0, sizeof(*fi));
	fi->lo = lo;
	fi->hi = hi;
	p = buf;
	a = lo;
	while (n && a < hi) {
		uint64_t at = a;
		if (!c2c_cs_disasm_iter(*cs, &p, &n, &a, in))
			break;
		fi->off = xgrow(fi->off, &fi->cap, fi->nr + 1, sizeof(*fi->off));
		fi->off[fi->nr++] = (uint32_t)(at - lo);
	}
	fi->end = a;
	c2c_cs_free(in, 1);
	free(buf);
	return fi;
}

/* The ELF address of the instruction @back before @vaddr in its function: 0, or -ENOENT with
 * *why. */
static int insn_back(struct sym_session *s, struct type_file *t, uint64_t vaddr,
		     unsigned int back, uint64_t *at, const char **why)
{
	const struct fn_insns *fi = fn_insns(s, t, vaddr, why);
	size_t i = 0, j;
	uint32_t off;

	if (!fi)
		return -ENOENT;
	off = (uint32_t)(vaddr - fi->lo);
	j = fi->nr;
	while (i < j) {
		size_t mid = i + (j - i) / 2;
		if (fi->off[mid] < off)
			i = mid + 1;
		else
			j = mid;
	}
	if (i == fi->nr || fi->off[i] != off) {
		*why = vaddr >= fi->end ? "the function does not decode up to this address" :
					  "not an instruction boundary of its function";
		return -ENOENT;
	}
	if (back > i) {
		*why = "the access would be before the start of the function";
		return -ENOENT;
	}
	*at = fi->lo + fi->off[i - back];
	return 0;
}

int sym_data_type_back(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		       unsigned int back, uint64_t addr, struct sym_data_info *out)
{
	struct sym_file *f = NULL;
	uint64_t vaddr, at;
	const char *why;
	int rc;

	if (!back)
		return sym_data_type(s, code_map, ip, addr, out);
	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!s || (code_map && !code_map->filename))
		return -EINVAL;
	rc = sym_locate(s, code_map, ip, &f, &vaddr, &why);
	if (rc) {
		out->reason = why;
		return rc;
	}
	if (back >= BACK_MAX) {
		out->reason = unknown(s, "the access is 15 or more instructions before the sample");
		return -ENOENT;
	}
	if (insn_back(s, type_file(s, f), vaddr, back, &at, &why)) {
		out->reason = unknown(s, why);
		return -ENOENT;
	}
	return type_vaddr(s, f, at, out);
}

int sym_insn_back(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		  unsigned int back, uint64_t *at)
{
	struct sym_file *f = NULL;
	uint64_t vaddr, a;
	const char *why;

	if (!s || !code_map || !code_map->filename || !at)
		return -EINVAL;
	if (back >= BACK_MAX || sym_locate(s, code_map, ip, &f, &vaddr, &why) ||
	    insn_back(s, type_file(s, f), vaddr, back, &a, &why))
		return -ENOENT;
	*at = ip - vaddr + a;
	return 0;
}

/* --- the size of an access ----------------------------------------------------------------- */

/* Bytes an AArch64 load or store moves, from its opcode and its first register. */
static uint32_t a64_size(csh cs, const cs_insn *in)
{
	const cs_arm64 *a = &in->detail->arm64;
	const char *r;

	switch (in->id) {
	case ARM64_INS_LDRB: case ARM64_INS_STRB: case ARM64_INS_LDRSB: case ARM64_INS_LDURB:
	case ARM64_INS_STURB: case ARM64_INS_LDURSB: case ARM64_INS_LDARB: case ARM64_INS_STLRB:
	case ARM64_INS_LDXRB: case ARM64_INS_STXRB: case ARM64_INS_LDAXRB: case ARM64_INS_STLXRB:
		return 1;
	case ARM64_INS_LDRH: case ARM64_INS_STRH: case ARM64_INS_LDRSH: case ARM64_INS_LDURH:
	case ARM64_INS_STURH: case ARM64_INS_LDURSH: case ARM64_INS_LDARH: case ARM64_INS_STLRH:
	case ARM64_INS_LDXRH: case ARM64_INS_STXRH: case ARM64_INS_LDAXRH: case ARM64_INS_STLXRH:
		return 2;
	case ARM64_INS_LDRSW: case ARM64_INS_LDURSW:
		return 4;
	default:
		break;
	}
	if (!a->op_count || a->operands[0].type != ARM64_OP_REG)
		return 0;
	r = c2c_cs_reg_name(cs, a->operands[0].reg);
	if (!r)
		return 0;
	switch (r[0]) {
	case 'w': case 's': return (in->id == ARM64_INS_LDP || in->id == ARM64_INS_STP) ? 8 : 4;
	case 'x': case 'd': return (in->id == ARM64_INS_LDP || in->id == ARM64_INS_STP) ? 16 : 8;
	case 'q': return 16;
	case 'h': return 2;
	case 'b': return 1;
	}
	return 0;
}

int sym_access_size(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		    unsigned int back, uint32_t *size)
{
	struct sym_file *f = NULL;
	struct type_file *t;
	uint64_t vaddr, at;
	const char *why;
	uint8_t buf[16];
	const uint8_t *p = buf;
	size_t n;
	cs_insn *in;
	csh *cs;
	int rc = -ENOENT;

	*size = 0;
	if (!s || !code_map || !code_map->filename || back >= BACK_MAX)
		return -EINVAL;
	if (sym_locate(s, code_map, ip, &f, &vaddr, &why))
		return -ENOENT;
	t = type_file(s, f);
	at = vaddr;
	if (back && insn_back(s, t, vaddr, back, &at, &why))
		return -ENOENT;
	cs = symt_disasm(s->type, symt_file_machine(t));
	n = cs ? symt_code_bytes(f, at, buf, sizeof(buf)) : 0;
	if (!n || !(in = c2c_cs_malloc(*cs)))
		return -ENOENT;
	if (c2c_cs_disasm_iter(*cs, &p, &n, &at, in)) {
		if (symt_file_machine(t) == EM_X86_64) {
			const cs_x86 *x = &in->detail->x86;

			/* an AVX-512 write-masked access ("vmovdqu8 %zmm16,(%rax){%k1}", memset's
			 * tail) touches the bytes its mask register selects, which no sample
			 * carries: its size is unknown, not the operand's */
			const char *k = strstr(in->op_str, "{%k") ? strstr(in->op_str, "{%k") + 3
					: strstr(in->op_str, "{k") ? strstr(in->op_str, "{k") + 2 : NULL;

			for (int i = 0; !(k && *k != '0') && i < x->op_count; i++)
				if (x->operands[i].type == X86_OP_MEM && in->id != X86_INS_LEA &&
				    in->id != X86_INS_NOP) {
					*size = x->operands[i].size;
					break;
				}
		} else {
			*size = a64_size(*cs, in);
		}
		rc = *size ? 0 : -ENOENT;
	}
	c2c_cs_free(in, 1);
	return rc;
}
