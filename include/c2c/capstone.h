/* capstone, loaded when first opened. Linking it costs every run of c2c-lite what the dynamic
 * loader spends on its 77k relocations: about 6 ms and 3.4 MB resident, on a report that mostly
 * never disassembles (capstone is for the soft backend and for data types from code). So it is
 * dlopen()ed by c2c_cs_open(), by the soname it had at build time. The other calls take a handle
 * from c2c_cs_open() (or an instruction from c2c_cs_malloc()) and go straight to the library. */
#ifndef C2C_CAPSTONE_H
#define C2C_CAPSTONE_H

#include <capstone/capstone.h>

/* cs_open(), after loading the library; CS_ERR_ARCH when it cannot be loaded (see
 * c2c_cs_missing()). Thread-safe. */
cs_err c2c_cs_open(cs_arch arch, cs_mode mode, csh *handle);
/* Why capstone could not be loaded ("libcapstone.so.4: cannot open shared object file: ..."), or
 * NULL when it is loaded or not yet tried. */
const char *c2c_cs_missing(void);

cs_err c2c_cs_close(csh *handle);
cs_err c2c_cs_option(csh handle, cs_opt_type type, size_t value);
cs_insn *c2c_cs_malloc(csh handle);
void c2c_cs_free(cs_insn *insn, size_t count);
bool c2c_cs_disasm_iter(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			cs_insn *insn);
bool c2c_cs_insn_group(csh handle, const cs_insn *insn, unsigned int group_id);
const char *c2c_cs_reg_name(csh handle, unsigned int reg_id);
cs_err c2c_cs_regs_access(csh handle, const cs_insn *insn, cs_regs regs_read,
			  uint8_t *regs_read_count, cs_regs regs_write, uint8_t *regs_write_count);

#endif
