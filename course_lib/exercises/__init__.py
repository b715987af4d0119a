"""Self-check functions for the exercises at the end of each chapter: `check_*` functions tell
whether an answer is right and why. One module per chapter family."""
