// Globals wrapped by the C++ standard library, for the data-name tests (test_symbols.c): the
// report names the variable and its type ("g_refcount (std::atomic<long int>)"), never the
// library's own members (std::atomic's _M_i, atomic<bool>'s _M_base._M_i, atomic<T*>'s _M_b._M_p,
// std::mutex's _M_mutex.__data) nor its own variables (std::__ioinit of <iostream>).
#include <atomic>
#include <iostream>
#include <mutex>

std::atomic<long> g_refcount{0};
std::atomic<bool> g_ready{false};
std::atomic<int *> g_ptr{nullptr};
std::mutex g_mu;

struct stats {
	std::atomic<long> hits;
	long misses;
};
stats g_stats;

int main()
{
	int x = 0;
	g_ptr.store(&x);
	g_ready.store(true);
	g_refcount.fetch_add(1);
	g_stats.hits.fetch_add(1);
	g_stats.misses++;
	{
		std::lock_guard<std::mutex> lock(g_mu);
		std::cout << g_refcount.load() << '\n';
	}
	return 0;
}
