// RE2 (Google's linear-time regular expression engine) behind plain C types (re2.cpp), and ICU's
// UnicodeSet patterns as code point ranges (what the RE2 translation of an ICU pattern is built
// from). Nothing here names an RE2 or ICU type.
#ifndef TEXTROTOR_CICU_RE2_H
#define TEXTROTOR_CICU_RE2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled RE2 expression (UTF-8, leftmost-first "Perl" semantics, no captures). Matching is
/// thread-safe; the search state lives in `cicu_re2_search`.
typedef struct cicu_re2 cicu_re2;

/// The largest RE2 program (in instructions) `cicu_re2_compile` accepts: `\w` is about 1,400,
/// `\w{35}` about 49,000.
#define CICU_RE2_MAX_PROGRAM 50000

/// Compiles `pattern` (RE2 syntax, UTF-8). NULL when RE2 rejects it (the reason, NUL-terminated,
/// in `error` when `errorCapacity` > 0), the program is past RE2's memory budget (64 MB), or it
/// has over `maxProgram` instructions (`CICU_RE2_MAX_PROGRAM` when 0).
cicu_re2 *cicu_re2_compile(const char *pattern, size_t length, int maxProgram, char *error, size_t errorCapacity);
void cicu_re2_free(cicu_re2 *re);

/// The state of one search over `text[context_start ..< context_end]` (the text RE2 sees: `^`/`$`
/// and the line edges look at it), finding matches in `[position, end)`.
typedef struct {
  const char *text;
  size_t context_start;
  size_t context_end;
  size_t position;
  size_t end;
  /// The last match was empty (the next search starts one character later, as ICU's findNext).
  int32_t after_empty;
  /// No more matches.
  int32_t done;
} cicu_re2_search;

/// The next matches (at most `capacity`), as ICU's uregex_findNext loop reports them: leftmost-
/// first from the position; after an empty match the search goes on one UTF-8 character later.
/// Offsets are relative to `text`. Returns how many were written; fewer than `capacity` means done.
int32_t cicu_re2_find_batch(const cicu_re2 *re, cicu_re2_search *search, int64_t *starts, int64_t *ends,
                            int32_t capacity);

/// The code point ranges (inclusive pairs, in order) of the UnicodeSet pattern `pattern` (UTF-16),
/// written to `ranges` (2 × capacity values). Returns the number of ranges (more than `capacity`:
/// call again with more room), or -1 when ICU rejects the pattern (`status` holds ICU's error).
int32_t cicu_uset_ranges(const uint16_t *pattern, int32_t length, uint32_t *ranges, int32_t capacity,
                         int32_t *status);

/// The same, closed over case as ICU's regex closes a set without case (`caseless`: full case
/// folding, `uset_closeOver(USET_CASE_INSENSITIVE)`), its strings dropped (a regex set matches code
/// points), then complemented when `complement` (ICU's regex negates a set after closing it:
/// `[^k]` without case matches neither k, K nor the Kelvin sign).
int32_t cicu_uset_ranges_caseless(const uint16_t *pattern, int32_t length, int32_t caseless, int32_t complement,
                                  uint32_t *ranges, int32_t capacity, int32_t *status);

#ifdef __cplusplus
}
#endif

#endif
