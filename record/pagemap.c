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

int pagemap_entry_phys(uint64_t entry, uint64_t vaddr, uint64_t page_size, uint64_t *phys)
{
	if (!(entry & PM_PRESENT))
		return -ENOENT;
	if (!(entry & PM_PFN_MASK))
		return -EPERM;
	*phys = (entry & PM_PFN_MASK) * page_size + (vaddr & (page_size - 1));
	return 0;
}

struct pagemap {
	uint64_t page_size;
	pid_t pid[PM_FILES];
	int fd[PM_FILES];
	unsigned int next;           /* the slot to reuse */
};

struct pagemap *pagemap_new(void)
{
	struct pagemap *pm = xcalloc(1, sizeof(*pm));

	pm->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
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

int pagemap_lookup(struct pagemap *pm, pid_t pid, uint64_t vaddr, uint64_t *phys)
{
	uint64_t entry;
	int fd = pm_fd(pm, pid);

	if (fd < 0)
		return fd;
	if (pread(fd, &entry, sizeof(entry), (off_t)(vaddr / pm->page_size * sizeof(entry))) !=
	    (ssize_t)sizeof(entry))
		return -ESRCH;           /* the process exited, or the address is beyond its space */
	return pagemap_entry_phys(entry, vaddr, pm->page_size, phys);
}
