/* GNU build-ids of mapped files, read from their ELF note with libelf, cached per path.
 * The cache is a value the session owns; buildid_cache_free() accepts NULL. */
#ifndef C2C_RECORD_BUILDID_H
#define C2C_RECORD_BUILDID_H

#include <stdint.h>

struct buildid_cache;

struct buildid_cache *buildid_cache_new(void);
void buildid_cache_free(struct buildid_cache *c);
/* Fill @id (up to 20 bytes) and return its size; 0 when the file has none or is not ELF. */
uint8_t buildid_lookup(struct buildid_cache *c, const char *path, uint8_t id[20]);
/* Uncached read of one file. */
uint8_t buildid_read(const char *path, uint8_t id[20]);

#endif
