// See cicu_prose.h.
#include "cicu_prose.h"

#include <string.h>

static int cicu_is_blank(const uint8_t *p, int64_t length) {
  for (int64_t i = 0; i < length; i++) {
    if (p[i] != ' ' && p[i] != '\t') return 0;
  }
  return 1;
}

void cicu_prose_copy(const uint8_t *src, int64_t n, uint8_t *dst) {
  if (n <= 0) return;
  memcpy(dst, src, (size_t)n);
  int64_t pos = 0;
  int previousNonBlank = 0;
  int64_t breakStart = -1, breakEnd = -1;  // the previous line's terminator
  while (pos < n) {
    const uint8_t *lf = memchr(src + pos, '\n', (size_t)(n - pos));
    int64_t lfAt = lf ? lf - src : n;
    const uint8_t *cr = memchr(src + pos, '\r', (size_t)(lfAt - pos));
    int64_t end, next;
    if (cr) {
      end = cr - src;
      next = (end + 1 < n && src[end + 1] == '\n') ? end + 2 : end + 1;
    } else {
      end = lfAt;
      next = lf ? lfAt + 1 : n;
    }
    int nonBlank = !cicu_is_blank(src + pos, end - pos);
    if (nonBlank && previousNonBlank && breakStart >= 0 && breakEnd > breakStart) {
      memset(dst + breakStart, ' ', (size_t)(breakEnd - breakStart));
    }
    previousNonBlank = nonBlank;
    breakStart = end;
    breakEnd = next;
    pos = next;
  }
}
