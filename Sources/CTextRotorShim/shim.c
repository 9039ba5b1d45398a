// The ICU wrappers declared in cicu_shim.h. This is the only file that includes ICU's headers, so
// ICU's rename macros (ubrk_open -> ubrk_open_72) apply here and nowhere else.
#include "cicu_shim.h"

#include <string.h>
#include <unicode/parseerr.h>
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/ucptrie.h>
#include <unicode/uloc.h>
#include <unicode/ucasemap.h>
#include <unicode/udata.h>
#include <unicode/ures.h>
#include <unicode/uscript.h>
#include <unicode/uregex.h>
#include <unicode/ustring.h>
#include <unicode/utext.h>
#include <unicode/utypes.h>
#include <unicode/uversion.h>

// MARK: the header's constants and types are ICU's

_Static_assert(CICU_ZERO_ERROR == U_ZERO_ERROR, "U_ZERO_ERROR");
_Static_assert(CICU_INTERNAL_PROGRAM_ERROR == U_INTERNAL_PROGRAM_ERROR, "U_INTERNAL_PROGRAM_ERROR");
_Static_assert(CICU_MEMORY_ALLOCATION_ERROR == U_MEMORY_ALLOCATION_ERROR, "U_MEMORY_ALLOCATION_ERROR");
_Static_assert(CICU_INDEX_OUTOFBOUNDS_ERROR == U_INDEX_OUTOFBOUNDS_ERROR, "U_INDEX_OUTOFBOUNDS_ERROR");
_Static_assert(CICU_BUFFER_OVERFLOW_ERROR == U_BUFFER_OVERFLOW_ERROR, "U_BUFFER_OVERFLOW_ERROR");
_Static_assert(CICU_REGEX_STACK_OVERFLOW == U_REGEX_STACK_OVERFLOW, "U_REGEX_STACK_OVERFLOW");
_Static_assert(CICU_REGEX_TIME_OUT == U_REGEX_TIME_OUT, "U_REGEX_TIME_OUT");

_Static_assert(CICU_BREAK_CHARACTER == UBRK_CHARACTER, "UBRK_CHARACTER");
_Static_assert(CICU_BREAK_WORD == UBRK_WORD, "UBRK_WORD");
_Static_assert(CICU_BREAK_LINE == UBRK_LINE, "UBRK_LINE");
_Static_assert(CICU_BREAK_SENTENCE == UBRK_SENTENCE, "UBRK_SENTENCE");
_Static_assert(CICU_BREAK_DONE == UBRK_DONE, "UBRK_DONE");

_Static_assert(CICU_REGEX_CASE_INSENSITIVE == UREGEX_CASE_INSENSITIVE, "UREGEX_CASE_INSENSITIVE");
_Static_assert(CICU_REGEX_MULTILINE == UREGEX_MULTILINE, "UREGEX_MULTILINE");
_Static_assert(CICU_REGEX_DOTALL == UREGEX_DOTALL, "UREGEX_DOTALL");

_Static_assert(sizeof(UErrorCode) == sizeof(int32_t), "UErrorCode is 32 bits");
_Static_assert(sizeof(UChar) == sizeof(uint16_t), "UChar is UTF-16");
_Static_assert(sizeof(((cicu_parse_error *)0)->preContext) == sizeof(((UParseError *)0)->preContext), "preContext");
_Static_assert(sizeof(((cicu_parse_error *)0)->postContext) == sizeof(((UParseError *)0)->postContext), "postContext");

// The handles are ICU's own objects under our opaque names.
#define UT(p) ((UText *)(p))
#define BI(p) ((UBreakIterator *)(p))
#define RE(p) ((URegularExpression *)(p))
#define CM(p) ((UCaseMap *)(p))

// Status codes cross as int32_t and are copied into and out of ICU's enum around each call.
#define WITH_STATUS(status, call)            \
  UErrorCode s_ = (UErrorCode)*(status);     \
  call;                                      \
  *(status) = (int32_t)s_

// MARK: errors and version

