//! The tests that need an IRIX root or qemu-irix are ignored unless the
//! variable naming it was set when they were built (test_support::roots):
//! this turns each such variable into a `cfg` and rebuilds when it changes.

fn main() {
    print!("{}", test_support::roots::build_script_cfgs());
}
