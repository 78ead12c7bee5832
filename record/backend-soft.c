/* The soft backend (see backend-soft.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "c2c/capstone.h"
#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "record/backend-soft.h"
#include "record/fnbounds.h"
#include "record/ring.h"
#include "record/synth.h"
#include "record/sys.h"
#include "record/sysfs.h"

#define FUNC_MAX_BYTES (1u << 20)   /* larger "functions" are not decoded */

/* --- ELF files ------------------------------------------------------------------------------ */

struct seg {
	uint64_t vaddr, off, filesz;
};

/* A function whose bytes were asked for: read on first use, kept until codemap_free(). */
struct func {
	uint64_t vaddr, size;
	uint8_t *code;           /* NULL when they could not be read */
};

struct efile {
	char *path;
	int loaded;              /* opened (on the first IP in it), successfully or not */
	int fd;                  /* -1 when the file did not open */
	Elf *elf;                /* mapped read-only; NULL when not ELF */
	struct fnbounds *fb;     /* its functions' bounds (record/fnbounds.h) */
	struct seg *seg;
	size_t nr_seg;
	struct func *fn;         /* the functions read so far, sorted by (vaddr, size) */
	size_t nr_fn, cap_fn;
	int go;                  /* a Go binary whose Go code keeps g in r14 (go_register_g()) */
	int64_t goid_off;        /* there: the offset of runtime.g's goid (DWARF), -1 unknown */
};

static void read_segments(Elf *elf, struct efile *f)
{
	size_t n = 0, cap = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		f->seg = xgrow(f->seg, &cap, f->nr_seg + 1, sizeof(*f->seg));
		f->seg[f->nr_seg++] = (struct seg){ ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
}

int go_buildinfo_register_g(const uint8_t *p, size_t n, unsigned int machine)
{
	/* the header of .go.buildinfo: a 14-byte magic, the pointer size, flags; flag 2 (the
	 * version and module strings inline) came with Go 1.18, the register ABI (g in r14) on
	 * amd64 with 1.17 */
	return machine == EM_X86_64 && n >= 16 && !memcmp(p, "\xff Go buildinf:", 14) &&
	       p[14] == 8 && (p[15] & 2);
}

/* Whether @elf is such a Go binary. */
static int go_register_g(Elf *elf)
{
	size_t shstr;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstr))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstr, sh.sh_name)) ||
		    strcmp(name, ".go.buildinfo"))
			continue;
		d = elf_getdata(scn, NULL);
		return d && d->d_buf && go_buildinfo_register_g(d->d_buf, d->d_size, eh.e_machine);
	}
	return 0;
}

/* The offset of member goid in struct runtime.g, from the binary's DWARF (the runtime's unit);
 * -1 when it cannot be told. */
static int64_t go_goid_offset(Elf *elf)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize;
	int64_t goid = -1;

	if (!dw)
		return -1;
	while (goid < 0 && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu, d, m;
		const char *name;

		if (dwarf_offdie(dw, off + hsize, &cu) && (name = dwarf_diename(&cu)) &&
		    !strcmp(name, "runtime") && dwarf_child(&cu, &d) == 0) {
			do {
				if (dwarf_tag(&d) != DW_TAG_structure_type ||
				    !(name = dwarf_diename(&d)) || strcmp(name, "runtime.g") ||
				    dwarf_child(&d, &m))
					continue;
				do {
					Dwarf_Attribute a;
					Dwarf_Word v;

					if (dwarf_tag(&m) == DW_TAG_member && (name = dwarf_diename(&m)) &&
					    !strcmp(name, "goid") &&
					    dwarf_attr(&m, DW_AT_data_member_location, &a) &&
					    !dwarf_formudata(&a, &v) && v < 4096)
						goid = (int64_t)v;
				} while (goid < 0 && dwarf_siblingof(&m, &m) == 0);
				break;
			} while (dwarf_siblingof(&d, &d) == 0);
		}
		off = next;
	}
	dwarf_end(dw);
	return goid;
}

/* Open the file on the first IP that falls in it: segments now, symbols now, FDEs when needed. */
static void efile_load(struct efile *f)
{
	f->loaded = 1;
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return;
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL)))
		return;
	if (elf_kind(f->elf) != ELF_K_ELF) {
		elf_end(f->elf);
		f->elf = NULL;
		return;
	}
	read_segments(f->elf, f);
	f->fb = fnbounds_new(f->elf, 0);
	f->go = go_register_g(f->elf);
	f->goid_off = f->go ? go_goid_offset(f->elf) : -1;
}

