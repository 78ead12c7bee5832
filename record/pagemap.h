/* Physical addresses of a process's virtual ones through /proc/PID/pagemap (the soft and watch
 * backends, whose samples carry none from the kernel). Each page has a 64-bit entry: bit 63
 * present, bits 0-54 the page frame number, which the kernel shows only to CAP_SYS_ADMIN (others
 * read 0). A few files stay open, one per process recently asked about. The entries read are
 * kept until the next pagemap_round(): the recorder drains its rings in rounds, and reading a
 * page's entry once a round instead of once a sample (pread of /proc/PID/pagemap: 60% of the soft
 * recorder's CPU time) gives the same answer up to when in the round it is read. */
#ifndef C2C_RECORD_PAGEMAP_H
#define C2C_RECORD_PAGEMAP_H

#include <stdint.h>
#include <sys/types.h>

/* The physical address of @vaddr from its page's entry (pure): 0, -ENOENT when the page is not
 * present, -EPERM when the frame number is hidden (zero). */
int pagemap_entry_phys(uint64_t entry, uint64_t vaddr, uint64_t page_size, uint64_t *phys);

struct pagemap;
struct pagemap *pagemap_new(void);
void pagemap_free(struct pagemap *pm);
/* @vaddr of process @pid: 0 with *phys, or a negative errno (-ESRCH: the process is gone). */
int pagemap_lookup(struct pagemap *pm, pid_t pid, uint64_t vaddr, uint64_t *phys);
/* Forget the entries read so far: the next lookup of each page reads it again. */
void pagemap_round(struct pagemap *pm);

#endif
