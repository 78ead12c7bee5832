/* Finding and loading the ELF file behind a mapping. A file is looked up under --symfs first,
 * then at its own path; when the mapping recorded a build-id the file must carry the same one,
 * else (after one warning per file name) the build-id trees (DIR/.build-id/xx/rest[.debug]) of
 * the caller's debuginfo roots, symfs, /usr/lib/debug and perf's build-id cache ($PERF_BUILDID_DIR
 * or ~/.debug) are searched, then debuginfod through libdwfl when DEBUGINFOD_URLS is set. The
 * vdso comes from perf's build-id cache, else from this process when its build-id is the
 * recorded one (or, with none recorded, when the trace comes from this kernel). Build-ids
 * compare as perf's dso__build_id_equal does. Each loaded file gets its own Dwfl with one
 * module, so modules never overlap whatever their link addresses. */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"

#define PAGE 4096ull
#define PAGE_DOWN(x) ((x) & ~(PAGE - 1))
#define PAGE_UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))

static void hex(char *dst, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(dst + 2 * i, "%02x", id[i]);
	dst[2 * n] = 0;
}

/* The recorded build-id's size: exact in MMAP2 records and in BUILD_ID features written with
 * PERF_RECORD_MISC_BUILD_ID_SIZE; older perf wrote every id zero-padded to 20 bytes. */
static size_t id_len(const struct trace_mmap *map)
{
	return map->build_id_size > TRACE_BUILD_ID_MAX ? TRACE_BUILD_ID_MAX : map->build_id_size;
}

/* perf 6.1's dso__build_id_equal: equal ids of equal size, or a 20-byte recorded id that is the
 * file's shorter id followed by zeros (the padded form). Trailing zero bytes of an id that is
 * really 20 bytes long (1 build-id in 256 ends in 0x00) are part of it. */
int sym_build_id_equal(const uint8_t *rec, size_t nrec, const uint8_t *file, size_t nfile)
{
	if (nrec > nfile && nrec == TRACE_BUILD_ID_MAX) {
		if (memcmp(rec, file, nfile))
			return 0;
		for (size_t i = nfile; i < nrec; i++)
			if (rec[i])
				return 0;
		return 1;
	}
	return nrec == nfile && !memcmp(rec, file, nrec);
}

/* The lengths the recorded id may really have, longest first: its size, and for a 20-byte id
 * ending in zeros each shorter length down to its last nonzero byte. */
static size_t id_next_len(const struct trace_mmap *map, size_t n)
{
	if (n == 0 || id_len(map) != TRACE_BUILD_ID_MAX || map->build_id[n - 1])
		return 0;
	return n - 1;
}

/* The build-id of the ELF file at @path: its length (0 for none), -1 when it is no ELF file. */
static int file_build_id(const char *path, uint8_t *id, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const void *bits;
	Elf *elf;
	int n = -1;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		ssize_t len = dwelf_elf_gnu_build_id(elf, &bits);
		n = len > 0 && (size_t)len <= cap ? (int)len : 0;
		if (n)
			memcpy(id, bits, n);
	}
	elf_end(elf);
	close(fd);
	return n;
}

static void free_file_dwfl(struct sym_file *f)
{
	if (f->dwfl)
		dwfl_end(f->dwfl);
	f->dwfl = NULL;
	f->mod = NULL;
}

void sym_file_free(struct sym_file *f)
{
	if (!f)
		return;
	sym_inline_release(f);
	free_file_dwfl(f);
	sym_cache_release(&f->code);
	sym_cache_release(&f->data);
	free(f->var);
	free(f->fn);
	free(f->plt_name);
	free(f->rbn);
	free(f->a2l);
	free(f->a2l_sec);
	free(f->seg);
	free(f->name);
	free(f->path);
	free(f);
}

static int read_segments(struct sym_file *f, Elf *elf)
{
	size_t n;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		return -EINVAL;
	f->e_type = eh.e_type;
	f->seg = xcalloc(n ? n : 1, sizeof(*f->seg));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		f->seg[f->nr_seg++] = (struct sym_seg){ ph.p_vaddr, ph.p_memsz, ph.p_offset,
							ph.p_filesz, ph.p_flags };
		/* only a debug file has a read-only or text segment with no file bytes */
		if (!ph.p_filesz && ph.p_memsz && !(ph.p_flags & PF_W))
			f->debug_only = 1;
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			f->has_symtab = 1;
	}
	return f->nr_seg ? 0 : -EINVAL;
}

