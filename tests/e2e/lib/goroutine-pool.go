// A workload for tests/e2e/soft-goroutines.sh (ours, c2c-lite's tests): eight goroutines on
// GOMAXPROCS=2, each adding to its own counter and yielding (runtime.Gosched) every 2000
// additions, so that every goroutine runs on both OS threads in turn. Run: goroutine-pool
// SECONDS [padded]: without "padded" the eight counters share one line (false sharing between
// goroutines), with it each has a line of its own (nothing contended).
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type slot struct{ n int64 }
type padSlot struct {
	n int64
	_ [56]byte
}

var slots [8]slot
var pads [8]padSlot

func main() {
	secs, _ := strconv.ParseFloat(os.Args[1], 64)
	pad := len(os.Args) > 2 && os.Args[2] == "padded"
	until := time.Now().Add(time.Duration(secs * float64(time.Second)))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			p := &slots[g].n
			if pad {
				p = &pads[g].n
			}
			for time.Now().Before(until) {
				for i := 0; i < 2000; i++ {
					atomic.AddInt64(p, 1)
				}
				runtime.Gosched()
			}
		}(g)
	}
	wg.Wait()
	fmt.Println(slots[0].n, pads[0].n)
}
