//! The guest's view of its terminal: the settings termio(7) describes,
//! kept by irix-emu.
//!
//! A guest's TCSETA/TCSETS settings are recorded and read back, but not
//! applied to the host terminal: no guest can leave the user's terminal
//! raw or silent, and input keeps the host terminal's line editing. The
//! terminal is one device, so its settings are shared by every
//! descriptor and process that reaches it (as a real tty's are).
//!
//! Layouts (big-endian): `struct termios` is four 32-bit flag words
//! (c_iflag, c_oflag, c_cflag, c_lflag) and `c_cc[23]`, 40 bytes with its
//! padding, as IRIX 5.3's libc reads it (tcgetattr passes it straight to
//! TCGETS; cfgetospeed reads c_cflag at offset 8). `struct termio` is
//! four 16-bit flag words, c_line and `c_cc[23]` (32 bytes: the MIPS ABI
//! gives termio NCCS control characters, as Linux's MIPS termbits.h
//! notes). Flag values and c_cc indices are SVR4's.

/// Control characters in c_cc.
pub const NCCS: usize = 23;
/// sizeof(struct termios): 16 + 23, padded to a word.
pub const TERMIOS_SIZE: usize = 40;
/// sizeof(struct termio): 8 + 1 + 23.
pub const TERMIO_SIZE: usize = 32;

/// Terminal settings (SVR4 termios).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Termios {
    pub iflag: u32,
    pub oflag: u32,
    pub cflag: u32,
    pub lflag: u32,
    pub cc: [u8; NCCS],
}

/// A terminal's window size (struct winsize: rows, columns, x and y
/// pixels, four unsigned shorts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinSize {
    pub rows: u16,
    pub cols: u16,
    pub xpixel: u16,
    pub ypixel: u16,
}

/// The terminal as the guest set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terminal {
    pub termios: Termios,
    /// A size the guest set with TIOCSWINSZ (None: the host terminal's).
    pub winsize: Option<WinSize>,
}

impl Default for Terminal {
    fn default() -> Self {
        Terminal {
            termios: Termios::cooked(),
            winsize: None,
        }
    }
}

impl Termios {
    /// A terminal in cooked mode at 9600 baud, 8 bits: ICRNL|IXON,
    /// OPOST|ONLCR, B9600|CS8|CREAD|HUPCL, ISIG|ICANON|ECHO|ECHOE|ECHOK,
    /// and the usual control characters (^C intr, ^\ quit, DEL erase, ^U
    /// kill, ^D eof, ^Q/^S start/stop, ^Z susp, ^R reprint, ^O discard,
    /// ^W werase, ^V lnext). SVR4 values; the characters are a choice.
    pub fn cooked() -> Self {
        let mut cc = [0u8; NCCS];
        for (i, c) in [
            (0, 0x03),  // VINTR
            (1, 0x1c),  // VQUIT
            (2, 0x7f),  // VERASE
            (3, 0x15),  // VKILL
            (4, 0x04),  // VEOF (VMIN in raw mode)
            (8, 0x11),  // VSTART
            (9, 0x13),  // VSTOP
            (10, 0x1a), // VSUSP
            (11, 0x19), // VDSUSP
            (12, 0x12), // VREPRINT
            (13, 0x0f), // VDISCARD
            (14, 0x17), // VWERASE
            (15, 0x16), // VLNEXT
        ] {
            cc[i] = c;
        }
        Termios {
            iflag: 0o400 | 0o2000,
            oflag: 0o1 | 0o4,
            cflag: 0o15 | 0o60 | 0o200 | 0o2000,
            lflag: 0o1 | 0o2 | 0o10 | 0o20 | 0o40,
            cc,
        }
    }

    pub fn encode_termios(&self) -> [u8; TERMIOS_SIZE] {
        let mut b = [0u8; TERMIOS_SIZE];
        for (i, f) in [self.iflag, self.oflag, self.cflag, self.lflag]
            .iter()
            .enumerate()
        {
            b[4 * i..4 * i + 4].copy_from_slice(&f.to_be_bytes());
        }
        b[16..16 + NCCS].copy_from_slice(&self.cc);
        b
    }

    pub fn decode_termios(b: &[u8; TERMIOS_SIZE]) -> Self {
        let word =
            |i: usize| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        let mut cc = [0u8; NCCS];
        cc.copy_from_slice(&b[16..16 + NCCS]);
        Termios {
            iflag: word(0),
            oflag: word(1),
            cflag: word(2),
            lflag: word(3),
            cc,
        }
    }

    /// The termio view: the low 16 bits of each flag word.
    pub fn encode_termio(&self) -> [u8; TERMIO_SIZE] {
        let mut b = [0u8; TERMIO_SIZE];
        for (i, f) in [self.iflag, self.oflag, self.cflag, self.lflag]
            .iter()
            .enumerate()
        {
            b[2 * i..2 * i + 2].copy_from_slice(&(*f as u16).to_be_bytes());
        }
        b[9..9 + NCCS].copy_from_slice(&self.cc);
        b
    }

    /// Settings from a termio: its flags replace the low 16 bits of each
    /// word (the high bits, which termio cannot express, are kept).
    pub fn with_termio(&self, b: &[u8; TERMIO_SIZE]) -> Self {
        let half = |i: usize| u16::from_be_bytes([b[2 * i], b[2 * i + 1]]) as u32;
        let merge = |old: u32, i| (old & !0xffff) | half(i);
        let mut cc = [0u8; NCCS];
        cc.copy_from_slice(&b[9..9 + NCCS]);
        Termios {
            iflag: merge(self.iflag, 0),
            oflag: merge(self.oflag, 1),
            cflag: merge(self.cflag, 2),
            lflag: merge(self.lflag, 3),
            cc,
        }
    }
}

impl WinSize {
    pub fn encode(&self) -> [u8; 8] {
        let mut b = [0u8; 8];
        for (i, v) in [self.rows, self.cols, self.xpixel, self.ypixel]
            .iter()
            .enumerate()
        {
            b[2 * i..2 * i + 2].copy_from_slice(&v.to_be_bytes());
        }
        b
    }

    pub fn decode(b: &[u8; 8]) -> Self {
        let half = |i: usize| u16::from_be_bytes([b[2 * i], b[2 * i + 1]]);
        WinSize {
            rows: half(0),
            cols: half(1),
            xpixel: half(2),
            ypixel: half(3),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termios_and_termio_round_trip_through_their_layouts() {
        let t = Termios::cooked();
        assert_eq!(Termios::decode_termios(&t.encode_termios()), t);
        assert_eq!(t.with_termio(&t.encode_termio()), t);
        let raw = Termios { lflag: 0, ..t };
        assert_eq!(t.with_termio(&raw.encode_termio()).lflag, 0);
        // c_cflag is the third word: offset 8, where libc's cfgetospeed
        // looks for the speed (B9600 = 015 in its low four bits).
        assert_eq!(t.encode_termios()[11] & 0xf, 0o15);
    }
}
