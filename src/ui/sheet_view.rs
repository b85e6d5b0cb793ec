//! Score sheet view (wired to the score engine and store).
