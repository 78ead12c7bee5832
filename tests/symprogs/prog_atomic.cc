// Globals wrapped by the C++ standard library, for the data-name tests (test_symbols.c): the
// report names the variable and its type ("g_refcount (std::atomic<long int>)"), never the
// library's own members (std::atomic's _M_i, atomic<bool>'s _M_base._M_i, atomic<T*>'s _M_b._M_p,
// std::mutex's _M_mutex.__data) nor its own variables (std::__ioinit of <iostream>); a lock's
// bytes belong to the lock (g_q.lock for any byte of its pthread_mutex_t).
#include <atomic>
#include <iostream>
#include <mutex>
#include <pthread.h>

std::atomic<long> g_refcount{0};
std::atomic<bool> g_ready{false};
std::atomic<int *> g_ptr{nullptr};
std::mutex g_mu;

struct stats {
	std::atomic<long> hits;
	long misses;
};
stats g_stats;

struct queue {
	long head;
	pthread_mutex_t lock;
	long tail;
};
queue g_q = { 0, PTHREAD_MUTEX_INITIALIZER, 0 };

int main()
{
	int x = 0;
	g_ptr.store(&x);
	g_ready.store(true);
	g_refcount.fetch_add(1);
	g_stats.hits.fetch_add(1);
	g_stats.misses++;
	pthread_mutex_lock(&g_q.lock);
	g_q.head++;
	pthread_mutex_unlock(&g_q.lock);
	{
		std::lock_guard<std::mutex> lock(g_mu);
		std::cout << g_refcount.load() << '\n';
	}
	return 0;
}