static void efile_free(struct efile *f)
{
	for (size_t i = 0; i < f->nr_fn; i++)
		free(f->fn[i].code);
	fnbounds_free(f->fb);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->fn);
	free(f->seg);
	free(f->path);
}

static const struct seg *seg_by_off(const struct efile *f, uint64_t off)
{
	for (size_t i = 0; i < f->nr_seg; i++)
		if (off >= f->seg[i].off && off - f->seg[i].off < f->seg[i].filesz)
			return &f->seg[i];
	return NULL;
}

static const struct seg *seg_by_vaddr(const struct efile *f, uint64_t va)
{
	for (size_t i = 0; i < f->nr_seg; i++)
		if (va >= f->seg[i].vaddr && va - f->seg[i].vaddr < f->seg[i].filesz)
			return &f->seg[i];
	return NULL;
}

/* The bytes of function @r, read from the file on first use (NULL when they cannot be). */
static const struct func *efile_code(struct efile *f, const struct fnrange *r)
{
	size_t lo = 0, hi = f->nr_fn;
	const struct seg *sg;
	struct func fn = { r->start, r->size, NULL };

	while (lo < hi) {                 /* first entry not before (start, size) */
		size_t mid = lo + (hi - lo) / 2;
		const struct func *m = &f->fn[mid];

		if (m->vaddr < fn.vaddr || (m->vaddr == fn.vaddr && m->size < fn.size))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->nr_fn && f->fn[lo].vaddr == fn.vaddr && f->fn[lo].size == fn.size)
		return f->fn[lo].code ? &f->fn[lo] : NULL;
	sg = seg_by_vaddr(f, fn.vaddr);
	if (fn.size <= FUNC_MAX_BYTES && sg && fn.vaddr + fn.size <= sg->vaddr + sg->filesz) {
		fn.code = xmalloc(fn.size);
		if (pread(f->fd, fn.code, fn.size, (off_t)(fn.vaddr - sg->vaddr + sg->off)) !=
		    (ssize_t)fn.size) {
			free(fn.code);
			fn.code = NULL;
		}
	}
	f->fn = xgrow(f->fn, &f->cap_fn, f->nr_fn + 1, sizeof(*f->fn));
	memmove(&f->fn[lo + 1], &f->fn[lo], (f->nr_fn - lo) * sizeof(*f->fn));
	f->fn[lo] = fn;
	f->nr_fn++;
	return fn.code ? &f->fn[lo] : NULL;
}

/* --- code map ------------------------------------------------------------------------------- */

struct cmap {
	uint64_t start, end, pgoff;
	struct efile *f;
};

struct cproc {
	uint32_t pid;
	struct cmap *map;
	size_t nr, cap;
	int proc_read;           /* /proc/<pid>/maps was read once */
};

#define GOID_CACHE 1024   /* goids last read, by (pid, g): for the samples read after an exit */

struct codemap {
	struct { uint32_t pid; uint64_t g, goid; } goid[GOID_CACHE];
	struct efile **file;
	size_t nr_file, cap_file;
	struct cproc *proc;
	size_t nr_proc, cap_proc;
	size_t last;             /* index of the last process looked up */
	uint64_t proc_reads;
};

struct codemap *codemap_new(void)
{
	return xcalloc(1, sizeof(struct codemap));
}

void codemap_free(struct codemap *cm)
{
	if (!cm)
		return;
	for (size_t i = 0; i < cm->nr_file; i++) {
		efile_free(cm->file[i]);
		free(cm->file[i]);
	}
	for (size_t i = 0; i < cm->nr_proc; i++)
		free(cm->proc[i].map);
	free(cm->file);
	free(cm->proc);
	free(cm);
}

static struct efile *get_file(struct codemap *cm, const char *path)
{
	struct efile *f;

	for (size_t i = 0; i < cm->nr_file; i++)
		if (!strcmp(cm->file[i]->path, path))
			return cm->file[i];
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->fd = -1;
	cm->file = xgrow(cm->file, &cm->cap_file, cm->nr_file + 1, sizeof(*cm->file));
	cm->file[cm->nr_file++] = f;
	return f;
}

