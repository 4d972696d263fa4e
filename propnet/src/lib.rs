//! Grounding and propositional networks for GDL (under construction).
