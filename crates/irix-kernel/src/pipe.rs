//! A pipe: a bounded kernel buffer between guest processes.
//!
//! A read of an empty pipe with writers, or a write to a full pipe with
//! readers, cannot proceed: it reports `Io::WouldBlock` and the scheduler
//! parks the process (it takes no cycles) until the other side moves.

use std::collections::VecDeque;

use crate::files::Io;
use crate::Errno;

/// Bytes a pipe holds before writers block. IRIX documents PIPE_BUF (the
/// atomic-write size) as 10240; the buffer is at least that.
pub const PIPE_CAPACITY: usize = 10240;

#[derive(Default)]
pub struct Pipe {
    buf: VecDeque<u8>,
    /// Open read ends (descriptors sharing one open file count once).
    pub readers: u32,
    /// Open write ends.
    pub writers: u32,
    /// The reading socket shut down receiving (shutdown(2)): what is
    /// written is taken and thrown away.
    discarding: bool,
}

impl Pipe {
    pub fn new() -> Self {
        Pipe {
            buf: VecDeque::new(),
            readers: 1,
            writers: 1,
            discarding: false,
        }
    }

    /// From now on, writes succeed and their bytes are thrown away, as
    /// are the bytes waiting (a socket's shutdown of receiving).
    pub fn discard(&mut self) {
        self.discarding = true;
        self.buf.clear();
    }

    /// Bytes waiting to be read.
    pub fn available(&self) -> usize {
        self.buf.len()
    }

    /// Bytes a write could add now.
    pub fn room(&self) -> usize {
        PIPE_CAPACITY - self.buf.len()
    }

    /// Reads what is there; end of file (0) once the buffer is empty and no
    /// writer is left.
    pub fn read(&mut self, out: &mut [u8]) -> Io {
        if self.buf.is_empty() {
            return if self.writers == 0 || out.is_empty() {
                Io::Done(0)
            } else {
                Io::WouldBlock
            };
        }
        let n = out.len().min(self.buf.len());
        for (dst, src) in out.iter_mut().zip(self.buf.drain(..n)) {
            *dst = src;
        }
        Io::Done(n)
    }

    /// Copies what is there without taking it (recv's MSG_PEEK); as
    /// `read` for end of file and waiting.
    pub fn peek(&self, out: &mut [u8]) -> Io {
        if self.buf.is_empty() {
            return if self.writers == 0 || out.is_empty() {
                Io::Done(0)
            } else {
                Io::WouldBlock
            };
        }
        let n = out.len().min(self.buf.len());
        for (dst, src) in out.iter_mut().zip(self.buf.iter()) {
            *dst = *src;
        }
        Io::Done(n)
    }

    /// Writes as much as fits (a partial write is allowed, as for writes
    /// larger than PIPE_BUF); EPIPE once no reader is left.
    pub fn write(&mut self, data: &[u8]) -> Result<Io, Errno> {
        if self.readers == 0 {
            return Err(Errno::EPIPE);
        }
        if self.discarding {
            return Ok(Io::Done(data.len()));
        }
        let room = PIPE_CAPACITY - self.buf.len();
        if room == 0 && !data.is_empty() {
            return Ok(Io::WouldBlock);
        }
        let n = room.min(data.len());
        self.buf.extend(&data[..n]);
        Ok(Io::Done(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_pipe_blocks_while_a_writer_remains_then_reads_eof() {
        let mut p = Pipe::new();
        assert!(matches!(p.read(&mut [0; 4]), Io::WouldBlock));
        p.writers = 0;
        assert!(matches!(p.read(&mut [0; 4]), Io::Done(0)));
    }

    #[test]
    fn writing_without_readers_is_epipe() {
        let mut p = Pipe::new();
        p.readers = 0;
        assert!(matches!(p.write(b"x"), Err(Errno::EPIPE)));
    }

    #[test]
    fn data_comes_out_in_order_and_full_pipes_block() {
        let mut p = Pipe::new();
        assert!(matches!(
            p.write(&[7; PIPE_CAPACITY + 5]),
            Ok(Io::Done(PIPE_CAPACITY))
        ));
        assert!(matches!(p.write(b"x"), Ok(Io::WouldBlock)));
        let mut out = [0; 3];
        assert!(matches!(p.read(&mut out), Io::Done(3)));
        assert_eq!(out, [7, 7, 7]);
    }
}
