//! Execution-time profiling (profil, sprofil, pcsample): being written.
