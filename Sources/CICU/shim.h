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

// MARK: case mapping

static inline UCaseMap *cicu_ucasemap_open(const char *locale, uint32_t options, UErrorCode *status) {
  return ucasemap_open(locale, options, status);
}
static inline void cicu_ucasemap_close(UCaseMap *csm) { ucasemap_close(csm); }
static inline int32_t cicu_ucasemap_utf8FoldCase(const UCaseMap *csm, char *dest, int32_t destCapacity,
                                                  const char *src, int32_t srcLength, UErrorCode *status) {
  return ucasemap_utf8FoldCase(csm, dest, destCapacity, src, srcLength, status);
}

#endif
