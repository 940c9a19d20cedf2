//! A Fenwick (binary indexed) tree of hand counts over front indices: the counting structure of
//! the dominance sweep over a family of hands (`sweep`).
//!
//! Invariant: after `reset(fronts)`, `below(f)` is the sum of every `add(g, n)` with `g < f`, for
//! any `f <= fronts`, in O(log fronts) per call; `at(f)` the sum of those with `g == f` (0 at
//! `f == fronts`) and `total()` the sum of all, each in O(1).

/// Counts by front index, with prefix sums below any front.
#[derive(Default)]
pub struct FrontCounts {
    /// Slot `i` holds the sum over the fronts `i - lowbit(i) .. i` (slot 0 unused).
    tree: Vec<u64>,
    /// Counts at each front index, and one zero past the last.
    at: Vec<u64>,
    total: u64,
}

impl FrontCounts {
    /// Empties the tree and sizes it for front indices `0..fronts`, keeping its allocation.
    pub fn reset(&mut self, fronts: usize) {
        self.tree.clear();
        self.tree.resize(fronts + 1, 0);
        self.at.clear();
        self.at.resize(fronts + 1, 0);
        self.total = 0;
    }

    /// Adds `n` hands at front index `front`.
    #[inline]
    pub fn add(&mut self, front: u16, n: u64) {
        self.at[usize::from(front)] += n;
        self.total += n;
        let mut i = usize::from(front) + 1;
        while i < self.tree.len() {
            self.tree[i] += n;
            i += i & i.wrapping_neg();
        }
    }

    /// The hands at front indices below `front`.
    #[inline]
    pub fn below(&self, front: u16) -> u64 {
        let mut i = usize::from(front);
        let mut sum = 0;
        while i > 0 {
            sum += self.tree[i];
            i &= i - 1;
        }
        sum
    }

    /// The hands at front index `front` (0 for `front == fronts`).
    #[inline]
    pub fn at(&self, front: u16) -> u64 {
        self.at[usize::from(front)]
    }

    /// Every hand added.
    #[inline]
    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::FrontCounts;

    #[test]
    fn below_equals_the_naive_prefix_sum() {
        let fronts = 37;
        let mut tree = FrontCounts::default();
        tree.reset(fronts);
        let mut naive = vec![0u64; fronts];
        for step in 0..200u64 {
            let front = (step * 7919 % fronts as u64) as u16;
            tree.add(front, step + 1);
            naive[usize::from(front)] += step + 1;
            for f in 0..=fronts {
                assert_eq!(tree.below(f as u16), naive[..f].iter().sum::<u64>());
                let at = naive.get(f).copied().unwrap_or(0);
                assert_eq!(tree.at(f as u16), at);
            }
            assert_eq!(tree.total(), naive.iter().sum::<u64>());
        }
    }
}
