//! The mappings of an address space: page-aligned, non-overlapping regions,
//! each with its permissions and what its pages are made of (zeroes, or a
//! file's bytes). A region costs the same whatever its size: pages exist
//! only once touched (see `AddressSpace`).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::rc::Rc;

use super::shared::SharedObject;
use super::Perms;

/// Where a file-backed region's bytes come from: read a page at a time.
pub trait FileSource {
    /// Reads up to `buf.len()` bytes at `offset`; returns how many it got
    /// (fewer at end of file or on an error: the rest reads as zero).
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize;
}

impl FileSource for File {
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let mut done = 0;
        while done < buf.len() {
            match FileExt::read_at(self, &mut buf[done..], offset + done as u64) {
                Ok(0) | Err(_) => break,
                Ok(n) => done += n,
            }
        }
        done
    }
}

impl FileSource for Vec<u8> {
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let Some(src) = usize::try_from(offset).ok().and_then(|o| self.get(o..)) else {
            return 0;
        };
        let n = src.len().min(buf.len());
        buf[..n].copy_from_slice(&src[..n]);
        n
    }
}

/// What a region's untouched pages hold.
#[derive(Clone)]
pub enum Backing {
    /// Zeroes (bss, heap, stack, anonymous mmap).
    Anon,
    /// `len` bytes of `source` from `offset` at the region's start, zeroes
    /// after them (a program segment's data then its bss; a private file
    /// mapping). Written pages become private copies.
    File {
        source: Rc<dyn FileSource>,
        offset: u64,
        len: u64,
    },
    /// A MAP_SHARED mapping: the object's bytes from `offset` at the
    /// region's start. Its pages are the object's, never copied.
    Shared {
        object: Rc<SharedObject>,
        offset: u64,
    },
}

impl fmt::Debug for Backing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Backing::Anon => f.write_str("Anon"),
            Backing::File { offset, len, .. } => write!(f, "File({offset:#x}+{len:#x})"),
            Backing::Shared { offset, .. } => write!(f, "Shared({offset:#x})"),
        }
    }
}

impl Backing {
    /// The backing of the part of a region starting `skip` bytes in.
    fn skip(&self, skip: u64) -> Backing {
        match self {
            Backing::Anon => Backing::Anon,
            Backing::File {
                source,
                offset,
                len,
            } => Backing::File {
                source: source.clone(),
                offset: offset + skip,
                len: len.saturating_sub(skip),
            },
            Backing::Shared { object, offset } => Backing::Shared {
                object: object.clone(),
                offset: offset + skip,
            },
        }
    }

    /// Fills `page` with the bytes at `off` bytes into the region; true if
    /// a file was read (zeroes otherwise). A shared region's pages are
    /// never copied out, so it is never asked.
    pub(crate) fn fill(&self, off: u64, page: &mut [u8]) -> bool {
        page.fill(0);
        match self {
            Backing::Anon | Backing::Shared { .. } => false,
            Backing::File {
                source,
                offset,
                len,
            } => {
                let want = len.saturating_sub(off).min(page.len() as u64) as usize;
                if want > 0 {
                    source.read_at(offset + off, &mut page[..want]);
                }
                true
            }
        }
    }

    pub(crate) fn is_anon(&self) -> bool {
        matches!(self, Backing::Anon)
    }

    /// The shared object and the object offset of the byte `off` bytes
    /// into the region, for a MAP_SHARED region.
    pub(crate) fn shared_at(&self, off: u64) -> Option<(&SharedObject, u64)> {
        match self {
            Backing::Shared { object, offset } => Some((object, offset + off)),
            _ => None,
        }
    }
}

/// One mapping: `[start, end)` (page-aligned; `start` is the map's key).
#[derive(Clone, Debug)]
pub struct Region {
    pub end: u32,
    pub perms: Perms,
    pub backing: Backing,
}

/// The regions of one address space, by start address.
#[derive(Clone, Default)]
pub struct Regions {
    map: BTreeMap<u32, Region>,
}

impl Regions {
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// The region holding `addr`, with its start.
    pub fn find(&self, addr: u32) -> Option<(u32, &Region)> {
        let (&start, r) = self.map.range(..=addr).next_back()?;
        (addr < r.end).then_some((start, r))
    }

    /// The regions holding any byte of `[start, end)`, with their starts,
    /// in address order.
    pub fn within(&self, start: u32, end: u32) -> impl Iterator<Item = (u32, &Region)> {
        let first = self.find(start).map_or(start, |(s, _)| s);
        self.map.range(first..end.max(first)).map(|(&s, r)| (s, r))
    }

    /// Is any byte of `[start, end)` mapped?
    pub fn any_in(&self, start: u32, end: u32) -> bool {
        self.find(start).is_some() || self.map.range(start..end).next().is_some()
    }

