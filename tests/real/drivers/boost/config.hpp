// c2c-lite corpus: stands in for Boost.Config, which the Boost headers under
// third_party/boost include; nothing they use from it is needed with g++ on Linux.
#pragma once
