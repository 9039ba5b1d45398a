// ICU's C names are macros that expand to versioned symbols (ubrk_open -> ubrk_open_72), which
// Swift's importer cannot call. These `static inline` wrappers give them stable names, so the Swift
// code never mentions an ICU version. Only what textrotor uses is wrapped.
#ifndef TEXTROTOR_CICU_SHIM_H
#define TEXTROTOR_CICU_SHIM_H

#include <unicode/utypes.h>
#include <unicode/uversion.h>
#include <unicode/utext.h>
#include <unicode/ubrk.h>
#include <unicode/uregex.h>
#include <unicode/ucasemap.h>
#include <unicode/uchar.h>
#include <unicode/ustring.h>

// MARK: errors and version

static inline const char *cicu_errorName(UErrorCode code) { return u_errorName(code); }
static inline int cicu_isFailure(UErrorCode code) { return U_FAILURE(code) ? 1 : 0; }
static inline void cicu_getVersion(uint8_t version[4]) { u_getVersion(version); }

// MARK: UText over UTF-8

static inline UText *cicu_utext_openUTF8(const char *s, int64_t length, UErrorCode *status) {
  return utext_openUTF8(NULL, s, length, status);
}
static inline UText *cicu_utext_reopenUTF8(UText *ut, const char *s, int64_t length, UErrorCode *status) {
  return utext_openUTF8(ut, s, length, status);
}
static inline UText *cicu_utext_close(UText *ut) { return utext_close(ut); }

// MARK: break iterators

static inline UBreakIterator *cicu_ubrk_open(UBreakIteratorType type, const char *locale, UErrorCode *status) {
  return ubrk_open(type, locale, NULL, 0, status);
}
static inline UBreakIterator *cicu_ubrk_clone(const UBreakIterator *bi, UErrorCode *status) {
  return ubrk_clone(bi, status);
}
static inline void cicu_ubrk_close(UBreakIterator *bi) { ubrk_close(bi); }
static inline void cicu_ubrk_setUText(UBreakIterator *bi, UText *text, UErrorCode *status) {
  ubrk_setUText(bi, text, status);
}
static inline int32_t cicu_ubrk_first(UBreakIterator *bi) { return ubrk_first(bi); }
static inline int32_t cicu_ubrk_next(UBreakIterator *bi) { return ubrk_next(bi); }
static inline int32_t cicu_ubrk_following(UBreakIterator *bi, int32_t offset) { return ubrk_following(bi, offset); }
static inline int32_t cicu_ubrk_preceding(UBreakIterator *bi, int32_t offset) { return ubrk_preceding(bi, offset); }
static inline UBool cicu_ubrk_isBoundary(UBreakIterator *bi, int32_t offset) { return ubrk_isBoundary(bi, offset); }
static inline int32_t cicu_ubrk_getRuleStatus(UBreakIterator *bi) { return ubrk_getRuleStatus(bi); }

/// Fills `boundaries` (and `statuses`, when not NULL) with the next boundaries after the current
/// one; returns how many were written (fewer than `capacity` only at the end of the text). One C
/// call per batch keeps the per-boundary cost at ICU's own.
static inline int32_t cicu_ubrk_nextBatch(UBreakIterator *bi, int32_t *boundaries, int32_t *statuses, int32_t capacity) {
  int32_t n = 0;
  while (n < capacity) {
    int32_t b = ubrk_next(bi);
    if (b == UBRK_DONE) break;
    boundaries[n] = b;
    if (statuses) statuses[n] = ubrk_getRuleStatus(bi);
    n++;
  }
  return n;
}

// MARK: regular expressions

static inline URegularExpression *cicu_uregex_openUText(UText *pattern, uint32_t flags, UParseError *pe, UErrorCode *status) {
  return uregex_openUText(pattern, flags, pe, status);
}
static inline URegularExpression *cicu_uregex_clone(const URegularExpression *re, UErrorCode *status) {
  return uregex_clone(re, status);
}
static inline void cicu_uregex_close(URegularExpression *re) { uregex_close(re); }
static inline void cicu_uregex_setUText(URegularExpression *re, UText *text, UErrorCode *status) {
  uregex_setUText(re, text, status);
}
static inline void cicu_uregex_setTimeLimit(URegularExpression *re, int32_t limit, UErrorCode *status) {
  uregex_setTimeLimit(re, limit, status);
}
static inline void cicu_uregex_setStackLimit(URegularExpression *re, int32_t limit, UErrorCode *status) {
  uregex_setStackLimit(re, limit, status);
}
static inline UBool cicu_uregex_findNext(URegularExpression *re, UErrorCode *status) { return uregex_findNext(re, status); }
static inline UBool cicu_uregex_find64(URegularExpression *re, int64_t start, UErrorCode *status) {
  return uregex_find64(re, start, status);
}
static inline int64_t cicu_uregex_start64(URegularExpression *re, int32_t group, UErrorCode *status) {
  return uregex_start64(re, group, status);
}
static inline int64_t cicu_uregex_end64(URegularExpression *re, int32_t group, UErrorCode *status) {
  return uregex_end64(re, group, status);
}
static inline void cicu_uregex_reset64(URegularExpression *re, int64_t index, UErrorCode *status) {
  uregex_reset64(re, index, status);
}
static inline void cicu_uregex_setRegion64(URegularExpression *re, int64_t start, int64_t limit, UErrorCode *status) {
  uregex_setRegion64(re, start, limit, status);
}

