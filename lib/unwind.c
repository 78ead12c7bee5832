/* DWARF unwinding of sampled user stacks (see include/c2c/unwind.h).
 *
 * One Dwfl per process, attached once with callbacks that read the sample being unwound (the
 * thread's registers, memory from the stack copy): libdwfl rebuilds the thread's state at
 * every dwfl_getthread_frames(), so a session serves every sample of its process. Files are
 * reported when the walk reaches an address no reported module covers; a file found at
 * another place than reported (dlclose and dlopen, exec) restarts the process's session. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>

#include "c2c/trace.h"
#include "c2c/unwind.h"
#include "c2c/xalloc.h"

#define UNWIND_PROCS 64                 /* processes kept; the oldest goes first */

/* The sample being unwound. */
struct sample {
	const uint64_t *regs;
	uint64_t mask;
	const uint8_t *stack;
	uint64_t size, sp;
};

struct proc {
	uint32_t pid;
	uint64_t used;                      /* for eviction */
	Dwfl *dwfl;
	int attached;
	struct c2c_unwind *u;
};

struct c2c_unwind {
	c2c_unwind_find_fn find;
	void *ctx;
	Dwfl_Callbacks cb;
	struct proc proc[UNWIND_PROCS];
	uint64_t clock;
	struct sample cur;
	/* the walk in progress */
	uint64_t *out;
	uint32_t n, max;
	int restart;                        /* a module moved: the process must start afresh */
};

struct c2c_unwind *c2c_unwind_new(c2c_unwind_find_fn find, void *ctx)
{
	struct c2c_unwind *u = xcalloc(1, sizeof(*u));
	static char *debuginfo_path;

	u->find = find;
	u->ctx = ctx;
	u->cb.find_elf = dwfl_build_id_find_elf;
	u->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	u->cb.debuginfo_path = &debuginfo_path;
	return u;
}

static void proc_drop(struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	memset(p, 0, sizeof(*p));
}

void c2c_unwind_free(struct c2c_unwind *u)
{
	if (!u)
		return;
	for (int i = 0; i < UNWIND_PROCS; i++)
		proc_drop(&u->proc[i]);
	free(u);
}

void c2c_unwind_forget(struct c2c_unwind *u, uint32_t pid)
{
	for (int i = 0; u && i < UNWIND_PROCS; i++)
		if (u->proc[i].dwfl && u->proc[i].pid == pid)
			proc_drop(&u->proc[i]);
}

/* The value of perf register @reg in the current sample; 0 when the mask lacks it. */
static int sample_reg(const struct sample *s, int reg, uint64_t *v)
{
	int k;

	if (!(s->mask & (1ull << reg)))
		return 0;
	k = __builtin_popcountll(s->mask & ((1ull << reg) - 1));
	*v = s->regs[k];
	return 1;
}

/* The load bias libdwfl wants for a file mapped at @m: none for a fixed-address executable,
 * else where offset 0 of the file lands. */
static int64_t module_base(const struct c2c_unwind_map *m)
{
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	GElf_Ehdr eh;
	Elf *elf;
	int exec = 0;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && gelf_getehdr(elf, &eh))
		exec = eh.e_type == ET_EXEC;
	else
		exec = -1;
	elf_end(elf);
	close(fd);
	if (exec < 0)
		return -1;
	return exec ? 0 : (int64_t)(m->start - m->pgoff);
}

/* Make sure a module covers @addr of @p. 0, or -1 when @addr is in no usable file. */
static int report_addr(struct c2c_unwind *u, struct proc *p, uint64_t addr)
{
	struct c2c_unwind_map m;
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, addr);
	Dwarf_Addr start;
	int64_t base;

	if (u->find(u->ctx, p->pid, addr, &m) || !m.path || m.path[0] != '/')
		return -1;
	base = module_base(&m);
	if (base < 0)
		return -1;
	if (mod) {
		dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		if (base && start != (Dwarf_Addr)base) {
			u->restart = 1;   /* another file, or the same elsewhere, since it was reported */
			return -1;
		}
		return 0;
	}
	if (p->attached)
		dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, m.path, m.path, -1, (GElf_Addr)base, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	return mod ? 0 : -1;
}

