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

/// Calls `work(first, part)` for consecutive parts of `out` that split it at
/// multiples of `unit` elements (rows, say), `first` being the index of the
/// part's first unit: one part a thread of [`threads_for`]`(values)`, where
/// `values` is what the whole pass reads or makes.
pub(crate) fn for_each_part<T: Send>(out: &mut [T], unit: usize, values: usize, work: impl Fn(usize, &mut [T]) + Sync) {
    let unit = unit.max(1);
    let units = out.len().div_ceil(unit);
    let units_per_part = units.div_ceil(threads_for(values)).max(1);
    if units_per_part >= units {
        return work(0, out);
    }
    std::thread::scope(|scope| {
        for (i, part) in out.chunks_mut(units_per_part * unit).enumerate() {
            let work = &work;
            scope.spawn(move || work(i * units_per_part, part));
        }
    });
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
