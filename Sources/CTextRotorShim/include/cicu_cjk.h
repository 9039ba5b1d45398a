// ICU's Chinese/Japanese word dictionary run natively (cjk.cpp): the dictionary is the installed
// ICU's own (`brkitr` data, the "dictionaries" table's entry for Han, a UCharsTrie of costs), read
// in place and walked with ICU's public UCharsTrie; the segmentation is the one ICU's
// CjkBreakEngine computes (a shortest path over the dictionary's costs, 255 for a character the
// dictionary does not start a word with, a cost by length for runs of katakana). Plain C types only.
#ifndef TEXTROTOR_CICU_CJK_H
#define TEXTROTOR_CICU_CJK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One thread's engine (its scratch arrays and its cache of the trie's first step). The
/// dictionary and the character tables behind it are shared, read-only, loaded once per process.
typedef struct cicu_cjk cicu_cjk;

/// A new engine, or NULL when the installed ICU has no Chinese/Japanese dictionary in the form
/// ICU 72 reads (a UCharsTrie with values), or its data cannot be read.
cicu_cjk *cicu_cjk_open(void);
void cicu_cjk_close(cicu_cjk *engine);

/// Bits of `cicu_cjk_flags`.
#define CICU_CJK_IN_SET 1u       // in ICU's engine set [[:Han:][:Hiragana:][:Katakana:]\u30fc\uff70\uff9e\uff9f]
#define CICU_CJK_NFKC_YES 4u     // NFKC_Quick_Check=Yes and canonical combining class 0

/// The flags of code point `c`.
uint32_t cicu_cjk_flags(const cicu_cjk *engine, int32_t c);

/// ICU's CJK segmentation of `text[start..<end]`, well-formed UTF-8 of characters of the engine's
/// set only, every one of them NFKC_QC=Yes with combining class 0 (so ICU normalizes nothing):
/// the boundaries after `start`, ascending (the last is `end`), as offsets into `text`, into
/// `breaks` (room for `(end - start) / 3 + 1`). Returns their number, or -1 when the text breaks
/// those conditions or memory runs out.
int64_t cicu_cjk_divide(cicu_cjk *engine, const uint8_t *text, int64_t start, int64_t end, int64_t *breaks);

#ifdef __cplusplus
}
#endif

#endif