static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	struct proc *p = arg;

	(void)dwfl;
	if (*thread_arg)
		return 0;
	*thread_arg = p;
	return (pid_t)p->pid;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	const struct sample *s = &((struct proc *)arg)->u->cur;

	(void)dwfl;
	if (addr < s->sp || addr - s->sp > s->size || s->size - (addr - s->sp) < 8)
		return false;
	memcpy(result, s->stack + (addr - s->sp), 8);
	return true;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	/* DWARF register n of x86-64 is perf register map[n]: rax rdx rcx rbx rsi rdi rbp rsp,
	 * r8-r15, then the return address column (rip) */
	static const int map[17] = { C2C_REG_X86_AX, C2C_REG_X86_DX, C2C_REG_X86_CX,
		C2C_REG_X86_BX, C2C_REG_X86_SI, C2C_REG_X86_DI, C2C_REG_X86_BP, C2C_REG_X86_SP,
		C2C_REG_X86_R8, C2C_REG_X86_R8 + 1, C2C_REG_X86_R8 + 2, C2C_REG_X86_R8 + 3,
		C2C_REG_X86_R8 + 4, C2C_REG_X86_R8 + 5, C2C_REG_X86_R8 + 6, C2C_REG_X86_R8 + 7,
		C2C_REG_X86_IP };
	const struct sample *s = &((struct proc *)arg)->u->cur;
	Dwarf_Word w;
	uint64_t v;

	for (int n = 0; n < 17; n++) {
		if (!sample_reg(s, map[n], &v))
			continue;
		w = v;
		if (!dwfl_thread_state_registers(thread, n, 1, &w))
			return false;
	}
	if (sample_reg(s, C2C_REG_X86_IP, &v))
		dwfl_thread_state_register_pc(thread, v);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cb = {
	.next_thread = cb_next_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct proc *p = arg;
	struct c2c_unwind *u = p->u;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(frame, &pc, NULL))
		return DWARF_CB_ABORT;
	/* the module of pc must be known before libdwfl looks for its call-frame information */
	if (report_addr(u, p, pc) && u->n)
		return DWARF_CB_ABORT;
	if (!dwfl_frame_pc(frame, &pc, &activation))
		return DWARF_CB_ABORT;
	u->out[u->n++] = activation ? pc : pc - 1;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static struct proc *proc_get(struct c2c_unwind *u, uint32_t pid)
{
	struct proc *p = NULL;

	for (int i = 0; i < UNWIND_PROCS; i++) {
		if (u->proc[i].dwfl && u->proc[i].pid == pid) {
			p = &u->proc[i];
			break;
		}
		if (!p || !u->proc[i].dwfl || (p->dwfl && u->proc[i].used < p->used))
			p = &u->proc[i];
	}
	if (p->dwfl && p->pid != pid)
		proc_drop(p);
	if (!p->dwfl) {
		p->dwfl = dwfl_begin(&u->cb);
		if (!p->dwfl)
			return NULL;
		p->pid = pid;
		p->u = u;
	}
	p->used = ++u->clock;
	return p;
}

uint32_t c2c_unwind_x86_64(struct c2c_unwind *u, uint32_t pid, const uint64_t *regs,
			   uint64_t mask, const uint8_t *stack, uint64_t size, uint64_t *out,
			   uint32_t max)
{
	struct proc *p;
	uint64_t ip, sp;

	u->cur = (struct sample){ regs, mask, stack, size, 0 };
	if (!max || !sample_reg(&u->cur, C2C_REG_X86_IP, &ip) ||
	    !sample_reg(&u->cur, C2C_REG_X86_SP, &sp))
		return 0;
	u->cur.sp = sp;
	for (int attempt = 0; attempt < 2; attempt++) {
		p = proc_get(u, pid);
		if (!p)
			return 0;
		u->out = out;
		u->n = 0;
		u->max = max;
		u->restart = 0;
		if (report_addr(u, p, ip)) {
			if (u->restart) {
				proc_drop(p);
				continue;
			}
			out[0] = ip;   /* not in a file (JIT, vdso): only the sampled address */
			return 1;
		}
		if (!p->attached) {
			if (!dwfl_attach_state(p->dwfl, NULL, (pid_t)pid, &thread_cb, p)) {
				proc_drop(p);
				out[0] = ip;
				return 1;
			}
			p->attached = 1;
		}
		dwfl_getthread_frames(p->dwfl, (pid_t)pid, frame_cb, p);
		if (u->restart && attempt == 0) {
			proc_drop(p);
			continue;
		}
		break;
	}
	if (!u->n) {
		out[0] = ip;
		u->n = 1;
	}
	return u->n;
}

uint32_t c2c_unwind_sample(struct c2c_unwind *u, const struct trace_sample *s, uint64_t *out)
{
	uint32_t n = 0, k;

	if (!s->regs_mask || !s->regs || !s->stack_size)
		return 0;
	for (k = 0; k < s->chain_nr && s->chain[k] != TRACE_CHAIN_CONTEXT_USER; k++)
		out[n++] = s->chain[k];
	out[n++] = TRACE_CHAIN_CONTEXT_USER;
	return n + c2c_unwind_x86_64(u, s->pid, s->regs, s->regs_mask, s->stack, s->stack_size,
				     out + n, TRACE_CHAIN_MAX - n);
}
