// cmark-gfm's parse of a Markdown text as a flat list of the nodes textrotor's structure rotors
// hold, with UTF-8 byte offsets (cmark-gfm gives lines and columns). Plain C types only: no cmark
// header is included here, so nothing above this layer sees cmark.
#ifndef TEXTROTOR_CTR_MARKDOWN_H
#define TEXTROTOR_CTR_MARKDOWN_H

#include <stdint.h>

// Node kinds.
#define CTR_MD_BLOCK 0       // a top-level block (any kind; `detail` is cmark's node type)
#define CTR_MD_HEADING 1     // `detail`: level 1-6
#define CTR_MD_LINK 2        // Markdown links, autolinks and GFM's extended autolinks; `url`
#define CTR_MD_LIST 3        // `detail`: 1 ordered, 0 bullet; `items`: its items
#define CTR_MD_ITEM 4
#define CTR_MD_CODE_BLOCK 5  // fenced or indented; `url`: the fence's info string
#define CTR_MD_TABLE 6       // GFM table; `items`: its rows, the header row included
#define CTR_MD_BLOCK_QUOTE 7
#define CTR_MD_EMPHASIS 8
#define CTR_MD_STRONG 9
#define CTR_MD_HTML_BLOCK 10  // not rotors: where link reference definitions cannot be ...
#define CTR_MD_PARAGRAPH 11
#define CTR_MD_DEFINITIONS 12  // ... but these lines at a paragraph's start were definitions
// In the kinds of ctr_md_parse_kinds: no labels and no URLs (what a count needs).
#define CTR_MD_NO_TEXTS 0x80000000u

// cmark-gfm's node type of a list (a top-level block's `detail`); markdown.c checks it.
#define CTR_MD_CMARK_LIST_TYPE 0x8003
// ... and of a code block.
#define CTR_MD_CMARK_CODE_BLOCK_TYPE 0x8005
// ... of a paragraph and of a heading.
#define CTR_MD_CMARK_PARAGRAPH_TYPE 0x8008
#define CTR_MD_CMARK_HEADING_TYPE 0x8009

typedef struct {
  int32_t kind;
  int32_t detail;
  int32_t items;
  int32_t depth;              // 0 for a top-level block
  int64_t start, end;         // UTF-8 offsets into the parsed text, half-open
  int64_t label, labelLength; // into `strings`; labelLength < 0: no label (the text is the label)
  int64_t url, urlLength;     // into `strings`; urlLength < 0: none
  // cmark-gfm's own source position (1-based lines and columns, end column inclusive).
  int32_t startLine, startColumn, endLine, endColumn;
} ctr_md_node;

typedef struct {
  ctr_md_node *nodes;
  int64_t count;
  char *strings;
  int64_t stringsLength;
} ctr_md_result;

/// Thread-safe (parses run one at a time: cmark-gfm shares state between parsers).
/// Parses `length` bytes of Markdown (GFM: tables, autolinks, strikethrough) and fills `out` with
/// the nodes whose start is at or after `skip` (a prelude before it is parsed but not reported), in
/// document order (a parent before its children). Returns 0, or -1 when memory ran out or the text
/// is longer than cmark-gfm's 32-bit sizes (then `out` is empty). Free `out` with ctr_md_free.
int ctr_md_parse(const char *text, int64_t length, int64_t skip, ctr_md_result *out);

/// The same, reporting only the nodes of the kinds in `kinds` (bit k: kind k; labels and URLs are
/// made only for those).
int ctr_md_parse_kinds(const char *text, int64_t length, int64_t skip, uint32_t kinds, ctr_md_result *out);

void ctr_md_free(ctr_md_result *result);

#endif
