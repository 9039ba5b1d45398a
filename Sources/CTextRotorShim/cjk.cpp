// ICU's Chinese/Japanese word segmentation (its CjkBreakEngine, non-phrase mode) over UTF-8,
// with the installed ICU's own dictionary walked by ICU's public UCharsTrie. See cicu_cjk.h.
#include "cicu_cjk.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/ucharstrie.h>
#include <unicode/udata.h>
#include <unicode/ures.h>
#include <unicode/uset.h>
#include <unicode/ustring.h>

namespace {

// ICU's brkitr dictionary header (dictionarydata.h): int32 indexes, the trie at
// indexes[IX_STRING_TRIE_OFFSET], its type in the low bits of indexes[IX_TRIE_TYPE].
constexpr int kIndexTrieOffset = 0;
constexpr int kIndexTotalSize = 3;
constexpr int kIndexTrieType = 4;
constexpr int kIndexCount = 8;
constexpr int32_t kTrieTypeMask = 7;
constexpr int32_t kTrieTypeUChars = 1;
constexpr int32_t kTrieHasValues = 8;

// The constants of ICU's CjkBreakEngine (dictbe.cpp): the longest word looked up (UTF-16 units),
// the cost of a character no dictionary word starts with, katakana runs.
constexpr int32_t kMaxWordSize = 20;
constexpr uint32_t kMaxSnlp = 255;
constexpr int32_t kMaxKatakanaLength = 8;
constexpr int32_t kMaxKatakanaGroupLength = 20;
constexpr uint32_t kKatakanaCost[kMaxKatakanaLength + 1] = {8192, 984, 408, 240, 204, 252, 300, 372, 480};

inline uint32_t katakanaCost(int32_t length) { return length > kMaxKatakanaLength ? 8192 : kKatakanaCost[length]; }
inline bool isKatakana(UChar32 c) { return (c >= 0x30A1 && c <= 0x30FE && c != 0x30FB) || (c >= 0xFF66 && c <= 0xFF9F); }

// The process-wide part: the dictionary (mapped by ICU, never closed) and the character sets.
struct Shared {
  UDataMemory *file = nullptr;
  const char16_t *trie = nullptr;
  USet *set = nullptr;     // the engine's characters
  USet *nfkc = nullptr;    // NFKC_QC=Yes, ccc=0
  uint8_t flags[0x10000];
};
Shared *shared = nullptr;
pthread_once_t once = PTHREAD_ONCE_INIT;

USet *openSet(const char16_t *pattern) {
  UErrorCode status = U_ZERO_ERROR;
  USet *set = uset_openPattern(reinterpret_cast<const UChar *>(pattern), -1, &status);
  if (U_FAILURE(status)) {
    uset_close(set);
    return nullptr;
  }
  uset_freeze(set);
  return set;
}

void fill(uint8_t *flags, const USet *set, uint8_t bit) {
  UErrorCode status = U_ZERO_ERROR;
  int32_t items = uset_getItemCount(set);
  for (int32_t k = 0; k < items; k++) {
    UChar32 start = 0, end = 0;
    status = U_ZERO_ERROR;
    if (uset_getItem(set, k, &start, &end, nullptr, 0, &status) != 0 || U_FAILURE(status)) continue;
    for (UChar32 c = start; c <= end && c < 0x10000; c++) flags[c] |= bit;
  }
}

void load() {
  // The dictionary ICU's ICULanguageBreakFactory loads for Han: brkitr's "dictionaries" table.
  UErrorCode status = U_ZERO_ERROR;
  UResourceBundle *bundle = ures_open(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr", "", &status);
  bundle = ures_getByKey(bundle, "dictionaries", bundle, &status);
  int32_t length = 0;
  const UChar *name = ures_getStringByKey(bundle, "Hani", &length, &status);
  char file[64] = {0};
  char type[16] = {0};
  if (U_SUCCESS(status) && length > 0 && length < 60) {
    u_UCharsToChars(name, file, length);
    char *dot = strrchr(file, '.');
    if (dot) {
      strncpy(type, dot + 1, sizeof type - 1);
      *dot = 0;
    }
  }
  ures_close(bundle);
  if (U_FAILURE(status) || file[0] == 0) return;
  UDataMemory *data = udata_open(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr", type, file, &status);
  if (U_FAILURE(status) || !data) return;
  const int32_t *indexes = static_cast<const int32_t *>(udata_getMemory(data));
  int32_t offset = indexes[kIndexTrieOffset];
  int32_t trieType = indexes[kIndexTrieType];
  if (offset < kIndexCount * 4 || offset >= indexes[kIndexTotalSize] || (trieType & kTrieTypeMask) != kTrieTypeUChars ||
      (trieType & kTrieHasValues) == 0) {
    udata_close(data);
    return;
  }
  Shared *made = static_cast<Shared *>(calloc(1, sizeof(Shared)));
  if (!made) return;
  made->file = data;
  made->trie = reinterpret_cast<const char16_t *>(reinterpret_cast<const uint8_t *>(indexes) + offset);
  made->set = openSet(u"[[:Han:][:Hiragana:][:Katakana:]\\u30fc\\uff70\\uff9e\\uff9f]");
  made->nfkc = openSet(u"[[:NFKC_QC=Yes:]&[:ccc=0:]]");
  if (!made->set || !made->nfkc) {
    uset_close(made->set);
    uset_close(made->nfkc);
    udata_close(data);
    free(made);
    return;
  }
  fill(made->flags, made->set, CICU_CJK_IN_SET);
  fill(made->flags, made->nfkc, CICU_CJK_NFKC_YES);
  shared = made;
}

inline uint32_t flagsOf(UChar32 c) {
  if (c < 0x10000) return shared->flags[c];
  return (uset_contains(shared->set, c) ? CICU_CJK_IN_SET : 0) | (uset_contains(shared->nfkc, c) ? CICU_CJK_NFKC_YES : 0);
}

// The first step of the trie is cached for U+3000...U+9FFF (kana and the common ideographs): the
// root's branch is the trie's largest.
constexpr UChar32 kCacheStart = 0x3000;
constexpr UChar32 kCacheEnd = 0xA000;

}  // namespace

struct cicu_cjk {
  uint64_t *firstState;   // UCharsTrie::getState64 after firstForCodePoint(c)
  uint8_t *firstResult;   // its result + 1; 0: not cached yet
  int64_t capacity;       // code points the arrays hold
  UChar32 *codePoints;
  int64_t *offsets;       // of each code point, then the end
  uint32_t *best;         // the least cost of the first i code points
  int32_t *previous;      // where the last word of that segmentation starts
};

extern "C" {

cicu_cjk *cicu_cjk_open(void) {
  pthread_once(&once, load);
  if (!shared) return nullptr;
  cicu_cjk *engine = static_cast<cicu_cjk *>(calloc(1, sizeof(cicu_cjk)));
  if (!engine) return nullptr;
  engine->firstState = static_cast<uint64_t *>(calloc(kCacheEnd - kCacheStart, sizeof(uint64_t)));
  engine->firstResult = static_cast<uint8_t *>(calloc(kCacheEnd - kCacheStart, 1));
  if (!engine->firstState || !engine->firstResult) {
    cicu_cjk_close(engine);
    return nullptr;
  }
  return engine;
}

void cicu_cjk_close(cicu_cjk *engine) {
  if (!engine) return;
  free(engine->firstState);
  free(engine->firstResult);
  free(engine->codePoints);
  free(engine->offsets);
  free(engine->best);
  free(engine->previous);
  free(engine);
}

uint32_t cicu_cjk_flags(const cicu_cjk *, int32_t c) {
  if (c < 0 || c > 0x10FFFF) return 0;
  return flagsOf(c);
}

static bool reserve(cicu_cjk *e, int64_t count) {
  if (count <= e->capacity) return true;
  int64_t capacity = count < 256 ? 256 : count * 2;
  UChar32 *codePoints = static_cast<UChar32 *>(realloc(e->codePoints, capacity * sizeof(UChar32)));
  if (codePoints) e->codePoints = codePoints;
  int64_t *offsets = static_cast<int64_t *>(realloc(e->offsets, (capacity + 1) * sizeof(int64_t)));
  if (offsets) e->offsets = offsets;
  uint32_t *best = static_cast<uint32_t *>(realloc(e->best, (capacity + 1) * sizeof(uint32_t)));
  if (best) e->best = best;
  int32_t *previous = static_cast<int32_t *>(realloc(e->previous, (capacity + 1) * sizeof(int32_t)));
  if (previous) e->previous = previous;
  if (!codePoints || !offsets || !best || !previous) return false;
  e->capacity = capacity;
  return true;
}

int64_t cicu_cjk_divide(cicu_cjk *e, const uint8_t *text, int64_t start, int64_t end, int64_t *breaks) {
  if (start >= end || end - start > INT32_MAX) return -1;
  if (!reserve(e, (end - start) / 3 + 1)) return -1;
  UChar32 *cp = e->codePoints;
  int64_t *offsets = e->offsets;
  // Decode: 3- and 4-byte sequences only (every character of the set is above U+0800).
  int32_t n = 0;
  for (int64_t i = start; i < end;) {
    uint8_t b = text[i];
    UChar32 c;
    int length;
    if (b >= 0xE0 && b < 0xF0 && i + 2 < end) {
      c = (b & 0x0F) << 12 | (text[i + 1] & 0x3F) << 6 | (text[i + 2] & 0x3F);
      length = 3;
    } else if (b >= 0xF0 && b <= 0xF4 && i + 3 < end) {
      c = (b & 0x07) << 18 | (text[i + 1] & 0x3F) << 12 | (text[i + 2] & 0x3F) << 6 | (text[i + 3] & 0x3F);
      length = 4;
    } else {
      return -1;
    }
    if ((flagsOf(c) & (CICU_CJK_IN_SET | CICU_CJK_NFKC_YES)) != (CICU_CJK_IN_SET | CICU_CJK_NFKC_YES)) return -1;
    offsets[n] = i;
    cp[n++] = c;
    i += length;
  }
  offsets[n] = end;

  uint32_t *best = e->best;
  int32_t *previous = e->previous;
  best[0] = 0;
  previous[0] = -1;
  for (int32_t i = 1; i <= n; i++) {
    best[i] = UINT32_MAX;
    previous[i] = -1;
  }
  icu::UCharsTrie trie(shared->trie);
  uint32_t values[kMaxWordSize + 1];
  int32_t lengths[kMaxWordSize + 1];
  bool previousKatakana = false;
  for (int32_t i = 0; i < n; i++) {
    if (best[i] == UINT32_MAX) continue;  // (as ICU: the katakana flag is not updated either)
    // The dictionary words starting at i (ICU's UCharsDictionaryMatcher::matches).
    int32_t count = 0;
    int32_t units = 0;
    for (int32_t k = i; k < n; k++) {
      UChar32 c = cp[k];
      UStringTrieResult result;
      if (k == i) {
        if (c >= kCacheStart && c < kCacheEnd) {
          uint8_t cached = e->firstResult[c - kCacheStart];
          if (cached) {
            result = static_cast<UStringTrieResult>(cached - 1);
            if (result != USTRINGTRIE_NO_MATCH) trie.resetToState64(e->firstState[c - kCacheStart]);
          } else {
            result = trie.firstForCodePoint(c);
            if (result != USTRINGTRIE_NO_MATCH) e->firstState[c - kCacheStart] = trie.getState64();
            e->firstResult[c - kCacheStart] = static_cast<uint8_t>(result + 1);
          }
        } else {
          result = trie.firstForCodePoint(c);
        }
      } else {
        result = trie.nextForCodePoint(c);
      }
      units += c > 0xFFFF ? 2 : 1;
      if (USTRINGTRIE_HAS_VALUE(result)) {
        if (count < kMaxWordSize) {
          values[count] = static_cast<uint32_t>(trie.getValue());
          lengths[count] = k - i + 1;
          count++;
        }
        if (result == USTRINGTRIE_FINAL_VALUE) break;
      } else if (result == USTRINGTRIE_NO_MATCH) {
        break;
      }
      if (units >= kMaxWordSize) break;
    }
    if (count == 0 || lengths[0] != 1) {
      values[count] = kMaxSnlp;
      lengths[count++] = 1;
    }
    for (int32_t j = 0; j < count; j++) {
      uint32_t cost = best[i] + values[j];
      int32_t to = i + lengths[j];
      if (cost < best[to]) {
        best[to] = cost;
        previous[to] = i;
      }
    }
    // A run of katakana is a word candidate with a cost by its length.
    bool katakana = isKatakana(cp[i]);
    if (!previousKatakana && katakana) {
      int32_t run = 1;
      int32_t j = i + 1;
      while (j < n && run < kMaxKatakanaGroupLength && isKatakana(cp[j])) {
        j++;
        run++;
      }
      if (run < kMaxKatakanaGroupLength) {
        uint32_t cost = best[i] + katakanaCost(run);
        if (cost < best[i + run]) {
          best[i + run] = cost;
          previous[i + run] = i;
        }
      }
    }
    previousKatakana = katakana;
  }
  // The path back from the end, written in ascending order.
  int64_t count = 0;
  if (best[n] == UINT32_MAX) {
    breaks[0] = end;
    return 1;
  }
  for (int32_t i = n; i > 0; i = previous[i]) count++;
  int64_t k = count;
  for (int32_t i = n; i > 0; i = previous[i]) breaks[--k] = offsets[i];
  return count;
}

}  // extern "C"
