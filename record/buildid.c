/* Build-id reading (NT_GNU_BUILD_ID notes) and a small per-path cache (see buildid.h). */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#include "record/buildid.h"

#define NT_GNU_BUILD_ID_ 3

struct bid_entry {
	char *path;
	uint8_t size;
	uint8_t id[20];
};

struct buildid_cache {
	struct bid_entry *tab;
	size_t cap, used;        /* open addressing, cap a power of two */
};

static uint8_t note_buildid(Elf_Data *data, uint8_t id[20])
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID_ && nh.n_namesz == 4 && !memcmp(name, "GNU", 4) &&
		    nh.n_descsz > 0) {
			uint8_t n = nh.n_descsz > 20 ? 20 : (uint8_t)nh.n_descsz;

			memcpy(id, (const char *)data->d_buf + desc_off, n);
			return n;
		}
	}
	return 0;
}

static uint8_t elf_buildid(Elf *e, uint8_t id[20])
{
	Elf_Scn *scn = NULL;
	uint8_t n = 0;

	while (!n && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		if ((d = elf_getdata(scn, NULL)))
			n = note_buildid(d, id);
	}
	return n;
}

uint8_t buildid_read(const char *path, uint8_t id[20])
{
	uint8_t n = 0;
	Elf *e;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		n = elf_buildid(e, id);
	elf_end(e);
	close(fd);
	return n;
}

struct buildid_cache *buildid_cache_new(void)
{
	struct buildid_cache *c = xcalloc(1, sizeof(*c));

	c->cap = 64;
	c->tab = xcalloc(c->cap, sizeof(*c->tab));
	return c;
}

void buildid_cache_free(struct buildid_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		free(c->tab[i].path);
	free(c->tab);
	free(c);
}

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static struct bid_entry *slot(struct bid_entry *tab, size_t cap, const char *path)
{
	size_t i = hash_str(path) & (cap - 1);

	while (tab[i].path && strcmp(tab[i].path, path))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static void grow(struct buildid_cache *c)
{
	size_t ncap = c->cap * 2;
	struct bid_entry *nt = xcalloc(ncap, sizeof(*nt));

	for (size_t i = 0; i < c->cap; i++)
		if (c->tab[i].path)
			*slot(nt, ncap, c->tab[i].path) = c->tab[i];
	free(c->tab);
	c->tab = nt;
	c->cap = ncap;
}

uint8_t buildid_lookup(struct buildid_cache *c, const char *path, uint8_t id[20])
{
	struct bid_entry *e;

	if (path[0] != '/')
		return 0;
	if ((c->used + 1) * 2 > c->cap)
		grow(c);
	e = slot(c->tab, c->cap, path);
	if (!e->path) {
		e->path = xstrdup(path);
		e->size = buildid_read(path, e->id);
		c->used++;
	}
	memcpy(id, e->id, e->size);
	return e->size;
}
