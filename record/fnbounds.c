/* Function bounds from ELF symbols and .eh_frame FDEs (see fnbounds.h). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "record/fnbounds.h"

#define SHT_X86_64_UNWIND_ 0x70000001   /* .eh_frame's type in some x86-64 objects */
#define CONTAINED_MAX 16                /* ranges looked at back from the nearest start */

struct cie_enc {
	uint64_t off;            /* the CIE's offset in .eh_frame */
	int enc;                 /* its FDEs' pointer encoding ('R'), -1 when unusable */
};

struct fnbounds {
	Elf *elf;
	unsigned int flags;
	const unsigned char *ident;
	size_t ptr_size;
	struct fnrange *sym;     /* sized function symbols, sorted by start */
	size_t nr_sym;
	enum fnb_source symsrc;

	int fde_state;           /* 0: not read yet; 1: table; 2: walk; -1: none */
	Elf_Data *eh;            /* .eh_frame */
	uint64_t eh_addr;
	const uint8_t *hdr;      /* .eh_frame_hdr's bytes and address */
	uint64_t hdr_addr;
	const uint8_t *tab;      /* its binary search table: nr_tab pairs of 2 * tab_esz bytes */
	size_t nr_tab, tab_esz;
	uint8_t tab_enc;
	struct fnrange *fde;     /* the walk's FDEs, sorted by start */
	size_t nr_fde;
	struct cie_enc *cie;     /* sorted by offset */
	size_t nr_cie, cap_cie;
};

/* --- ranges --------------------------------------------------------------------------------- */

static int cmp_range(const void *a, const void *b)
{
	const struct fnrange *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size);   /* larger first */
}

/* Sort @r and keep the largest range per start (aliases); the new count. */
static size_t sort_ranges(struct fnrange *r, size_t n)
{
	size_t j = 0;

	if (!n)
		return 0;
	qsort(r, n, sizeof(*r), cmp_range);
	for (size_t i = 0; i < n; i++)
		if (!j || r[j - 1].start != r[i].start)
			r[j++] = r[i];
	return j;
}

/* The range of sorted @r holding @va: the nearest start at or below it, else one of the few
 * before it that contains it (a function with a second entry point inside it). */
static const struct fnrange *range_find(const struct fnrange *r, size_t n, uint64_t va)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {                 /* first range with start > va */
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].start <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i-- > 0 && k < CONTAINED_MAX; k++)
		if (va - r[i].start < r[i].size)
			return &r[i];
	return NULL;
}

/* --- symbols -------------------------------------------------------------------------------- */

/* Sized function symbols of the section of @type (SHT_SYMTAB or SHT_DYNSYM); 1 when it exists. */
static int read_syms(struct fnbounds *fb, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;
	int found = 0;

	while ((scn = elf_nextscn(fb->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		if (!(d = elf_getdata(scn, NULL)))
			continue;
		found = 1;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			int t;

			if (!gelf_getsym(d, (int)i, &sym))
				break;
			t = GELF_ST_TYPE(sym.st_info);
			if ((t != STT_FUNC && t != STT_GNU_IFUNC) || !sym.st_size ||
			    sym.st_shndx == SHN_UNDEF || sym.st_value + sym.st_size < sym.st_value)
				continue;
			fb->sym = xgrow(fb->sym, &cap, fb->nr_sym + 1, sizeof(*fb->sym));
			fb->sym[fb->nr_sym++] = (struct fnrange){ sym.st_value, sym.st_size, 0 };
		}
	}
	return found;
}

struct fnbounds *fnbounds_new(Elf *elf, unsigned int flags)
{
	struct fnbounds *fb;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !(elf_getident(elf, NULL)))
		return NULL;
	fb = xcalloc(1, sizeof(*fb));
	fb->elf = elf;
	fb->flags = flags;
	fb->ident = (const unsigned char *)elf_getident(elf, NULL);
	fb->ptr_size = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	if (read_syms(fb, SHT_SYMTAB))
		fb->symsrc = FNB_SYMTAB;
	else if (read_syms(fb, SHT_DYNSYM))
		fb->symsrc = FNB_DYNSYM;
	fb->nr_sym = sort_ranges(fb->sym, fb->nr_sym);
	for (size_t i = 0; i < fb->nr_sym; i++)
		fb->sym[i].src = fb->symsrc;
	return fb;
}

