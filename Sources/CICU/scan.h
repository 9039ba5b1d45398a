// Byte-scanning kernels over UTF-8 text, written as plain loops that the compiler vectorises.
#ifndef TEXTROTOR_CICU_SCAN_H
#define TEXTROTOR_CICU_SCAN_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  int64_t lineFeeds;      // LF bytes
  int64_t carriageReturns;// CR bytes
  int64_t crlfPairs;      // CR immediately followed by LF, both inside the range
  int64_t utf16Units;     // UTF-16 code units (lead bytes, plus one more for 4-byte sequences)
} cicu_text_counts;

/// Counts line terminators and UTF-16 units of `n` bytes in one pass.
static inline cicu_text_counts cicu_count_text(const uint8_t *p, size_t n) {
  cicu_text_counts result = {0, 0, 0, 0};
  if (n == 0) return result;
  size_t m = n - 1;  // bytes that have a next byte inside the range
  size_t i = 0;
  while (i < m) {
    size_t block = m - i < 255 * 16 ? m - i : 255 * 16;
    uint8_t lf[16] = {0}, cr[16] = {0}, pairs[16] = {0}, lead[16] = {0}, four[16] = {0};
    size_t j = 0;
    const uint8_t *q = p + i;
    for (; j + 16 <= block; j += 16) {
      for (int k = 0; k < 16; k++) {
        uint8_t b = q[j + k];
        uint8_t next = q[j + k + 1];
        lf[k] += b == 0x0A;
        cr[k] += b == 0x0D;
        pairs[k] += (b == 0x0D) & (next == 0x0A);
        lead[k] += (int8_t)b >= -64;
        four[k] += b >= 0xF0;
      }
    }
    for (; j < block; j++) {
      uint8_t b = q[j];
      lf[0] += b == 0x0A;
      cr[0] += b == 0x0D;
      pairs[0] += (b == 0x0D) & (q[j + 1] == 0x0A);
      lead[0] += (int8_t)b >= -64;
      four[0] += b >= 0xF0;
    }
    for (int k = 0; k < 16; k++) {
      result.lineFeeds += lf[k];
      result.carriageReturns += cr[k];
      result.crlfPairs += pairs[k];
      result.utf16Units += lead[k] + four[k];
    }
    i += block;
  }
  uint8_t b = p[m];
  result.lineFeeds += b == 0x0A;
  result.carriageReturns += b == 0x0D;
  result.utf16Units += ((int8_t)b >= -64) + (b >= 0xF0);
  return result;
}

#endif
