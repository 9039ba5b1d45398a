// Byte-scanning kernels over UTF-8 text: the vectorised literal search under textrotor's pattern
// rotors, and the one-pass line/UTF-16 counter. Not ICU. `static inline`, so they inline into the
// Swift code that calls them.
#ifndef TEXTROTOR_CICU_SCAN_H
#define TEXTROTOR_CICU_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// MARK: byte search

/// A needle prepared for search: byte i of the haystack matches when (h | masks[i]) == bytes[i]
/// (masks[i] is 0x20 for an ASCII letter searched without case, else 0). `rare1` and `rare2` are
/// two positions of rare bytes, compared 32 (AVX2) or 16 (SSE2) haystack positions at a time;
/// the AVX2 search also compares a third, `rare3` (the same as one of them in a short needle): the
/// loads come from cache lines already read, so it costs little and keeps the candidates few when
/// two of the needle's bytes come together in text more often than their frequencies say (the
/// `192.168.` of `192.168.7.` in a log).
typedef struct {
  const uint8_t *bytes;
  const uint8_t *masks;
  int64_t length;
  int64_t rare1;
  int64_t rare2;
  int caseless;
  int64_t rare3;
} cicu_needle;

static inline uint64_t cicu_load64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static inline uint32_t cicu_load32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static inline int cicu_needle_equals(const uint8_t *h, const cicu_needle *n) {
  const int64_t len = n->length;
  const uint8_t *b = n->bytes;
  if (!n->caseless) {
    // Two overlapping loads cover 4...16 bytes without a call.
    if (len >= 8 && len <= 16)
      return cicu_load64(h) == cicu_load64(b) && cicu_load64(h + len - 8) == cicu_load64(b + len - 8);
    if (len >= 4 && len < 8)
      return cicu_load32(h) == cicu_load32(b) && cicu_load32(h + len - 4) == cicu_load32(b + len - 4);
    if (len < 4) {
      for (int64_t i = 0; i < len; i++)
        if (h[i] != b[i]) return 0;
      return 1;
    }
    return memcmp(h, b, (size_t)len) == 0;
  }
  const uint8_t *m = n->masks;
  int64_t i = 0;
  for (; i + 8 <= len; i += 8)
    if ((cicu_load64(h + i) | cicu_load64(m + i)) != cicu_load64(b + i)) return 0;
  for (; i < len; i++)
    if ((uint8_t)(h[i] | m[i]) != b[i]) return 0;
  return 1;
}

static inline int64_t cicu_needle_scalar(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *n) {
  for (int64_t i = from; i + n->length <= end; i++)
    if (cicu_needle_equals(h + i, n)) return i;
  return -1;
}

#if defined(__x86_64__)
/// The leftmost non-overlapping occurrences of the needle in from..<end, each at or after the end
/// of the one before: written to `starts` (when not NULL), at most `capacity`; returns how many and
/// in `*resume` where to continue (end when the range is exhausted). The hot loop compares the two
/// rare bytes 64 positions at a time and calls nothing, so its vectors stay in registers;
/// candidates are verified outside it. `CASELESS` ORs the haystack with the masks first.
#define CICU_NEEDLE_SCAN_AVX2(NAME, CASELESS)                                                                   \
  __attribute__((target("avx2"))) static inline int64_t NAME(const uint8_t *h, int64_t from, int64_t end,       \
                                                             const cicu_needle *n, int64_t *starts,             \
                                                             int64_t capacity, int64_t *resume) {               \
    const int64_t len = n->length;                                                                              \
    /* No room for the needle: nothing to find (and h + rare may not be a pointer into the text). */           \
    if (end - from < len) {                                                                                     \
      *resume = end;                                                                                            \
      return 0;                                                                                                 \
    }                                                                                                           \
    const uint8_t *p1 = h + n->rare1, *p2 = h + n->rare2, *p3 = h + n->rare3;                                 \
    const __m256i v1 = _mm256_set1_epi8((char)n->bytes[n->rare1]);                                             \
    const __m256i v2 = _mm256_set1_epi8((char)n->bytes[n->rare2]);                                             \
    const __m256i v3 = _mm256_set1_epi8((char)n->bytes[n->rare3]);                                             \
    const __m256i m1 = _mm256_set1_epi8((char)n->masks[n->rare1]);                                             \
    const __m256i m2 = _mm256_set1_epi8((char)n->masks[n->rare2]);                                             \
    const __m256i m3 = _mm256_set1_epi8((char)n->masks[n->rare3]);                                             \
    (void)m1;                                                                                                   \
    (void)m2;                                                                                                   \
    (void)m3;                                                                                                   \
    /* Loads read h[i + rare ..< i + rare + 32]: inside the text while i <= last. */                           \
    const int64_t last = end - len - 31;                                                                        \
    int64_t count = 0, i = from, next = from;                                                                   \
    while (count < capacity) {                                                                                  \
      __m256i x0 = _mm256_setzero_si256(), x1 = _mm256_setzero_si256();                                        \
      for (; i + 32 <= last; i += 64) {                                                                         \
        __m256i a0 = _mm256_loadu_si256((const __m256i *)(p1 + i));                                            \
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(p2 + i));                                            \
        __m256i c0 = _mm256_loadu_si256((const __m256i *)(p3 + i));                                            \
        __m256i a1 = _mm256_loadu_si256((const __m256i *)(p1 + i + 32));                                       \
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(p2 + i + 32));                                       \
        __m256i c1 = _mm256_loadu_si256((const __m256i *)(p3 + i + 32));                                       \
        if (CASELESS) {                                                                                         \
          a0 = _mm256_or_si256(a0, m1);                                                                         \
          b0 = _mm256_or_si256(b0, m2);                                                                         \
          c0 = _mm256_or_si256(c0, m3);                                                                         \
          a1 = _mm256_or_si256(a1, m1);                                                                         \
          b1 = _mm256_or_si256(b1, m2);                                                                         \
          c1 = _mm256_or_si256(c1, m3);                                                                         \
        }                                                                                                       \
        x0 = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(a0, v1), _mm256_cmpeq_epi8(b0, v2)),          \
                              _mm256_cmpeq_epi8(c0, v3));                                                       \
        x1 = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(a1, v1), _mm256_cmpeq_epi8(b1, v2)),          \
                              _mm256_cmpeq_epi8(c1, v3));                                                       \
        if (!_mm256_testz_si256(_mm256_or_si256(x0, x1), _mm256_or_si256(x0, x1))) break;                       \
      }                                                                                                         \
      int blocks = 2;                                                                                           \
      if (i + 32 > last) {                                                                                      \
        if (i > last) break;                                                                                    \
        __m256i a0 = _mm256_loadu_si256((const __m256i *)(p1 + i));                                            \
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(p2 + i));                                            \
        __m256i c0 = _mm256_loadu_si256((const __m256i *)(p3 + i));                                            \
        if (CASELESS) {                                                                                         \
          a0 = _mm256_or_si256(a0, m1);                                                                         \
          b0 = _mm256_or_si256(b0, m2);                                                                         \
          c0 = _mm256_or_si256(c0, m3);                                                                         \
        }                                                                                                       \
        x0 = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(a0, v1), _mm256_cmpeq_epi8(b0, v2)),          \
                              _mm256_cmpeq_epi8(c0, v3));                                                       \
        blocks = 1;                                                                                             \
      }                                                                                                         \
      uint64_t mask = (uint32_t)_mm256_movemask_epi8(x0);                                                       \
      if (blocks == 2) mask |= (uint64_t)(uint32_t)_mm256_movemask_epi8(x1) << 32;                             \
      while (mask) {                                                                                            \
        int64_t at = i + __builtin_ctzll(mask);                                                                 \
        mask &= mask - 1;                                                                                       \
        if (at < next || !cicu_needle_equals(h + at, n)) continue;                                              \
        if (starts) starts[count] = at;                                                                         \
        next = at + len;                                                                                        \
        if (++count == capacity) break;                                                                         \
      }                                                                                                         \
      i += 32 * blocks;                                                                                         \
    }                                                                                                           \
    if (count == capacity) {                                                                                    \
      *resume = next;                                                                                           \
      return count;                                                                                             \
    }                                                                                                           \
    /* The tail: fewer than 32 + len - 1 bytes from i. */                                                       \
    for (int64_t at = i > next ? i : next; at + len <= end && count < capacity;) {                              \
      if (cicu_needle_equals(h + at, n)) {                                                                      \
        if (starts) starts[count] = at;                                                                         \
        count++;                                                                                                \
        at += len;                                                                                              \
        next = at;                                                                                              \
      } else {                                                                                                  \
        at++;                                                                                                   \
      }                                                                                                         \
    }                                                                                                           \
    *resume = count == capacity ? next : end;                                                                   \
    return count;                                                                                               \
  }
CICU_NEEDLE_SCAN_AVX2(cicu_needle_scan_avx2_exact, 0)
CICU_NEEDLE_SCAN_AVX2(cicu_needle_scan_avx2_caseless, 1)
#undef CICU_NEEDLE_SCAN_AVX2

static inline int64_t cicu_needle_scan_avx2(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *n,
                                            int64_t *starts, int64_t capacity, int64_t *resume) {
  return n->caseless ? cicu_needle_scan_avx2_caseless(h, from, end, n, starts, capacity, resume)
                     : cicu_needle_scan_avx2_exact(h, from, end, n, starts, capacity, resume);
}
#endif