void fnbounds_free(struct fnbounds *fb)
{
	if (!fb)
		return;
	free(fb->sym);
	free(fb->fde);
	free(fb->cie);
	free(fb);
}

void fnbounds_info(const struct fnbounds *fb, struct fnbounds_info *out)
{
	out->symbols = fb->nr_sym;
	out->symtab = fb->symsrc;
	out->fde_table = fb->fde_state == 1 ? 1 : fb->fde_state == 2 ? 0 : -1;
	out->fdes = fb->fde_state == 1 ? fb->nr_tab : fb->nr_fde;
}

/* --- DW_EH_PE pointers ---------------------------------------------------------------------- */

/* Bytes of a fixed-size value format, 0 for LEB128 and unknown formats. */
static size_t eh_fixed_size(uint8_t enc, size_t ptr_size)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
	case DW_EH_PE_signed:
		return ptr_size;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		return 2;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	}
	return 0;
}

static int read_leb(const uint8_t **p, const uint8_t *end, int sign, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t b;

	do {
		if (*p >= end || shift >= 64)
			return -1;
		b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	*out = v;
	return 0;
}

/* The value of format @enc & 0x0f at *p (not past @end), *p advanced: 0, or -1. */
static int eh_value(const struct fnbounds *fb, uint8_t enc, const uint8_t **p,
		    const uint8_t *end, uint64_t *out)
{
	uint8_t fmt = enc & 0x0f;
	size_t n = eh_fixed_size(enc, fb->ptr_size);
	uint64_t v = 0;

	if (fmt == DW_EH_PE_uleb128 || fmt == DW_EH_PE_sleb128)
		return read_leb(p, end, fmt == DW_EH_PE_sleb128, out);
	if (!n || *p > end || (size_t)(end - *p) < n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k = fb->ident[EI_DATA] == ELFDATA2MSB ? i : n - 1 - i;

		v = v << 8 | (*p)[k];
	}
	if ((fmt & DW_EH_PE_signed) && n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * n);
	*p += n;
	*out = v;
	return 0;
}

/* A pointer of encoding @enc at *p whose own address is @at; @datarel is the base of
 * DW_EH_PE_datarel (0: none). Absolute, pc-relative and data-relative pointers are understood;
 * indirect ones (a word to read in the process) and the other bases are not: -1. */
static int eh_pointer(const struct fnbounds *fb, uint8_t enc, const uint8_t **p,
		      const uint8_t *end, uint64_t at, uint64_t datarel, uint64_t *out)
{
	uint64_t v;

	if (enc == DW_EH_PE_omit || (enc & DW_EH_PE_indirect) || eh_value(fb, enc, p, end, &v))
		return -1;
	switch (enc & 0x70) {
	case DW_EH_PE_absptr:
		break;
	case DW_EH_PE_pcrel:
		v += at;
		break;
	case DW_EH_PE_datarel:
		if (!datarel)
			return -1;
		v += datarel;
		break;
	default:
		return -1;
	}
	*out = fb->ptr_size == 4 ? (uint32_t)v : v;
	return 0;
}

/* --- CIEs and FDEs -------------------------------------------------------------------------- */

/* The FDE pointer encoding a CIE's augmentation gives ('R'; absolute without one): -1 when
 * the augmentation string has a letter whose data cannot be skipped before the 'R'. */
static int augmentation_enc(const struct fnbounds *fb, const Dwarf_CIE *c)
{
	const char *a = c->augmentation;
	const uint8_t *p = c->augmentation_data;
	const uint8_t *end = p ? p + c->augmentation_data_size : NULL;

	if (!a || !a[0])
		return DW_EH_PE_absptr;
	if (a[0] != 'z')
		return -1;
	for (a++; *a; a++) {
		uint8_t penc;
		uint64_t skip;

		switch (*a) {
		case 'R':
			return p && p < end ? *p : -1;
		case 'L':
			if (!p || p >= end)
				return -1;
			p++;
			break;
		case 'P':
			if (!p || p >= end)
				return -1;
			penc = *p++;
			if (eh_value(fb, penc, &p, end, &skip))
				return -1;
			break;
		case 'S':
		case 'B':
		case 'G':
			break;
		default:
			return -1;
		}
	}
	return DW_EH_PE_absptr;
}

/* The FDE encoding of the CIE at offset @off of .eh_frame, cached: -1 when unusable. */
static int cie_enc(struct fnbounds *fb, uint64_t off)
{
	size_t lo = 0, hi = fb->nr_cie;
	Dwarf_CFI_Entry e;
	Dwarf_Off next;
	int enc = -1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fb->cie[mid].off == off)
			return fb->cie[mid].enc;
		if (fb->cie[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (off < fb->eh->d_size &&
	    dwarf_next_cfi(fb->ident, fb->eh, true, off, &next, &e) == 0 && dwarf_cfi_cie_p(&e))
		enc = augmentation_enc(fb, &e.cie);
	fb->cie = xgrow(fb->cie, &fb->cap_cie, fb->nr_cie + 1, sizeof(*fb->cie));
	memmove(&fb->cie[lo + 1], &fb->cie[lo], (fb->nr_cie - lo) * sizeof(*fb->cie));
	fb->cie[lo] = (struct cie_enc){ off, enc };
	fb->nr_cie++;
	return enc;
}

/* The code range of the FDE @e (an entry read from .eh_frame): 0, or -1. */
static int fde_range(struct fnbounds *fb, const Dwarf_FDE *e, struct fnrange *out)
{
	const uint8_t *base = fb->eh->d_buf, *p = e->start, *end = e->end;
	uint64_t start, len;
	int enc = cie_enc(fb, e->CIE_pointer);

	if (enc < 0 || p < base || end > base + fb->eh->d_size || p > end ||
	    eh_pointer(fb, (uint8_t)enc, &p, end, fb->eh_addr + (uint64_t)(e->start - base), 0,
		       &start) ||
	    eh_value(fb, (uint8_t)enc, &p, end, &len) || !len || start + len < start)
		return -1;
	*out = (struct fnrange){ start, len, FNB_FDE };
	return 0;
}

/* The FDE at offset @off of .eh_frame: 0 and its range, or -1. */
static int fde_at(struct fnbounds *fb, uint64_t off, struct fnrange *out)
{
	Dwarf_CFI_Entry e;
	Dwarf_Off next;

	if (off >= fb->eh->d_size || dwarf_next_cfi(fb->ident, fb->eh, true, off, &next, &e) ||
	    dwarf_cfi_cie_p(&e))
		return -1;
	return fde_range(fb, &e.fde, out);
}

/* Every FDE of .eh_frame, sorted (a file without a usable .eh_frame_hdr table). */
static void walk_fdes(struct fnbounds *fb)
{
	Dwarf_Off off = 0;
	size_t cap = 0;

	while (off < fb->eh->d_size) {
		Dwarf_Off next = (Dwarf_Off)-1;
		Dwarf_CFI_Entry e;
		struct fnrange r;
		int rc = dwarf_next_cfi(fb->ident, fb->eh, true, off, &next, &e);

		if (rc == 0 && !dwarf_cfi_cie_p(&e) && !fde_range(fb, &e.fde, &r)) {
			fb->fde = xgrow(fb->fde, &cap, fb->nr_fde + 1, sizeof(*fb->fde));
			fb->fde[fb->nr_fde++] = r;
		}
		if (rc > 0 || next == (Dwarf_Off)-1 || next <= off)
			break;                /* the end, or an error that cannot be skipped */
		off = next;
	}
	fb->nr_fde = sort_ranges(fb->fde, fb->nr_fde);
}

/* Entry @i of the .eh_frame_hdr table: its initial location and FDE address. */
static int tab_entry(const struct fnbounds *fb, size_t i, uint64_t *loc, uint64_t *fde)
{
	const uint8_t *p = fb->tab + i * 2 * fb->tab_esz, *end = p + 2 * fb->tab_esz;
	uint64_t at = fb->hdr_addr + (uint64_t)(p - fb->hdr);

	return eh_pointer(fb, fb->tab_enc, &p, end, at, fb->hdr_addr, loc) ||
	       eh_pointer(fb, fb->tab_enc, &p, end, at + fb->tab_esz, fb->hdr_addr, fde) ? -1 : 0;
}

/* Use .eh_frame_hdr (@d at @addr) when its table is there and consistent: 0, else -1. */
static int open_table(struct fnbounds *fb, const Elf_Data *d, uint64_t addr)
{
	const uint8_t *p = d->d_buf, *end;
	uint64_t eh_ptr, count;
	uint8_t cnt_enc, tab_enc;

	if (!p || d->d_size < 4 || p[0] != 1)
		return -1;       /* an empty section has no buffer: no pointer arithmetic on it */
	end = p + d->d_size;
	cnt_enc = p[2];
	tab_enc = p[3];
	p += 4;
	fb->hdr = d->d_buf;
	fb->hdr_addr = addr;
	if (eh_pointer(fb, fb->hdr[1], &p, end, addr + 4, addr, &eh_ptr) || eh_ptr != fb->eh_addr ||
	    (cnt_enc & 0x70) || eh_value(fb, cnt_enc, &p, end, &count) ||
	    tab_enc == DW_EH_PE_omit || (tab_enc & DW_EH_PE_indirect) ||
	    !(fb->tab_esz = eh_fixed_size(tab_enc, fb->ptr_size)) ||
	    count > (uint64_t)(end - p) / (2 * fb->tab_esz))
		return -1;
	fb->tab = p;
	fb->nr_tab = (size_t)count;
	fb->tab_enc = tab_enc;
	return 0;
}

/* Find .eh_frame and .eh_frame_hdr; choose the table or the walk. */
static void open_fdes(struct fnbounds *fb)
{
	Elf_Data *hdr = NULL;
	uint64_t hdr_addr = 0;
	Elf_Scn *scn = NULL;
	size_t shstr;

	fb->fde_state = -1;
	if (elf_getshdrstrndx(fb->elf, &shstr))
		return;
	while ((scn = elf_nextscn(fb->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & SHF_COMPRESSED) || !(name = elf_strptr(fb->elf, shstr, sh.sh_name)))
			continue;
		if (!strcmp(name, ".eh_frame") &&
		    (sh.sh_type == SHT_PROGBITS || sh.sh_type == SHT_X86_64_UNWIND_)) {
			fb->eh = elf_rawdata(scn, NULL);
			fb->eh_addr = sh.sh_addr;
		} else if (!strcmp(name, ".eh_frame_hdr") && sh.sh_type == SHT_PROGBITS) {
			hdr = elf_rawdata(scn, NULL);
			hdr_addr = sh.sh_addr;
		}
	}
	if (!fb->eh || !fb->eh->d_buf || !fb->eh->d_size)
		return;
	if (hdr && !(fb->flags & FNB_WALK_FDES) && !open_table(fb, hdr, hdr_addr)) {
		fb->fde_state = 1;
		return;
	}
	walk_fdes(fb);
	fb->fde_state = 2;
}

int fnbounds_fde(struct fnbounds *fb, uint64_t va, struct fnrange *out)
{
	const struct fnrange *r;
	size_t lo = 0, hi;
	uint64_t loc, fde;

	if (!fb->fde_state)
		open_fdes(fb);
	if (fb->fde_state == 2) {
		if (!(r = range_find(fb->fde, fb->nr_fde, va)))
			return -ESRCH;
		*out = *r;
		return 0;
	}
	if (fb->fde_state != 1)
		return -ESRCH;
	hi = fb->nr_tab;
	while (lo < hi) {                 /* first entry with initial location > va */
		size_t mid = lo + (hi - lo) / 2;

		if (tab_entry(fb, mid, &loc, &fde))
			return -ESRCH;
		if (loc <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || tab_entry(fb, lo - 1, &loc, &fde) || fde < fb->eh_addr ||
	    fde_at(fb, fde - fb->eh_addr, out) || out->start != loc || va - out->start >= out->size)
		return -ESRCH;
	return 0;
}

int fnbounds_find(struct fnbounds *fb, uint64_t va, struct fnrange *out)
{
	const struct fnrange *r = range_find(fb->sym, fb->nr_sym, va);

	if (r) {
		*out = *r;
		return 0;
	}
	return fnbounds_fde(fb, va, out);
}