static struct cproc *get_proc(struct codemap *cm, uint32_t pid, int create)
{
	if (cm->last < cm->nr_proc && cm->proc[cm->last].pid == pid)
		return &cm->proc[cm->last];
	for (size_t i = 0; i < cm->nr_proc; i++)
		if (cm->proc[i].pid == pid) {
			cm->last = i;
			return &cm->proc[i];
		}
	if (!create)
		return NULL;
	cm->proc = xgrow(cm->proc, &cm->cap_proc, cm->nr_proc + 1, sizeof(*cm->proc));
	cm->proc[cm->nr_proc] = (struct cproc){ .pid = pid };
	cm->last = cm->nr_proc;
	return &cm->proc[cm->nr_proc++];
}

static void proc_add(struct cproc *p, const struct cmap *m)
{
	size_t j = 0;

	for (size_t i = 0; i < p->nr; i++)            /* a new map replaces what it overlaps */
		if (p->map[i].end <= m->start || p->map[i].start >= m->end)
			p->map[j++] = p->map[i];
	p->nr = j;
	p->map = xgrow(p->map, &p->cap, p->nr + 1, sizeof(*p->map));
	p->map[p->nr++] = *m;
}

void codemap_mmap(struct codemap *cm, const struct trace_mmap *m)
{
	struct cmap c;

	if (!(m->prot & 4) || !m->filename || m->filename[0] != '/' || m->pid == UINT32_MAX ||
	    !m->len)
		return;
	c = (struct cmap){ m->start, m->start + m->len, m->pgoff, get_file(cm, m->filename) };
	proc_add(get_proc(cm, m->pid, 1), &c);
}

void codemap_exec(struct codemap *cm, uint32_t pid)
{
	struct cproc *p = get_proc(cm, pid, 0);

	if (p) {
		p->nr = 0;
		p->proc_read = 0;
	}
}

void codemap_fork(struct codemap *cm, uint32_t pid, uint32_t ppid)
{
	struct cproc *child;
	size_t parent;

	if (pid == ppid || !get_proc(cm, ppid, 0) || get_proc(cm, pid, 0))
		return;
	parent = cm->last;                        /* an index: the array may move */
	child = get_proc(cm, pid, 1);
	for (size_t i = 0; i < cm->proc[parent].nr; i++)
		proc_add(child, &cm->proc[parent].map[i]);
}

int codemap_load_proc(struct codemap *cm, uint32_t pid)
{
	char path[128], line[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/proc/%u/maps", sysfs_root(), pid);
	if (!(fp = fopen(path, "re")))
		return -errno;
	cm->proc_reads++;
	while (fgets(line, sizeof(line), fp)) {
		struct trace_mmap m;

		line[strcspn(line, "\n")] = '\0';
		if (synth_parse_maps_line(line, &m))
			continue;
		m.pid = pid;
		codemap_mmap(cm, &m);
	}
	fclose(fp);
	return 0;
}

static const struct cmap *find_map(struct codemap *cm, uint32_t pid, uint64_t ip)
{
	struct cproc *p = get_proc(cm, pid, 1);

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = p->nr; i-- > 0;)
			if (ip >= p->map[i].start && ip < p->map[i].end)
				return &p->map[i];
		if (pass || p->proc_read)
			break;
		p->proc_read = 1;
		if (codemap_load_proc(cm, pid))
			break;
		p = get_proc(cm, pid, 1);
	}
	return NULL;
}

int codemap_func(struct codemap *cm, uint32_t pid, uint64_t ip, struct softdec_func *out)
{
	const struct cmap *m = find_map(cm, pid, ip);
	const struct seg *sg;
	const struct func *fn;
	struct fnrange r;
	uint64_t off, va;

	if (!m)
		return -ENOENT;
	if (!m->f->loaded)
		efile_load(m->f);
	off = ip - m->start + m->pgoff;
	if (!m->f->fb || !(sg = seg_by_off(m->f, off)))
		return -ESRCH;
	va = off - sg->off + sg->vaddr;
	if (fnbounds_find(m->f->fb, va, &r) || !(fn = efile_code(m->f, &r)))
		return -ESRCH;
	out->code = fn->code;
	out->len = fn->size;
	out->start = ip - (va - fn->vaddr);
	return 0;
}