static inline int64_t cicu_needle_sse2(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *n) {
  int64_t i = from;
#if defined(__x86_64__)
  const __m128i v1 = _mm_set1_epi8((char)n->bytes[n->rare1]), m1 = _mm_set1_epi8((char)n->masks[n->rare1]);
  const __m128i v2 = _mm_set1_epi8((char)n->bytes[n->rare2]), m2 = _mm_set1_epi8((char)n->masks[n->rare2]);
  for (; i + 16 + n->length - 1 <= end; i += 16) {
    __m128i a = _mm_or_si128(_mm_loadu_si128((const __m128i *)(h + i + n->rare1)), m1);
    __m128i b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(h + i + n->rare2)), m2);
    uint32_t mask = (uint32_t)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, v1), _mm_cmpeq_epi8(b, v2)));
    while (mask) {
      int k = __builtin_ctz(mask);
      if (cicu_needle_equals(h + i + k, n)) return i + k;
      mask &= mask - 1;
    }
  }
#endif
  return cicu_needle_scalar(h, i, end, n);
}

static inline int cicu_has_avx2(void) {
#if defined(__x86_64__)
  static int cached = -1;
  if (cached < 0) cached = __builtin_cpu_supports("avx2") ? 1 : 0;
  return cached;
#else
  return 0;
#endif
}

/// The first offset in from..<end where the needle starts, or -1. `h` is the start of the text.
static inline int64_t cicu_needle_find(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *n) {
  if (n->length <= 0 || end - from < n->length) return -1;
#if defined(__x86_64__)
  if (cicu_has_avx2()) {
    int64_t at = -1, resume = 0;
    return cicu_needle_scan_avx2(h, from, end, n, &at, 1, &resume) == 1 ? at : -1;
  }
#endif
  return cicu_needle_sse2(h, from, end, n);
}

#if defined(__x86_64__)
/// Verifies the candidate starts in `mask` (bit j = position i + j) against every needle, in order;
/// appends each offset where one starts (and which, when `whiches` is not NULL) until `capacity`.
static inline void cicu_needles_verify(const uint8_t *h, int64_t i, uint64_t mask, int64_t end,
                                       const cicu_needle *needles, int count, int64_t *starts, int *whiches,
                                       int64_t capacity, int64_t *found) {
  while (mask && *found < capacity) {
    int64_t at = i + __builtin_ctzll(mask);
    mask &= mask - 1;
    for (int k = 0; k < count; k++) {
      if (at + needles[k].length <= end && cicu_needle_equals(h + at, &needles[k])) {
        starts[*found] = at;
        if (whiches) whiches[*found] = k;
        (*found)++;
        break;
      }
    }
  }
}

/// Membership of each byte of `x` in a set of at most 8 bytes, by two 16-entry nibble tables (each
/// member owns one bit in the entry of its low nibble and in the entry of its high nibble: a byte is
/// a member when the two entries share a bit): all ones where a member.
__attribute__((target("avx2"))) static inline __m256i cicu_nibble_member(__m256i x, __m256i lo, __m256i hi) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  __m256i a = _mm256_shuffle_epi8(lo, _mm256_and_si256(x, low4));
  __m256i b = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), low4));
  return _mm256_xor_si256(_mm256_cmpeq_epi8(_mm256_and_si256(a, b), _mm256_setzero_si256()), _mm256_set1_epi8(-1));
}

/// The candidate mask of 32 positions at `q` (= h + i) when every needle is compared at the same
/// offsets r1, r2 (and r3, a byte all of them share, when r3 >= 0): the byte at r1 one of the
/// needles' bytes there, the same at r2. Up to 4 distinct values are compared one by one (the list
/// padded with repeats), more through nibble tables.
#define CICU_SHARED_MASK(q, FOUR)                                                                              \
  ({                                                                                                           \
    __m256i a_ = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)((q) + r1)), m1);                        \
    __m256i b_ = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)((q) + r2)), m2);                        \
    __m256i x_, y_;                                                                                            \
    if (FOUR) {                                                                                                \
      x_ = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(a_, d1[0]), _mm256_cmpeq_epi8(a_, d1[1])),         \
                           _mm256_or_si256(_mm256_cmpeq_epi8(a_, d1[2]), _mm256_cmpeq_epi8(a_, d1[3])));        \
      y_ = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(b_, d2[0]), _mm256_cmpeq_epi8(b_, d2[1])),         \
                           _mm256_or_si256(_mm256_cmpeq_epi8(b_, d2[2]), _mm256_cmpeq_epi8(b_, d2[3])));        \
    } else {                                                                                                   \
      x_ = cicu_nibble_member(a_, lo1, hi1);                                                                   \
      y_ = cicu_nibble_member(b_, lo2, hi2);                                                                   \
    }                                                                                                          \
    __m256i z_ = _mm256_and_si256(x_, y_);                                                                     \
    if (r3 >= 0) z_ = _mm256_and_si256(z_, _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)((q) + r3)), v3)); \
    z_;                                                                                                        \
  })

#define CICU_NEEDLES_SHARED_LOOP(FOUR)                                                                         \
  while (found < capacity) {                                                                                   \
    __m256i x0 = _mm256_setzero_si256(), x1 = _mm256_setzero_si256();                                         \
    for (; i + 32 <= last; i += 64) {                                                                          \
      x0 = CICU_SHARED_MASK(h + i, FOUR);                                                                      \
      x1 = CICU_SHARED_MASK(h + i + 32, FOUR);                                                                 \
      if (!_mm256_testz_si256(_mm256_or_si256(x0, x1), _mm256_or_si256(x0, x1))) break;                        \
    }                                                                                                          \
    int blocks = 2;                                                                                            \
    if (i + 32 > last) {                                                                                       \
      if (i > last) break;                                                                                     \
      x0 = CICU_SHARED_MASK(h + i, FOUR);                                                                      \
      blocks = 1;                                                                                              \
    }                                                                                                          \
    uint64_t mask = (uint32_t)_mm256_movemask_epi8(x0);                                                        \
    if (blocks == 2) mask |= (uint64_t)(uint32_t)_mm256_movemask_epi8(x1) << 32;                              \
    if (mask) cicu_needles_verify(h, i, mask, end, needles, count, starts, whiches, capacity, &found);         \
    i += 32 * blocks;                                                                                          \
  }

