/* capstone through dlopen() (see include/c2c/capstone.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "c2c/capstone.h"

#ifndef C2C_CAPSTONE_SONAME
#error "the Makefile names capstone's soname: -DC2C_CAPSTONE_SONAME=\"libcapstone.so.N\""
#endif

static struct {
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*close)(csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	cs_insn *(*malloc)(csh);
	void (*free)(cs_insn *, size_t);
	bool (*disasm_iter)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *);
	bool (*insn_group)(csh, const cs_insn *, unsigned int);
	const char *(*reg_name)(csh, unsigned int);
	cs_err (*regs_access)(csh, const cs_insn *, cs_regs, uint8_t *, cs_regs, uint8_t *);
} cs;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;
static char cs_why[256];

static void cs_load(void)
{
	/* POSIX's way to store dlsym()'s answer in a function pointer: through a void ** */
	static const struct {
		const char *name;
		void **fn;
	} sym[] = {
		{ "cs_open", (void **)&cs.open }, { "cs_close", (void **)&cs.close },
		{ "cs_option", (void **)&cs.option }, { "cs_malloc", (void **)&cs.malloc },
		{ "cs_free", (void **)&cs.free }, { "cs_disasm_iter", (void **)&cs.disasm_iter },
		{ "cs_insn_group", (void **)&cs.insn_group }, { "cs_reg_name", (void **)&cs.reg_name },
		{ "cs_regs_access", (void **)&cs.regs_access },
	};
	void *h = dlopen(C2C_CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	_Static_assert(sizeof(sym) / sizeof(sym[0]) * sizeof(void *) == sizeof(cs),
		       "one symbol per function of struct cs");
	if (!h) {
		snprintf(cs_why, sizeof(cs_why), "%s", dlerror());
		return;
	}
	for (i = 0; i < sizeof(sym) / sizeof(sym[0]); i++) {
		if (!(*sym[i].fn = dlsym(h, sym[i].name))) {
			snprintf(cs_why, sizeof(cs_why), "%s has no %s", C2C_CAPSTONE_SONAME,
				 sym[i].name);
			memset(&cs, 0, sizeof(cs));   /* none, rather than some */
			dlclose(h);
			return;
		}
	}
	/* the library stays loaded for the life of the process */
}

cs_err c2c_cs_open(cs_arch arch, cs_mode mode, csh *handle)
{
	pthread_once(&cs_once, cs_load);
	return cs.open ? cs.open(arch, mode, handle) : CS_ERR_ARCH;
}

const char *c2c_cs_missing(void)
{
	return cs_why[0] ? cs_why : NULL;
}

/* The rest need a handle, which only a loaded library gives; a call without one (closing a
 * handle never opened, freeing NULL) is answered as capstone would. */
cs_err c2c_cs_close(csh *handle)
{
	return cs.close ? cs.close(handle) : CS_ERR_CSH;
}

cs_err c2c_cs_option(csh handle, cs_opt_type type, size_t value)
{
	return cs.option ? cs.option(handle, type, value) : CS_ERR_CSH;
}

cs_insn *c2c_cs_malloc(csh handle)
{
	return cs.malloc ? cs.malloc(handle) : NULL;
}

void c2c_cs_free(cs_insn *insn, size_t count)
{
	if (cs.free)
		cs.free(insn, count);
}

bool c2c_cs_disasm_iter(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			cs_insn *insn)
{
	return cs.disasm_iter ? cs.disasm_iter(handle, code, size, address, insn) : false;
}

bool c2c_cs_insn_group(csh handle, const cs_insn *insn, unsigned int group_id)
{
	return cs.insn_group ? cs.insn_group(handle, insn, group_id) : false;
}

const char *c2c_cs_reg_name(csh handle, unsigned int reg_id)
{
	return cs.reg_name ? cs.reg_name(handle, reg_id) : NULL;
}

cs_err c2c_cs_regs_access(csh handle, const cs_insn *insn, cs_regs regs_read,
			  uint8_t *regs_read_count, cs_regs regs_write, uint8_t *regs_write_count)
{
	return cs.regs_access ? cs.regs_access(handle, insn, regs_read, regs_read_count, regs_write,
					       regs_write_count)
			      : CS_ERR_CSH;
}
