/* estimate-gen: writes small soft-backend and watch-backend traces for the estimate report's
 * end-to-end tests. Test-only: nothing here is measured; the traces say SYNTHETIC.
 *
 *   estimate-gen -s SCENARIO -t OUT.c2c [--elf PROG] [-n REPEAT]   write a trace
 *
 * Scenarios: soft-false (tids 101 and 102 store to buf1.a and buf1.b, plus unrecovered stack and
 * clobbered samples), soft-true (four threads lock-add one counter), soft-none (the two writers on
 * different lines), watch (CPU 0 writes buf1.a, CPU 1 reads it and writes buf1.b).
 * With --elf, PROG (a non-PIE or PIE executable defining `struct { long a, b; } buf1`, `long
 * counter`, functions writer_a, writer_b and bump, with -g) gives the addresses and is mapped
 * segment by segment, so the report names functions, lines and members; without it the data
 * is anonymous memory and code addresses are unmapped. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/soft.h"
#include "c2c/trace.h"
#include "record/soft-decode.h"

#define PID 100
#define PAGE 4096ULL
#define PERIOD_NS 1000000ULL     /* 1 kHz cpu-clock */
#define PIE_BASE 0x555555554000ULL

struct gen {
	struct trace_writer *w;
	uint64_t time;
	uint64_t buf1, counter, writer_a, writer_b, bump;
	long repeat;             /* -n: the scenario's samples are written this many times */
};

static int gen_write(struct gen *g, const struct trace_event *ev)
{
	int err = trace_write(g->w, ev);

	if (err)
		fprintf(stderr, "estimate-gen: cannot write the trace: %s\n", strerror(-err));
	return err;
}

static int sample(struct gen *g, uint32_t tid, uint32_t cpu, uint64_t ip, uint64_t addr,
		  enum softdec_kind kind, enum softdec_reason reason)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct trace_sample *s = &ev.sample;
	struct softdec_access acc = { .addr = addr, .kind = kind, .reason = reason, .back = 1 };

	s->time = (g->time += 1000);
	s->ip = ip;
	s->pid = PID;
	s->tid = tid;
	s->cpu = cpu;
	s->cpumode = 2;
	s->weight = PERIOD_NS;
	s->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_WEIGHT;
	softdec_fill_sample(s, &acc);
	return gen_write(g, &ev);
}

/* --- addresses ------------------------------------------------------------------------------ */

static uint64_t elf_sym(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *s;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name) && sym.st_shndx != SHN_UNDEF)
				return sym.st_value;
		}
	}
	return 0;
}

static int emit_map(struct gen *g, uint64_t start, uint64_t end, uint64_t pgoff, uint32_t prot,
		    const char *path)
{
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	int file = strcmp(path, "//anon") != 0;

	ev.mmap = (struct trace_mmap){ .pid = PID, .tid = PID, .start = start, .len = end - start,
				       .pgoff = pgoff, .prot = prot, .flags = 2,
				       .maj = file ? 8 : 0, .min = file ? 1 : 0,
				       .ino = file ? 4242 : 0, .cpumode = 2, .filename = path };
	return gen_write(g, &ev);
}

/* As the kernel maps an executable: each PT_LOAD's file-backed pages from the file, the rest of
 * its memory (the .bss tail) as anonymous memory. */
static int map_segments(struct gen *g, Elf *elf, const char *path, uint64_t base)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t lo, file_hi, mem_hi;
		uint32_t prot;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		lo = ph.p_vaddr & ~(PAGE - 1);
		file_hi = (ph.p_vaddr + ph.p_filesz + PAGE - 1) & ~(PAGE - 1);
		mem_hi = (ph.p_vaddr + ph.p_memsz + PAGE - 1) & ~(PAGE - 1);
		prot = 1 | (ph.p_flags & PF_W ? 2 : 0) | (ph.p_flags & PF_X ? 4 : 0);
		if (emit_map(g, base + lo, base + file_hi, ph.p_offset & ~(PAGE - 1), prot, path))
			return -1;
		if (mem_hi > file_hi && emit_map(g, base + file_hi, base + mem_hi, 0, prot, "//anon"))
			return -1;
	}
	return 0;
}

