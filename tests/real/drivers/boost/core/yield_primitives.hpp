// c2c-lite corpus: what boost/core/yield_primitives.hpp (sp_thread_pause.hpp,
// sp_thread_sleep.hpp) does on x86-64 Linux: pause, and nanosleep for 1 microsecond.
#pragma once
#include <time.h>

namespace boost {
namespace core {

inline void sp_thread_pause() noexcept { __builtin_ia32_pause(); }

inline void sp_thread_sleep() noexcept {
  struct timespec rqtp = {0, 1000};
  nanosleep(&rqtp, 0);
}

}  // namespace core
}  // namespace boost
