/* C++ names as perf 6.1 shows them. Debian's perf 6.1 is built without libbfd and demangles ELF
 * symbol names with libiberty's cplus_demangle(), without parameter lists or qualifiers unless run
 * with -v (std::thread::_State_impl<...>::_M_run, not ..._M_run()), for its Symbol column and the
 * "name@plt" entries it makes up. libiberty-dev ships libiberty only as a static archive; the build
 * defines C2C_HAVE_LIBIBERTY and links -liberty when it is installed. Without it, names stay as
 * the symbol table spells them. */
#include <stdlib.h>

#include "report/resolve/sym-int.h"

#ifdef C2C_HAVE_LIBIBERTY
#include <libiberty/demangle.h>

char *sym_demangle(const char *name, int params)
{
	/* every name, as perf: libiberty's automatic style tries Rust, then the Itanium C++ ABI
	 * (_Z...); C names and _GLOBAL__sub_I_... stay as they are (NULL) */
	if (!name || !*name)
		return NULL;
	return cplus_demangle(name, params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS);
}

int sym_demangle_available(void)
{
	return 1;
}
#else
char *sym_demangle(const char *name, int params)
{
	(void)name, (void)params;
	return NULL;
}

int sym_demangle_available(void)
{
	return 0;
}
#endif
