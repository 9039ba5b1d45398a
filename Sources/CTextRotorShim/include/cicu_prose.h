// Hard-wrapped prose for ICU's sentence iterator. Not ICU.
#ifndef TEXTROTOR_CICU_PROSE_H
#define TEXTROTOR_CICU_PROSE_H

#include <stdint.h>

/// Copies `n` bytes from `src` to `dst`, replacing with spaces each line break (LF, CR or CR LF)
/// that lies between two non-blank lines (a blank line is empty or only spaces and tabs): a single
/// line break inside a paragraph reads as a space, and every offset stays the same.
void cicu_prose_copy(const uint8_t *src, int64_t n, uint8_t *dst);

#endif
