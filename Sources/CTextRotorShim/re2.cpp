// RE2 and ICU UnicodeSet ranges behind plain C types. See cicu_re2.h.
#include "cicu_re2.h"

#include <re2/re2.h>
#include <stdio.h>
#include <string.h>
#include <unicode/uset.h>

#include <new>

struct cicu_re2 {
  re2::RE2 *re;
};

extern "C" cicu_re2 *cicu_re2_compile(const char *pattern, size_t length, int maxProgram, char *error,
                                      size_t errorCapacity) {
  if (maxProgram <= 0) maxProgram = CICU_RE2_MAX_PROGRAM;
  re2::RE2::Options options;
  options.set_encoding(re2::RE2::Options::EncodingUTF8);
  options.set_posix_syntax(false);
  options.set_longest_match(false);
  options.set_log_errors(false);
  options.set_never_capture(true);
  options.set_case_sensitive(true);
  options.set_max_mem(64 << 20);
  re2::RE2 *re = new (std::nothrow) re2::RE2(re2::StringPiece(pattern, length), options);
  if (re == nullptr) {
    if (errorCapacity > 0) snprintf(error, errorCapacity, "out of memory");
    return nullptr;
  }
  if (!re->ok()) {
    if (errorCapacity > 0) snprintf(error, errorCapacity, "%s", re->error().c_str());
    delete re;
    return nullptr;
  }
  // A big program is slow on RE2 (its DFA's states grow with it, and past its memory budget RE2
  // falls back to its NFA, at some 1 MB/s or less: \w{200}), where ICU is quick: refuse it.
  if (re->ProgramSize() > maxProgram) {
    if (errorCapacity > 0)
      snprintf(error, errorCapacity, "its RE2 program has %d instructions, over the %d RE2 is fast with",
               re->ProgramSize(), maxProgram);
    delete re;
    return nullptr;
  }
  cicu_re2 *handle = new (std::nothrow) cicu_re2{re};
  if (handle == nullptr) delete re;
  return handle;
}

extern "C" void cicu_re2_free(cicu_re2 *re) {
  if (re == nullptr) return;
  delete re->re;
  delete re;
}

// The length of the UTF-8 sequence starting with `lead` (the text is well-formed).
static inline size_t sequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

extern "C" int32_t cicu_re2_find_batch(const cicu_re2 *re, cicu_re2_search *s, int64_t *starts, int64_t *ends,
                                       int32_t capacity) {
  int32_t n = 0;
  const char *base = s->text + s->context_start;
  re2::StringPiece text(base, s->context_end - s->context_start);
  while (n < capacity && !s->done) {
    if (s->after_empty) {
      if (s->position >= s->end) {
        s->done = 1;
        break;
      }
      s->position += sequenceLength((unsigned char)s->text[s->position]);
      if (s->position > s->end) s->position = s->end;
    }
    re2::StringPiece match;
    if (!re->re->Match(text, s->position - s->context_start, s->end - s->context_start, re2::RE2::UNANCHORED,
                       &match, 1)) {
      s->done = 1;
      break;
    }
    size_t start = (size_t)(match.data() - base) + s->context_start;
    size_t end = start + match.size();
    starts[n] = (int64_t)start;
    ends[n] = (int64_t)end;
    n++;
    s->position = end;
    s->after_empty = match.empty() ? 1 : 0;
  }
  return n;
}

extern "C" int32_t cicu_uset_ranges(const uint16_t *pattern, int32_t length, uint32_t *ranges, int32_t capacity,
                                    int32_t *status) {
  return cicu_uset_ranges_caseless(pattern, length, 0, 0, ranges, capacity, status);
}

extern "C" int32_t cicu_uset_ranges_caseless(const uint16_t *pattern, int32_t length, int32_t caseless,
                                             int32_t complement, uint32_t *ranges, int32_t capacity,
                                             int32_t *status) {
  UErrorCode s = U_ZERO_ERROR;
  USet *set = uset_openPattern((const UChar *)pattern, length, &s);
  if (U_FAILURE(s)) {
    *status = (int32_t)s;
    if (set) uset_close(set);
    return -1;
  }
  if (caseless) uset_closeOver(set, USET_CASE_INSENSITIVE);
  uset_removeAllStrings(set);
  if (complement) uset_complement(set);
  int32_t count = uset_getRangeCount(set);
  for (int32_t k = 0; k < count && k < capacity; k++) {
    UChar32 start = 0, end = 0;
    UErrorCode e = U_ZERO_ERROR;
    uset_getItem(set, k, &start, &end, nullptr, 0, &e);
    ranges[2 * k] = (uint32_t)start;
    ranges[2 * k + 1] = (uint32_t)end;
  }
  uset_close(set);
  *status = 0;
  return count;
}
