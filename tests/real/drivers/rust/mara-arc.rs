// c2c-lite corpus driver (ours, not from the book): two threads clone and drop one Arc of Mara
// Bos's chapter 6 (third_party/rust-atomics-and-locks/s1_basic.rs) for SECONDS seconds, so its
// heap ArcData's ref_count is updated by both: true sharing. `fixed`: each thread its own Arc.
#![allow(dead_code)]
#[path = "../../third_party/rust-atomics-and-locks/s1_basic.rs"]
mod s1_basic;

use s1_basic::Arc;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn hammer(a: &Arc<u64>, until: Instant) -> u64 {
    let mut n = 0u64;
    while Instant::now() < until {
        for _ in 0..10_000 {
            let b = black_box(a.clone());
            n += *b;
            drop(b);
        }
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let fixed = args.get(2).map(|s| s == "fixed").unwrap_or(false);
    let until = Instant::now() + Duration::from_secs_f64(secs);
    let shared = Arc::new(1u64);
    let total: u64 = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| {
                let own = if fixed { Arc::new(1u64) } else { shared.clone() };
                s.spawn(move || hammer(&own, until))
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum()
    });
    println!("{}", total);
}
