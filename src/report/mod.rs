//! Profile reports (flat, folded, JSON, SVG, annotate): being written.
