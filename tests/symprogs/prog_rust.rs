// A Rust program for the data-name tests (test_symbols.c): statics of the kinds Rust programs
// share between threads, linked as rustc links (its lld puts the RELRO segment, padded to a
// page, and .data/.bss in one file page: a static in .bss is inside both segments' ranges).
// Each counter is an AtomicU64, whose v.value (AtomicU64 wraps an UnsafeCell) the report does
// not name.
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

pub struct Counters {
    pub hits: AtomicU64,
    pub misses: AtomicU64,
}

static STATS: Counters = Counters { hits: AtomicU64::new(0), misses: AtomicU64::new(0) };
static TOTAL: AtomicU64 = AtomicU64::new(0);

fn main() {
    std::thread::scope(|s| {
        s.spawn(|| STATS.hits.fetch_add(1, Relaxed));
        s.spawn(|| STATS.misses.fetch_add(1, Relaxed));
    });
    TOTAL.fetch_add(STATS.hits.load(Relaxed) + STATS.misses.load(Relaxed), Relaxed);
    println!("{}", TOTAL.load(Relaxed));
}
