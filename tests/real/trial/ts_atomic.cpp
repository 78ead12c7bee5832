// New-user trial (issue 28): one std::atomic counter shared by two threads. Fixed: -DFIXED
// (per-thread counters, added to the total once at the end).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

// each on a line of its own: only the counter is shared
alignas(64) std::atomic<long> g_refcount;
alignas(64) std::atomic<bool> stop;

static void worker() {
#ifndef FIXED
	while (!stop) g_refcount.fetch_add(1);
#else
	long mine = 0;
	while (!stop) mine++;
	g_refcount.fetch_add(mine);
#endif
}
int main() {
	std::thread a(worker), b(worker);
	std::this_thread::sleep_for(std::chrono::seconds(1));
	stop = true;
	a.join();
	b.join();
	std::printf("%ld\n", g_refcount.load());
	return 0;
}
