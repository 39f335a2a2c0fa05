//! Tables whose records are freed and reused by index (the flit engine's packet table and
//! waiting-packet side table, the LogGOPS engine's event blocks and match nodes): a record
//! goes into the slot freed last, likely still cached, else at the end.

/// Puts `item` in the slot of `items` freed last (popped from `free`), else appends it;
/// its slot.
#[inline]
pub(crate) fn reuse_slot<T>(items: &mut Vec<T>, free: &mut Vec<u32>, item: T) -> u32 {
    match free.pop() {
        Some(at) => {
            items[at as usize] = item;
            at
        }
        None => {
            items.push(item);
            (items.len() - 1) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reuse_slot;

    #[test]
    fn a_freed_slot_is_reused_last_freed_first() {
        let (mut items, mut free) = (Vec::new(), Vec::new());
        assert_eq!(reuse_slot(&mut items, &mut free, 'a'), 0);
        assert_eq!(reuse_slot(&mut items, &mut free, 'b'), 1);
        assert_eq!(reuse_slot(&mut items, &mut free, 'c'), 2);
        free.extend([0, 2]);
        assert_eq!(reuse_slot(&mut items, &mut free, 'd'), 2);
        assert_eq!(reuse_slot(&mut items, &mut free, 'e'), 0);
        assert_eq!(reuse_slot(&mut items, &mut free, 'f'), 3);
        assert_eq!(items, ['e', 'b', 'd', 'f']);
    }
}