static inline void cicu_uregex_useTransparentBounds(URegularExpression *re, UBool b, UErrorCode *status) {
  uregex_useTransparentBounds(re, b, status);
}
static inline void cicu_uregex_useAnchoringBounds(URegularExpression *re, UBool b, UErrorCode *status) {
  uregex_useAnchoringBounds(re, b, status);
}
/// Finds up to `capacity` further matches in the current region (ICU's `uregex_findNext`) and writes
/// their UTF-8 offsets; returns how many (fewer than `capacity` only when the region has no more
/// matches or `status` became a failure). One C call per batch keeps the per-match cost at ICU's.
static inline int32_t cicu_uregex_findBatch(URegularExpression *re, int64_t *starts, int64_t *ends, int32_t capacity,
                                            UErrorCode *status) {
  int32_t n = 0;
  while (n < capacity && uregex_findNext(re, status)) {
    starts[n] = uregex_start64(re, 0, status);
    ends[n] = uregex_end64(re, 0, status);
    n++;
  }
  return n;
}

// MARK: case mapping

static inline UCaseMap *cicu_ucasemap_open(const char *locale, uint32_t options, UErrorCode *status) {
  return ucasemap_open(locale, options, status);
}
static inline void cicu_ucasemap_close(UCaseMap *csm) { ucasemap_close(csm); }
static inline int32_t cicu_ucasemap_utf8FoldCase(const UCaseMap *csm, char *dest, int32_t destCapacity,
                                                  const char *src, int32_t srcLength, UErrorCode *status) {
  return ucasemap_utf8FoldCase(csm, dest, destCapacity, src, srcLength, status);
}

// MARK: byte search (not ICU: the vectorised literal search under textrotor's pattern rotors)

#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// A needle prepared for search: byte i of the haystack matches when (h | masks[i]) == bytes[i]
/// (masks[i] is 0x20 for an ASCII letter searched without case, else 0). `rare1` and `rare2` are
/// two positions of rare bytes, compared 32 (AVX2) or 16 (SSE2) haystack positions at a time.
typedef struct {
  const uint8_t *bytes;
  const uint8_t *masks;
  int64_t length;
  int64_t rare1;
  int64_t rare2;
  int caseless;
} cicu_needle;

static inline int cicu_needle_equals(const uint8_t *h, const cicu_needle *n) {
  if (!n->caseless) return memcmp(h, n->bytes, (size_t)n->length) == 0;
  for (int64_t i = 0; i < n->length; i++)
    if ((uint8_t)(h[i] | n->masks[i]) != n->bytes[i]) return 0;
  return 1;
}

static inline int64_t cicu_needle_scalar(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *n) {
  for (int64_t i = from; i + n->length <= end; i++)
    if (cicu_needle_equals(h + i, n)) return i;
  return -1;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static inline int64_t cicu_needle_avx2(const uint8_t *h, int64_t from, int64_t end,
                                                                      const cicu_needle *n) {
  const __m256i v1 = _mm256_set1_epi8((char)n->bytes[n->rare1]), m1 = _mm256_set1_epi8((char)n->masks[n->rare1]);
  const __m256i v2 = _mm256_set1_epi8((char)n->bytes[n->rare2]), m2 = _mm256_set1_epi8((char)n->masks[n->rare2]);
  int64_t i = from;
  // Loads read h[i + rare ..< i + rare + 32], inside the text while i + 32 + length - 1 <= end.
  for (; i + 32 + n->length - 1 <= end; i += 32) {
    __m256i a = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(h + i + n->rare1)), m1);
    __m256i b = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(h + i + n->rare2)), m2);
    uint32_t mask = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, v1), _mm256_cmpeq_epi8(b, v2)));
    while (mask) {
      int k = __builtin_ctz(mask);
      if (cicu_needle_equals(h + i + k, n)) return i + k;
      mask &= mask - 1;
    }
  }
  return cicu_needle_scalar(h, i, end, n);
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
  if (cicu_has_avx2()) return cicu_needle_avx2(h, from, end, n);
#endif
  return cicu_needle_sse2(h, from, end, n);
}

/// Writes up to `capacity` non-overlapping, leftmost starts of the needle in from..<end into
/// `starts` (or only counts them when `starts` is NULL); returns how many, and in `*resume` where
/// to continue (end when the range is exhausted).
static inline int64_t cicu_needle_findAll(const uint8_t *h, int64_t from, int64_t end, const cicu_needle *n,
                                          int64_t *starts, int64_t capacity, int64_t *resume) {
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

#endif
