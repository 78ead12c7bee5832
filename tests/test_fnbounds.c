/* Function bounds (record/fnbounds.h) over the C library this test runs with: a stripped
 * distribution libc has only .dynsym, so its static functions and IFUNC implementations are
 * bounded by .eh_frame. The bounds are checked against the symbols of .dynsym, against libdw's
 * own reading of the CFI, against the functions the dynamic linker resolved in this process,
 * against the separate debug file's .symtab when one is installed, between .eh_frame_hdr's table
 * and a walk of .eh_frame, and on copies of the file with damaged unwind sections. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "record/buildid.h"
#include "record/fnbounds.h"

/* The C library of this process (its path, as the dynamic linker loaded it), read whole. */
struct lib {
	char path[4096];
	uint8_t *img;
	size_t size;
	Elf *elf;
	uint64_t bias;           /* load address - link-time address */
	uint64_t text, text_size;
	uint64_t hdr_off, hdr_size, eh_off, eh_size;   /* file offsets of the unwind sections */
};

static struct lib libc_;

static int setup(void **state)
{
	struct lib *l = &libc_;
	Dl_info di;
	struct stat st;
	size_t shstr, nph;
	Elf_Scn *scn = NULL;
	FILE *fp;

	*state = l;
	if (!dladdr((void *)(uintptr_t)&pthread_mutex_lock, &di) || !di.dli_fname ||
	    di.dli_fname[0] != '/')
		return -1;
	snprintf(l->path, sizeof(l->path), "%s", di.dli_fname);
	if (stat(l->path, &st) || !(fp = fopen(l->path, "rb")))
		return -1;
	l->size = (size_t)st.st_size;
	l->img = malloc(l->size);
	if (!l->img || fread(l->img, 1, l->size, fp) != l->size) {
		fclose(fp);
		return -1;
	}
	fclose(fp);
	elf_version(EV_CURRENT);
	if (!(l->elf = elf_memory((char *)l->img, l->size)) || elf_getshdrstrndx(l->elf, &shstr) ||
	    elf_getphdrnum(l->elf, &nph))
		return -1;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(l->elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			l->bias = (uint64_t)(uintptr_t)di.dli_fbase - (ph.p_vaddr & ~(uint64_t)0xfff);
			break;
		}
	}
	while ((scn = elf_nextscn(l->elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(l->elf, shstr, sh.sh_name)))
			continue;
		if (!strcmp(n, ".text")) {
			l->text = sh.sh_addr;
			l->text_size = sh.sh_size;
		} else if (!strcmp(n, ".eh_frame_hdr")) {
			l->hdr_off = sh.sh_offset;
			l->hdr_size = sh.sh_size;
		} else if (!strcmp(n, ".eh_frame")) {
			l->eh_off = sh.sh_offset;
			l->eh_size = sh.sh_size;
		}
	}
	return l->text_size && l->eh_size ? 0 : -1;
}

static int teardown(void **state)
{
	struct lib *l = *state;

	if (l->elf)
		elf_end(l->elf);
	free(l->img);
	return 0;
}

/* The link-time address of a function of this process's libc. */
static uint64_t va_of(const struct lib *l, const void *fn)
{
	return (uint64_t)(uintptr_t)fn - l->bias;
}

/* The sized function symbols of @elf's sections of @type, with their names. */
struct fsym {
	uint64_t value, size;
	const char *name;
};

static size_t func_syms(Elf *elf, Elf64_Word type, struct fsym **out)
{
	Elf_Scn *scn = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_size || s.st_shndx == SHN_UNDEF)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				*out = realloc(*out, cap * sizeof(**out));
				assert_non_null(*out);
			}
			(*out)[n++] = (struct fsym){ s.st_value, s.st_size,
						     elf_strptr(elf, sh.sh_link, s.st_name) };
		}
	}
	return n;
}

/* --- the lookups ---------------------------------------------------------------------------- */

/* Every sized function symbol of .dynsym is found by its symbols, as itself or as a function
 * containing it. */
static void test_dynsym(void **state)
{
	struct lib *l = *state;
	struct fnbounds *fb = fnbounds_new(l->elf, 0);
	struct fnbounds_info info;
	struct fsym *sym;
	size_t n = func_syms(l->elf, SHT_DYNSYM, &sym);

	assert_non_null(fb);
	for (size_t i = 0; i < n; i++) {
		uint64_t mid = sym[i].value + sym[i].size / 2;
		struct fnrange r;

		assert_int_equal(fnbounds_find(fb, mid, &r), 0);
		assert_int_not_equal(r.src, FNB_FDE);
		assert_true(mid - r.start < r.size);
	}
	free(sym);
	fnbounds_info(fb, &info);
	assert_true(n > 100);
	assert_true(info.symbols > 100);
	/* .symtab when the library has one (not stripped), else .dynsym */
	n = func_syms(l->elf, SHT_SYMTAB, &sym);
	assert_int_equal(info.symtab, n ? FNB_SYMTAB : FNB_DYNSYM);
	free(sym);
	fnbounds_free(fb);
}

