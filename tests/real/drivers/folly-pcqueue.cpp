// c2c-lite corpus driver for folly::ProducerConsumerQueue (third_party/folly): the throughput
// test of folly/test/ProducerConsumerQueueBenchmark.cpp (ThroughputTest, BM_ProducerConsumer)
// without folly's benchmark framework: the test object is allocated with new, one thread
// writes ITERS integers into its queue of 1048574 slots, another reads them.
// Build against third_party/folly/before (readIndex_ and writeIndex_ on one line) or /after
// (the authors' padding): c++ -O2 -Idrivers -Ithird_party/folly/before ... -pthread
//   usage: folly-pcqueue [ITERS]   (default 10000000)
#include <folly/ProducerConsumerQueue.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

typedef unsigned int ThroughputType;
typedef folly::ProducerConsumerQueue<ThroughputType> ThroughputQueueType;

template <class QueueType>
struct ThroughputTest {
  ThroughputTest(size_t size, int iters) : queue_(size), done_(false), iters_(iters) {}

  void producer() {
    for (int i = 0; i < iters_; ++i) {
      ThroughputType item = i;
      while (!queue_.write((ThroughputType)item)) {
      }
    }
  }

  void consumer() {
    unsigned long sum = 0;  // folly's doNotOptimizeAway(item), without a store per item
    for (int i = 0; i < iters_; ++i) {
      ThroughputType item = 0;
      while (!queue_.read(item)) {
      }
      sum += item;
    }
    sum_ = sum;
  }

  QueueType queue_;
  std::atomic<bool> done_;
  const int iters_;
  unsigned long sum_ = 0;
};

}  // namespace

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 10000000;
  auto *test = new ThroughputTest<ThroughputQueueType>(1048574, iters);
  std::thread producer([test] { test->producer(); });
  std::thread consumer([test] { test->consumer(); });
  producer.join();
  test->done_ = true;
  consumer.join();
  fprintf(stderr, "folly-pcqueue: %d items, sum %lu\n", iters, test->sum_);
  delete test;
  return 0;
}
