//! The jit engine's translation cache for a run (`--jit-cache`): where it
//! is, opened once and shared by every process of the run, and written out
//! when the run ends.

use std::sync::Arc;

use cpu_mips::{
    default_translation_dir, Engine, TranslationStore, DEFAULT_TRANSLATION_STORE_BYTES,
};

use super::args::{JitCache, MachineArgs};
use super::say;

/// The directory `--jit-cache` names (the default when absent), opened; or
/// `None` for another engine, `--jit-cache off`, no usable default, or a
/// directory that may not be used (one warning says why; the run goes on
/// without it, as it would with `off`).
pub fn open(m: &MachineArgs) -> Option<Arc<TranslationStore>> {
    if m.engine != Engine::Jit {
        return None;
    }
    let dir = match &m.jit_cache {
        Some(JitCache::Off) => return None,
        Some(JitCache::Dir(d)) => std::path::absolute(d).unwrap_or_else(|_| d.clone()),
        None => default_translation_dir()?,
    };
    let warn = Box::new(|w: &str| say(format_args!("warning: {w}")));
    match TranslationStore::open(&dir, DEFAULT_TRANSLATION_STORE_BYTES, warn) {
        Ok(store) => Some(store),
        Err(e) => {
            say(format_args!(
                "warning: translation cache {} not used: {e}; running without it",
                dir.display()
            ));
            None
        }
    }
}

/// Writes what the run's translation cache holds and has not written yet
/// (the blocks the run compiled, as one pack; see
/// `TranslationStore::flush`). Called when the run ends, however it ends
/// (the guest exited, a fault, a stopping signal, --timeout), before the
/// statistics are printed.
pub fn flush(k: &mut irix_kernel::Kernel) {
    k.finish_compiles();
    if let Some(store) = &k.config.translations {
        store.flush();
    }
}