/* Load @path into @f (a fresh Dwfl); on failure f->rc and f->reason say why. */
static void load(struct sym_session *s, struct sym_file *f, const char *path)
{
	const char *base = strrchr(f->name, '/');
	Elf *elf;

	f->dwfl = dwfl_begin(&s->cb);
	if (!f->dwfl)
		goto bad;
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_elf(f->dwfl, base ? base + 1 : f->name, path, -1, 0, false);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (!f->mod)
		goto bad;
	elf = dwfl_module_getelf(f->mod, &f->bias);
	if (!elf || read_segments(f, elf))
		goto bad;
	f->path = xstrdup(path);
	return;
bad:
	c2c_debug("cannot load '%s': %s", path, dwfl_errmsg(-1));
	free_file_dwfl(f);
	f->rc = -ENOENT;
	f->reason = "not an ELF file";
}

static int warned(struct sym_session *s, const char *name)
{
	for (size_t i = 0; i < s->nr_warned; i++)
		if (!strcmp(s->warned[i], name))
			return 1;
	s->warned = xgrow(s->warned, &s->cap_warned, s->nr_warned + 1, sizeof(*s->warned));
	s->warned[s->nr_warned++] = xstrdup(name);
	return 0;
}

/* Try DIR/.build-id/xx/rest and DIR/.build-id/xx/rest.debug for each root; the file must carry
 * the build-id. Fills @out (PATH_MAX bytes). */
static int find_by_build_id_hex(struct sym_session *s, const struct trace_mmap *map,
				const char *idhex, char *out)
{
	const char *roots[4] = { s->debuginfo_dirs, NULL, "/usr/lib/debug", NULL };
	char symroot[PATH_MAX], cache[PATH_MAX];
	uint8_t id[TRACE_BUILD_ID_MAX];

	if (s->symfs) {
		snprintf(symroot, sizeof(symroot), "%s/usr/lib/debug", s->symfs);
		roots[1] = symroot;
	}
	/* perf's build-id cache, where perf record keeps a copy of every DSO it saw (the vdso
	 * included): $PERF_BUILDID_DIR, else ~/.debug */
	if (getenv("PERF_BUILDID_DIR") && *getenv("PERF_BUILDID_DIR"))
		roots[3] = getenv("PERF_BUILDID_DIR");
	else if (getenv("HOME") && *getenv("HOME") &&
		 snprintf(cache, sizeof(cache), "%s/.debug", getenv("HOME")) < (int)sizeof(cache))
		roots[3] = cache;
	for (int r = 0; r < 4; r++) {
		const char *p = roots[r];
		while (p && *p) {
			size_t n = strcspn(p, ":");
			for (int dbg = 0; dbg < 2 && n; dbg++) {
				snprintf(out, PATH_MAX, "%.*s/.build-id/%.2s/%s%s", (int)n, p, idhex,
					 idhex + 2, dbg ? ".debug" : "");
				int len = file_build_id(out, id, sizeof(id));
				if (len > 0 && sym_build_id_equal(map->build_id, id_len(map), id,
								  (size_t)len))
					return 0;
			}
			p += n;
			p += *p == ':';
		}
	}
	return -ENOENT;
}

static int find_by_build_id(struct sym_session *s, const struct trace_mmap *map, char *out)
{
	char idhex[2 * TRACE_BUILD_ID_MAX + 1];

	for (size_t n = id_len(map); n; n = id_next_len(map, n)) {
		hex(idhex, map->build_id, n);
		if (!find_by_build_id_hex(s, map, idhex, out))
			return 0;
	}
	return -ENOENT;
}

/* debuginfod: let libdwfl fetch the executable, then its debug file, by build-id. */
static int find_debuginfod_len(struct sym_session *s, const struct trace_mmap *map, size_t nid,
			       char *out)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	const char *main = NULL, *debug = NULL;
	Dwfl_Module *m;
	Dwarf_Addr b;
	int rc = -ENOENT;
	Dwfl *d;

	if (!urls || !*urls || !(d = dwfl_begin(&s->cb)))
		return -ENOENT;
	dwfl_report_begin(d);
	m = dwfl_report_module(d, map->filename, 0, 1);
	if (m && dwfl_module_report_build_id(m, map->build_id, nid, 0) == 0) {
		dwfl_report_end(d, NULL, NULL);
		if (!dwfl_module_getelf(m, &b))
			dwfl_module_getdwarf(m, &b);
		dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, &main, &debug);
		if (main || debug) {
			snprintf(out, PATH_MAX, "%s", main ? main : debug);
			rc = 0;
		}
	}
	dwfl_end(d);
	return rc;
}