uint64_t codemap_task(struct codemap *cm, uint32_t pid, uint64_t ip, const struct softdec_regs *regs)
{
	const struct cmap *m = find_map(cm, pid, ip);
	int r14 = REGS_X86_R8 + 6;
	uint64_t goid = 0;
	struct iovec local = { &goid, sizeof(goid) }, remote;
	size_t slot;

	if (!m || !regs || !(regs->mask & (1ULL << r14)))
		return 0;
	if (!m->f->loaded)
		efile_load(m->f);
	if (!m->f->go || m->f->goid_off < 0 || regs->val[r14] < 4096)
		return 0;
	/* the g's id, not its address: a g that exits is reused by the next goroutine made */
	remote = (struct iovec){ (void *)(uintptr_t)(regs->val[r14] + (uint64_t)m->f->goid_off),
				 sizeof(goid) };
	slot = (size_t)((regs->val[r14] >> 6) ^ pid) % GOID_CACHE;
	if (process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(goid)) {
		/* the process has exited before its last samples were read: the goid last read */
		return cm->goid[slot].pid == pid && cm->goid[slot].g == regs->val[r14] ?
		       cm->goid[slot].goid : 0;
	}
	cm->goid[slot].pid = pid;
	cm->goid[slot].g = regs->val[r14];
	cm->goid[slot].goid = goid;
	return goid;
}

/* --- data symbols --------------------------------------------------------------------------- */

static int sym_in(Elf *elf, Elf64_Word type, const char *name, GElf_Sym *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;
			int t;

			if (!gelf_getsym(d, (int)i, &sym))
				break;
			t = GELF_ST_TYPE(sym.st_info);
			if (t == STT_SECTION || t == STT_FILE || sym.st_shndx == SHN_UNDEF)
				continue;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name)) {
				*out = sym;
				return 1;
			}
		}
	}
	return 0;
}

int elfsym_lookup(const char *path, const char *name, uint64_t *vaddr, uint64_t *size, int *pie)
{
	GElf_Ehdr eh;
	GElf_Sym sym;
	Elf *elf;
	int fd, err = -ENOENT;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (elf_version(EV_CURRENT) == EV_NONE || !(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		close(fd);
		return -EINVAL;
	}
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		err = -EINVAL;
	} else if (sym_in(elf, SHT_SYMTAB, name, &sym) || sym_in(elf, SHT_DYNSYM, name, &sym)) {
		*vaddr = sym.st_value;
		*size = sym.st_size;
		*pie = eh.e_type == ET_DYN;
		err = 0;
	}
	elf_end(elf);
	close(fd);
	return err;
}

/* --- raw samples ---------------------------------------------------------------------------- */

#define PARSED (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | \
		PERF_SAMPLE_STACK_USER)

