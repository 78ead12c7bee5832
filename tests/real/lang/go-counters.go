// Ours (c2c-lite corpus, not third-party): Go data shared by goroutines, the kinds Go's demos of
// false sharing show. Run: go-counters SECONDS MODE, with GOMAXPROCS=2:
//   false   two goroutines, each adding to its own field of one struct (stats.hits, .misses)
//   padded  the same, each field on its own line (`_ [56]byte`, the usual fix)
//   true    two goroutines adding to one counter (an atomic.Int64): true sharing
// The counters are atomic (sync/atomic), as Go code shared by goroutines must be.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type stats struct {
	hits   int64
	misses int64
}

type paddedStats struct {
	hits   int64
	_      [56]byte
	misses int64
	_      [56]byte
}

var (
	counters stats
	padded   paddedStats
	total    atomic.Int64
)

func count(p *int64, until time.Time) {
	for time.Now().Before(until) {
		for i := 0; i < 10000; i++ {
			atomic.AddInt64(p, 1)
		}
	}
}

func share(until time.Time) {
	for time.Now().Before(until) {
		for i := 0; i < 10000; i++ {
			total.Add(1)
		}
	}
}

func main() {
	secs, _ := strconv.ParseFloat(os.Args[1], 64)
	mode := os.Args[2]
	until := time.Now().Add(time.Duration(secs * float64(time.Second)))
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		go func(g int) {
			defer wg.Done()
			switch mode {
			case "false":
				count([]*int64{&counters.hits, &counters.misses}[g], until)
			case "padded":
				count([]*int64{&padded.hits, &padded.misses}[g], until)
			default:
				share(until)
			}
		}(g)
	}
	wg.Wait()
	fmt.Println(counters.hits+counters.misses, padded.hits+padded.misses, total.Load())
}