/// Every offset in *from..<end where one of the needles starts (overlapping ones too), at most
/// `capacity`, into `starts` (and which needle into `whiches`, when not NULL; the first in the
/// array when several start there); returns how many. `*from` becomes where the vectorised part
/// stopped (the caller finishes the last bytes one by one) or, when `capacity` was reached, one past
/// the last start.
__attribute__((target("avx2"))) static inline int64_t cicu_needles_avx2(const uint8_t *h, int64_t *from, int64_t end,
                                                                       const cicu_needle *needles, int count,
                                                                       int64_t longest, int64_t *starts,
                                                                       int *whiches, int64_t capacity) {
  int64_t i = *from, found = 0;
  // Loads read h[i + o ..< i + o + 32] with o < length <= longest: inside the text while i <= last.
  const int64_t last = end - longest - 31;
  // Every needle compared at the same two offsets with the same masks: load once, and test each
  // offset against the distinct values there (a candidate matches some needle's first value and
  // some needle's second value; verification sorts them out).
  int shared = 1;
  for (int k = 1; k < count; k++)
    if (needles[k].rare1 != needles[0].rare1 || needles[k].rare2 != needles[0].rare2 ||
        needles[k].masks[needles[k].rare1] != needles[0].masks[needles[0].rare1] ||
        needles[k].masks[needles[k].rare2] != needles[0].masks[needles[0].rare2])
      shared = 0;
  if (shared) {
    const int64_t r1 = needles[0].rare1, r2 = needles[0].rare2;
    const __m256i m1 = _mm256_set1_epi8((char)needles[0].masks[r1]), m2 = _mm256_set1_epi8((char)needles[0].masks[r2]);
    uint8_t u1[8], u2[8];
    int n1 = 0, n2 = 0;
    for (int k = 0; k < count; k++) {
      uint8_t b1 = needles[k].bytes[r1], b2 = needles[k].bytes[r2];
      int seen1 = 0, seen2 = 0;
      for (int j = 0; j < n1; j++) seen1 |= u1[j] == b1;
      for (int j = 0; j < n2; j++) seen2 |= u2[j] == b2;
      if (!seen1) u1[n1++] = b1;
      if (!seen2) u2[n2++] = b2;
    }
    __m256i d1[4], d2[4];
    for (int j = 0; j < 4; j++) {
      d1[j] = _mm256_set1_epi8((char)u1[j < n1 ? j : 0]);
      d2[j] = _mm256_set1_epi8((char)u2[j < n2 ? j : 0]);
    }
    uint8_t t[4][32];
    memset(t, 0, sizeof t);
    for (int j = 0; j < n1; j++) {
      t[0][u1[j] & 15] |= (uint8_t)(1u << j);
      t[1][u1[j] >> 4] |= (uint8_t)(1u << j);
    }
    for (int j = 0; j < n2; j++) {
      t[2][u2[j] & 15] |= (uint8_t)(1u << j);
      t[3][u2[j] >> 4] |= (uint8_t)(1u << j);
    }
    for (int k = 0; k < 4; k++) memcpy(t[k] + 16, t[k], 16);  // vpshufb looks up within each 128-bit lane
    const __m256i lo1 = _mm256_loadu_si256((const __m256i *)t[0]), hi1 = _mm256_loadu_si256((const __m256i *)t[1]);
    const __m256i lo2 = _mm256_loadu_si256((const __m256i *)t[2]), hi2 = _mm256_loadu_si256((const __m256i *)t[3]);
    (void)lo1, (void)hi1, (void)lo2, (void)hi2;
    // A third offset where every needle has the same byte (the lead byte of the script's
    // characters, shared by every case variant: it rules out the other scripts' text, whose
    // continuation bytes alone would often agree).
    int64_t r3 = -1;
    for (int64_t o = 0; o < needles[0].length && r3 < 0; o++) {
      if (o == r1 || o == r2) continue;
      int same = 1;
      for (int k = 0; k < count; k++)
        if (needles[k].length <= o || needles[k].masks[o] != 0 || needles[k].bytes[o] != needles[0].bytes[o]) same = 0;
      if (same && needles[0].bytes[o] >= 0x80) r3 = o;
    }
    const __m256i v3 = _mm256_set1_epi8((char)(r3 >= 0 ? needles[0].bytes[r3] : 0));
    if (n1 <= 4 && n2 <= 4) {
      CICU_NEEDLES_SHARED_LOOP(1)
    } else {
      CICU_NEEDLES_SHARED_LOOP(0)
    }
  } else {
    __m256i v1[8], m1[8], v2[8], m2[8];
    int64_t r1[8], r2[8];
    for (int k = 0; k < count; k++) {
      const cicu_needle *n = &needles[k];
      v1[k] = _mm256_set1_epi8((char)n->bytes[n->rare1]);
      m1[k] = _mm256_set1_epi8((char)n->masks[n->rare1]);
      v2[k] = _mm256_set1_epi8((char)n->bytes[n->rare2]);
      m2[k] = _mm256_set1_epi8((char)n->masks[n->rare2]);
      r1[k] = n->rare1;
      r2[k] = n->rare2;
    }
    while (found < capacity && i <= last) {
      uint32_t mask = 0;
      for (; i <= last; i += 32) {
        __m256i any = _mm256_setzero_si256();
        for (int k = 0; k < count; k++) {
          __m256i a = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(h + i + r1[k])), m1[k]);
          __m256i b = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(h + i + r2[k])), m2[k]);
          any = _mm256_or_si256(any, _mm256_and_si256(_mm256_cmpeq_epi8(a, v1[k]), _mm256_cmpeq_epi8(b, v2[k])));
        }
        mask = (uint32_t)_mm256_movemask_epi8(any);
        if (mask) break;
      }
      if (!mask) break;
      cicu_needles_verify(h, i, mask, end, needles, count, starts, whiches, capacity, &found);
      i += 32;
    }
  }
  *from = found == capacity && found > 0 ? starts[found - 1] + 1 : i;
  return found;
}
#undef CICU_NEEDLES_SHARED_LOOP
#undef CICU_SHARED_MASK
#endif

/// Every offset in from..<end where one of `needles[0..<count]` (at most 8) starts, overlapping
/// occurrences included, at most `capacity`, into `starts` (and which needle into `whiches`, when
/// not NULL: the first in the array when several start at one offset); returns how many, and in
/// `*resume` where to continue (end when the range is exhausted). Each needle is compared on its two
/// rare bytes, 32 positions at a time with AVX2.
static inline int64_t cicu_needles_scan(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *needles,
                                        int count, int64_t *starts, int *whiches, int64_t capacity,
                                        int64_t *resume) {
  int64_t longest = 0;
  for (int k = 0; k < count; k++)
    if (needles[k].length > longest) longest = needles[k].length;
  int64_t i = from, found = 0;
  if (capacity <= 0) {
    *resume = from;
    return 0;
  }
#if defined(__x86_64__)
  if (cicu_has_avx2() && count <= 8) {
    found = cicu_needles_avx2(h, &i, end, needles, count, longest, starts, whiches, capacity);
    if (found == capacity) {
      *resume = i;
      return found;
    }
  }
#endif
  for (; i < end && found < capacity; i++)
    for (int k = 0; k < count; k++)
      if (needles[k].length > 0 && i + needles[k].length <= end && cicu_needle_equals(h + i, &needles[k])) {
        starts[found] = i;
        if (whiches) whiches[found] = k;
        found++;
        break;
      }
  *resume = found == capacity ? i : end;
  return found;
}

/// The first offset in from..<end where one of `needles[0..<count]` starts, or -1; `*which` is the
/// needle found there (the first in the array when several start there).
static inline int64_t cicu_needles_find(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *needles,
                                        int count, int *which) {
  int64_t at = -1, resume = 0;
  return cicu_needles_scan(h, from, end, needles, count, &at, which, 1, &resume) == 1 ? at : -1;
}

/// Writes up to `capacity` starts in from..<end where one of the needles starts (every such offset,
/// overlapping occurrences included) into `starts`; returns how many, and in `*resume` where to
/// continue (end when the range is exhausted).
static inline int64_t cicu_needles_findAll(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *needles,
                                           int count, int64_t *starts, int64_t capacity, int64_t *resume) {
  return cicu_needles_scan(h, from, end, needles, count, starts, NULL, capacity, resume);
}

/// Writes up to `capacity` non-overlapping, leftmost starts of the needle in from..<end into
/// `starts` (or only counts them when `starts` is NULL); returns how many, and in `*resume` where
/// to continue (end when the range is exhausted).
static inline int64_t cicu_needle_findAll(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *n,
                                          int64_t *starts, int64_t capacity, int64_t *resume) {
#if defined(__x86_64__)
  if (n->length > 0 && capacity > 0 && cicu_has_avx2()) return cicu_needle_scan_avx2(h, from, end, n, starts, capacity, resume);
#endif
  int64_t count = 0;
  int64_t i = from;
  while (count < capacity) {
    int64_t hit = cicu_needle_find(h, i, end, n);
    if (hit < 0) { i = end; break; }
    if (starts) starts[count] = hit;
    count++;
    i = hit + n->length;
  }
  *resume = i;
  return count;
}

/// The first offset in from..<end holding one of `set[0..<setCount]` (at most 8 bytes, each >= 0x80),
/// or -1.
static inline int64_t cicu_find_any_byte(const uint8_t *h, int64_t from, int64_t end, const uint8_t *set, int setCount) {
  int64_t i = from;
#if defined(__x86_64__)
  __m128i v[8];
  for (int k = 0; k < setCount && k < 8; k++) v[k] = _mm_set1_epi8((char)set[k]);
  for (; i + 16 <= end; i += 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(h + i));
    // Only bytes >= 0x80 can be in the sets we use: skip ASCII blocks fast.
    if (_mm_movemask_epi8(x) == 0) continue;
    __m128i any = _mm_setzero_si128();
    for (int k = 0; k < setCount && k < 8; k++) any = _mm_or_si128(any, _mm_cmpeq_epi8(x, v[k]));
    int mask = _mm_movemask_epi8(any);
    if (mask) return i + __builtin_ctz((unsigned)mask);
  }
#endif
  for (; i < end; i++)
    for (int k = 0; k < setCount; k++)
      if (h[i] == set[k]) return i;
  return -1;
}

/// The first offset i in from..<end - 1 where h[i] == leads[k] and h[i + 1] == seconds[k] for some
/// k < count (at most 8; every lead >= 0x80), or -1. Blocks of ASCII are skipped 32 bytes at a time.
static inline int64_t cicu_find_any_pair_scalar(const uint8_t *h, int64_t from, int64_t end, const uint8_t *leads,
                                                const uint8_t *seconds, int count) {
  for (int64_t i = from; i + 1 < end; i++)
    for (int k = 0; k < count; k++)
      if (h[i] == leads[k] && h[i + 1] == seconds[k]) return i;
  return -1;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static inline int64_t cicu_find_any_pair_avx2(const uint8_t *h, int64_t from,
                                                                             int64_t end, const uint8_t *leads,
                                                                             const uint8_t *seconds, int count) {
  __m256i l[8], s[8];
  for (int k = 0; k < count && k < 8; k++) {
    l[k] = _mm256_set1_epi8((char)leads[k]);
    s[k] = _mm256_set1_epi8((char)seconds[k]);
  }
  int64_t i = from;
  // Loads read h[i ..< i + 33], inside the text while i + 33 <= end.
  for (; i + 33 <= end; i += 32) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(h + i));
    if (_mm256_movemask_epi8(x) == 0) continue;  // all ASCII: no lead byte here
    __m256i y = _mm256_loadu_si256((const __m256i *)(h + i + 1));
    __m256i any = _mm256_setzero_si256();
    for (int k = 0; k < count && k < 8; k++)
      any = _mm256_or_si256(any, _mm256_and_si256(_mm256_cmpeq_epi8(x, l[k]), _mm256_cmpeq_epi8(y, s[k])));
    uint32_t mask = (uint32_t)_mm256_movemask_epi8(any);
    if (mask) return i + __builtin_ctz(mask);
  }
  return cicu_find_any_pair_scalar(h, i, end, leads, seconds, count);
}
#endif