    /// Is every byte of `[start, end)` mapped?
    pub fn covers(&self, start: u32, end: u32) -> bool {
        let mut at = start;
        while at < end {
            match self.find(at) {
                Some((_, r)) => at = r.end,
                None => return false,
            }
        }
        true
    }

    /// Cuts any region straddling `addr` in two, so `addr` starts one.
    fn split_at(&mut self, addr: u32) {
        let Some((start, r)) = self.find(addr) else {
            return;
        };
        if start == addr {
            return;
        }
        let tail = Region {
            end: r.end,
            perms: r.perms,
            backing: r.backing.skip(u64::from(addr - start)),
        };
        if let Some(head) = self.map.get_mut(&start) {
            head.end = addr;
        }
        self.map.insert(addr, tail);
    }

    /// Removes every mapping of `[start, end)`.
    pub fn remove(&mut self, start: u32, end: u32) {
        self.split_at(start);
        self.split_at(end);
        let inside: Vec<u32> = self.map.range(start..end).map(|(&s, _)| s).collect();
        for s in inside {
            self.map.remove(&s);
        }
    }

    /// Maps `[start, end)`, replacing what was there.
    pub fn insert(&mut self, start: u32, region: Region) {
        self.remove(start, region.end);
        self.map.insert(start, region);
    }

    /// The shared objects mapped in `[start, end)`, each with the object
    /// offsets of the part inside the range (for msync).
    pub fn shared_in(&self, start: u32, end: u32) -> Vec<(Rc<SharedObject>, u64, u64)> {
        let first = self.find(start).map_or(start, |(s, _)| s);
        self.map
            .range(first..end)
            .filter_map(|(&s, r)| {
                let Backing::Shared { object, offset } = &r.backing else {
                    return None;
                };
                let (from, to) = (s.max(start), r.end.min(end));
                let base = offset + u64::from(from - s);
                Some((object.clone(), base, base + u64::from(to - from)))
            })
            .collect()
    }

    /// Sets the permissions of `[start, end)`, which must be covered.
    pub fn protect(&mut self, start: u32, end: u32, perms: Perms) {
        self.split_at(start);
        self.split_at(end);
        for (_, r) in self.map.range_mut(start..end) {
            r.perms = perms;
        }
    }

    /// The lowest `size` bytes free at or above `from` and ending at or
    /// below `below` (first fit: freed ranges are used again).
    pub fn find_gap(&self, from: u32, below: u32, size: u64) -> Option<u32> {
        let mut candidate = u64::from(from);
        if let Some((_, r)) = self.find(from) {
            candidate = u64::from(r.end);
        }
        for (&s, r) in self.map.range(from..) {
            if candidate + size <= u64::from(s) {
                break;
            }
            candidate = candidate.max(u64::from(r.end));
        }
        (candidate + size <= u64::from(below)).then_some(candidate as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anon(end: u32) -> Region {
        Region {
            end,
            perms: Perms::R | Perms::W,
            backing: Backing::Anon,
        }
    }

    #[test]
    fn a_freed_range_is_found_again_first() {
        let mut m = Regions::default();
        m.insert(0x1000, anon(0x3000));
        m.insert(0x3000, anon(0x5000));
        assert_eq!(m.find_gap(0x1000, 0x10000, 0x2000), Some(0x5000));
        m.remove(0x1000, 0x3000);
        assert_eq!(m.find_gap(0x1000, 0x10000, 0x2000), Some(0x1000));
        assert_eq!(m.find_gap(0x1000, 0x10000, 0x3000), Some(0x5000));
        assert_eq!(m.find_gap(0x1000, 0x6000, 0x3000), None);
    }

    #[test]
    fn protect_and_remove_split_regions_and_file_offsets_follow() {
        let mut m = Regions::default();
        m.insert(
            0x1000,
            Region {
                end: 0x5000,
                perms: Perms::R,
                backing: Backing::File {
                    source: Rc::new(vec![7u8; 0x2800]),
                    offset: 0,
                    len: 0x2800,
                },
            },
        );
        m.protect(0x2000, 0x3000, Perms::R | Perms::W);
        assert_eq!(m.len(), 3);
        let (start, mid) = m.find(0x2fff).unwrap();
        assert_eq!(
            (start, mid.end, mid.perms),
            (0x2000, 0x3000, Perms::R | Perms::W)
        );
        let mut page = [0u8; 4096];
        m.find(0x3000).unwrap().1.backing.fill(0, &mut page);
        assert_eq!(
            (page[0x7ff], page[0x800]),
            (7, 0),
            "file bytes end at 0x2800"
        );
        m.remove(0x1800, 0x4000);
        assert!(m.covers(0x1000, 0x1800) && !m.any_in(0x1800, 0x4000));
        assert!(m.covers(0x4000, 0x5000));
    }
}
