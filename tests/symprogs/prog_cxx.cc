// A multithreaded C++ program for the demangling tests (tests/e2e/report-diff-symbols.sh builds it
// -O2 -g, lazily bound): functions in namespaces, a class template and its member functions,
// constructors and destructors (C1/C2 aliases), an operator, a virtual function, a lambda run by
// std::thread, a function template instantiated twice, a static function and an extern "C" one,
// and calls into libstdc++ through the PLT. LOOPS sets the run time.
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#ifndef LOOPS
#define LOOPS 2000000L
#endif

namespace shard {

template <typename T>
struct Counter {
	std::atomic<T> hits{0};
	T pad[7];

	explicit Counter(T start) { hits.store(start, std::memory_order_relaxed); }
	~Counter() { std::printf("%ld\n", (long)hits.load()); }
	Counter &operator+=(T n)
	{
		hits.fetch_add(n, std::memory_order_relaxed);
		return *this;
	}
};

struct Worker {
	virtual ~Worker() = default;
	virtual long step(long i) = 0;
};

struct Adder : Worker {
	long sum = 0;
	long step(long i) override
	{
		sum += i ^ (sum >> 3);
		return sum;
	}
};

template <typename C>
__attribute__((noinline)) void spin(C &c, long n)
{
	for (long i = 0; i < n; i++)
		c += 1;
}

} // namespace shard

static shard::Counter<long> hot(0);
static shard::Counter<int> warm(0);

static __attribute__((noinline)) long churn(shard::Worker &w, long n)
{
	long r = 0;
	for (long i = 0; i < n; i++)
		r += w.step(i);
	return r;
}

extern "C" __attribute__((noinline)) long cxx_c_entry(long n)
{
	std::string s("shard");
	long r = 0;
	for (long i = 0; i < n / 64; i++) {
		s += static_cast<char>('a' + i % 26);
		r += static_cast<long>(s.size());
		if (s.size() > 32)
			s.erase(5);
	}
	return r;
}

int main(int argc, char **argv)
{
	long loops = argc > 5 ? std::atol(argv[1]) : LOOPS;
	std::vector<std::thread> t;
	shard::Adder a;

	for (int i = 0; i < 2; i++)
		t.emplace_back([i, loops] {
			if (i)
				shard::spin(hot, loops);
			else
				shard::spin(warm, loops);
		});
	long r = churn(a, loops) + cxx_c_entry(loops);
	for (auto &x : t)
		x.join();
	return r == 42;
}
