//! Interpreter files for execve: a file whose first line is
//! `#! pathname [arg]` is run by the program at pathname (exec(2)).
//!
//! exec(2)'s rules, as this module applies them:
//! - the line may be up to 256 characters long; a longer first line is
//!   E2BIG ("The number of bytes in the first line of an interpreter file
//!   is greater than 256 bytes");
//! - pathname starts at the first non-blank character after `#!` and ends
//!   at the next blank; arg is everything from the first non-blank
//!   character after pathname up to the newline, tabs turned into spaces;
//! - the interpreter gets pathname as arg0, arg (if any) as arg1, then the
//!   interpreter file's path and the caller's arguments from arg1 on.
//!
//! The page lists "arg0 through argn of the originally exec'd file" after
//! arg; in the same page the set-user-ID paragraph substitutes a /dev/fd
//! path "for the pathname of the interpreter file in the argument list", so
//! the list holds the file's path where the caller's arg0 was: that is what
//! SVR4 and BSD kernels pass, and what an interpreter needs to open the
//! file. A line with no pathname is ENOEXEC, and so is an interpreter that
//! is itself an interpreter file (it is not an executable object file).

use crate::abi::limits::ARG_MAX;
use crate::Errno;

/// The longest first line exec(2) accepts, newline excluded.
pub const LINE_MAX: usize = 256;

/// Bytes to read from the head of a file to parse its first line.
pub const HEAD: usize = LINE_MAX + 1;

/// The first line of an interpreter file.
#[derive(Debug, PartialEq, Eq)]
pub struct InterpreterLine {
    /// The interpreter's path, as written (resolved like any exec path).
    pub path: Vec<u8>,
    /// The optional argument, tabs turned into spaces.
    pub arg: Option<Vec<u8>>,
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// Reads the interpreter line from the first bytes of a file (at least
/// [`HEAD`] of them, or the whole file if shorter). `Ok(None)`: the file
/// does not start with `#!`.
pub fn parse(head: &[u8]) -> Result<Option<InterpreterLine>, Errno> {
    let Some(rest) = head.strip_prefix(b"#!") else {
        return Ok(None);
    };
    let line = match head.iter().position(|&c| c == b'\n') {
        Some(end) if end <= LINE_MAX => &rest[..end - 2],
        Some(_) => return Err(Errno::E2BIG),
        // A file that ends without a newline: its whole text is the line.
        None if head.len() <= LINE_MAX => rest,
        None => return Err(Errno::E2BIG),
    };
    let start = line
        .iter()
        .position(|&c| !is_blank(c))
        .unwrap_or(line.len());
    let line = &line[start..];
    let end = line.iter().position(|&c| is_blank(c)).unwrap_or(line.len());
    let (path, rest) = line.split_at(end);
    if path.is_empty() {
        return Err(Errno::ENOEXEC);
    }
    let arg = rest.iter().position(|&c| !is_blank(c)).map(|at| {
        rest[at..]
            .iter()
            .map(|&c| if c == b'\t' { b' ' } else { c })
            .collect()
    });
    Ok(Some(InterpreterLine {
        path: path.to_vec(),
        arg,
    }))
}

/// The interpreter's argument list: pathname, arg if any, the interpreter
/// file's path as the caller gave it, then the caller's arguments after its
/// arg0. E2BIG if the list outgrows ARG_MAX together with `env_bytes`.
pub fn arguments(
    line: &InterpreterLine,
    file: &[u8],
    argv: &[Vec<u8>],
    env_bytes: usize,
) -> Result<Vec<Vec<u8>>, Errno> {
    let mut out = vec![line.path.clone()];
    out.extend(line.arg.clone());
    out.push(file.to_vec());
    out.extend(argv.iter().skip(1).cloned());
    let bytes: usize = out.iter().map(|a| a.len() + 1).sum();
    if bytes + env_bytes > ARG_MAX {
        return Err(Errno::E2BIG);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(path: &str, arg: Option<&str>) -> Option<InterpreterLine> {
        Some(InterpreterLine {
            path: path.into(),
            arg: arg.map(Into::into),
        })
    }

    #[test]
    fn a_file_without_the_two_characters_is_no_interpreter_file() {
        assert_eq!(parse(b"\x7fELF"), Ok(None));
        assert_eq!(parse(b"# !/bin/sh\n"), Ok(None));
        assert_eq!(parse(b""), Ok(None));
    }

    #[test]
    fn pathname_then_arg_from_its_first_non_space_character_to_the_newline() {
        // exec(2): "arg includes all characters from the first non-space
        // character after pathname up to, but not including, the newline."
        assert_eq!(parse(b"#!/bin/sh\necho\n"), Ok(line("/bin/sh", None)));
        assert_eq!(parse(b"#! /bin/sh   \n"), Ok(line("/bin/sh", None)));
        assert_eq!(
            parse(b"#!/usr/bin/awk  -f x \n"),
            Ok(line("/usr/bin/awk", Some("-f x ")))
        );
        assert_eq!(parse(b"#!/bin/sh -x"), Ok(line("/bin/sh", Some("-x"))));
    }

    #[test]
    fn any_tabs_in_arg_are_converted_to_spaces() {
        // exec(2): "Any tabs in arg are converted to spaces."
        assert_eq!(
            parse(b"#!\t/bin/sh\t-a\tb\n"),
            Ok(line("/bin/sh", Some("-a b")))
        );
    }

    #[test]
    fn a_first_line_over_256_bytes_is_e2big() {
        // exec(2): "E2BIG The number of bytes in the first line of an
        // interpreter file is greater than 256 bytes."
        let mut text = b"#!/bin/sh ".to_vec();
        text.resize(LINE_MAX, b'a');
        let mut ok = text.clone();
        ok.push(b'\n');
        assert!(parse(&ok).unwrap().is_some());
        text.extend(b"a\n");
        assert_eq!(parse(&text), Err(Errno::E2BIG));
        text.truncate(HEAD);
        assert_eq!(parse(&text), Err(Errno::E2BIG));
    }

    #[test]
    fn a_line_without_a_pathname_is_enoexec() {
        assert_eq!(parse(b"#!\n"), Err(Errno::ENOEXEC));
        assert_eq!(parse(b"#!  \t \nx"), Err(Errno::ENOEXEC));
    }

    #[test]
    fn the_interpreter_gets_pathname_arg_then_the_file_and_the_callers_arguments() {
        // exec(2): "The pathname specified in the interpreter file is passed
        // as arg0 to the interpreter. If arg was specified in the
        // interpreter file, it is passed as arg1 to the interpreter."
        let with_arg = line("/bin/i", Some("-x")).unwrap();
        let argv: Vec<Vec<u8>> = vec!["s".into(), "one".into(), "two".into()];
        let got = arguments(&with_arg, b"./s", &argv, 0).unwrap();
        assert_eq!(
            got,
            ["/bin/i", "-x", "./s", "one", "two"].map(|s| s.as_bytes().to_vec())
        );
        let bare = line("/bin/i", None).unwrap();
        let got = arguments(&bare, b"/t/s", &[], 0).unwrap();
        assert_eq!(got, ["/bin/i", "/t/s"].map(|s| s.as_bytes().to_vec()));
        assert_eq!(arguments(&bare, b"/t/s", &[], ARG_MAX), Err(Errno::E2BIG));
    }
}
