// c2c-lite corpus: ours, in place of Hoard's benchmarks/common/cpuinfo.h (whose header grants
// the GPL): the one call cache-scratch and cache-thrash make of it.
#ifndef HL_CPUINFO_H
#define HL_CPUINFO_H

#include <unistd.h>

namespace HL {

class CPUInfo {
public:
	static int getNumProcessors() { return (int)sysconf(_SC_NPROCESSORS_ONLN); }
};

} // namespace HL

#endif
