//! GDL (KIF) front end (under construction).
