//! The loader's integration tests: one test binary, one module per concern
//! (`cargo test -p loader --test all NAME::` runs one). Fixtures are in
//! tests/fixtures.

mod acceptance;
mod never_panics;
mod real_binaries;
mod rejections;
