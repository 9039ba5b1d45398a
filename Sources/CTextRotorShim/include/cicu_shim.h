// ICU's C API for Swift, in plain C types only. This header includes no ICU header: ICU's handles
// are opaque types of our own, status codes are int32_t, and the few ICU constants textrotor uses
// are #defines below (shim.c checks each against ICU's). So a Swift module that imports this one
// never sees ICU's own declarations, and a client may import Foundation, whose bundled ICU
// (_FoundationICU) declares `UErrorCode` and friends differently, in the same file.
//
// ICU's C names are macros over versioned symbols (ubrk_open -> ubrk_open_72), which Swift cannot
// call; shim.c calls them by their plain names, so nothing here names an ICU version.
#ifndef TEXTROTOR_CICU_SHIM_H
#define TEXTROTOR_CICU_SHIM_H

#include <stdint.h>

// MARK: ICU constants (same values as ICU's; shim.c asserts each)

// UErrorCode
#define CICU_ZERO_ERROR 0                 // U_ZERO_ERROR
#define CICU_INTERNAL_PROGRAM_ERROR 5     // U_INTERNAL_PROGRAM_ERROR
#define CICU_MEMORY_ALLOCATION_ERROR 7    // U_MEMORY_ALLOCATION_ERROR
#define CICU_INDEX_OUTOFBOUNDS_ERROR 8    // U_INDEX_OUTOFBOUNDS_ERROR
#define CICU_BUFFER_OVERFLOW_ERROR 15     // U_BUFFER_OVERFLOW_ERROR
#define CICU_REGEX_STACK_OVERFLOW 66321   // U_REGEX_STACK_OVERFLOW
#define CICU_REGEX_TIME_OUT 66322         // U_REGEX_TIME_OUT

// UBreakIteratorType, and UBRK_DONE
#define CICU_BREAK_CHARACTER 0            // UBRK_CHARACTER
#define CICU_BREAK_WORD 1                 // UBRK_WORD
#define CICU_BREAK_LINE 2                 // UBRK_LINE
#define CICU_BREAK_SENTENCE 3             // UBRK_SENTENCE
#define CICU_BREAK_DONE -1                // UBRK_DONE

// URegexpFlag
#define CICU_REGEX_CASE_INSENSITIVE 2u    // UREGEX_CASE_INSENSITIVE
#define CICU_REGEX_MULTILINE 8u           // UREGEX_MULTILINE
#define CICU_REGEX_DOTALL 32u             // UREGEX_DOTALL

// MARK: opaque handles

typedef struct cicu_text cicu_text;                      // UText
typedef struct cicu_break_iterator cicu_break_iterator;  // UBreakIterator
typedef struct cicu_regex cicu_regex;                    // URegularExpression
typedef struct cicu_casemap cicu_casemap;                // UCaseMap

/// ICU's UParseError: where a pattern is wrong. The contexts are UTF-16, NUL-terminated.
typedef struct {
  int32_t line;
  int32_t offset;
  uint16_t preContext[16];
  uint16_t postContext[16];
} cicu_parse_error;

// MARK: errors and version

const char *cicu_errorName(int32_t status);
int cicu_isFailure(int32_t status);
void cicu_getVersion(uint8_t version[4]);

// MARK: UText over UTF-8

cicu_text *cicu_utext_openUTF8(const char *s, int64_t length, int32_t *status);
cicu_text *cicu_utext_reopenUTF8(cicu_text *ut, const char *s, int64_t length, int32_t *status);
cicu_text *cicu_utext_close(cicu_text *ut);

// MARK: break iterators

/// `type` is one of the CICU_BREAK_ kinds.
cicu_break_iterator *cicu_ubrk_open(int32_t type, const char *locale, int32_t *status);
/// 1 when ICU has locale data for the language of `locale` ("" and "root" included), else 0.
int cicu_locale_is_known(const char *locale);
cicu_break_iterator *cicu_ubrk_clone(const cicu_break_iterator *bi, int32_t *status);
void cicu_ubrk_close(cicu_break_iterator *bi);
void cicu_ubrk_setUText(cicu_break_iterator *bi, cicu_text *text, int32_t *status);
/// Loads ICU's Chinese/Japanese dictionary engine into word iterator `bi` (it segments a short
/// Han text; the caller sets its real text next). ICU keeps a list of dictionary engines per
/// iterator, filled as characters need them, and picks the engine for a character from that list
/// first: a character of script Common that the engine also takes (U+30FC, U+FF70, U+FF9E,
/// U+FF9F) goes to it only if it was loaded before, otherwise to ICU's "unhandled" engine, which
/// divides nothing. With the engine loaded first, every iterator gives the same words whatever it
/// or the process segmented before.
void cicu_ubrk_loadDictionaries(cicu_break_iterator *bi, int32_t *status);
int32_t cicu_ubrk_first(cicu_break_iterator *bi);
int32_t cicu_ubrk_next(cicu_break_iterator *bi);
int32_t cicu_ubrk_following(cicu_break_iterator *bi, int32_t offset);
int32_t cicu_ubrk_preceding(cicu_break_iterator *bi, int32_t offset);
int cicu_ubrk_isBoundary(cicu_break_iterator *bi, int32_t offset);
int32_t cicu_ubrk_getRuleStatus(cicu_break_iterator *bi);