static int from_elf(struct gen *g, const char *path)
{
	int fd = open(path, O_RDONLY), rc = -1;
	Elf *elf;
	GElf_Ehdr eh;
	uint64_t base;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_begin(fd, ELF_C_READ, NULL)) || !gelf_getehdr(elf, &eh)) {
		fprintf(stderr, "estimate-gen: cannot read ELF file '%s'\n", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	base = eh.e_type == ET_DYN ? PIE_BASE : 0;
	g->buf1 = elf_sym(elf, "buf1");
	g->counter = elf_sym(elf, "counter");
	g->writer_a = elf_sym(elf, "writer_a");
	g->writer_b = elf_sym(elf, "writer_b");
	g->bump = elf_sym(elf, "bump");
	if (!g->buf1 || !g->counter || !g->writer_a || !g->writer_b || !g->bump)
		fprintf(stderr, "estimate-gen: '%s' lacks buf1, counter, writer_a, writer_b or bump\n",
			path);
	else if (!map_segments(g, elf, path, base))
		rc = 0;
	g->buf1 += base;
	g->counter += base;
	g->writer_a += base + 4;
	g->writer_b += base + 4;
	g->bump += base + 4;
	elf_end(elf);
	close(fd);
	return rc;
}

static int anon(struct gen *g)
{
	struct trace_event ev = { .type = TRACE_REC_MMAP };

	ev.mmap = (struct trace_mmap){ .pid = PID, .tid = PID, .start = 0x7f1200000000ULL,
				       .len = 0x10000, .prot = 3, .flags = 2, .cpumode = 2,
				       .filename = "//anon" };
	g->buf1 = 0x7f1200000040ULL;
	g->counter = 0x7f1200000100ULL;
	g->writer_a = 0x401010;
	g->writer_b = 0x401020;
	g->bump = 0x401030;
	return gen_write(g, &ev);
}

/* --- scenarios ------------------------------------------------------------------------------ */

static int soft_false(struct gen *g, uint64_t b_off)
{
	int i, err = 0;

	for (i = 0; i < 40 && !err; i++) {
		err = sample(g, 101, 0, g->writer_a, g->buf1, SOFTDEC_STORE, SOFTDEC_ADDR);
		if (!err)
			err = sample(g, 102, 1, g->writer_b, g->buf1 + b_off, SOFTDEC_STORE,
				     SOFTDEC_ADDR_RIP);
		if (!err && i % 8 == 0)
			err = sample(g, 101, 0, g->writer_a, 0, SOFTDEC_KIND_NONE, SOFTDEC_STACK);
		if (!err && i % 10 == 0)
			err = sample(g, 102, 1, g->writer_b, 0, SOFTDEC_LOAD, SOFTDEC_CLOBBERED);
	}
	return err;
}

static int soft_true(struct gen *g)
{
	int i, t, err = 0;

	for (i = 0; i < 20 && !err; i++)
		for (t = 0; t < 4 && !err; t++)
			err = sample(g, 201 + t, t % 2, g->bump, g->counter, SOFTDEC_ATOMIC,
				     SOFTDEC_ADDR_RIP);
	return err;
}

static int watch(struct gen *g)
{
	int i, err = 0;

	for (i = 0; i < 10 && !err; i++) {
		err = sample(g, 101, 0, g->writer_a, g->buf1, SOFTDEC_STORE, SOFTDEC_ADDR);
		if (!err)
			err = sample(g, 102, 1, g->writer_b, g->buf1, SOFTDEC_LOAD, SOFTDEC_ADDR);
		if (!err)
			err = sample(g, 102, 1, g->writer_b, g->buf1 + 8, SOFTDEC_STORE, SOFTDEC_ADDR);
	}
	return err;
}

static int run_once(struct gen *g, const char *name)
{
	if (!strcmp(name, "soft-false"))
		return soft_false(g, 8);
	if (!strcmp(name, "soft-none"))
		return soft_false(g, 64);
	if (!strcmp(name, "soft-true"))
		return soft_true(g);
	if (!strcmp(name, "watch"))
		return watch(g);
	fprintf(stderr, "estimate-gen: unknown scenario '%s'\n", name);
	return -1;
}

static int run_scenario(struct gen *g, const char *name)
{
	long i;
	int err = 0;

	for (i = 0; i < g->repeat && !err; i++)
		err = run_once(g, name);
	return err;
}

static int generate(const char *scenario, const char *out, const char *elf, long repeat)
{
	static char ev_watch[] = "mem:rw", ev_soft[] = "cpu-clock", cmd[] = "estimate-gen",
		    host[] = "gen", rel[] = "6.1.0", arch[] = "x86_64", vendor[] = "GenuineIntel",
		    desc[] = "synthetic", pmu[] = "none", opts[] = "";
	int32_t nodes[2] = { 0, 0 };
	int is_watch = !strcmp(scenario, "watch");
	struct trace_event_desc ed = { .name = is_watch ? ev_watch : ev_soft,
				       .backend = is_watch ? TRACE_BACKEND_WATCH
							   : TRACE_BACKEND_SOFT };
	struct trace_info info = {
		.flags = TRACE_INFO_SYNTHETIC | (is_watch ? 0 : TRACE_INFO_ESTIMATE),
		.cmdline = cmd, .hostname = host, .kernel_release = rel, .arch = arch,
		.cpu_vendor = vendor, .cpu_desc = desc, .pmu_name = pmu, .backend = ed.backend,
		.options = opts, .cacheline_size = 64, .nr_cpus = 2, .cpu_node = nodes,
		.nr_nodes = 1, .nr_events = 1, .events = &ed,
	};
	struct gen g = { .repeat = repeat };
	int err = trace_writer_open(&g.w, out, &info, NULL);

	if (err) {
		fprintf(stderr, "estimate-gen: cannot create '%s': %s\n", out, strerror(-err));
		return 1;
	}
	err = elf ? from_elf(&g, elf) : anon(&g);
	if (!err)
		err = run_scenario(&g, scenario);
	if (trace_writer_close(g.w) && !err)
		err = -EIO;
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "elf", required_argument, NULL, 'e' }, { NULL, 0, NULL, 0 },
	};
	const char *scenario = NULL, *out = NULL, *elf = NULL;
	long repeat = 1;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "s:t:n:", lopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			repeat = strtol(optarg, &end, 0);
			if (*end || repeat < 1)
				goto usage;
			break;
		case 's': scenario = optarg; break;
		case 't': out = optarg; break;
		case 'e': elf = optarg; break;
		default: goto usage;
		}
	}
	if (scenario && out)
		return generate(scenario, out, elf, repeat);
usage:
	fprintf(stderr, "usage: estimate-gen -s SCENARIO -t OUT [--elf PROG] [-n REPEAT]\n");
	return 2;
}
