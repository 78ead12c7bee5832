// c2c-lite corpus: ours, in place of Hoard's benchmarks/common/timer.h (whose header grants the
// GPL): what cache-scratch and cache-thrash use of it, start(), stop() and the seconds between.
#ifndef HL_TIMER_H
#define HL_TIMER_H

#include <time.h>

namespace HL {

class Timer {
public:
	void start() { clock_gettime(CLOCK_MONOTONIC, &t0_); }
	void stop() { clock_gettime(CLOCK_MONOTONIC, &t1_); }
	operator double() const
	{
		return (double)(t1_.tv_sec - t0_.tv_sec) + (t1_.tv_nsec - t0_.tv_nsec) / 1e9;
	}

private:
	struct timespec t0_ = {}, t1_ = {};
};

} // namespace HL

#endif
