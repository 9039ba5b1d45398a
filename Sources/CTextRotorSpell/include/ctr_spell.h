// Hunspell behind plain C types: a speller for one dictionary that checks batches of UTF-8 words,
// skips the words of scripts its dictionary does not cover, and caches its answers. No Hunspell
// header is included here, so nothing above this layer sees Hunspell.
#ifndef TEXTROTOR_CTR_SPELL_H
#define TEXTROTOR_CTR_SPELL_H

#include <stdint.h>

// What ctr_spell_check says of a word.
#define CTR_SPELL_CORRECT 0
#define CTR_SPELL_MISSPELLED 1
#define CTR_SPELL_SKIPPED 2  // no letter of a script the dictionary covers; a digit, '.' or '_'

typedef struct ctr_speller ctr_speller;

/// Opens the dictionary `aff` + `dic` (paths). NULL when Hunspell could not read it or memory ran
/// out. Not thread-safe: one thread at a time may use a speller.
ctr_speller *ctr_spell_open(const char *aff, const char *dic);

void ctr_spell_close(ctr_speller *speller);

/// The scripts the dictionary covers (ICU's UScriptCode values, from the letters of the
/// dictionary's TRY line, or of its first words when it has none): writes up to `capacity`,
/// returns how many there are.
int32_t ctr_spell_scripts(const ctr_speller *speller, int32_t *scripts, int32_t capacity);

/// The dictionary's encoding as its .aff file names it (e.g. "UTF-8", "ISO8859-1").
const char *ctr_spell_encoding(const ctr_speller *speller);

/// Checks `count` words, word i being the `lengths[i]` bytes at `text + starts[i]` (UTF-8), and
/// writes CTR_SPELL_CORRECT, CTR_SPELL_MISSPELLED or CTR_SPELL_SKIPPED to `results[i]`.
void ctr_spell_check(
  ctr_speller *speller, const char *text, const int64_t *starts, const int32_t *lengths, int64_t count,
  uint8_t *results);

#endif