int soft_parse_sample(const struct perf_event_header *h, uint64_t st, uint64_t regs_mask,
		      struct soft_raw *o)
{
	const uint8_t *p = (const uint8_t *)(h + 1), *end = (const uint8_t *)h + h->size;
	uint64_t v[2];

#define TAKE(dst) do { if (end - p < 8) return -EBADMSG; memcpy(&(dst), p, 8); p += 8; } while (0)
	memset(o, 0, sizeof(*o));
	o->cpu = TRACE_CPU_NONE;
	if (st & ~(uint64_t)PARSED)
		return -ENOTSUP;
	if (h->size < sizeof(*h))
		return -EBADMSG;
	if (st & PERF_SAMPLE_IDENTIFIER)
		TAKE(o->id);
	if (st & PERF_SAMPLE_IP)
		TAKE(o->ip);
	if (st & PERF_SAMPLE_TID) {
		TAKE(v[0]);
		o->pid = (uint32_t)v[0];
		o->tid = (uint32_t)(v[0] >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		TAKE(o->time);
	if (st & PERF_SAMPLE_ADDR)
		TAKE(o->addr);
	if (st & PERF_SAMPLE_ID)
		TAKE(o->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		TAKE(v[1]);
	if (st & PERF_SAMPLE_CPU) {
		TAKE(v[0]);
		o->cpu = (uint32_t)v[0];
	}
	if (st & PERF_SAMPLE_PERIOD)
		TAKE(o->period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		TAKE(v[0]);
		if (v[0] > (uint64_t)(end - p) / 8)
			return -EBADMSG;
		o->chain = v[0] ? (const uint64_t *)(const void *)p : NULL;
		o->chain_nr = v[0] > TRACE_CHAIN_MAX ? TRACE_CHAIN_MAX : (uint32_t)v[0];
		p += v[0] * 8;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		uint64_t vals[64];
		size_t n = 0;

		TAKE(o->abi);
		if (o->abi != PERF_SAMPLE_REGS_ABI_NONE) {
			if (o->abi == PERF_SAMPLE_REGS_ABI_64 && regs_mask) {
				o->uregs = (const uint64_t *)(const void *)p;
				o->uregs_mask = regs_mask;
			}
			for (int b = 0; b < 64; b++)
				if (regs_mask & (1ULL << b))
					TAKE(vals[n++]);
			if (o->abi != PERF_SAMPLE_REGS_ABI_64 ||
			    softdec_regs_unpack(&o->regs, regs_mask, vals, n))
				o->abi = PERF_SAMPLE_REGS_ABI_NONE;   /* 32-bit task: no registers */
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		TAKE(v[0]);
		if (v[0]) {
			const uint8_t *data = p;

			if ((uint64_t)(end - p) < v[0])
				return -EBADMSG;
			p += v[0];
			TAKE(o->stack_size);   /* the bytes the kernel filled */
			if (o->stack_size > v[0])
				o->stack_size = v[0];
			o->stack = o->stack_size ? data : NULL;
		}
	}
#undef TAKE
	return 0;
}

void soft_raw_sample(const struct soft_raw *r, const struct perf_event_header *h, uint16_t event,
		     struct trace_sample *out)
{
	*out = (struct trace_sample){
		.time = r->time, .ip = r->ip, .pid = r->pid, .tid = r->tid, .cpu = r->cpu,
		.event = event, .chain_nr = r->chain_nr, .chain = r->chain,
		.stack_size = r->stack_size, .stack = r->stack,
		.cpumode = (uint8_t)(h->misc & PERF_RECORD_MISC_CPUMODE_MASK),
		.flags = r->cpu != TRACE_CPU_NONE ? TRACE_SAMPLE_HAS_CPU : 0,
	};
	if (r->abi == PERF_SAMPLE_REGS_ABI_64) {
		out->regs_mask = r->uregs_mask;
		out->regs = r->uregs;
	}
}

/* --- the backend ---------------------------------------------------------------------------- */

struct soft_backend {
	struct softdec *sd;
	struct codemap *cm;
	struct soft_stats st;
};

int soft_backend_new(struct soft_backend **out)
{
	struct soft_backend *sb = xcalloc(1, sizeof(*sb));
	int err = softdec_new(&sb->sd);

	if (err) {
		free(sb);
		return c2c_err(err, "the soft backend cannot open the capstone x86-64 decoder%s%s",
			       c2c_cs_missing() ? ": " : "", c2c_cs_missing() ? c2c_cs_missing() : "");
	}
	sb->cm = codemap_new();
	*out = sb;
	return 0;
}

void soft_backend_free(struct soft_backend *sb)
{
	if (!sb)
		return;
	softdec_free(sb->sd);
	codemap_free(sb->cm);
	free(sb);
}

struct codemap *soft_backend_codemap(struct soft_backend *sb)
{
	return sb->cm;
}

void soft_backend_attr(struct perf_event_attr *a)
{
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->sample_regs_user = REGS_X86_SOFT_MASK;
}

const struct soft_stats *soft_backend_stats(const struct soft_backend *sb)
{
	return &sb->st;
}

int soft_backend_sample(struct soft_backend *sb, const struct perf_event_header *h,
			uint64_t sample_type, uint64_t regs_mask, uint16_t event,
			struct trace_sample *out)
{
	struct softdec_access acc = { .reason = SOFTDEC_NO_REGS };
	struct softdec_func fn;
	struct soft_raw r;
	int err = soft_parse_sample(h, sample_type, regs_mask, &r);

	if (err)
		return err;
	soft_raw_sample(&r, h, event, out);
	if (r.period) {
		out->weight = r.period;
		out->flags |= TRACE_SAMPLE_HAS_WEIGHT;
	}
	sb->st.samples++;
	if (out->cpumode == PERF_RECORD_MISC_USER && r.abi == PERF_SAMPLE_REGS_ABI_64) {
		err = codemap_func(sb->cm, r.pid, r.ip, &fn);
		if (!err) {
			softdec_decode(sb->sd, &fn, r.ip, &r.regs, &acc);
		} else {
			acc.reason = SOFTDEC_OUTSIDE;
			if (err == -ENOENT)
				sb->st.no_map++;
			else
				sb->st.no_func++;
		}
	}
	if (softdec_has_addr(acc.reason))
		sb->st.recovered++;
	softdec_fill_sample(out, &acc);
	if (out->cpumode == PERF_RECORD_MISC_USER && r.abi == PERF_SAMPLE_REGS_ABI_64)
		out->task = codemap_task(sb->cm, r.pid, r.ip, &r.regs);
	return 0;
}

/* --- what a sample costs ------------------------------------------------------------------- */

#define SOFT_CAL_PERIOD_NS 100000u   /* 10 kHz while measuring: 20 samples a burst */
#define SOFT_CAL_BURST_NS 2000000ull /* each burst of the timed loop: 2 ms */
#define SOFT_CAL_BURSTS 8            /* about 160 samples, 17 ms of this thread in all */
#define SOFT_CAL_BURST_MIN 5         /* samples a burst needs to count (a preempted one has few) */
#define SOFT_CAL_GAPS 1024           /* gaps kept a burst (a sample makes one, ~20 a burst) */
#define SOFT_CAL_PAGES 16            /* room for 320 samples of about 200 bytes: ~20 a burst;
				      * more with user stacks (--call-graph dwarf) */
#define SOFT_CAL_COSTS (SOFT_CAL_BURSTS * 64)

struct cal_gap {
	uint64_t at, len;            /* the clock before the gap, and the gap (ns) */
};

struct cal {
	struct cal_gap gap[SOFT_CAL_GAPS];
	size_t ngap, next;           /* gaps of this burst; the first not yet matched */
	double cost[SOFT_CAL_COSTS]; /* one per sample: its gap less a plain iteration, or 0 */
	size_t ncost;
	uint64_t iter;               /* a plain iteration of the loop (ns) */
	size_t time_off;             /* offset of PERF_SAMPLE_TIME in a sample record */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Read the clock for @ns: the gaps between two readings longer than @thr (an interrupt, a
 * sample, a preemption) into c->gap. The number of readings. */
static uint64_t clock_loop(struct cal *c, uint64_t ns, uint64_t thr)
{
	uint64_t t0 = mono_ns(), prev = t0, now, n = 0;

	c->ngap = c->next = 0;
	do {
		now = mono_ns();
		n++;
		if (now - prev > thr && c->ngap < SOFT_CAL_GAPS)
			c->gap[c->ngap++] = (struct cal_gap){ prev, now - prev };
		prev = now;
	} while (now - t0 < ns);
	return n;
}

/* A sample of the burst: the gap its time falls in is what it cost (less a plain iteration);
 * none: it cost less than the threshold, counted as nothing. */
static int cal_sample(const struct perf_event_header *h, void *ctx)
{
	struct cal *c = ctx;
	uint64_t t;
	double cost = 0;

	if (h->type != PERF_RECORD_SAMPLE || h->size < c->time_off + 8 ||
	    c->ncost >= SOFT_CAL_COSTS)
		return 0;
	memcpy(&t, (const uint8_t *)h + c->time_off, 8);
	while (c->next < c->ngap && c->gap[c->next].at + c->gap[c->next].len < t)
		c->next++;
	if (c->next < c->ngap && c->gap[c->next].at <= t) {
		cost = (double)(c->gap[c->next].len - c->iter);
		c->next++;
	}
	c->cost[c->ncost++] = cost;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v (sorted in place). */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? v[n / 2] : 0;
}

/* The cpu-clock event that samples this thread at 10 kHz, stamped with CLOCK_MONOTONIC. */
static int cal_open(const struct perf_event_attr *model, struct perf_event_attr *a)
{
	int fd;

	*a = *model;
	a->size = sizeof(*a);
	a->freq = 0;
	a->sample_period = SOFT_CAL_PERIOD_NS;
	a->sample_type |= PERF_SAMPLE_TIME;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->disabled = 1;
	a->inherit = 0;
	a->enable_on_exec = 0;
	a->mmap = a->mmap2 = a->mmap_data = a->comm = a->task = 0;
	a->read_format = 0;
	fd = sys_perf_event_open(a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return c2c_err(-errno, "cannot open cpu-clock to measure what a sample costs: %s "
			       "(see 'c2c-lite doctor')", strerror(errno));
	return fd;
}

/* Pages for the samples of one burst, twice over (a burst's samples are drained after it: one
 * the ring had no room for would not be measured). */
static unsigned int cal_pages(const struct perf_event_attr *a)
{
	uint64_t bytes = 2 * (SOFT_CAL_BURST_NS / SOFT_CAL_PERIOD_NS + 5) *
			 (512 + (a->sample_type & PERF_SAMPLE_STACK_USER ? a->sample_stack_user : 0));
	long page = sysconf(_SC_PAGESIZE);
	unsigned int pages = SOFT_CAL_PAGES;

	while ((uint64_t)pages * (uint64_t)(page > 0 ? page : 4096) < bytes)
		pages *= 2;
	return pages;
}

int soft_calibrate(const struct perf_event_attr *model, double *ns_per_sample)
{
	struct perf_event_attr a;
	struct ring ring;
	struct cal *c;
	uint64_t n, thr, t0 = mono_ns();
	double burst[SOFT_CAL_BURSTS], all;
	int fd, err = 0, nburst = 0;

	*ns_per_sample = 0;
	if ((fd = cal_open(model, &a)) < 0)
		return fd;
	if ((err = ring_mmap(&ring, fd, cal_pages(&a)))) {
		close(fd);
		return c2c_err(err, "cannot map the ring buffer of a calibration event: %s",
			       strerror(-err));
	}
	c = xcalloc(1, sizeof(*c));
	c->time_off = sizeof(struct perf_event_header) +
		      8 * !!(a.sample_type & PERF_SAMPLE_IDENTIFIER) +
		      8 * !!(a.sample_type & PERF_SAMPLE_IP) + 8 * !!(a.sample_type & PERF_SAMPLE_TID);
	/* a plain iteration, unsampled; a sample costs far more than a few of them */
	for (int i = 0; i < 5; i++) {            /* the quickest of five: one may be preempted */
		n = clock_loop(c, 100000, UINT64_MAX);
		if (!i || 100000 / n < c->iter)
			c->iter = 100000 / n;
	}
	thr = 4 * c->iter > 200 ? 4 * c->iter : 200;
	for (int b = 0; b < SOFT_CAL_BURSTS && !err; b++) {
		size_t first = c->ncost;

		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		clock_loop(c, SOFT_CAL_BURST_NS, thr);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		err = ring_drain(&ring, cal_sample, c);
		/* the median of a burst: a preemption or another interrupt spoils a sample */
		if (c->ncost - first >= SOFT_CAL_BURST_MIN)
			burst[nburst++] = median(c->cost + first, c->ncost - first);
	}
	ring_unmap(&ring);
	close(fd);
	/* the cheapest burst's: a window where the host made every sample dear spoils a burst */
	for (int b = 0; b < nburst && !err; b++)
		if (!b || burst[b] < *ns_per_sample)
			*ns_per_sample = burst[b];
	all = median(c->cost, c->ncost);
	c2c_debug("soft backend: %zu samples measured in %d bursts of %llu ms, %.1f ms in all (a gap "
		  "of over %llu ns each): a quarter cost under %.1f us, a quarter over %.1f us, the "
		  "median %.1f us, the cheapest burst's %.1f us, the bursts' median %.1f us",
		  c->ncost, nburst, SOFT_CAL_BURST_NS / 1000000, (double)(mono_ns() - t0) / 1e6,
		  (unsigned long long)thr, c->ncost ? c->cost[c->ncost / 4] / 1e3 : 0,
		  c->ncost ? c->cost[3 * c->ncost / 4] / 1e3 : 0, all / 1e3, *ns_per_sample / 1e3,
		  nburst ? median(burst, (size_t)nburst) / 1e3 : 0);
	free(c);
	return err < 0 ? c2c_err(err, "cannot read the calibration event's samples: %s",
				 strerror(-err)) : 0;
}
