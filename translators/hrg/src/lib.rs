//! High-level Regular Games front end (under construction).
