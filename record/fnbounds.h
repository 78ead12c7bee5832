/* Function bounds in one ELF file: for a link-time address, the start and size of the function
 * holding it, so that the soft and watch backends can decode its code (record/backend-soft.h).
 *
 * WHERE THE BOUNDS COME FROM. First the symbol table: .symtab, else .dynsym, function symbols
 * (STT_FUNC, STT_GNU_IFUNC) with a size. A distribution's shared libraries are stripped to
 * .dynsym, which names only the exported functions: glibc's malloc and free are there, but the
 * static functions they call (_int_malloc, _int_free) and the string functions an IFUNC picks
 * (__memset_avx2_unaligned_erms; .dynsym's `memset` is the resolver) have no symbol, and
 * assembler functions may have a size of 0. So an address in no sized symbol is looked up in the
 * unwind tables every x86-64 ELF file carries whether stripped or not: the Frame Description
 * Entry of .eh_frame covering it gives [initial_location, initial_location + address_range),
 * which for compiled code is one function (or the .cold part of one). The FDE is found by a
 * binary search of .eh_frame_hdr's table (sorted initial locations and FDE addresses, as the
 * unwinder uses it), else, when a file has no usable table, by one walk of .eh_frame
 * (dwarf_next_cfi) into a sorted array. The FDE's encoding comes from its CIE's augmentation
 * ('R'); pointer encodings are those of the LSB's "Exception Frames" (DW_EH_PE_*).
 *
 * COST. fnbounds_new() reads the symbol table once; the FDEs are read on the first address in
 * no symbol: with .eh_frame_hdr, a binary search per lookup over the mapped file and nothing
 * held but the CIE encodings; without, one pass over .eh_frame (16 bytes per FDE).
 *
 * Every read is bounded by the section data libelf gives; a malformed table or entry makes the
 * lookup fail (-ESRCH), never read outside the file. Separate debug files are not consulted:
 * .eh_frame bounds the functions they would name. Not thread-safe; -errno returns. */
#ifndef C2C_RECORD_FNBOUNDS_H
#define C2C_RECORD_FNBOUNDS_H

#include <libelf.h>
#include <stdint.h>

enum fnb_source {
	FNB_SYMTAB = 1,          /* a sized function symbol of .symtab */
	FNB_DYNSYM,              /* ... of .dynsym (the file has no .symtab) */
	FNB_FDE,                 /* no sized symbol: the .eh_frame FDE covering the address */
};

struct fnrange {
	uint64_t start, size;    /* link-time address and bytes */
	enum fnb_source src;
};

enum fnb_flags {
	FNB_WALK_FDES = 1 << 0,  /* ignore .eh_frame_hdr's table: walk .eh_frame (tests) */
};

struct fnbounds;

/* The function bounds of @elf (an ELF_K_ELF handle, not owned: it must outlive the result).
 * Reads the symbol table now. NULL when @elf is not an ELF file. */
struct fnbounds *fnbounds_new(Elf *elf, unsigned int flags);
/* NULL is a no-op. */
void fnbounds_free(struct fnbounds *fb);
/* The function holding link-time address @va: 0 and *out, or -ESRCH. */
int fnbounds_find(struct fnbounds *fb, uint64_t va, struct fnrange *out);
/* The FDE covering @va alone (no symbols): 0 and *out, or -ESRCH. */
int fnbounds_fde(struct fnbounds *fb, uint64_t va, struct fnrange *out);

struct fnbounds_info {
	size_t symbols;          /* sized function symbols kept (aliases merged) */
	enum fnb_source symtab;  /* FNB_SYMTAB, FNB_DYNSYM, or 0 when the file has neither */
	int fde_table;           /* 1: .eh_frame_hdr's table; 0: a walk; -1: no usable .eh_frame
				  * (valid once an FDE lookup ran) */
	size_t fdes;             /* FDEs in the table or the walk */
};
void fnbounds_info(const struct fnbounds *fb, struct fnbounds_info *out);

#endif