const char *cicu_errorName(int32_t status) { return u_errorName((UErrorCode)status); }
int cicu_isFailure(int32_t status) { return U_FAILURE((UErrorCode)status) ? 1 : 0; }
void cicu_getVersion(uint8_t version[4]) { u_getVersion(version); }

// MARK: UText over UTF-8

cicu_text *cicu_utext_openUTF8(const char *s, int64_t length, int32_t *status) {
  return cicu_utext_reopenUTF8(NULL, s, length, status);
}
cicu_text *cicu_utext_reopenUTF8(cicu_text *ut, const char *s, int64_t length, int32_t *status) {
  WITH_STATUS(status, UText *t = utext_openUTF8(UT(ut), s, length, &s_));
  return (cicu_text *)t;
}
cicu_text *cicu_utext_close(cicu_text *ut) { return (cicu_text *)utext_close(UT(ut)); }

// MARK: break iterators

cicu_break_iterator *cicu_ubrk_open(int32_t type, const char *locale, int32_t *status) {
  WITH_STATUS(status, UBreakIterator *bi = ubrk_open((UBreakIteratorType)type, locale, NULL, 0, &s_));
  return (cicu_break_iterator *)bi;
}
int cicu_locale_is_known(const char *locale) {
  if (locale[0] == 0 || strcmp(locale, "root") == 0) return 1;
  char language[ULOC_LANG_CAPACITY];
  UErrorCode s = U_ZERO_ERROR;
  int32_t n = uloc_getLanguage(locale, language, (int32_t)sizeof language, &s);
  if (U_FAILURE(s) || s == U_STRING_NOT_TERMINATED_WARNING || n == 0) return 0;
  int32_t count = uloc_countAvailable();
  for (int32_t k = 0; k < count; k++) {
    char available[ULOC_LANG_CAPACITY];
    UErrorCode s2 = U_ZERO_ERROR;
    uloc_getLanguage(uloc_getAvailable(k), available, (int32_t)sizeof available, &s2);
    if (U_SUCCESS(s2) && strcmp(available, language) == 0) return 1;
  }
  return 0;
}
cicu_break_iterator *cicu_ubrk_clone(const cicu_break_iterator *bi, int32_t *status) {
  WITH_STATUS(status, UBreakIterator *c = ubrk_clone((const UBreakIterator *)bi, &s_));
  return (cicu_break_iterator *)c;
}
void cicu_ubrk_close(cicu_break_iterator *bi) { ubrk_close(BI(bi)); }
void cicu_ubrk_setUText(cicu_break_iterator *bi, cicu_text *text, int32_t *status) {
  WITH_STATUS(status, ubrk_setUText(BI(bi), UT(text), &s_));
}
void cicu_ubrk_loadDictionaries(cicu_break_iterator *bi, int32_t *status) {
  // Two ideographs: ICU divides a segment of dictionary characters only when it is longer than
  // one unit, and asks for the engine of its first ideograph (U+4E2D, script Han).
  static const char han[] = "\xE4\xB8\xAD\xE6\x96\x87";
  UErrorCode s = U_ZERO_ERROR;
  UText *text = utext_openUTF8(NULL, han, (int64_t)(sizeof han - 1), &s);
  if (U_SUCCESS(s)) ubrk_setUText(BI(bi), text, &s);
  if (U_SUCCESS(s)) {
    ubrk_first(BI(bi));
    while (ubrk_next(BI(bi)) != UBRK_DONE) {
    }
  }
  utext_close(text);
  if (U_FAILURE(s)) *status = (int32_t)s;
}
int32_t cicu_ubrk_first(cicu_break_iterator *bi) { return ubrk_first(BI(bi)); }
int32_t cicu_ubrk_next(cicu_break_iterator *bi) { return ubrk_next(BI(bi)); }
int32_t cicu_ubrk_following(cicu_break_iterator *bi, int32_t offset) { return ubrk_following(BI(bi), offset); }
int32_t cicu_ubrk_preceding(cicu_break_iterator *bi, int32_t offset) { return ubrk_preceding(BI(bi), offset); }
int cicu_ubrk_isBoundary(cicu_break_iterator *bi, int32_t offset) { return ubrk_isBoundary(BI(bi), offset) ? 1 : 0; }
int32_t cicu_ubrk_getRuleStatus(cicu_break_iterator *bi) { return ubrk_getRuleStatus(BI(bi)); }