/* The functions this process calls: memset (an IFUNC: .dynsym's `memset` is its resolver; the
 * implementation picked for this CPU has no dynamic symbol) and pthread_mutex_lock start where
 * the dynamic linker resolved them. */
static void test_resolved(void **state)
{
	struct lib *l = *state;
	struct fnbounds *fb = fnbounds_new(l->elf, 0);
	const char *names[] = { "memset", "pthread_mutex_lock", "malloc", "free", "memcpy" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *p = dlsym(RTLD_DEFAULT, names[i]);
		Dl_info di;
		struct fnrange r;
		uint64_t va;

		assert_non_null(p);
		if (!dladdr(p, &di) || !di.dli_fname || strcmp(di.dli_fname, l->path))
			continue;              /* interposed, or in another library */
		va = va_of(l, p);
		if (fnbounds_find(fb, va + 1, &r))
			fail_msg("%s (0x%llx): no function", names[i], (unsigned long long)va);
		if (r.start != va || r.size < 2)
			fail_msg("%s at 0x%llx: found [0x%llx, +0x%llx) from %d", names[i],
				 (unsigned long long)va, (unsigned long long)r.start,
				 (unsigned long long)r.size, r.src);
	}
	fnbounds_free(fb);
}

/* Against libdw: wherever libdw finds a CFI row for an address of .text, the FDE found covers
 * that row, and the address has a function; where libdw finds none, no FDE is found either.
 * The table and the walk give the same FDEs. */
static void test_against_libdw(void **state)
{
	struct lib *l = *state;
	struct fnbounds *tab = fnbounds_new(l->elf, 0), *walk = fnbounds_new(l->elf, FNB_WALK_FDES);
	Dwarf_CFI *cfi = dwarf_getcfi_elf(l->elf);
	struct fnbounds_info ti, wi;
	size_t rows = 0, none = 0;

	assert_non_null(cfi);
	for (uint64_t va = l->text; va < l->text + l->text_size; va += 61) {
		Dwarf_Frame *fr;
		Dwarf_Addr rs, re;
		bool sig;
		struct fnrange r, w, f;
		int a = fnbounds_fde(tab, va, &r), b = fnbounds_fde(walk, va, &w);

		assert_int_equal(a, b);
		if (!a && (r.start != w.start || r.size != w.size))
			fail_msg("0x%llx: table [0x%llx,+0x%llx) walk [0x%llx,+0x%llx)",
				 (unsigned long long)va, (unsigned long long)r.start,
				 (unsigned long long)r.size, (unsigned long long)w.start,
				 (unsigned long long)w.size);
		if (dwarf_cfi_addrframe(cfi, va, &fr)) {
			none++;
			assert_int_equal(a, -ESRCH);
			continue;
		}
		dwarf_frame_info(fr, &rs, &re, &sig);
		free(fr);
		rows++;
		if (a || rs < r.start || re > r.start + r.size)
			fail_msg("0x%llx: libdw row [0x%llx,0x%llx), FDE %d [0x%llx,+0x%llx)",
				 (unsigned long long)va, (unsigned long long)rs,
				 (unsigned long long)re, a, (unsigned long long)r.start,
				 (unsigned long long)r.size);
		assert_int_equal(fnbounds_find(tab, va, &f), 0);
		assert_true(va - f.start < f.size);
	}
	fnbounds_info(tab, &ti);
	fnbounds_info(walk, &wi);
	assert_int_equal(ti.fde_table, 1);
	assert_int_equal(wi.fde_table, 0);
	assert_int_equal(ti.fdes, wi.fdes);
	assert_true(rows > 1000);
	assert_true(none < rows / 10);
	dwarf_cfi_end(cfi);   /* dwarf_getcfi_elf's CFI is the caller's to end */
	fnbounds_free(tab);
	fnbounds_free(walk);
}

/* Against the separate debug file (/usr/lib/debug/.build-id/, where installed): every sized
 * function of its .symtab is found at an address inside it, and nearly all exactly (glibc's
 * clone3 closes its CFI before its end, on purpose). */