static int find_debuginfod(struct sym_session *s, const struct trace_mmap *map, char *out)
{
	if (!getenv("DEBUGINFOD_URLS") || !*getenv("DEBUGINFOD_URLS"))
		return -ENOENT;
	for (size_t n = id_len(map); n; n = id_next_len(map, n))
		if (!find_debuginfod_len(s, map, n, out))
			return 0;
	return -ENOENT;
}

/* The vdso of this process when it is the recorded one (the same build-id; without one, when the
 * trace was recorded on this kernel): its image copied into a memfd that libdwfl opens as
 * /proc/self/fd/N. */
static int find_running_vdso(struct sym_session *s, const struct trace_mmap *map, char *out)
{
	const uint8_t *image = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	unsigned long lo, hi;
	size_t size = 0;
	char line[512];
	const void *bits;
	ssize_t n;
	FILE *f;
	Elf *elf;
	int ok = 0;

	if (!image)
		return -ENOENT;
	if (s->vdso_fd <= 0) {
		f = fopen("/proc/self/maps", "r");
		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
			    lo == (unsigned long)image)
				size = hi - lo;
		if (f)
			fclose(f);
		if (!size)
			return -ENOENT;
		elf = elf_memory((char *)image, size);
		n = elf ? dwelf_elf_gnu_build_id(elf, &bits) : -1;
		if (n > 0 && (size_t)n <= TRACE_BUILD_ID_MAX) {
			s->vdso_nid = (size_t)n;
			memcpy(s->vdso_id, bits, (size_t)n);
			ok = 1;
		}
		if (elf)
			elf_end(elf);
		s->vdso_fd = -1;
		if (ok) {
			int fd = memfd_create("c2c-lite-vdso", MFD_CLOEXEC);

			if (fd >= 0 && write(fd, image, size) == (ssize_t)size)
				s->vdso_fd = fd;
			else if (fd >= 0)
				close(fd);
		}
	}
	if (s->vdso_fd < 0 || (id_len(map) ? !sym_build_id_equal(map->build_id, id_len(map),
								 s->vdso_id, s->vdso_nid) :
				!s->vdso_here))
		return -ENOENT;
	snprintf(out, PATH_MAX, "/proc/self/fd/%d", s->vdso_fd);
	return 0;
}

/* The vdso is on no disk: perf's build-id cache has the recorded one, else this kernel's is it
 * when the build-ids agree. Without a build-id only the trace's kernel release says which vdso
 * it was: this kernel's when they are the same. */
static void resolve_vdso(struct sym_session *s, struct sym_file *f, const struct trace_mmap *map)
{
	char path[PATH_MAX];

	if ((id_len(map) && !find_by_build_id(s, map, path)) || !find_running_vdso(s, map, path)) {
		load(s, f, path);
		return;
	}
	f->rc = -ENOENT;
	f->reason = id_len(map) ? "vdso (not in perf's build-id cache, not this kernel's)" :
		    "vdso (not on disk)";
}

/* Candidate paths for the mapping's file: under symfs, then as named. */
static int candidate(struct sym_session *s, const char *name, int i, char *out)
{
	if (i == 0 && s->symfs)
		return snprintf(out, PATH_MAX, "%s/%s", s->symfs, name) < PATH_MAX ? 0 : -1;
	if (i == 1)
		return snprintf(out, PATH_MAX, "%s", name) < PATH_MAX ? 0 : -1;
	return -1;
}

/* Why a non-file mapping has no symbols, or NULL for a file (deleted ones are tried). */
static const char *map_reason(const struct trace_mmap *map)
{
	switch (sym_map_kind(map->filename)) {
	case SYM_MAP_STACK:
		return "thread stack";
	case SYM_MAP_HEAP:
		return "heap";
	case SYM_MAP_ANON:
		return "anonymous memory";
	case SYM_MAP_VDSO:
		return "vdso (not on disk)";
	default:
		return NULL;
	}
}