uint8_t *cicu_ubrk_copyBinaryRules(cicu_break_iterator *bi, int32_t *length, int32_t *status) {
  *length = 0;
  UErrorCode s = U_ZERO_ERROR;
  int32_t n = ubrk_getBinaryRules(BI(bi), NULL, 0, &s);
  if (U_FAILURE(s) && s != U_BUFFER_OVERFLOW_ERROR) {
    *status = s;
    return NULL;
  }
  uint8_t *copy = malloc(n > 0 ? (size_t)n : 1);
  if (!copy) {
    *status = U_MEMORY_ALLOCATION_ERROR;
    return NULL;
  }
  s = U_ZERO_ERROR;
  ubrk_getBinaryRules(BI(bi), copy, n, &s);
  if (U_FAILURE(s)) {
    free(copy);
    *status = s;
    return NULL;
  }
  *length = n;
  return copy;
}

cicu_trie *cicu_trie_open(const void *data, int32_t length, int32_t *status) {
  WITH_STATUS(status, UCPTrie *t = ucptrie_openFromBinary(UCPTRIE_TYPE_ANY, UCPTRIE_VALUE_BITS_ANY, data, length, NULL, &s_));
  return (cicu_trie *)t;
}
void cicu_trie_close(cicu_trie *trie) { ucptrie_close((UCPTrie *)trie); }
uint32_t cicu_trie_get(const cicu_trie *trie, int32_t c) { return ucptrie_get((const UCPTrie *)trie, c); }
uint32_t cicu_trie_fill(const cicu_trie *trie, uint16_t *table, int32_t count) {
  const UCPTrie *t = (const UCPTrie *)trie;
  uint32_t largest = 0;
  // A fast-type trie (ICU's break rules use one) indexes every BMP code point directly, 64 to a
  // data block, as `ucptrie_get` reads it (ASCII linearly): a copy block by block, half the
  // instructions of the ranges below (callgrind: 0.31 M against 0.63 M), at the start of every run.
  if (t->type == UCPTRIE_TYPE_FAST && count <= 0x10000 && count % UCPTRIE_FAST_DATA_BLOCK_LENGTH == 0 &&
      (t->valueWidth == UCPTRIE_VALUE_BITS_16 || t->valueWidth == UCPTRIE_VALUE_BITS_8)) {
    for (int32_t c = 0; c < count; c += UCPTRIE_FAST_DATA_BLOCK_LENGTH) {
      int32_t at = c < 0x80 ? c : t->index[c >> UCPTRIE_FAST_SHIFT];
      uint16_t *out = table + c;
      if (t->valueWidth == UCPTRIE_VALUE_BITS_16) {
        const uint16_t *in = t->data.ptr16 + at;
        for (int k = 0; k < UCPTRIE_FAST_DATA_BLOCK_LENGTH; k++) {
          out[k] = in[k];
          if (in[k] > largest) largest = in[k];
        }
      } else {
        const uint8_t *in = t->data.ptr8 + at;
        for (int k = 0; k < UCPTRIE_FAST_DATA_BLOCK_LENGTH; k++) {
          out[k] = in[k];
          if (in[k] > largest) largest = in[k];
        }
      }
    }
    return largest;
  }
  // Range by range (a few thousand in the BMP), not code point by code point. Returns the largest
  // value (the caller checks it, instead of a pass over the table).
  UChar32 c = 0;
  while (c < count) {
    uint32_t value = 0;
    UChar32 end = ucptrie_getRange((const UCPTrie *)trie, c, UCPMAP_RANGE_NORMAL, 0, NULL, NULL, &value);
    if (end < c) {  // not expected: one code point at a time
      end = c;
      value = ucptrie_get((const UCPTrie *)trie, c);
    }
    if (end >= count) end = count - 1;
    if (value > largest) largest = value;
    for (UChar32 x = c; x <= end; x++) table[x] = (uint16_t)value;
    c = end + 1;
  }
  return largest;
}

