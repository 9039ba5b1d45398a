// Memory-mapped files that may shrink while mapped. Reading a mapped page past the new end of the
// file raises SIGBUS; the guard (filemap.c) maps a page of zeros over the faulting address instead
// and counts the fault, so the reader finishes and then reports "the file changed while being read".
#ifndef TEXTROTOR_CICU_FILEMAP_H
#define TEXTROTOR_CICU_FILEMAP_H

#include <stddef.h>

/// Installs the SIGBUS guard once per process (idempotent).
void cicu_install_sigbus_guard(void);

/// How many pages the guard has replaced since the process started.
long cicu_sigbus_fault_count(void);

/// Maps `length` bytes of `fd` read-only, or returns NULL.
void *cicu_map_file(int fd, size_t length);

#endif