static void resolve(struct sym_session *s, struct sym_file *f, const struct trace_mmap *map)
{
	char path[PATH_MAX], want[2 * TRACE_BUILD_ID_MAX + 1], got[2 * TRACE_BUILD_ID_MAX + 1] = "";
	size_t nid = id_len(map);
	int deleted = sym_map_kind(map->filename) == SYM_MAP_DELETED, mismatch = 0, seen = 0;
	char *name = xstrdup(map->filename);
	uint8_t id[TRACE_BUILD_ID_MAX];

	if (sym_map_kind(map->filename) == SYM_MAP_VDSO) {
		free(name);
		resolve_vdso(s, f, map);
		return;
	}
	if ((f->reason = map_reason(map))) {
		f->rc = -ENOENT;
		free(name);
		return;
	}
	if (deleted)
		name[strlen(name) - strlen(" (deleted)")] = 0;
	hex(want, map->build_id, nid);
	for (int i = 0; i < 2; i++) {
		if (candidate(s, name, i, path) || access(path, R_OK))
			continue;
		seen = 1;
		int len = file_build_id(path, id, sizeof(id));
		if (len < 0)
			continue;
		if (nid) {
			hex(got, id, len);
			if (!sym_build_id_equal(map->build_id, nid, id, (size_t)len)) {
				mismatch = 1;
				continue;
			}
		} else if (deleted) {
			continue;  /* nothing proves the file on disk is the one that was mapped */
		}
		free(name);
		load(s, f, path);
		return;
	}
	if (mismatch && !warned(s, map->filename))
		c2c_warn("build-id mismatch for '%s': recorded %s, on disk %s; searching debug "
			 "directories", map->filename, want, *got ? got : "none");
	free(name);
	if (nid && (!find_by_build_id(s, map, path) || !find_debuginfod(s, map, path))) {
		load(s, f, path);
		return;
	}
	f->rc = -ENOENT;
	f->reason = mismatch ? "build-id mismatch" : deleted ? "deleted file" :
		    seen ? "not an ELF file" : "file not found";
}

static int same_file(const struct sym_file *f, const struct trace_mmap *map, size_t nid)
{
	return f->nid == nid && !memcmp(f->id, map->build_id, nid) && !strcmp(f->name, map->filename);
}

struct sym_file *sym_file_get(struct sym_session *s, const struct trace_mmap *map)
{
	size_t nid = id_len(map);
	struct sym_file *f;

	if (s->last && same_file(s->last, map, nid))
		return s->last;
	for (size_t i = s->nr_file; i-- > 0;)
		if (same_file(s->file[i], map, nid))
			return s->last = s->file[i];
	f = xcalloc(1, sizeof(*f));
	f->name = xstrdup(map->filename);
	memcpy(f->id, map->build_id, nid);
	f->nid = nid;
	resolve(s, f, map);
	s->file = xgrow(s->file, &s->cap_file, s->nr_file + 1, sizeof(*s->file));
	s->file[s->nr_file++] = f;
	return s->last = f;
}

/* A vmlinux or other file given by path (no mapping, no build-id check). */
struct sym_file *sym_file_open_path(struct sym_session *s, const char *name, const char *path)
{
	struct sym_file *f = xcalloc(1, sizeof(*f));

	f->name = xstrdup(name);
	if (access(path, R_OK)) {
		f->rc = -ENOENT;
		f->reason = "file not found";
	} else {
		load(s, f, path);
	}
	return f;
}

static uint32_t prot_to_pf(uint32_t prot)
{
	/* PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4; PF_X 1, PF_W 2, PF_R 4 */
	return (prot & 1 ? PF_R : 0) | (prot & 2 ? PF_W : 0) | (prot & 4 ? PF_X : 0);
}

/* The segment holding file offset @off byte-exactly; among several (the ELF headers), the one
 * whose permissions match the mapping's. */
static const struct sym_seg *seg_by_offset(const struct sym_file *f, uint64_t off, uint32_t prot)
{
	const struct sym_seg *best = NULL;

	for (size_t i = 0; i < f->nr_seg; i++) {
		const struct sym_seg *g = &f->seg[i];
		if (off < g->offset || off - g->offset >= g->filesz)
			continue;
		if (!best || (prot && g->flags == prot_to_pf(prot)))
			best = g;
	}
	return best;
}

