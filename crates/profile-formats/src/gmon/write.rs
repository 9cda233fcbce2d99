//! Writing gmon.out atomically: a temporary file beside the target,
//! created before the guest runs, synced and renamed over it.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{check_histograms, encode_gmon_with_arcs, CallArc, GmonFileError, HistRecord};
use crate::files::TempFiles;

/// Validate, encode and write `hists` to `path` atomically: the bytes go to a
/// new temporary file in the same directory, which is synced and renamed over
/// `path`. On any failure the temporary file is removed and `path` is untouched.
pub fn write_gmon(path: &Path, hists: &[HistRecord]) -> Result<(), GmonFileError> {
    GmonOutput::create(&TempFiles::default(), path)?.commit(hists)
}

/// A gmon.out about to be written: its temporary file already exists beside
/// `path`, so a profile that cannot be written is known before the guest
/// runs. Dropped without [`GmonOutput::commit`], it removes the temporary
/// file and leaves `path` untouched.
pub struct GmonOutput {
    path: PathBuf,
    tmp_path: PathBuf,
    file: Option<fs::File>,
    temps: TempFiles,
}

impl GmonOutput {
    /// Creates the temporary file that will become `path`, noted in `temps`.
    pub fn create(temps: &TempFiles, path: &Path) -> Result<GmonOutput, GmonFileError> {
        let (tmp_path, file) =
            temps
                .create_beside(path)
                .map_err(|source| GmonFileError::Write {
                    path: path.to_path_buf(),
                    source,
                })?;
        Ok(GmonOutput {
            path: path.to_path_buf(),
            tmp_path,
            file: Some(file),
            temps: temps.clone(),
        })
    }

    /// The file the profile will be written to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Validates and encodes `hists`, writes and syncs the temporary file
    /// and renames it over `path`.
    pub fn commit(self, hists: &[HistRecord]) -> Result<(), GmonFileError> {
        self.commit_with_arcs(hists, &[])
    }

    /// [`GmonOutput::commit`] with call-arc records after the histograms.
    pub fn commit_with_arcs(
        mut self,
        hists: &[HistRecord],
        arcs: &[CallArc],
    ) -> Result<(), GmonFileError> {
        check_histograms(hists).map_err(|e| e.in_file(&self.path))?;
        let bytes = encode_gmon_with_arcs(hists, arcs);
        let Some(mut file) = self.file.take() else {
            return Err(GmonFileError::Write {
                path: self.path.clone(),
                source: io::Error::other("already written"),
            });
        };
        let written = file
            .write_all(&bytes)
            .and_then(|()| file.sync_all())
            .and_then(|()| {
                drop(file);
                self.temps.rename_over(&self.tmp_path, &self.path)
            });
        match written {
            Ok(()) => {
                // Renamed: nothing left for Drop to remove.
                self.tmp_path = PathBuf::new();
                Ok(())
            }
            Err(source) => Err(GmonFileError::Write {
                path: self.path.clone(),
                source,
            }),
        }
    }
}

impl Drop for GmonOutput {
    fn drop(&mut self) {
        if !self.tmp_path.as_os_str().is_empty() {
            // The profile was not written; leave no trace.
            self.temps.discard(&self.tmp_path);
        }
    }
}

/// [`write_gmon`] with call-arc records after the histograms.
pub fn write_gmon_with_arcs(
    path: &Path,
    hists: &[HistRecord],
    arcs: &[CallArc],
) -> Result<(), GmonFileError> {
    GmonOutput::create(&TempFiles::default(), path)?.commit_with_arcs(hists, arcs)
}