/// Fills `boundaries` (and `statuses`, when not NULL) with the next boundaries after the current
/// one; returns how many were written (fewer than `capacity` only at the end of the text). One C
/// call per batch keeps the per-boundary cost at ICU's own.
int32_t cicu_ubrk_nextBatch(cicu_break_iterator *bi, int32_t *boundaries, int32_t *statuses, int32_t capacity);

// MARK: compiled break rules (for the native rule machine, TextRotorICU/RuleMachine.swift)

typedef struct cicu_trie cicu_trie;  // UCPTrie

/// A malloc'd copy of `bi`'s compiled rules (ICU's `ubrk_getBinaryRules`: the RBBI data header,
/// state tables, character-category trie and rule status table) and its length; NULL with a failure
/// status when the iterator is not rule-based (a locale whose iterator filters sentence breaks).
/// Free it with `free`.
uint8_t *cicu_ubrk_copyBinaryRules(cicu_break_iterator *bi, int32_t *length, int32_t *status);
/// ICU's `ucptrie_openFromBinary` of any type and value width.
cicu_trie *cicu_trie_open(const void *data, int32_t length, int32_t *status);
void cicu_trie_close(cicu_trie *trie);
/// The trie's value for code point `c` (`ucptrie_get`).
uint32_t cicu_trie_get(const cicu_trie *trie, int32_t c);
/// `table[c] = ucptrie_get(trie, c)` for every `c` in `0..<count`; returns the largest value stored.
uint32_t cicu_trie_fill(const cicu_trie *trie, uint16_t *table, int32_t count);
/// For each category `k` in `start..<count` (the rules' dictionary categories), `unhandled[k - start]`
/// is set to 1 when no character of that category can be given a boundary by one of ICU's language
/// break engines, else 0. ICU asks an engine for the characters of a dictionary category in a
/// segment; one with no engine (its script has no dictionary or LSTM model in ICU's data, as
/// Hangul has none in ICU 72) goes to ICU's "unhandled" engine, which finds no boundary: the rules'
/// segment stands, so the native machine may run over such characters. Conservative: a category
/// with any character of a script ICU builds engines for (Thai, Lao, Myanmar, Khmer, Han,
/// Hiragana, Katakana), of Common or Inherited script, or of a script with a dictionary or model
/// in the data, is not unhandled.
void cicu_trie_unhandled_categories(const cicu_trie *trie, int32_t start, int32_t count, uint8_t *unhandled);

// MARK: regular expressions

/// `flags` are CICU_REGEX_ flags; `pe` may be NULL.
cicu_regex *cicu_uregex_openUText(cicu_text *pattern, uint32_t flags, cicu_parse_error *pe, int32_t *status);
cicu_regex *cicu_uregex_clone(const cicu_regex *re, int32_t *status);
void cicu_uregex_close(cicu_regex *re);
void cicu_uregex_setUText(cicu_regex *re, cicu_text *text, int32_t *status);
void cicu_uregex_setTimeLimit(cicu_regex *re, int32_t limit, int32_t *status);
void cicu_uregex_setStackLimit(cicu_regex *re, int32_t limit, int32_t *status);
int cicu_uregex_findNext(cicu_regex *re, int32_t *status);
int cicu_uregex_find64(cicu_regex *re, int64_t start, int32_t *status);
int64_t cicu_uregex_start64(cicu_regex *re, int32_t group, int32_t *status);
int64_t cicu_uregex_end64(cicu_regex *re, int32_t group, int32_t *status);
void cicu_uregex_reset64(cicu_regex *re, int64_t index, int32_t *status);
void cicu_uregex_setRegion64(cicu_regex *re, int64_t start, int64_t limit, int32_t *status);
void cicu_uregex_useTransparentBounds(cicu_regex *re, int b, int32_t *status);
void cicu_uregex_useAnchoringBounds(cicu_regex *re, int b, int32_t *status);

/// Finds up to `capacity` further matches in the current region (ICU's `uregex_findNext`) and writes
/// their UTF-8 offsets; returns how many (fewer than `capacity` only when the region has no more
/// matches or `status` became a failure). One C call per batch keeps the per-match cost at ICU's.
int32_t cicu_uregex_findBatch(cicu_regex *re, int64_t *starts, int64_t *ends, int32_t capacity, int32_t *status);

// MARK: case mapping

cicu_casemap *cicu_ucasemap_open(const char *locale, uint32_t options, int32_t *status);
void cicu_ucasemap_close(cicu_casemap *csm);
int32_t cicu_ucasemap_utf8FoldCase(const cicu_casemap *csm, char *dest, int32_t destCapacity, const char *src,
                                   int32_t srcLength, int32_t *status);

#endif