static void test_against_debuginfo(void **state)
{
	struct lib *l = *state;
	uint8_t id[20];
	uint8_t n = buildid_read(l->path, id);
	char path[256];
	int len, fd;
	Elf *dbg;
	struct fnbounds *fb;
	struct fsym *sym;
	size_t total, exact = 0;

	if (n < 2)
		skip();
	len = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (uint8_t i = 1; i < n; i++)
		len += snprintf(path + len, sizeof(path) - (size_t)len, "%02x", id[i]);
	snprintf(path + len, sizeof(path) - (size_t)len, ".debug");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		skip();
	dbg = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(dbg);
	fb = fnbounds_new(l->elf, 0);
	total = func_syms(dbg, SHT_SYMTAB, &sym);
	for (size_t i = 0; i < total; i++) {
		struct fnrange r;

		if (fnbounds_find(fb, sym[i].value, &r))
			fail_msg("%s at 0x%llx: no function", sym[i].name,
				 (unsigned long long)sym[i].value);
		exact += r.start == sym[i].value && r.size == sym[i].size;
	}
	print_message("debug symbols: %zu functions, %zu with the same bounds\n", total, exact);
	assert_true(total > 1000);
	assert_true(exact * 100 >= total * 99);
	free(sym);
	fnbounds_free(fb);
	elf_end(dbg);
	close(fd);
}

/* --- damaged files -------------------------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint8_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)rng;
}

/* Look up addresses all over .text in @img: any answer must hold the address. */
static void lookups(struct lib *l, uint8_t *img, unsigned int flags, struct fnbounds_info *info)
{
	Elf *e = elf_memory((char *)img, l->size);
	struct fnbounds *fb;

	assert_non_null(e);
	fb = fnbounds_new(e, flags);
	assert_non_null(fb);
	for (uint64_t va = l->text; va < l->text + l->text_size; va += 4099) {
		struct fnrange r;

		if (!fnbounds_find(fb, va, &r))
			assert_true(va - r.start < r.size);
		if (!fnbounds_fde(fb, va, &r))
			assert_true(va - r.start < r.size);
	}
	fnbounds_info(fb, info);
	fnbounds_free(fb);
	elf_end(e);
}

static void test_damaged(void **state)
{
	struct lib *l = *state;
	uint8_t *img = malloc(l->size);
	struct fnbounds_info info;
	uint64_t memset_va = va_of(l, dlsym(RTLD_DEFAULT, "memset"));

	assert_non_null(img);
	assert_true(l->hdr_size >= 12);
	/* .eh_frame_hdr of an unknown version, or a count beyond its size (udata4 after a 4-byte
	 * eh_frame_ptr, as linkers write it): the walk serves, and finds the same functions */
	for (int c = 0; c < 2; c++) {
		Elf *e;
		struct fnbounds *fb;
		struct fnrange r;

		memcpy(img, l->img, l->size);
		if (c == 0) {
			img[l->hdr_off] = 2;
		} else {
			assert_int_equal(img[l->hdr_off + 1] & 0x0f, DW_EH_PE_sdata4);
			assert_int_equal(img[l->hdr_off + 2], DW_EH_PE_udata4);
			memset(img + l->hdr_off + 8, 0xff, 4);
		}
		e = elf_memory((char *)img, l->size);
		fb = fnbounds_new(e, 0);
		assert_int_equal(fnbounds_fde(fb, memset_va, &r), 0);
		assert_int_equal(r.start, memset_va);
		fnbounds_info(fb, &info);
		assert_int_equal(info.fde_table, 0);
		assert_true(info.fdes > 100);
		fnbounds_free(fb);
		elf_end(e);
	}
	/* random bytes over the table, then over .eh_frame, then over both */
	for (int round = 0; round < 6; round++) {
		memcpy(img, l->img, l->size);
		if (round % 3 != 1)
			for (uint64_t i = 12; i < l->hdr_size; i++)
				img[l->hdr_off + i] = rnd();
		if (round % 3 != 0)
			for (uint64_t i = 0; i < l->eh_size; i++)
				if (round >= 3 || !(rnd() & 7))
					img[l->eh_off + i] = rnd();
		lookups(l, img, 0, &info);
		lookups(l, img, FNB_WALK_FDES, &info);
	}
	/* the unwind sections intact: the implementation of memset is found by both paths */
	memcpy(img, l->img, l->size);
	for (unsigned int flags = 0; flags <= FNB_WALK_FDES; flags++) {
		Elf *e = elf_memory((char *)img, l->size);
		struct fnbounds *fb = fnbounds_new(e, flags);
		struct fnrange r;

		assert_int_equal(fnbounds_find(fb, memset_va, &r), 0);
		assert_int_equal(r.start, memset_va);
		fnbounds_free(fb);
		elf_end(e);
	}
	free(img);
	assert_null(fnbounds_new(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dynsym),
		cmocka_unit_test(test_resolved),
		cmocka_unit_test(test_against_libdw),
		cmocka_unit_test(test_against_debuginfo),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