static inline int64_t cicu_find_any_pair(const uint8_t *h, int64_t from, int64_t end, const uint8_t *leads,
                                         const uint8_t *seconds, int count) {
#if defined(__x86_64__)
  if (cicu_has_avx2()) return cicu_find_any_pair_avx2(h, from, end, leads, seconds, count);
#endif
  return cicu_find_any_pair_scalar(h, from, end, leads, seconds, count);
}

// MARK: counting

typedef struct {
  int64_t lineFeeds;      // LF bytes
  int64_t carriageReturns;// CR bytes
  int64_t crlfPairs;      // CR immediately followed by LF, both inside the range
  int64_t utf16Units;     // UTF-16 code units (lead bytes, plus one more for 4-byte sequences;
                          // exact for well-formed text, see cicu_count_utf16_exact)
  int64_t leads;          // bytes that are not continuation bytes (the scalars of well-formed text)
} cicu_text_counts;

// UTF-16 units of ill-formed UTF-8 follow the Unicode standard's U+FFFD substitution of maximal
// subparts (as Swift's String(decoding:as:) and ICU do): each maximal subpart of an ill-formed
// sequence is one U+FFFD. Decided per byte from the byte and the 3 before it (0 before the range),
// so it vectorises: a byte begins a unit unless it is a continuation byte that extends a valid
// prefix of a sequence begun 1-3 bytes before; the last byte of a complete 4-byte sequence adds
// the surrogate pair's second unit.

/// Whether `c` is a valid second byte after the lead byte `l` (false when `l` leads no sequence).
static inline uint8_t cicu_utf8_second(uint8_t l, uint8_t c) {
  uint8_t lo = (uint8_t)(0x80 + ((l == 0xE0) << 5) + ((l == 0xF0) << 4));
  uint8_t hi = (uint8_t)(0xBF - ((l == 0xED) << 5) - ((l == 0xF4) ? 0x30 : 0));
  return (uint8_t)((l >= 0xC2) & (l <= 0xF4) & (c >= lo) & (c <= hi));
}

/// UTF-16 units byte b0 adds, b1..b3 being the bytes before it (0 before the range).
static inline uint8_t cicu_utf16_units(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3) {
  uint8_t cont0 = (b0 & 0xC0) == 0x80;
  uint8_t cont1 = (b1 & 0xC0) == 0x80;
  uint8_t by1 = cicu_utf8_second(b1, b0);
  uint8_t by2 = (b2 >= 0xE0) & cicu_utf8_second(b2, b1) & cont0;
  uint8_t by3 = (b3 >= 0xF0) & cicu_utf8_second(b3, b2) & cont1 & cont0;
  uint8_t extends = by1 | by2 | by3;
  return (uint8_t)((1 - extends) + by3);
}

/// Unicode scalars (U+FFFD for each maximal subpart) byte b0 adds.
static inline uint8_t cicu_utf8_scalars(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3) {
  uint8_t cont0 = (b0 & 0xC0) == 0x80;
  uint8_t cont1 = (b1 & 0xC0) == 0x80;
  uint8_t by1 = cicu_utf8_second(b1, b0);
  uint8_t by2 = (b2 >= 0xE0) & cicu_utf8_second(b2, b1) & cont0;
  uint8_t by3 = (b3 >= 0xF0) & cicu_utf8_second(b3, b2) & cont1 & cont0;
  return (uint8_t)(1 - (by1 | by2 | by3));
}

/// The UTF-16 units of byte i of p (bytes before p count as 0).
static inline int64_t cicu_utf16_units_at(const uint8_t *p, size_t i) {
  return cicu_utf16_units(p[i], i >= 1 ? p[i - 1] : 0, i >= 2 ? p[i - 2] : 0, i >= 3 ? p[i - 3] : 0);
}

/// UTF-16 units of `n` bytes decoded from `p`, ill-formed parts as U+FFFD (maximal subparts). One
/// byte at a time: `cicu_count_text` counts lead bytes (exact for well-formed text) and the Swift
/// side calls this only for a range that holds ill-formed UTF-8.
static inline int64_t cicu_count_utf16_exact(const uint8_t *p, size_t n) {
  int64_t total = 0;
  for (size_t i = 0; i < n; i++) total += cicu_utf16_units_at(p, i);
  return total;
}

/// Unicode scalars of `n` bytes, decoded from `p` (ill-formed parts as U+FFFD, maximal subparts).
static inline int64_t cicu_count_scalars(const uint8_t *p, size_t n) {
  int64_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += cicu_utf8_scalars(p[i], i >= 1 ? p[i - 1] : 0, i >= 2 ? p[i - 2] : 0, i >= 3 ? p[i - 3] : 0);
  return total;
}

/// The body of the portable counting loop with W 8-bit lanes per counter (16: the compiler turns it
/// into SSE2, the baseline; CPUs with AVX2 run `cicu_count_text_avx2` below, checked at run time).
/// Lanes are flushed every 255 rounds, before they can wrap.
#define CICU_COUNT_TEXT_BODY(W) \
  cicu_text_counts result = {0, 0, 0, 0, 0}; \
  if (n == 0) return result; \
  size_t m = n - 1;  /*  bytes that have a next byte inside the range */ \
  size_t i = 0; \
  while (i < m) { \
    size_t block = m - i < 255 * (W) ? m - i : 255 * (W); \
    uint8_t lf[W] = {0}, cr[W] = {0}, pairs[W] = {0}, lead[W] = {0}, four[W] = {0}; \
    size_t j = 0; \
    const uint8_t *q = p + i; \
    for (; j + (W) <= block; j += (W)) { \
      for (int k = 0; k < (W); k++) { \
        uint8_t b = q[j + k]; \
        uint8_t next = q[j + k + 1]; \
        lf[k] += b == 0x0A; \
        cr[k] += b == 0x0D; \
        pairs[k] += (b == 0x0D) & (next == 0x0A); \
        lead[k] += (int8_t)b >= -64; \
        four[k] += b >= 0xF0; \
      } \
    } \
    /*  The tail goes straight into the totals: lane 0 may already hold 254 counts, and 15 more */ \
    /*  would wrap its 8 bits (a line or UTF-16 count 256 short). */ \
    for (; j < block; j++) { \
      uint8_t b = q[j]; \
      result.lineFeeds += b == 0x0A; \
      result.carriageReturns += b == 0x0D; \
      result.crlfPairs += (b == 0x0D) & (q[j + 1] == 0x0A); \
      result.utf16Units += ((int8_t)b >= -64) + (b >= 0xF0); \
      result.leads += (int8_t)b >= -64; \
    } \
    for (int k = 0; k < (W); k++) { \
      result.lineFeeds += lf[k]; \
      result.carriageReturns += cr[k]; \
      result.crlfPairs += pairs[k]; \
      result.utf16Units += lead[k] + four[k]; \
      result.leads += lead[k]; \
    } \
    i += block; \
  } \
  uint8_t b = p[m]; \
  result.lineFeeds += b == 0x0A; \
  result.carriageReturns += b == 0x0D; \
  result.utf16Units += ((int8_t)b >= -64) + (b >= 0xF0); \
  result.leads += (int8_t)b >= -64; \
  return result;

static inline cicu_text_counts cicu_count_text_portable(const uint8_t *p, size_t n) { CICU_COUNT_TEXT_BODY(16) }

/// The line terminators of `n` bytes only (LF, CR, CR LF pairs; the UTF-16 fields stay 0): what a
/// line number needs, without the UTF-8 work (a third of the instructions of `cicu_count_text`).
#define CICU_COUNT_LINES_BODY(W) \
  cicu_text_counts result = {0, 0, 0, 0, 0}; \
  if (n == 0) return result; \
  size_t m = n - 1; \
  size_t i = 0; \
  while (i < m) { \
    size_t block = m - i < 255 * (W) ? m - i : 255 * (W); \
    uint8_t lf[W] = {0}, cr[W] = {0}, pairs[W] = {0}; \
    size_t j = 0; \
    const uint8_t *q = p + i; \
    for (; j + (W) <= block; j += (W)) { \
      for (int k = 0; k < (W); k++) { \
        uint8_t b = q[j + k]; \
        lf[k] += b == 0x0A; \
        cr[k] += b == 0x0D; \
        pairs[k] += (b == 0x0D) & (q[j + k + 1] == 0x0A); \
      } \
    } \
    for (; j < block; j++) { \
      uint8_t b = q[j]; \
      result.lineFeeds += b == 0x0A; \
      result.carriageReturns += b == 0x0D; \
      result.crlfPairs += (b == 0x0D) & (q[j + 1] == 0x0A); \
    } \
    for (int k = 0; k < (W); k++) { \
      result.lineFeeds += lf[k]; \
      result.carriageReturns += cr[k]; \
      result.crlfPairs += pairs[k]; \
    } \
    i += block; \
  } \
  result.lineFeeds += p[m] == 0x0A; \
  result.carriageReturns += p[m] == 0x0D; \
  return result;

static inline cicu_text_counts cicu_count_lines_portable(const uint8_t *p, size_t n) { CICU_COUNT_LINES_BODY(16) }

