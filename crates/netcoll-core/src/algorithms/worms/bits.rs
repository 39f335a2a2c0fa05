//! A fixed-width bit string: the p-bit port strings of Fig. 12 and the N-bit node strings and
//! reachability strings of Figs. 17-18 (seed 003 s5.2.3, s5.3).

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    words: Vec<u64>,
    width: u32,
}

impl Bits {
    pub fn zeros(width: u32) -> Bits {
        Bits {
            words: vec![0; (width as usize).div_ceil(64)],
            width,
        }
    }

    pub fn from_ones(width: u32, ones: impl IntoIterator<Item = u32>) -> Bits {
        let mut b = Bits::zeros(width);
        for i in ones {
            b.set(i);
        }
        b
    }

    /// Number of bits (the string's length in a header).
    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn set(&mut self, i: u32) {
        debug_assert!(i < self.width, "bit {i} of a {}-bit string", self.width);
        self.words[(i / 64) as usize] |= 1 << (i % 64);
    }

    pub fn get(&self, i: u32) -> bool {
        i < self.width && self.words[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn count(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    pub fn or_assign(&mut self, o: &Bits) {
        self.words
            .iter_mut()
            .zip(&o.words)
            .for_each(|(a, b)| *a |= b);
    }

    pub fn and_assign(&mut self, o: &Bits) {
        self.words
            .iter_mut()
            .zip(&o.words)
            .for_each(|(a, b)| *a &= b);
    }

    /// `self = self AND NOT o` (Fig. 18 step 2).
    pub fn and_not_assign(&mut self, o: &Bits) {
        self.words
            .iter_mut()
            .zip(&o.words)
            .for_each(|(a, b)| *a &= !b);
    }

    pub fn and(&self, o: &Bits) -> Bits {
        let mut r = self.clone();
        r.and_assign(o);
        r
    }

    pub fn intersects(&self, o: &Bits) -> bool {
        self.words.iter().zip(&o.words).any(|(a, b)| a & b != 0)
    }

    pub fn is_subset(&self, o: &Bits) -> bool {
        self.words.iter().zip(&o.words).all(|(a, b)| a & !b == 0)
    }

    pub fn ones(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let t = w.trailing_zeros();
                    w &= w - 1;
                    wi as u32 * 64 + t
                })
            })
        })
    }

    /// The string as the paper prints it: bit 0 first, e.g. `01100000`.
    pub fn to_text(&self) -> String {
        (0..self.width)
            .map(|i| if self.get(i) { '1' } else { '0' })
            .collect()
    }
}
