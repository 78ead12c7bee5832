// c2c-lite corpus: boost/smart_ptr/detail/spinlock.hpp picks the spinlock implementation by
// compiler; with g++ (BOOST_SP_HAS_GCC_INTRINSICS) it is spinlock_gcc_atomic.hpp, the one
// third_party/boost carries.
#pragma once
#include <boost/smart_ptr/detail/spinlock_gcc_atomic.hpp>
