//! Host-side work split over the machine's cores: the quantizer, the CPU
//! reference and the generated test inputs, each of which is otherwise
//! one thread's pass over up to hundreds of millions of values (a 28672 x
//! 8192 layer). Each part runs the sequential code on its own range, so
//! the results are the same, bit for bit, on any number of cores.

/// Below this many values a pass runs on the calling thread.
const PARALLEL_FROM: usize = 1 << 16;

/// The threads for a pass over `values` values: every core, or one for a
/// small pass.
pub(crate) fn threads_for(values: usize) -> usize {
    if values < PARALLEL_FROM { 1 } else { std::thread::available_parallelism().map_or(1, |t| t.get()) }
}

/// `work` of each of `parts`, in their order: each on its own thread, or on
/// the calling thread when there is only one.
pub(crate) fn map_parts<P: Send, R: Send>(parts: Vec<P>, work: impl Fn(P) -> R + Sync) -> Vec<R> {
    if parts.len() <= 1 {
        return parts.into_iter().map(work).collect();
    }
    std::thread::scope(|scope| {
        let work = &work;
        let threads: Vec<_> = parts.into_iter().map(|part| scope.spawn(move || work(part))).collect();
        threads.into_iter().map(|thread| thread.join().expect("a part's thread panicked")).collect()
    })
}

/// Calls `work(first, part)` for consecutive parts of `out` that split it at
/// multiples of `unit` elements (rows, say), `first` being the index of the
/// part's first unit: one part a thread of [`threads_for`]`(values)`, where
/// `values` is what the whole pass reads or makes.
pub(crate) fn for_each_part<T: Send>(out: &mut [T], unit: usize, values: usize, work: impl Fn(usize, &mut [T]) + Sync) {
    let unit = unit.max(1);
    let units_per_part = out.len().div_ceil(unit).div_ceil(threads_for(values)).max(1);
    let parts: Vec<_> = out.chunks_mut(units_per_part * unit).enumerate().collect();
    map_parts(parts, |(i, part)| work(i * units_per_part, part));
}

#[cfg(test)]
mod tests {
    use super::for_each_part;

    #[test]
    fn parts_cover_every_unit_once_in_order() {
        for (len, unit) in [(0, 3), (5, 3), (1 << 20, 7), ((1 << 18) + 5, 16)] {
            let mut out = vec![usize::MAX; len];
            for_each_part(&mut out, unit, len, |first, part| {
                for (i, v) in part.iter_mut().enumerate() {
                    *v = first * unit + i;
                }
            });
            assert!(out.iter().enumerate().all(|(i, &v)| v == i), "len {len}, unit {unit}");
        }
    }
}
