//! Regular Boardgames front end (under construction).
