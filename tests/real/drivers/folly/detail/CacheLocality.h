// c2c-lite corpus: the two definitions folly/ProducerConsumerQueue.h takes from
// folly/detail/CacheLocality.h at folly commit a9d90ea14 (third_party/folly/after), with their
// values at that commit; the rest of CacheLocality.h (and of folly) is not needed.
#pragma once

namespace folly {
namespace detail {
struct CacheLocality {
  enum { kFalseSharingRange = 128 };
};
}  // namespace detail
}  // namespace folly

#define FOLLY_ALIGN_TO_AVOID_FALSE_SHARING __attribute__((__aligned__(128)))
