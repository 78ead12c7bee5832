// c2c-lite corpus driver for boost::detail::spinlock_pool (third_party/boost): two threads
// each swap their own pointer under the pool's lock for its address, as boost's
// atomic_exchange(shared_ptr<T>*, shared_ptr<T>) does with spinlock_pool<2>. The pool maps an
// address to one of 41 one-byte spinlocks (address % 41); each thread's pointer is placed so
// that thread t gets lock t: different locks, neighbouring bytes of one cache line.
// Build against third_party/boost/before (the pool as published) or /after (padded):
//   c++ -O2 -Idrivers -Ithird_party/boost/after -Ithird_party/boost/before ... -pthread
//   usage: boost-spinlock-pool [ITERS]   (default 20000000)
#include <boost/smart_ptr/detail/spinlock_pool.hpp>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

struct alignas(64) slot {
  void *p;
  unsigned long swaps;
};

// 41 slots per thread: 64 and 41 are coprime, so one of them maps to any lock
alignas(64) slot slots[2][41];
slot *mine_slot[2];

long iters;

void swapper(int t) {
  slot *s = mine_slot[t];
  void *mine = s;
  for (long i = 0; i < iters; i++) {
    boost::detail::spinlock_pool<2>::scoped_lock lock(&s->p);
    void *old = s->p;  // p->swap(r)
    s->p = mine;
    mine = old;
    s->swaps++;
  }
}

}  // namespace

int main(int argc, char **argv) {
  iters = argc > 1 ? atol(argv[1]) : 20000000;
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 41; k++)
      if ((size_t)&slots[t][k].p % 41 == (size_t)t) mine_slot[t] = &slots[t][k];
  std::thread a(swapper, 0), b(swapper, 1);
  a.join();
  b.join();
  fprintf(stderr, "boost-spinlock-pool: %lu + %lu swaps, locks %zu and %zu of the pool\n",
          mine_slot[0]->swaps, mine_slot[1]->swaps, (size_t)&mine_slot[0]->p % 41,
          (size_t)&mine_slot[1]->p % 41);
  return 0;
}