#if defined(__x86_64__)
// The AVX2 counting kernels, written with intrinsics: each compare gives 0xFF (-1) per matching
// byte, subtracted into byte accumulators; the four vectors of a 128-byte round are summed first
// (at most 4 per lane), so a lane wraps after 63 rounds: then `_mm256_sad_epu8` adds the lanes
// into 64-bit totals. CR LF pairs are counted only in rounds that hold a CR (none in most text):
// a CR at byte k pairs with an LF at k + 1, compared by a load one byte further on, which stays
// inside the range because a round runs only while a byte follows it (the last byte of the range,
// which has no next byte inside it, is always left to the scalar tail).

/// `total` plus the byte lanes of `acc`, summed into 64-bit lanes.
__attribute__((target("avx2"))) static inline __m256i cicu_sad_add(__m256i total, __m256i acc) {
  return _mm256_add_epi64(total, _mm256_sad_epu8(acc, _mm256_setzero_si256()));
}

/// The sum of the four 64-bit lanes of `v`.
__attribute__((target("avx2"))) static inline int64_t cicu_sum64(__m256i v) {
  __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

/// 0xFF where a byte of `a` is 0xF0 or more (the lead of a 4-byte sequence).
__attribute__((target("avx2"))) static inline __m256i cicu_ge_f0(__m256i a) {
  return _mm256_cmpeq_epi8(_mm256_max_epu8(a, _mm256_set1_epi8((char)0xF0)), a);
}

/// The compares of the 32 bytes at `q + 32 * K` (a vector `a`K, its line feeds `l`K and carriage
/// returns `c`K). Spelled out, not looped over arrays: a compiler that does not unroll such a loop
/// (the package's C build did not) keeps the arrays on the stack.
#define CICU_COUNT_LOAD(K)                                                                                   \
  const __m256i a##K = _mm256_loadu_si256((const __m256i *)(q + 32 * K));                                    \
  const __m256i l##K = _mm256_cmpeq_epi8(a##K, lf);                                                          \
  const __m256i c##K = _mm256_cmpeq_epi8(a##K, cr)

/// CR LF pairs of vector K: a CR whose next byte (loaded one byte further on) is an LF.
#define CICU_COUNT_PAIRS(K)                                                                                  \
  _mm256_and_si256(c##K, _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(q + 32 * K + 1)), lf))

/// Lead bytes (signed, greater than -65: not 0x80-0xBF) of vector K, and 4-byte leads.
#define CICU_COUNT_LEADS(K) _mm256_cmpgt_epi8(a##K, notContinuation)
#define CICU_COUNT_FOURS(K) cicu_ge_f0(a##K)

/// One round of 128 bytes at `q`: line feeds into `lfAcc`, and in a round that holds a CR,
/// carriage returns and CR LF pairs into `crAcc` and `pairAcc`; with `TEXT`, lead bytes into
/// `leadAcc` and 4-byte leads into `fourAcc`. Each lane grows by at most 4.
#define CICU_COUNT_ROUND4(TEXT)                                                                              \
  do {                                                                                                       \
    CICU_COUNT_LOAD(0);                                                                                      \
    CICU_COUNT_LOAD(1);                                                                                      \
    CICU_COUNT_LOAD(2);                                                                                      \
    CICU_COUNT_LOAD(3);                                                                                      \
    lfAcc = _mm256_sub_epi8(lfAcc, _mm256_add_epi8(_mm256_add_epi8(l0, l1), _mm256_add_epi8(l2, l3)));       \
    if (TEXT) {                                                                                              \
      leadAcc = _mm256_sub_epi8(                                                                             \
        leadAcc, _mm256_add_epi8(_mm256_add_epi8(CICU_COUNT_LEADS(0), CICU_COUNT_LEADS(1)),                  \
                                 _mm256_add_epi8(CICU_COUNT_LEADS(2), CICU_COUNT_LEADS(3))));                \
      fourAcc = _mm256_sub_epi8(                                                                             \
        fourAcc, _mm256_add_epi8(_mm256_add_epi8(CICU_COUNT_FOURS(0), CICU_COUNT_FOURS(1)),                  \
                                 _mm256_add_epi8(CICU_COUNT_FOURS(2), CICU_COUNT_FOURS(3))));                \
    }                                                                                                        \
    const __m256i anyCR = _mm256_or_si256(_mm256_or_si256(c0, c1), _mm256_or_si256(c2, c3));                \
    if (!_mm256_testz_si256(anyCR, anyCR)) {                                                                 \
      crAcc = _mm256_sub_epi8(crAcc, _mm256_add_epi8(_mm256_add_epi8(c0, c1), _mm256_add_epi8(c2, c3)));     \
      pairAcc = _mm256_sub_epi8(pairAcc, _mm256_add_epi8(_mm256_add_epi8(CICU_COUNT_PAIRS(0), CICU_COUNT_PAIRS(1)), \
                                                         _mm256_add_epi8(CICU_COUNT_PAIRS(2), CICU_COUNT_PAIRS(3)))); \
    }                                                                                                        \
  } while (0)

/// The same for the 32 bytes at `q` (no branch: at most three such rounds per call).
#define CICU_COUNT_ROUND1(TEXT)                                                                              \
  do {                                                                                                       \
    CICU_COUNT_LOAD(0);                                                                                      \
    lfAcc = _mm256_sub_epi8(lfAcc, l0);                                                                      \
    crAcc = _mm256_sub_epi8(crAcc, c0);                                                                      \
    pairAcc = _mm256_sub_epi8(pairAcc, CICU_COUNT_PAIRS(0));                                                 \
    if (TEXT) {                                                                                              \
      leadAcc = _mm256_sub_epi8(leadAcc, CICU_COUNT_LEADS(0));                                               \
      fourAcc = _mm256_sub_epi8(fourAcc, CICU_COUNT_FOURS(0));                                               \
    }                                                                                                        \
  } while (0)

/// The body of both AVX2 kernels (`TEXT`: the UTF-16 counts too). Rounds of 128 bytes while a
/// byte follows the round, flushed every 63 rounds; then rounds of 32 bytes (at most 3, no flush
/// needed); then the last bytes one at a time.
#define CICU_COUNT_AVX2_BODY(TEXT)                                                                           \
  const __m256i lf = _mm256_set1_epi8(0x0A), cr = _mm256_set1_epi8(0x0D);                                    \
  const __m256i notContinuation = _mm256_set1_epi8((char)0xBF); /* signed: a byte > -65 leads */             \
  (void)notContinuation;                                                                                     \
  const __m256i zero = _mm256_setzero_si256();                                                               \
  __m256i lfTotal = zero, crTotal = zero, pairTotal = zero, leadTotal = zero, fourTotal = zero;              \
  size_t i = 0;                                                                                              \
  while (i + 128 < n) {                                                                                      \
    __m256i lfAcc = zero, crAcc = zero, pairAcc = zero, leadAcc = zero, fourAcc = zero;                      \
    size_t rounds = (n - 1 - i) / 128;                                                                       \
    if (rounds > 63) rounds = 63;                                                                            \
    for (size_t r = 0; r < rounds; r++, i += 128) {                                                          \
      const uint8_t *q = p + i;                                                                              \
      CICU_COUNT_ROUND4(TEXT);                                                                             \
    }                                                                                                        \
    lfTotal = cicu_sad_add(lfTotal, lfAcc);                                                                  \
    crTotal = cicu_sad_add(crTotal, crAcc);                                                                  \
    pairTotal = cicu_sad_add(pairTotal, pairAcc);                                                            \
    if (TEXT) {                                                                                              \
      leadTotal = cicu_sad_add(leadTotal, leadAcc);                                                          \
      fourTotal = cicu_sad_add(fourTotal, fourAcc);                                                          \
    }                                                                                                        \
  }                                                                                                          \
  {                                                                                                          \
    __m256i lfAcc = zero, crAcc = zero, pairAcc = zero, leadAcc = zero, fourAcc = zero;                      \
    for (; i + 32 < n; i += 32) {                                                                            \
      const uint8_t *q = p + i;                                                                              \
      CICU_COUNT_ROUND1(TEXT);                                                                             \
    }                                                                                                        \
    lfTotal = cicu_sad_add(lfTotal, lfAcc);                                                                  \
    crTotal = cicu_sad_add(crTotal, crAcc);                                                                  \
    pairTotal = cicu_sad_add(pairTotal, pairAcc);                                                            \
    if (TEXT) {                                                                                              \
      leadTotal = cicu_sad_add(leadTotal, leadAcc);                                                          \
      fourTotal = cicu_sad_add(fourTotal, fourAcc);                                                          \
    }                                                                                                        \
  }                                                                                                          \
  cicu_text_counts result = {cicu_sum64(lfTotal), cicu_sum64(crTotal), cicu_sum64(pairTotal), 0, 0};         \
  if (TEXT) {                                                                                                \
    result.leads = cicu_sum64(leadTotal);                                                                    \
    result.utf16Units = result.leads + cicu_sum64(fourTotal);                                                \
  }                                                                                                          \
  for (; i < n; i++) {                                                                                       \
    uint8_t b = p[i];                                                                                        \
    result.lineFeeds += b == 0x0A;                                                                           \
    result.carriageReturns += b == 0x0D;                                                                     \
    result.crlfPairs += b == 0x0D && i + 1 < n && p[i + 1] == 0x0A;                                          \
    if (TEXT) {                                                                                              \
      result.leads += (int8_t)b >= -64;                                                                      \
      result.utf16Units += ((int8_t)b >= -64) + (b >= 0xF0);                                                 \
    }                                                                                                        \
  }                                                                                                          \
  return result;

__attribute__((target("avx2"))) static inline cicu_text_counts cicu_count_text_avx2(const uint8_t *p, size_t n) {
  CICU_COUNT_AVX2_BODY(1)
}
__attribute__((target("avx2"))) static inline cicu_text_counts cicu_count_lines_avx2(const uint8_t *p, size_t n) {
  CICU_COUNT_AVX2_BODY(0)
}
#undef CICU_COUNT_AVX2_BODY
#undef CICU_COUNT_ROUND4
#undef CICU_COUNT_ROUND1
#undef CICU_COUNT_LOAD
#undef CICU_COUNT_PAIRS
#undef CICU_COUNT_LEADS
#undef CICU_COUNT_FOURS
#endif

/// Counts line terminators and UTF-16 units of `n` bytes in one pass.
static inline cicu_text_counts cicu_count_text(const uint8_t *p, size_t n) {
#if defined(__x86_64__)
  if (cicu_has_avx2()) return cicu_count_text_avx2(p, n);
#endif
  return cicu_count_text_portable(p, n);
}

/// Counts line terminators of `n` bytes (the UTF-16 fields stay 0).
static inline cicu_text_counts cicu_count_lines(const uint8_t *p, size_t n) {
#if defined(__x86_64__)
  if (cicu_has_avx2()) return cicu_count_lines_avx2(p, n);
#endif
  return cicu_count_lines_portable(p, n);
}

// MARK: UTF-8 validation

/// The first offset of `p[0..<n]` where well-formed UTF-8 stops (the start of an ill-formed or
/// truncated sequence), or -1: one byte at a time, the reference.
static inline int64_t cicu_utf8_first_invalid_scalar(const uint8_t *p, size_t n, size_t from) {
  size_t i = from;
  while (i < n) {
    uint8_t c = p[i];
    if (c < 0x80) { i++; continue; }
    size_t length;
    uint8_t low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) length = 2;
    else if (c == 0xE0) { length = 3; low = 0xA0; }
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) length = 3;
    else if (c == 0xED) { length = 3; high = 0x9F; }
    else if (c == 0xF0) { length = 4; low = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) length = 4;
    else if (c == 0xF4) { length = 4; high = 0x8F; }
    else return (int64_t)i;
    if (n - i < length) return (int64_t)i;
    if (p[i + 1] < low || p[i + 1] > high) return (int64_t)i;
    for (size_t k = 2; k < length; k++)
      if ((p[i + k] & 0xC0) != 0x80) return (int64_t)i;
    i += length;
  }
  return -1;
}

