/* /proc/PID/pagemap lookups (see pagemap.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#include "record/pagemap.h"

#define PM_PRESENT  (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define PM_FILES    8
#define PM_CACHE    64           /* pages remembered in a round, direct-mapped */

int pagemap_entry_phys(uint64_t entry, uint64_t vaddr, uint64_t page_size, uint64_t *phys)
{
	if (!(entry & PM_PRESENT))
		return -ENOENT;
	if (!(entry & PM_PFN_MASK))
		return -EPERM;
	*phys = (entry & PM_PFN_MASK) * page_size + (vaddr & (page_size - 1));
	return 0;
}

/* A page's entry read in this round (present pages only). */
struct pm_cached {
	uint64_t round;              /* 0: empty */
	uint64_t vpn, entry;
	pid_t pid;
};

struct pagemap {
	uint64_t page_size;
	pid_t pid[PM_FILES];
	int fd[PM_FILES];
	unsigned int next;           /* the slot to reuse */
	uint64_t round;              /* starts at 1 */
	struct pm_cached cache[PM_CACHE];
};

struct pagemap *pagemap_new(void)
{
	struct pagemap *pm = xcalloc(1, sizeof(*pm));

	pm->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	pm->round = 1;
	for (int i = 0; i < PM_FILES; i++)
		pm->fd[i] = -1;
	return pm;
}

void pagemap_free(struct pagemap *pm)
{
	if (!pm)
		return;
	for (int i = 0; i < PM_FILES; i++)
		if (pm->fd[i] >= 0)
			close(pm->fd[i]);
	free(pm);
}

static int pm_fd(struct pagemap *pm, pid_t pid)
{
	char path[64];
	unsigned int i;

	for (i = 0; i < PM_FILES; i++)
		if (pm->fd[i] >= 0 && pm->pid[i] == pid)
			return pm->fd[i];
	i = pm->next++ % PM_FILES;
	if (pm->fd[i] >= 0)
		close(pm->fd[i]);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	pm->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	pm->pid[i] = pid;
	return pm->fd[i] >= 0 ? pm->fd[i] : (errno == ENOENT ? -ESRCH : -errno);
}

static struct pm_cached *pm_slot(struct pagemap *pm, pid_t pid, uint64_t vpn)
{
	return &pm->cache[(vpn ^ (uint64_t)pid * 0x9e3779b97f4a7c15ULL) % PM_CACHE];
}

int pagemap_lookup(struct pagemap *pm, pid_t pid, uint64_t vaddr, uint64_t *phys)
{
	uint64_t entry, vpn = vaddr / pm->page_size;
	struct pm_cached *c = pm_slot(pm, pid, vpn);
	int fd;

	if (c->round == pm->round && c->pid == pid && c->vpn == vpn)
		return pagemap_entry_phys(c->entry, vaddr, pm->page_size, phys);
	fd = pm_fd(pm, pid);
	if (fd < 0)
		return fd;
	if (pread(fd, &entry, sizeof(entry), (off_t)(vpn * sizeof(entry))) != (ssize_t)sizeof(entry))
		return -ESRCH;           /* the process exited, or the address is beyond its space */
	if (entry & PM_PRESENT)
		*c = (struct pm_cached){ .round = pm->round, .vpn = vpn, .entry = entry, .pid = pid };
	return pagemap_entry_phys(entry, vaddr, pm->page_size, phys);
}

void pagemap_round(struct pagemap *pm)
{
	pm->round++;
}
