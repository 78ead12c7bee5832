// A Go program for the data-name tests (test_symbols.c): package variables as Go's DWARF has them
// (locations in DW_FORM_block1 inside DWARF 4 units, names qualified by package), a struct of
// per-goroutine counters and an atomic.Int64, whose field v the report does not name, and a
// sync.Mutex, whose state and sema are one member, the lock.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type stats struct {
	hits   int64
	misses int64
}

type guarded struct {
	mu sync.Mutex
	n  int64
}

var (
	counters stats
	total    atomic.Int64
	guard    guarded
)

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); atomic.AddInt64(&counters.hits, 1); total.Add(1) }()
	go func() { defer wg.Done(); atomic.AddInt64(&counters.misses, 1); total.Add(1) }()
	wg.Wait()
	guard.mu.Lock()
	guard.n++
	guard.mu.Unlock()
	fmt.Println(counters.hits, counters.misses, total.Load(), guard.n)
}