#if defined(__x86_64__)
// Keiser and Lemire's validation ("Validating UTF-8 in less than one instruction per byte",
// 2021: simdjson's lookup4), 32 bytes at a time. It only tells whether a block holds an error;
// the scalar reference then finds its offset, from the start of the character the block's first
// byte belongs to (everything before the block is well-formed but for a sequence it may end).
__attribute__((target("avx2"))) static inline __m256i cicu_utf8_prev(__m256i input, __m256i previous, int n) {
  __m256i joined = _mm256_permute2x128_si256(previous, input, 0x21);
  switch (n) {
  case 1: return _mm256_alignr_epi8(input, joined, 15);
  case 2: return _mm256_alignr_epi8(input, joined, 14);
  default: return _mm256_alignr_epi8(input, joined, 13);
  }
}

__attribute__((target("avx2"))) static inline __m256i cicu_utf8_block_errors(__m256i input, __m256i previous) {
  const uint8_t TOO_SHORT = 1 << 0, TOO_LONG = 1 << 1, OVERLONG_3 = 1 << 2, TOO_LARGE = 1 << 3,
                SURROGATE = 1 << 4, OVERLONG_2 = 1 << 5, TOO_LARGE_1000 = 1 << 6, OVERLONG_4 = 1 << 6,
                TWO_CONTS = 1 << 7;
  const uint8_t CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS;
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  __m256i prev1 = cicu_utf8_prev(input, previous, 1);
  __m256i byte1High = _mm256_shuffle_epi8(
    _mm256_loadu_si256((const __m256i *)(const uint8_t[32]){TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TWO_CONTS, TWO_CONTS, TWO_CONTS,
      TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
      TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
      TOO_LONG, TOO_LONG, TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT,
      TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4}),
    _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
  const uint8_t L = CARRY | TOO_LARGE | TOO_LARGE_1000;
  __m256i byte1Low = _mm256_shuffle_epi8(
    _mm256_loadu_si256((const __m256i *)(const uint8_t[32]){CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY, CARRY | TOO_LARGE, L, L, L, L, L,
      L, L, L, L | SURROGATE, L, L, CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
      CARRY | TOO_LARGE, L, L, L, L, L, L, L, L, L | SURROGATE, L, L}),
    _mm256_and_si256(prev1, nibble));
  const uint8_t C8 = TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4;
  const uint8_t C9 = TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE;
  const uint8_t CA = TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE;
  __m256i byte2High = _mm256_shuffle_epi8(
    _mm256_loadu_si256((const __m256i *)(const uint8_t[32]){TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, C8, C9, CA, CA, TOO_SHORT,
      TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
      TOO_SHORT, C8, C9, CA, CA, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT}),
    _mm256_and_si256(_mm256_srli_epi16(input, 4), nibble));
  __m256i special = _mm256_and_si256(_mm256_and_si256(byte1High, byte1Low), byte2High);
  // A third or fourth byte must be a continuation (0x80 in `special` there means one was found
  // where none was expected, or the other way round).
  __m256i prev2 = cicu_utf8_prev(input, previous, 2);
  __m256i prev3 = cicu_utf8_prev(input, previous, 3);
  __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
  __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
  __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
  return _mm256_xor_si256(must23, special);
}

/// Non-zero where a sequence that starts in the last three bytes of `input` is not finished.
__attribute__((target("avx2"))) static inline __m256i cicu_utf8_incomplete(__m256i input) {
  const __m256i limits = _mm256_setr_epi8(
    (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
    (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
    (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
    (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
  return _mm256_subs_epu8(input, limits);
}

__attribute__((target("avx2"))) static inline int64_t cicu_utf8_first_invalid_avx2(const uint8_t *p, size_t n) {
  size_t i = 0;
  __m256i previous = _mm256_setzero_si256();
  __m256i incomplete = _mm256_setzero_si256();
  while (i + 32 <= n) {
    // 128 bytes of ASCII after well-formed text (no sequence left unfinished): nothing to check.
    // Most blocks of text in a Latin script are such runs, and this costs a fifth of the checks.
    if (i + 128 <= n && _mm256_testz_si256(incomplete, incomplete)) {
      __m256i a0 = _mm256_loadu_si256((const __m256i *)(p + i));
      __m256i a1 = _mm256_loadu_si256((const __m256i *)(p + i + 32));
      __m256i a2 = _mm256_loadu_si256((const __m256i *)(p + i + 64));
      __m256i a3 = _mm256_loadu_si256((const __m256i *)(p + i + 96));
      if (_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(a0, a1), _mm256_or_si256(a2, a3))) == 0) {
        previous = a3;
        i += 128;
        continue;
      }
    }
    __m256i input = _mm256_loadu_si256((const __m256i *)(p + i));
    __m256i error;
    if (_mm256_movemask_epi8(input) == 0) {
      error = incomplete;  // ASCII: only a sequence left unfinished before it is an error
    } else {
      error = cicu_utf8_block_errors(input, previous);
      incomplete = cicu_utf8_incomplete(input);
    }
    if (!_mm256_testz_si256(error, error)) break;
    if (_mm256_movemask_epi8(input) == 0) incomplete = _mm256_setzero_si256();
    previous = input;
    i += 32;
  }
  // The rest (and a block with an error) by the reference, from the start of the character
  // that byte i belongs to.
  // Before i the text is well-formed but for a sequence that may start in the last three bytes
  // and not end before i: the reference starts at its lead.
  size_t from = i;
  for (size_t k = 1; k <= 3 && k <= i; k++) {
    uint8_t b = p[i - k];
    if ((b & 0xC0) == 0x80) continue;
    if (b >= 0xC0 && (size_t)(b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2) > k) from = i - k;
    break;
  }
  return cicu_utf8_first_invalid_scalar(p, n, from);
}
#endif

/// The first offset of `p[0..<n]` where well-formed UTF-8 stops, or -1.
static inline int64_t cicu_utf8_first_invalid(const uint8_t *p, size_t n) {
#if defined(__x86_64__)
  if (n >= 64 && cicu_has_avx2()) return cicu_utf8_first_invalid_avx2(p, n);
#endif
  return cicu_utf8_first_invalid_scalar(p, n, 0);
}

// MARK: ASCII words

// ICU's root word segments (UAX #29 as word.txt has it) of pure ASCII text, counted 64 bytes at a
// time from bit masks of the byte classes. Two neighbours are in one segment when both are word
// characters (letters with '@', digits, '_': WB5-WB13b), both spaces (WB3d), CR then LF (WB3),
// or a middle character joins them: '.' or '\'' between letters (WB6/7), ',' ';' '.' '\'' between
// digits (WB11/12). Nothing else joins in ASCII. The text is cut at safe points, so nothing before
// or after it joins it. A segment is a word (ICU status 100-499) when it starts with a word
// character, except a lone '_' (status 0).
typedef struct {
  uint64_t word, letter, digit, space, cr, lf, midLetter, midNumber, underscore;
} cicu_ascii_classes;

static inline void cicu_ascii_classify_byte(cicu_ascii_classes *c, uint8_t b, int bit) {
  uint64_t m = (uint64_t)1 << bit;
  int letter = (b >= 'a' && b <= 'z') || (b >= '@' && b <= 'Z');
  int digit = b >= '0' && b <= '9';
  if (letter) c->letter |= m;
  if (digit) c->digit |= m;
  if (letter || digit || b == '_') c->word |= m;
  if (b == '_') c->underscore |= m;
  if (b == ' ') c->space |= m;
  if (b == '\r') c->cr |= m;
  if (b == '\n') c->lf |= m;
  if (b == '.' || b == '\'') { c->midLetter |= m; c->midNumber |= m; }
  if (b == ',' || b == ';') c->midNumber |= m;
}

static inline cicu_ascii_classes cicu_ascii_classify_portable(const uint8_t *p, int count) {
  cicu_ascii_classes c = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < count; i++) cicu_ascii_classify_byte(&c, p[i], i);
  return c;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static inline uint64_t cicu_mask64(__m256i lo, __m256i hi) {
  return (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
}

__attribute__((target("avx2"))) static inline cicu_ascii_classes cicu_ascii_classify_avx2(const uint8_t *p) {
  __m256i a = _mm256_loadu_si256((const __m256i *)p);
  __m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));
#define CICU_EQ(v, x) _mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)(x)))
  // In a..z: (v | 0x20) - 'a' unsigned < 26, with '@' (0x40, which | 0x20 is '`') apart.
#define CICU_RANGE(v, lo, n) \
  _mm256_cmpeq_epi8(_mm256_max_epu8(_mm256_sub_epi8(v, _mm256_set1_epi8((char)(lo))), _mm256_set1_epi8((char)((n)-1))), \
                    _mm256_set1_epi8((char)((n)-1)))
  cicu_ascii_classes c;
  __m256i la = _mm256_or_si256(CICU_RANGE(a, 'a', 26), CICU_RANGE(a, '@', 27));
  __m256i lb = _mm256_or_si256(CICU_RANGE(b, 'a', 26), CICU_RANGE(b, '@', 27));
  __m256i da = CICU_RANGE(a, '0', 10), db = CICU_RANGE(b, '0', 10);
  __m256i ua = CICU_EQ(a, '_'), ub = CICU_EQ(b, '_');
  c.letter = cicu_mask64(la, lb);
  c.digit = cicu_mask64(da, db);
  c.underscore = cicu_mask64(ua, ub);
  c.word = c.letter | c.digit | c.underscore;
  c.space = cicu_mask64(CICU_EQ(a, ' '), CICU_EQ(b, ' '));
  c.cr = cicu_mask64(CICU_EQ(a, '\r'), CICU_EQ(b, '\r'));
  c.lf = cicu_mask64(CICU_EQ(a, '\n'), CICU_EQ(b, '\n'));
  c.midLetter = cicu_mask64(_mm256_or_si256(CICU_EQ(a, '.'), CICU_EQ(a, '\'')), _mm256_or_si256(CICU_EQ(b, '.'), CICU_EQ(b, '\'')));
  c.midNumber = c.midLetter | cicu_mask64(_mm256_or_si256(CICU_EQ(a, ','), CICU_EQ(a, ';')), _mm256_or_si256(CICU_EQ(b, ','), CICU_EQ(b, ';')));
#undef CICU_EQ
#undef CICU_RANGE
  return c;
}
#endif

/// Segments and words (as above) of the ASCII text p[0..<n]. `readable` (>= n) bytes may be read
/// from p: a last block shorter than 64 bytes is classified 64 bytes at a time too when they are
/// readable, its classes past n cleared (short ranges between non-ASCII text are common).
static inline void cicu_ascii_words_count(const uint8_t *p, int64_t n, int64_t readable, int64_t *segments,
                                          int64_t *words) {
  int64_t total = 0, wordTotal = 0;
  // The previous block's last byte: its classes, and whether a middle character there joined.
  uint64_t pWord = 0, pSpace = 0, pCR = 0, pLetter = 0, pDigit = 0, pMid = 0;
#if defined(__x86_64__)
  int avx2 = cicu_has_avx2();
#endif
  for (int64_t i = 0; i < n; i += 64) {
    int count = n - i >= 64 ? 64 : (int)(n - i);
    cicu_ascii_classes c;
#if defined(__x86_64__)
    if (avx2 && count == 64) {
      c = cicu_ascii_classify_avx2(p + i);
    } else if (avx2 && i + 64 <= readable) {
      c = cicu_ascii_classify_avx2(p + i);
      uint64_t keep = ((uint64_t)1 << count) - 1;
      c.letter &= keep, c.digit &= keep, c.word &= keep, c.underscore &= keep, c.space &= keep;
      c.cr &= keep, c.lf &= keep, c.midLetter &= keep, c.midNumber &= keep;
    } else
#endif
      c = cicu_ascii_classify_portable(p + i, count);
    // The byte after the block (letter or digit), for the middle rules.
    uint64_t nLetter = 0, nDigit = 0;
    if (i + 64 < n) {
      uint8_t b = p[i + 64];
      nLetter = (b >= 'a' && b <= 'z') || (b >= '@' && b <= 'Z');
      nDigit = b >= '0' && b <= '9';
    }
    uint64_t valid = count == 64 ? ~(uint64_t)0 : (((uint64_t)1 << count) - 1);
    uint64_t letterBefore = c.letter << 1 | pLetter, letterAfter = c.letter >> 1 | nLetter << 63;
    uint64_t digitBefore = c.digit << 1 | pDigit, digitAfter = c.digit >> 1 | nDigit << 63;
    uint64_t mid = (c.midLetter & letterBefore & letterAfter) | (c.midNumber & digitBefore & digitAfter);
    uint64_t wordBefore = c.word << 1 | pWord;
    uint64_t joined = (c.word & wordBefore) | (c.space & (c.space << 1 | pSpace)) | (c.lf & (c.cr << 1 | pCR)) | mid |
                      (mid << 1 | pMid);
    uint64_t starts = ~joined & valid;
    total += __builtin_popcountll(starts);
    // A lone '_' (no word character on either side) is a segment of status 0.
    uint64_t wordAfter = c.word >> 1 | (uint64_t)(nLetter | nDigit | (i + 64 < n && p[i + 64] == '_')) << 63;
    uint64_t lone = c.underscore & ~wordBefore & ~wordAfter;
    wordTotal += __builtin_popcountll(starts & c.word & ~lone);
    pWord = c.word >> 63;
    pSpace = c.space >> 63;
    pCR = c.cr >> 63;
    pLetter = c.letter >> 63;
    pDigit = c.digit >> 63;
    pMid = mid >> 63;
  }
  *segments = total;
  *words = wordTotal;
}

/// Whether offset q (0 < q) is a safe point of ICU's root word rules: after LF, VT or FF, after CR
/// not followed by LF, or between a space and an ASCII byte other than a space (the ASCII word
/// segmenter's definition, AsciiWordSegmenter.swift).
static inline int cicu_word_safe_at(const uint8_t *h, int64_t q) {
  uint8_t p = h[q - 1], c = h[q];
  return p == 0x0A || p == 0x0B || p == 0x0C || (p == 0x0D && c != 0x0A) || (p == 0x20 && c < 0x80 && c != 0x20);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static inline int64_t cicu_word_safe_point_avx2(const uint8_t *h, int64_t q, int64_t end) {
  const __m256i lf = _mm256_set1_epi8(0x0A), vt = _mm256_set1_epi8(0x0B), ff = _mm256_set1_epi8(0x0C);
  const __m256i cr = _mm256_set1_epi8(0x0D), sp = _mm256_set1_epi8(0x20), minus1 = _mm256_set1_epi8(-1);
  while (q + 32 <= end) {
    __m256i p = _mm256_loadu_si256((const __m256i *)(h + q - 1));
    __m256i c = _mm256_loadu_si256((const __m256i *)(h + q));
    __m256i line = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(p, lf), _mm256_cmpeq_epi8(p, vt)),
                                   _mm256_cmpeq_epi8(p, ff));
    line = _mm256_or_si256(line, _mm256_andnot_si256(_mm256_cmpeq_epi8(c, lf), _mm256_cmpeq_epi8(p, cr)));
    __m256i ascii = _mm256_cmpgt_epi8(c, minus1);  // c < 0x80
    __m256i space = _mm256_andnot_si256(_mm256_cmpeq_epi8(c, sp), _mm256_and_si256(_mm256_cmpeq_epi8(p, sp), ascii));
    uint32_t m = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(line, space));
    if (m) return q + __builtin_ctz(m);
    q += 32;
  }
  return q;
}
#endif

/// The first word safe point (cicu_word_safe_at) in offset + 1 ..< end, or end; 32 offsets at a
/// time with AVX2.
static inline int64_t cicu_word_safe_point_after(const uint8_t *h, int64_t offset, int64_t end) {
  int64_t q = offset + 1;
#if defined(__x86_64__)
  if (cicu_has_avx2()) q = cicu_word_safe_point_avx2(h, q, end);
#endif
  for (; q < end; q++) {
    if (cicu_word_safe_at(h, q)) return q;
  }
  return end;
}

// MARK: byte sets

/// A set of byte values prepared for cicu_byteset_find: `member[b]` is nonzero for a member;
/// `low[l]` has bit h & 7 set when the byte h << 4 | l with h < 8 is a member, `high[l]` the same
/// for h >= 8 (a byte is a member when the entry of its low nibble in the table of its high nibble's
/// top bit has the bit of its high nibble: exact for any set of the 256 values).
typedef struct {
  uint8_t member[256];
  uint8_t low[16];
  uint8_t high[16];
} cicu_byteset;

static inline void cicu_byteset_prepare(cicu_byteset *set) {
  for (int l = 0; l < 16; l++) {
    set->low[l] = 0;
    set->high[l] = 0;
  }
  for (int b = 0; b < 256; b++) {
    if (!set->member[b]) continue;
    int h = b >> 4, l = b & 15;
    if (h < 8) set->low[l] |= (uint8_t)(1u << h);
    else set->high[l] |= (uint8_t)(1u << (h & 7));
  }
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static inline int64_t cicu_byteset_find_avx2(const uint8_t *h, int64_t from,
                                                                            int64_t end, const cicu_byteset *set) {
  const __m256i low = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->low));
  const __m256i high = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->high));
  const __m256i bits = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16,
                                        32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  int64_t i = from;
  for (; i + 32 <= end; i += 32) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(h + i));
    __m256i l = _mm256_and_si256(x, nibble);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    // The row of the low nibble, from the table of the high nibble's top bit (x's bit 7).
    __m256i row = _mm256_blendv_epi8(_mm256_shuffle_epi8(low, l), _mm256_shuffle_epi8(high, l), x);
    __m256i hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bits, hi));
    uint32_t miss = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, _mm256_setzero_si256()));
    if (miss != 0xFFFFFFFFu) return i + __builtin_ctz(~miss);
  }
  return i;
}
#endif