static int in_image(const struct sym_file *f, uint64_t vaddr)
{
	for (size_t i = 0; i < f->nr_seg; i++)
		if (vaddr >= f->seg[i].vaddr && vaddr < f->seg[i].vaddr + f->seg[i].memsz)
			return 1;
	return 0;
}

/* A debug file standing in for a binary of the recorded build-id keeps the segments' addresses
 * but not their file offsets, so the mapping's segment is chosen by permissions: the first
 * segment for a mapping at file offset 0, else the first other one with the same permissions.
 * (A RELRO part split off a data mapping, as /proc/PID/maps shows it, can be taken for
 * .rodata: one reason a matching binary on disk is always preferred.) */
static const struct sym_seg *seg_by_prot(const struct sym_file *f, const struct trace_mmap *map)
{
	uint32_t pf = prot_to_pf(map->prot);

	if (map->pgoff == 0)
		return &f->seg[0];
	for (size_t i = 1; i < f->nr_seg; i++)
		if (!map->prot || f->seg[i].flags == pf)
			return &f->seg[i];
	return NULL;
}

/* The ELF vaddr of @addr if @map is the mapping of segment @g (starting at file page pgoff). */
static uint64_t via_segment(const struct sym_seg *g, const struct trace_mmap *map, uint64_t addr)
{
	return addr - map->start + PAGE_DOWN(g->vaddr) + (map->pgoff - PAGE_DOWN(g->offset));
}

/* Through the load bias of the segment the mapping belongs to. Several segments can share the
 * mapping's first file page (.rodata ending in the page where .data starts; a RELRO part split
 * off as r--): the one whose own range then holds the address wins, else the one whose
 * permissions match, else the first. When the ranges of two hold it, the later segment's, whose
 * mapping starts at its page: lld (rustc's linker) puts the RELRO segment, its memory padded to
 * the next page, and .data/.bss in one file page, each mapped at its own address; the address of
 * a static in .bss past .data's file bytes is inside both ranges. */
static int vaddr_by_bias(const struct sym_file *f, const struct trace_mmap *map, uint64_t addr,
			 uint64_t *vaddr)
{
	const struct sym_seg *own = NULL, *perm = NULL, *first = NULL;
	uint32_t pf = prot_to_pf(map->prot);

	for (size_t i = 0; i < f->nr_seg; i++) {
		const struct sym_seg *g = &f->seg[i];
		if (map->pgoff < PAGE_DOWN(g->offset) ||
		    map->pgoff >= PAGE_UP(g->offset + (g->filesz ? g->filesz : 1)))
			continue;
		uint64_t v = via_segment(g, map, addr);
		if ((!own || PAGE_DOWN(g->offset) > PAGE_DOWN(own->offset)) && v >= g->vaddr &&
		    v - g->vaddr < g->memsz)
			own = g;
		if (!perm && map->prot && g->flags == pf)
			perm = g;
		if (!first)
			first = g;
	}
	if (!(own = own ? own : perm ? perm : first))
		return -ERANGE;
	*vaddr = via_segment(own, map, addr);
	return in_image(f, *vaddr) ? 0 : -ERANGE;
}

/* runtime -> file offset -> ELF vaddr. An address inside the mapping whose file offset lies in a
 * segment's file bytes translates through that segment; otherwise (.bss, another segment of the
 * same image) through the load bias of the segment the mapping starts in. */
int sym_file_vaddr(const struct sym_file *f, const struct trace_mmap *map, uint64_t addr,
		   uint64_t *vaddr)
{
	const struct sym_seg *g;

	if (f->debug_only) {
		g = seg_by_prot(f, map);
		*vaddr = addr - map->start + PAGE_DOWN(g ? g->vaddr : 0);
		return g && in_image(f, *vaddr) ? 0 : -ERANGE;
	}
	if (addr >= map->start && addr - map->start < map->len) {
		uint64_t off = addr - map->start + map->pgoff;
		g = seg_by_offset(f, off, map->prot);
		if (g) {
			*vaddr = off - g->offset + g->vaddr;
			return 0;
		}
	}
	return vaddr_by_bias(f, map, addr, vaddr);
}

int sym_file_dwarf(struct sym_file *f)
{
	if (!f->dwarf_tried) {
		f->dwarf_tried = 1;
		f->dw = f->mod ? dwfl_module_getdwarf(f->mod, &f->dw_bias) : NULL;
	}
	return f->dw ? 0 : -ENOENT;
}
