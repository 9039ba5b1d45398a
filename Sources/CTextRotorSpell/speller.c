// Hunspell behind plain C types (see ctr_spell.h).
#include "ctr_spell.h"

#include <hunspell.h>
#include <iconv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

// Answers are cached by word (words up to KEY_MAX bytes) in an open-addressed table, emptied when
// three quarters full: prose repeats its words, and Hunspell takes microseconds per word.
#define CACHE_SLOTS (1 << 16)
#define KEY_MAX 46

typedef struct {
  uint64_t hash;
  uint8_t length;  // 0: empty
  uint8_t result;
  char key[KEY_MAX];
} cache_slot;

struct ctr_speller {
  Hunhandle *hunspell;
  char encoding[64];
  int utf8;                 // the dictionary is in UTF-8 (else words are converted)
  iconv_t toDictionary;     // UTF-8 -> the dictionary's encoding (when not UTF-8)
  uint8_t covers[USCRIPT_CODE_LIMIT];
  int coversLatin;
  cache_slot *cache;
  int64_t cached;
  char *buffer;             // a word, NUL-terminated, in the dictionary's encoding
  size_t bufferCapacity;
};

// Hunspell keeps process-wide state: a UTF-8 dictionary's Hunspell_create fills a case table
// shared by every handle (allocated when none is, with a plain counter of its users), and
// Hunspell_destroy frees it when that counter reaches 0. Two handles created at once (two threads
// opening dictionaries) could both allocate it, miscount its users and free it under a check
// running on another handle. Every Hunspell call takes this lock; each handle's own lock (the
// Swift Speller's) still guards its cache.
static pthread_mutex_t ctr_spell_global = PTHREAD_MUTEX_INITIALIZER;

static uint64_t hash_bytes(const char *s, int32_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (int32_t i = 0; i < n; i++) {
    h ^= (uint8_t)s[i];
    h *= 1099511628211ULL;
  }
  return h;
}

// Marks the scripts of the letters in `s` (UTF-8, `n` bytes) as covered.
static void cover(ctr_speller *sp, const char *s, int32_t n) {
  int32_t i = 0;
  while (i < n) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0 || !u_isalpha(c)) continue;
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript(c, &status);
    if (U_FAILURE(status) || script <= USCRIPT_INHERITED || script >= USCRIPT_CODE_LIMIT) continue;
    sp->covers[script] = 1;
  }
}

// Converts `n` bytes of `s` from the dictionary's encoding to UTF-8 and marks their scripts.
static void cover_encoded(ctr_speller *sp, const char *s, size_t n) {
  if (sp->utf8) {
    cover(sp, s, (int32_t)n);
    return;
  }
  iconv_t cd = iconv_open("UTF-8", sp->encoding);
  if (cd == (iconv_t)-1) return;
  size_t capacity = n * 4 + 4;
  char *out = malloc(capacity);
  if (out) {
    char *in = (char *)s;
    size_t inLeft = n;
    char *o = out;
    size_t outLeft = capacity;
    iconv(cd, &in, &inLeft, &o, &outLeft);
    cover(sp, out, (int32_t)(capacity - outLeft));
    free(out);
  }
  iconv_close(cd);
}

// The scripts of the TRY line of the .aff file (the letters of the language, by frequency), or
// of the first words of the .dic file when there is none.
static void find_scripts(ctr_speller *sp, const char *aff, const char *dic) {
  char line[4096];
  FILE *f = fopen(aff, "r");
  if (f) {
    while (fgets(line, sizeof line, f)) {
      if (strncmp(line, "TRY", 3) == 0 && (line[3] == ' ' || line[3] == '\t')) {
        char *s = line + 4;
        size_t n = strcspn(s, "\r\n");
        cover_encoded(sp, s, n);
      }
    }
    fclose(f);
  }
  for (int i = 0; i < USCRIPT_CODE_LIMIT; i++) {
    if (sp->covers[i]) return;
  }
  f = fopen(dic, "r");
  if (!f) return;
  for (int k = 0; k < 2000 && fgets(line, sizeof line, f); k++) {
    if (k == 0) continue;  // the word count
    size_t n = strcspn(line, "/\t\r\n");
    cover_encoded(sp, line, n);
  }
  fclose(f);
}

ctr_speller *ctr_spell_open(const char *aff, const char *dic) {
  FILE *probe = fopen(aff, "r");
  if (!probe) return NULL;
  fclose(probe);
  probe = fopen(dic, "r");
  if (!probe) return NULL;
  fclose(probe);
  ctr_speller *sp = calloc(1, sizeof *sp);
  if (!sp) return NULL;
  sp->cache = calloc(CACHE_SLOTS, sizeof(cache_slot));
  sp->bufferCapacity = 256;
  sp->buffer = malloc(sp->bufferCapacity);
  sp->toDictionary = (iconv_t)-1;
  pthread_mutex_lock(&ctr_spell_global);
  sp->hunspell = Hunspell_create(aff, dic);
  pthread_mutex_unlock(&ctr_spell_global);
  if (!sp->cache || !sp->buffer || !sp->hunspell) {
    ctr_spell_close(sp);
    return NULL;
  }
  const char *encoding = Hunspell_get_dic_encoding(sp->hunspell);
  snprintf(sp->encoding, sizeof sp->encoding, "%s", encoding ? encoding : "ISO8859-1");
  sp->utf8 = strcasecmp(sp->encoding, "UTF-8") == 0 || strcasecmp(sp->encoding, "UTF8") == 0;
  if (!sp->utf8) {
    sp->toDictionary = iconv_open(sp->encoding, "UTF-8");
    if (sp->toDictionary == (iconv_t)-1) {
      ctr_spell_close(sp);
      return NULL;
    }
  }
  find_scripts(sp, aff, dic);
  sp->coversLatin = sp->covers[USCRIPT_LATIN];
  return sp;
}