/// The first offset in from..<end whose byte is a member of `set`, or end.
static inline int64_t cicu_byteset_find(const uint8_t *h, int64_t from, int64_t end, const cicu_byteset *set) {
  int64_t i = from;
#if defined(__x86_64__)
  if (end - i >= 32 && cicu_has_avx2()) {
    i = cicu_byteset_find_avx2(h, i, end, set);
    if (i < end && set->member[h[i]]) return i;
  }
#endif
  for (; i < end; i++)
    if (set->member[h[i]]) return i;
  return end;
}

// MARK: paragraph starts

/// The state of a paragraph count between two pieces of text. An event is a byte that is neither a
/// space, a tab nor the CR of a CR LF; a terminator is an LF or a CR not followed by LF. `afterBreak`:
/// the last event was a terminator; `afterBlank`: and the event before it too (a blank line ended
/// there), or the text starts there: a content byte then starts a paragraph (a non-blank line after
/// a blank line or none, as `ElementKind.paragraphs` cuts them). Both are 1 at the start of a text.
typedef struct {
  int64_t starts;
  uint8_t afterBreak;
  uint8_t afterBlank;
} cicu_paragraph_state;

/// One byte of the paragraph count; `next` is the byte after it (-1 for none).
static inline void cicu_paragraph_byte(cicu_paragraph_state *s, uint8_t b, int next) {
  if (b == 0x20 || b == 0x09 || (b == 0x0D && next == 0x0A)) return;
  if (b == 0x0A || b == 0x0D) {
    s->afterBlank = s->afterBreak;
    s->afterBreak = 1;
    return;
  }
  s->starts += s->afterBlank;
  s->afterBreak = 0;
  s->afterBlank = 0;
}

