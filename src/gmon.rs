//! gmon.out (GNU gprof) reading and writing: being written.
