"""Issue 14: every class of hole a hostile club administrator, table or stranger can use, enumerated."""