/// The paragraph starts of `n` bytes added to `s`, one byte at a time; `next` is the byte after them
/// (-1 for none): the reference.
static inline void cicu_paragraph_starts_portable(cicu_paragraph_state *s, const uint8_t *p, size_t n, int next) {
  for (size_t i = 0; i < n; i++) cicu_paragraph_byte(s, p[i], i + 1 < n ? p[i + 1] : next);
}

#if defined(__x86_64__)
/// `x` extended upwards through the runs of `g` above its bits (and through a run at bit 0 when
/// `carry`): adding the run's first bit to the run carries through it and clears it.
static inline uint64_t cicu_fill_through(uint64_t x, uint64_t g, uint64_t carry) {
  uint64_t first = ((x << 1) | carry) & g;
  return x | (g & ~(g + first));
}

/// The 64-bit mask of the bytes of `q[0..<64]` equal to `c`.
__attribute__((target("avx2"))) static inline uint64_t cicu_eq_mask64(const uint8_t *q, __m256i c) {
  uint32_t lo = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)q), c));
  uint32_t hi = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(q + 32)), c));
  return (uint64_t)lo | ((uint64_t)hi << 32);
}

/// ``cicu_paragraph_starts_portable`` 64 bytes a round, with masks: T the terminators, G the neutral
/// bytes (space, tab, the CR of a CR LF), C the content bytes. "After a break" holds at the
/// terminators and through the neutral runs after them; a terminator after a break ends a blank
/// line, and "after a blank" holds there and through the neutral runs after it; a content byte
/// just after such a position starts a paragraph.
__attribute__((target("avx2"))) static inline void cicu_paragraph_starts_avx2(cicu_paragraph_state *s,
                                                                             const uint8_t *p, size_t n, int next) {
  const __m256i lfv = _mm256_set1_epi8(0x0A), crv = _mm256_set1_epi8(0x0D);
  const __m256i spv = _mm256_set1_epi8(0x20), tabv = _mm256_set1_epi8(0x09);
  uint64_t afterBreak = s->afterBreak, afterBlank = s->afterBlank;
  int64_t starts = 0;
  size_t i = 0;
  for (; i + 64 < n; i += 64) {  // a byte follows the round: the CR LF test reads it
    const uint8_t *q = p + i;
    uint64_t lf = cicu_eq_mask64(q, lfv), cr = cicu_eq_mask64(q, crv);
    uint64_t w = cicu_eq_mask64(q, spv) | cicu_eq_mask64(q, tabv);
    uint64_t crlf = cr & ((lf >> 1) | ((uint64_t)(q[64] == 0x0A) << 63));
    uint64_t t = lf | (cr & ~crlf), g = w | crlf, c = ~(lf | cr | w);
    uint64_t breakAt = cicu_fill_through(t, g, afterBreak);
    uint64_t blank = t & ((breakAt << 1) | afterBreak);
    uint64_t blankAt = cicu_fill_through(blank, g, afterBlank);
    starts += __builtin_popcountll(c & ((blankAt << 1) | afterBlank));
    afterBreak = breakAt >> 63;
    afterBlank = blankAt >> 63;
  }
  s->starts += starts;
  s->afterBreak = (uint8_t)afterBreak;
  s->afterBlank = (uint8_t)afterBlank;
  cicu_paragraph_starts_portable(s, p + i, n - i, next);
}
#endif

/// The paragraph starts of `n` bytes added to `s`; `next` is the byte after them (-1 for none).
static inline void cicu_paragraph_starts(cicu_paragraph_state *s, const uint8_t *p, size_t n, int next) {
#if defined(__x86_64__)
  if (cicu_has_avx2()) {
    cicu_paragraph_starts_avx2(s, p, n, next);
    return;
  }
#endif
  cicu_paragraph_starts_portable(s, p, n, next);
}

// MARK: Bytes that output escapes

// The first offset in p[0..<n] of a byte below 0x20 or equal to `a` or `b`, or -1: where text
// written into a JSON string (a = '"', b = '\\') or onto one line of output (a = b = 0x7F) needs
// an escape. 16 bytes at a time (SSE2, every x86-64 has it): a label or line of 100 MB written a
// byte at a time took a second.
static inline int64_t cicu_first_escape(const uint8_t *p, size_t n, uint8_t a, uint8_t b) {
  size_t i = 0;
#if defined(__x86_64__)
  const __m128i control = _mm_set1_epi8(0x1F), va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
  for (; i + 16 <= n; i += 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
    // x <= 0x1F unsigned: the smaller of x and 0x1F is x.
    __m128i hit = _mm_or_si128(
      _mm_cmpeq_epi8(_mm_min_epu8(x, control), x), _mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)));
    int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return (int64_t)(i + (size_t)__builtin_ctz((unsigned)mask));
  }
#endif
  for (; i < n; i++) {
    uint8_t c = p[i];
    if (c < 0x20 || c == a || c == b) return (int64_t)i;
  }
  return -1;
}

// MARK: GNU extensions that Glibc's Swift module does not declare without _GNU_SOURCE

extern void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);
extern void *memrchr(const void *s, int c, size_t n);
static inline const void *cicu_memmem(const void *h, size_t hl, const void *n, size_t nl) { return memmem(h, hl, n, nl); }
static inline const void *cicu_memrchr(const void *s, int c, size_t n) { return memrchr(s, c, n); }

#endif