// Whether ICU's break-iterator data has a dictionary or an LSTM model for `script` (the tables
// ICU's ICULanguageBreakFactory reads, keyed by the script's short name).
static int script_has_break_data(UScriptCode script) {
  const char *name = uscript_getShortName(script);
  if (!name) return 1;
  UErrorCode s = U_ZERO_ERROR;
  UResourceBundle *root = ures_open(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr", "", &s);
  if (U_FAILURE(s)) {
    ures_close(root);
    return 1;  // unknown: assume it has
  }
  int found = 0;
  const char *tables[] = {"dictionaries", "lstm"};
  for (int t = 0; t < 2 && !found; t++) {
    UErrorCode ts = U_ZERO_ERROR;
    UResourceBundle *table = ures_getByKey(root, tables[t], NULL, &ts);
    if (U_SUCCESS(ts)) {
      UErrorCode ks = U_ZERO_ERROR;
      UResourceBundle *entry = ures_getByKey(table, name, NULL, &ks);
      if (U_SUCCESS(ks)) found = 1;
      ures_close(entry);
    } else if (ts != U_MISSING_RESOURCE_ERROR) {
      found = 1;  // unreadable: assume it has
    }
    ures_close(table);
  }
  ures_close(root);
  return found;
}

static int unhandled_character(UChar32 c, int8_t *scripts) {
  // The characters ICU's Chinese/Japanese engine claims beside its scripts (dictbe.cpp).
  if (c == 0x30FC || c == 0xFF70 || c == 0xFF9E || c == 0xFF9F) return 0;
  UErrorCode s = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript(c, &s);
  if (U_FAILURE(s) || script < 0 || script >= USCRIPT_CODE_LIMIT || script >= 1024) return 0;
  switch (script) {
  case USCRIPT_COMMON: case USCRIPT_INHERITED: case USCRIPT_THAI: case USCRIPT_LAO: case USCRIPT_MYANMAR:
  case USCRIPT_KHMER: case USCRIPT_HAN: case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA:
    return 0;
  default:
    break;
  }
  if (scripts[script] < 0) scripts[script] = script_has_break_data(script) ? 0 : 1;
  return scripts[script];
}

void cicu_trie_unhandled_categories(const cicu_trie *trie, int32_t start, int32_t count, uint8_t *unhandled) {
  if (count <= start) return;
  memset(unhandled, 1, (size_t)(count - start));
  int8_t scripts[1024];
  memset(scripts, -1, sizeof scripts);
  UChar32 c = 0;
  while (c <= 0x10FFFF) {
    uint32_t value = 0;
    UChar32 end = ucptrie_getRange((const UCPTrie *)trie, c, UCPMAP_RANGE_NORMAL, 0, NULL, NULL, &value);
    if (end < c) break;
    if ((int32_t)value >= start && (int32_t)value < count && unhandled[value - start]) {
      for (UChar32 x = c; x <= end; x++) {
        if (!unhandled_character(x, scripts)) {
          unhandled[value - start] = 0;
          break;
        }
      }
    }
    c = end + 1;
  }
}

int32_t cicu_ubrk_nextBatch(cicu_break_iterator *iterator, int32_t *boundaries, int32_t *statuses, int32_t capacity) {
  UBreakIterator *bi = BI(iterator);
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

cicu_regex *cicu_uregex_openUText(cicu_text *pattern, uint32_t flags, cicu_parse_error *pe, int32_t *status) {
  UParseError parseError;
  memset(&parseError, 0, sizeof parseError);
  if (pe) {
    parseError.line = pe->line;
    parseError.offset = pe->offset;
    memcpy(parseError.preContext, pe->preContext, sizeof parseError.preContext);
    memcpy(parseError.postContext, pe->postContext, sizeof parseError.postContext);
  }
  WITH_STATUS(status, URegularExpression *re = uregex_openUText(UT(pattern), flags, pe ? &parseError : NULL, &s_));
  if (pe) {
    pe->line = parseError.line;
    pe->offset = parseError.offset;
    memcpy(pe->preContext, parseError.preContext, sizeof pe->preContext);
    memcpy(pe->postContext, parseError.postContext, sizeof pe->postContext);
  }
  return (cicu_regex *)re;
}
cicu_regex *cicu_uregex_clone(const cicu_regex *re, int32_t *status) {
  WITH_STATUS(status, URegularExpression *c = uregex_clone((const URegularExpression *)re, &s_));
  return (cicu_regex *)c;
}
void cicu_uregex_close(cicu_regex *re) { uregex_close(RE(re)); }
void cicu_uregex_setUText(cicu_regex *re, cicu_text *text, int32_t *status) {
  WITH_STATUS(status, uregex_setUText(RE(re), UT(text), &s_));
}
void cicu_uregex_setTimeLimit(cicu_regex *re, int32_t limit, int32_t *status) {
  WITH_STATUS(status, uregex_setTimeLimit(RE(re), limit, &s_));
}
void cicu_uregex_setStackLimit(cicu_regex *re, int32_t limit, int32_t *status) {
  WITH_STATUS(status, uregex_setStackLimit(RE(re), limit, &s_));
}
int cicu_uregex_findNext(cicu_regex *re, int32_t *status) {
  WITH_STATUS(status, UBool found = uregex_findNext(RE(re), &s_));
  return found ? 1 : 0;
}
int cicu_uregex_find64(cicu_regex *re, int64_t start, int32_t *status) {
  WITH_STATUS(status, UBool found = uregex_find64(RE(re), start, &s_));
  return found ? 1 : 0;
}
int64_t cicu_uregex_start64(cicu_regex *re, int32_t group, int32_t *status) {
  WITH_STATUS(status, int64_t start = uregex_start64(RE(re), group, &s_));
  return start;
}
int64_t cicu_uregex_end64(cicu_regex *re, int32_t group, int32_t *status) {
  WITH_STATUS(status, int64_t end = uregex_end64(RE(re), group, &s_));
  return end;
}
void cicu_uregex_reset64(cicu_regex *re, int64_t index, int32_t *status) {
  WITH_STATUS(status, uregex_reset64(RE(re), index, &s_));
}
void cicu_uregex_setRegion64(cicu_regex *re, int64_t start, int64_t limit, int32_t *status) {
  WITH_STATUS(status, uregex_setRegion64(RE(re), start, limit, &s_));
}
void cicu_uregex_useTransparentBounds(cicu_regex *re, int b, int32_t *status) {
  WITH_STATUS(status, uregex_useTransparentBounds(RE(re), b != 0, &s_));
}
void cicu_uregex_useAnchoringBounds(cicu_regex *re, int b, int32_t *status) {
  WITH_STATUS(status, uregex_useAnchoringBounds(RE(re), b != 0, &s_));
}

int32_t cicu_uregex_findBatch(cicu_regex *regex, int64_t *starts, int64_t *ends, int32_t capacity, int32_t *status) {
  URegularExpression *re = RE(regex);
  UErrorCode s = (UErrorCode)*status;
  int32_t n = 0;
  while (n < capacity && uregex_findNext(re, &s)) {
    starts[n] = uregex_start64(re, 0, &s);
    ends[n] = uregex_end64(re, 0, &s);
    n++;
  }
  *status = (int32_t)s;
  return n;
}

// MARK: case mapping

cicu_casemap *cicu_ucasemap_open(const char *locale, uint32_t options, int32_t *status) {
  WITH_STATUS(status, UCaseMap *csm = ucasemap_open(locale, options, &s_));
  return (cicu_casemap *)csm;
}
void cicu_ucasemap_close(cicu_casemap *csm) { ucasemap_close(CM(csm)); }
int32_t cicu_ucasemap_utf8FoldCase(const cicu_casemap *csm, char *dest, int32_t destCapacity, const char *src,
                                   int32_t srcLength, int32_t *status) {
  WITH_STATUS(status, int32_t n = ucasemap_utf8FoldCase((const UCaseMap *)csm, dest, destCapacity, src, srcLength, &s_));
  return n;
}