void ctr_spell_close(ctr_speller *sp) {
  if (!sp) return;
  if (sp->hunspell) {
    pthread_mutex_lock(&ctr_spell_global);
    Hunspell_destroy(sp->hunspell);
    pthread_mutex_unlock(&ctr_spell_global);
  }
  if (sp->toDictionary != (iconv_t)-1) iconv_close(sp->toDictionary);
  free(sp->cache);
  free(sp->buffer);
  free(sp);
}

int32_t ctr_spell_scripts(const ctr_speller *sp, int32_t *scripts, int32_t capacity) {
  int32_t n = 0;
  for (int32_t i = 0; i < USCRIPT_CODE_LIMIT; i++) {
    if (!sp->covers[i]) continue;
    if (n < capacity) scripts[n] = i;
    n++;
  }
  return n;
}

const char *ctr_spell_encoding(const ctr_speller *sp) { return sp->encoding; }

// Whether the word has a letter of a covered script, and no digit, period or underscore (ICU's
// words hold them between letters: version numbers, domain names, file names, identifiers).
static int is_checked(const ctr_speller *sp, const char *s, int32_t n) {
  int covered = 0;
  int32_t i = 0;
  while (i < n) {
    uint8_t b = (uint8_t)s[i];
    if (b < 0x80) {
      if ((b >= '0' && b <= '9') || b == '.' || b == '_') return 0;
      if (((b | 0x20) >= 'a' && (b | 0x20) <= 'z') && sp->coversLatin) covered = 1;
      i++;
      continue;
    }
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) continue;
    if (u_charType(c) == U_DECIMAL_DIGIT_NUMBER) return 0;
    if (!covered && u_isalpha(c)) {
      UErrorCode status = U_ZERO_ERROR;
      UScriptCode script = uscript_getScript(c, &status);
      if (U_SUCCESS(status) && script >= 0 && script < USCRIPT_CODE_LIMIT && sp->covers[script]) covered = 1;
    }
  }
  return covered;
}

// Puts the word, NUL-terminated and in the dictionary's encoding, in sp->buffer; 0 when it cannot
// be written in that encoding (then no word of the dictionary is it).
static int prepare(ctr_speller *sp, const char *s, int32_t n) {
  size_t need = (size_t)n * 4 + 1;
  if (need > sp->bufferCapacity) {
    char *bigger = realloc(sp->buffer, need);
    if (!bigger) return 0;
    sp->buffer = bigger;
    sp->bufferCapacity = need;
  }
  if (sp->utf8) {
    memcpy(sp->buffer, s, (size_t)n);
    sp->buffer[n] = 0;
    return 1;
  }
  iconv(sp->toDictionary, NULL, NULL, NULL, NULL);
  char *in = (char *)s;
  size_t inLeft = (size_t)n;
  char *out = sp->buffer;
  size_t outLeft = sp->bufferCapacity - 1;
  if (iconv(sp->toDictionary, &in, &inLeft, &out, &outLeft) == (size_t)-1) return 0;
  *out = 0;
  return 1;
}

static uint8_t check_one(ctr_speller *sp, const char *s, int32_t n) {
  if (n <= 0 || !is_checked(sp, s, n)) return CTR_SPELL_SKIPPED;
  cache_slot *slot = NULL;
  uint64_t h = 0;
  if (n <= KEY_MAX) {
    h = hash_bytes(s, n);
    size_t i = (size_t)h & (CACHE_SLOTS - 1);
    while (sp->cache[i].length != 0) {
      cache_slot *c = &sp->cache[i];
      if (c->hash == h && c->length == n && memcmp(c->key, s, (size_t)n) == 0) return c->result;
      i = (i + 1) & (CACHE_SLOTS - 1);
    }
    if (sp->cached >= CACHE_SLOTS / 4 * 3) {
      memset(sp->cache, 0, CACHE_SLOTS * sizeof(cache_slot));
      sp->cached = 0;
      i = (size_t)h & (CACHE_SLOTS - 1);
    }
    slot = &sp->cache[i];
  }
  uint8_t result = CTR_SPELL_MISSPELLED;
  if (prepare(sp, s, n)) {
    pthread_mutex_lock(&ctr_spell_global);
    if (Hunspell_spell(sp->hunspell, sp->buffer) != 0) result = CTR_SPELL_CORRECT;
    pthread_mutex_unlock(&ctr_spell_global);
  }
  if (slot) {
    slot->hash = h;
    slot->length = (uint8_t)n;
    slot->result = result;
    memcpy(slot->key, s, (size_t)n);
    sp->cached++;
  }
  return result;
}

void ctr_spell_check(
  ctr_speller *sp, const char *text, const int64_t *starts, const int32_t *lengths, int64_t count,
  uint8_t *results) {
  for (int64_t k = 0; k < count; k++) results[k] = check_one(sp, text + starts[k], lengths[k]);
}
