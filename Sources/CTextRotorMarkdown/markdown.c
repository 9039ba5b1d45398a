// See ctr_markdown.h. The one file that includes cmark-gfm's headers.
#define _GNU_SOURCE
#include "ctr_markdown.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(CTR_MD_CMARK_LIST_TYPE == CMARK_NODE_LIST, "CMARK_NODE_LIST");
_Static_assert(CTR_MD_CMARK_CODE_BLOCK_TYPE == CMARK_NODE_CODE_BLOCK, "CMARK_NODE_CODE_BLOCK");
_Static_assert(CTR_MD_CMARK_PARAGRAPH_TYPE == CMARK_NODE_PARAGRAPH, "CMARK_NODE_PARAGRAPH");
_Static_assert(CTR_MD_CMARK_HEADING_TYPE == CMARK_NODE_HEADING, "CMARK_NODE_HEADING");

static pthread_once_t ctr_md_once = PTHREAD_ONCE_INIT;
// cmark-gfm is not thread-safe across parsers: attaching an extension adds its trigger characters
// to a table shared by every parser, and freeing the parser removes them, under the feet of a
// parse running on another thread (which then misses autolinks). One parse at a time.
static pthread_mutex_t ctr_md_lock = PTHREAD_MUTEX_INITIALIZER;
static void ctr_md_register(void) { cmark_gfm_core_extensions_ensure_registered(); }

// MARK: the arena

// cmark-gfm's allocations for a text of at most CTR_MD_ARENA_TEXT bytes (the pieces a long
// element is parsed in, edit windows) come from a bump arena that the next parse reuses: no
// malloc/free per node and buffer (glibc's malloc, calloc, realloc and free and cmark's walk that
// frees the tree were a third of the instructions of a links count of 5 MB), and no page faults
// (the arena's pages stay mapped from parse to parse; an arena made and unmapped per parse cost
// more system time than malloc). Used only under ctr_md_lock. Longer texts use malloc: an arena
// never reuses what a parse frees, so it holds more than malloc's heap would.
#define CTR_MD_ARENA_TEXT (8 << 20)
#define CTR_MD_ARENA_CHUNK (4 << 20)
// What the arena keeps between parses (more is freed at the end of the parse that needed it): a
// 512 KB piece takes 8-13 MB of it, a 1 MB piece about twice that.
#define CTR_MD_ARENA_KEEP (32 << 20)
#define CTR_MD_ARENA_ALIGN 16

typedef struct ctr_md_chunk {
  struct ctr_md_chunk *next;
  size_t size, used;
  size_t pad;  // the data starts 16-byte aligned
} ctr_md_chunk;

static ctr_md_chunk *ctr_md_chunks;   // every chunk, the one in use first among the used ones
static ctr_md_chunk *ctr_md_current;  // the chunk allocations come from
static void *ctr_md_last;             // the last allocation (realloc grows it in place)

static _Noreturn void ctr_md_out_of_memory(void) {
  // As cmark-gfm's own allocator does when calloc fails.
  fputs("textrotor: out of memory while parsing Markdown\n", stderr);
  abort();
}

/// A chunk with at least `need` bytes free: the next kept one, or a new one.
static ctr_md_chunk *ctr_md_next_chunk(size_t need) {
  ctr_md_chunk **link = ctr_md_current ? &ctr_md_current->next : &ctr_md_chunks;
  while (*link && (*link)->size < need) link = &(*link)->next;
  ctr_md_chunk *chunk = *link;
  if (chunk) {
    // Taken out of the list and put after the current chunk.
    *link = chunk->next;
  } else {
    size_t size = need > CTR_MD_ARENA_CHUNK ? need : CTR_MD_ARENA_CHUNK;
    chunk = malloc(sizeof(ctr_md_chunk) + size);
    if (!chunk) ctr_md_out_of_memory();
    chunk->size = size;
  }
  chunk->used = 0;
  if (ctr_md_current) {
    chunk->next = ctr_md_current->next;
    ctr_md_current->next = chunk;
  } else {
    chunk->next = ctr_md_chunks;
    ctr_md_chunks = chunk;
  }
  ctr_md_current = chunk;
  return chunk;
}

/// The bytes a block of `size` takes: a 16-byte header (the size in its last 8 bytes) and the data,
/// rounded to 16 bytes (chunks' data start 16-byte aligned, as malloc's blocks do).
static size_t ctr_md_arena_need(size_t size) {
  size_t need = (size + CTR_MD_ARENA_ALIGN + CTR_MD_ARENA_ALIGN - 1) & ~(size_t)(CTR_MD_ARENA_ALIGN - 1);
  if (need < size) ctr_md_out_of_memory();
  return need;
}

static void *ctr_md_arena_alloc(size_t size) {
  size_t need = ctr_md_arena_need(size);
  ctr_md_chunk *chunk = ctr_md_current;
  if (!chunk || chunk->size - chunk->used < need) chunk = ctr_md_next_chunk(need);
  char *data = (char *)(chunk + 1) + chunk->used + CTR_MD_ARENA_ALIGN;
  chunk->used += need;
  ((size_t *)data)[-1] = size;
  ctr_md_last = data;
  return data;
}

static void *ctr_md_arena_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) ctr_md_out_of_memory();
  void *p = ctr_md_arena_alloc(count * size);
  memset(p, 0, count * size);
  return p;
}

static void *ctr_md_arena_realloc(void *p, size_t size) {
  if (!p) return ctr_md_arena_alloc(size);
  size_t old = ((size_t *)p)[-1];
  if (p == ctr_md_last) {
    // The last allocation grows (or shrinks) in place when its chunk has room.
    ctr_md_chunk *chunk = ctr_md_current;
    size_t start = (size_t)((char *)p - CTR_MD_ARENA_ALIGN - (char *)(chunk + 1));
    size_t need = ctr_md_arena_need(size);
    if (start + need <= chunk->size) {
      chunk->used = start + need;
      ((size_t *)p)[-1] = size;
      return p;
    }
  }
  void *q = ctr_md_arena_alloc(size);
  memcpy(q, p, old < size ? old : size);
  return q;
}

static void ctr_md_arena_free(void *p) {
  // Only the last allocation is given back (a buffer freed right after it was made).
  if (p && p == ctr_md_last) {
    ctr_md_current->used = (size_t)((char *)p - CTR_MD_ARENA_ALIGN - (char *)(ctr_md_current + 1));
    ctr_md_last = NULL;
  }
}

static cmark_mem ctr_md_arena = {ctr_md_arena_calloc, ctr_md_arena_realloc, ctr_md_arena_free};

/// Everything the arena gave is free again; chunks past CTR_MD_ARENA_KEEP bytes go back to malloc.
static void ctr_md_arena_reset(void) {
  size_t kept = 0;
  ctr_md_chunk **link = &ctr_md_chunks;
  while (*link) {
    ctr_md_chunk *chunk = *link;
    if (kept + chunk->size > CTR_MD_ARENA_KEEP) {
      *link = chunk->next;
      free(chunk);
    } else {
      kept += chunk->size;
      chunk->used = 0;
      link = &chunk->next;
    }
  }
  ctr_md_current = NULL;
  ctr_md_last = NULL;
}

typedef struct {
  const char *text;
  int64_t length;
  int64_t *lineStarts;  // lineStarts[k]: offset of line k + 1
  int64_t lineCount;
  ctr_md_result *out;
  int64_t capacity, stringsCapacity;
  int64_t linkCursor;  // the end of the last link placed
  int64_t topStart, topEnd;  // the top-level block being walked: where a link can be
  uint32_t kinds;  // the kinds reported (bit k: kind k)
  int failed;
  int64_t labelNodes;  // nodes a label's walk may still visit (see CTR_MD_LABEL_NODES)
} ctr_md_context;

// MARK: lines (ended by LF, CR or CR LF, as cmark-gfm counts them)

static int ctr_md_lines(ctr_md_context *c) {
  int64_t capacity = 1024, n = 0;
  int64_t *starts = malloc((size_t)capacity * sizeof(int64_t));
  if (!starts) return -1;
  starts[n++] = 0;
  const char *t = c->text;
  // Most texts have no CR: then one memchr a line, not two.
  int hasCR = c->length > 0 && memchr(t, '\r', (size_t)c->length) != NULL;
  int64_t i = 0;
  while (i < c->length) {
    const char *lf = memchr(t + i, '\n', (size_t)(c->length - i));
    int64_t lfAt = lf ? lf - t : c->length;
    const char *cr = hasCR ? memchr(t + i, '\r', (size_t)(lfAt - i)) : NULL;
    int64_t next;
    if (cr) {
      int64_t at = cr - t;
      next = (at + 1 < c->length && t[at + 1] == '\n') ? at + 2 : at + 1;
    } else if (lf) {
      next = lfAt + 1;
    } else {
      break;
    }
    if (n == capacity) {
      capacity *= 2;
      int64_t *grown = realloc(starts, (size_t)capacity * sizeof(int64_t));
      if (!grown) {
        free(starts);
        return -1;
      }
      starts = grown;
    }
    starts[n++] = next;
    i = next;
  }
  c->lineStarts = starts;
  c->lineCount = n;
  return 0;
}

static int64_t ctr_md_line_start(const ctr_md_context *c, int32_t line) {
  if (line < 1) return 0;
  if (line > c->lineCount) return c->length;
  return c->lineStarts[line - 1];
}

/// Where the content of `line` ends (before its terminator).
static int64_t ctr_md_line_end(const ctr_md_context *c, int32_t line) {
  if (line < 1) return 0;
  if (line >= c->lineCount) return c->length;
  int64_t e = c->lineStarts[line];
  if (e > 0 && c->text[e - 1] == '\n') e--;
  if (e > 0 && c->text[e - 1] == '\r') e--;
  return e;
}

static int64_t ctr_md_clamp(const ctr_md_context *c, int64_t p) { return p < 0 ? 0 : (p > c->length ? c->length : p); }

/// The offset of 1-based (line, column) as cmark-gfm reports a block's start: a byte column.
static int64_t ctr_md_block_offset(const ctr_md_context *c, int32_t line, int32_t column) {
  return ctr_md_clamp(c, ctr_md_line_start(c, line) + column - 1);
}

/// The end (exclusive) of a node whose last byte is at (line, column); column 0 means the node
/// ended with the line before.
static int64_t ctr_md_block_end(const ctr_md_context *c, int32_t line, int32_t column) {
  if (column <= 0) return ctr_md_line_end(c, line - 1);
  return ctr_md_clamp(c, ctr_md_block_offset(c, line, column) + 1);
}

/// The line of a setext heading's underline when cmark-gfm (0.29) ran the heading on past it (see
/// `ctr_md_setext_end`): the first line after its first, before its last, that is only `=` or only
/// `-` (after block quote markers and spaces) and trailing spaces; 0 if there is none.
static int32_t ctr_md_setext_underline(const ctr_md_context *c, cmark_node *node) {
  int32_t first = cmark_node_get_start_line(node);
  int32_t last = cmark_node_get_end_line(node);
  for (int32_t line = first + 1; line < last; line++) {
    int64_t p = ctr_md_line_start(c, line);
    int64_t e = ctr_md_line_end(c, line);
    while (p < e && (c->text[p] == ' ' || c->text[p] == '\t' || c->text[p] == '>')) p++;
    if (p == e || (c->text[p] != '=' && c->text[p] != '-')) continue;
    char mark = c->text[p];
    while (p < e && c->text[p] == mark) p++;
    while (p < e && (c->text[p] == ' ' || c->text[p] == '\t')) p++;
    if (p == e) return line;
  }
  return 0;
}

/// The end of a heading: cmark-gfm (0.29) ends a setext heading that no blank line follows where
/// the block after it ends (`Title`, `===`, `next para` is 1:1-3:9, comrak#378), so a heading
/// ending past its underline ends with it: the first line after its first that is only `=` or
/// only `-` (after block quote markers and spaces) and trailing spaces.
static int64_t ctr_md_setext_end(const ctr_md_context *c, cmark_node *node, int64_t end) {
  int32_t line = ctr_md_setext_underline(c, node);
  if (line == 0) return end;
  int64_t e = ctr_md_line_end(c, line);
  return e < end ? e : end;
}

// MARK: inline positions

/// The leaf block holding inlines (paragraph, heading, table cell): cmark-gfm's columns of inlines
/// on its later lines are counted from the first character of the line after the containers'
/// markers and the leading spaces it strips, plus the block's own start column.
typedef struct {
  int32_t line;
  int32_t lineDelta;  // lines of link reference definitions cmark-gfm took off the paragraph's start
  // How cmark-gfm counts its inlines' positions (see "a table that split a paragraph"):
  // 0 as above; 1 lines from 0 after `line` and 0-based columns (a paragraph a table split off,
  // which has no position); 2 on `line` only, the columns of the split paragraph's text (lines
  // joined by line feeds) from `column0` (the header row of such a table).
  int32_t mode;
  int32_t column0;
  int32_t offset;  // the block's start column - 1
  int32_t quotes;  // block quotes around it
  int64_t start, end;
  int64_t cursor;  // where to search for the next autolink
  // Lines ended by a backslash (a hard line break), which cmark-gfm's inline line count skips.
  int32_t breakLines[64];
  int32_t breakCount;
} ctr_md_leaf;

/// Records the lines of the leaf block that end with a backslash hard line break.
static void ctr_md_backslash_lines(const ctr_md_context *c, ctr_md_leaf *leaf, int32_t first, int32_t last) {
  leaf->breakCount = 0;
  for (int32_t line = first; line < last && leaf->breakCount < 64; line++) {
    int64_t e = ctr_md_line_end(c, line);
    int64_t s = ctr_md_line_start(c, line);
    int64_t n = 0;
    while (e - n - 1 >= s && c->text[e - n - 1] == '\\') n++;
    if (n % 2 == 1) leaf->breakLines[leaf->breakCount++] = line;
  }
}

/// Where line `line`'s text starts after leading spaces and `quotes` block-quote markers. On a
/// lazy continuation line (fewer markers than `quotes`), cmark-gfm's columns count the spaces after
/// the markers it found (each with one space after it): the text starts there.
static int64_t ctr_md_stripped_start(const ctr_md_context *c, int32_t line, int32_t quotes) {
  int64_t p = ctr_md_line_start(c, line);
  int64_t e = ctr_md_line_end(c, line);
  const char *t = c->text;
  int64_t lineStart = p;
  while (p < e && (t[p] == ' ' || t[p] == '\t')) p++;
  int32_t q = 0;
  for (; q < quotes && p < e && t[p] == '>'; q++) {
    p++;
    while (p < e && (t[p] == ' ' || t[p] == '\t')) p++;
  }
  if (q < quotes) {
    p = lineStart;
    for (int32_t k = 0; k < q; k++) {
      while (p < e && t[p] == ' ') p++;
      p++;  // the '>'
      if (p < e && (t[p] == ' ' || t[p] == '\t')) p++;
    }
  }
  return p;
}

/// The offset `k` bytes into the text of the paragraph starting at `start` on line `line` (its
/// lines stripped of indentation and markers, joined by line feeds).
static int64_t ctr_md_paragraph_offset(const ctr_md_context *c, int32_t line, int64_t start, int32_t quotes,
                                       int64_t k) {
  int64_t p = start;
  while (k > 0 && line < c->lineCount + 1) {
    int64_t e = ctr_md_line_end(c, line);
    if (p + k <= e) break;
    k -= e - p + 1;
    line++;
    p = ctr_md_stripped_start(c, line, quotes);
  }
  return ctr_md_clamp(c, p + (k > 0 ? k : 0));
}

static int64_t ctr_md_inline_offset(const ctr_md_context *c, const ctr_md_leaf *leaf, int32_t line, int32_t column) {
  if (leaf->mode == 2 && line == leaf->line) {
    return ctr_md_paragraph_offset(c, leaf->line, ctr_md_block_offset(c, leaf->line, leaf->column0), leaf->quotes,
                                   column - leaf->column0);
  }
  if (leaf->mode == 1) {
    if (line == 0) return ctr_md_clamp(c, leaf->start + column);
    line += leaf->line;
  } else if (line == leaf->line && leaf->lineDelta == 0) {
    return ctr_md_block_offset(c, line, column);
  }
  line += leaf->lineDelta;
  for (int32_t k = 0; k < leaf->breakCount; k++) {
    if (leaf->breakLines[k] < line) line++;
  }
  int64_t p = ctr_md_stripped_start(c, line, leaf->quotes);
  return ctr_md_clamp(c, p + column - 1 - leaf->offset);
}

// MARK: output

static int64_t ctr_md_append_string(ctr_md_context *c, const char *s, int64_t n) {
  ctr_md_result *r = c->out;
  // Nothing to copy (an empty text node): no memcpy, whose pointers may then be NULL (before the
  // first string, r->strings is; UBSan reported it from the structure edit model test).
  if (n <= 0) return r->stringsLength;
  if (r->stringsLength + n > c->stringsCapacity) {
    int64_t capacity = c->stringsCapacity ? c->stringsCapacity : 4096;
    while (capacity < r->stringsLength + n) capacity *= 2;
    char *grown = realloc(r->strings, (size_t)capacity);
    if (!grown) {
      c->failed = 1;
      return -1;
    }
    r->strings = grown;
    c->stringsCapacity = capacity;
  }
  memcpy(r->strings + r->stringsLength, s, (size_t)n);
  int64_t at = r->stringsLength;
  r->stringsLength += n;
  return at;
}

#define CTR_MD_LABEL_LIMIT 256

/// Appends the plain text of `node`'s inlines (text and code spans; breaks as spaces) to the
/// strings, up to the limit (cut at a character boundary).
// The most nodes one label's walk visits: a list item nested 50,000 deep before its first text
// (`- - - … x`) made each item's walk go down to it, the square of the depth in all (a 100 KB file
// took minutes). Past it the label is what was found so far.
#define CTR_MD_LABEL_NODES 4096

static void ctr_md_plain_text(ctr_md_context *c, cmark_node *node, int64_t start, int64_t *length) {
  for (cmark_node *child = cmark_node_first_child(node); child && *length < CTR_MD_LABEL_LIMIT && c->labelNodes > 0;
       child = cmark_node_next(child)) {
    c->labelNodes--;
    cmark_node_type type = cmark_node_get_type(child);
    const char *piece = NULL;
    if (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE) {
      piece = cmark_node_get_literal(child);
    } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) {
      piece = " ";
    } else {
      ctr_md_plain_text(c, child, start, length);
      continue;
    }
    if (!piece) continue;
    int64_t n = (int64_t)strlen(piece);
    if (*length + n > CTR_MD_LABEL_LIMIT) {
      n = CTR_MD_LABEL_LIMIT - *length;
      while (n > 0 && ((unsigned char)piece[n] & 0xC0) == 0x80) n--;  // a character boundary
    }
    if (ctr_md_append_string(c, piece, n) < 0) return;
    *length += n;
  }
  (void)start;
}

static ctr_md_node *ctr_md_add(ctr_md_context *c, int32_t kind, cmark_node *node, int64_t start, int64_t end,
                               int32_t depth) {
  // Kinds not asked for: not reported, and neither their labels nor their URLs are made.
  if (!(c->kinds & (UINT32_C(1) << kind))) return NULL;
  ctr_md_result *r = c->out;
  if (r->count == c->capacity) {
    int64_t capacity = c->capacity ? c->capacity * 2 : 1024;
    ctr_md_node *grown = realloc(r->nodes, (size_t)capacity * sizeof(ctr_md_node));
    if (!grown) {
      c->failed = 1;
      return NULL;
    }
    r->nodes = grown;
    c->capacity = capacity;
  }
  ctr_md_node *n = &r->nodes[r->count++];
  memset(n, 0, sizeof(*n));
  n->kind = kind;
  n->depth = depth;
  n->start = start;
  n->end = end < start ? start : end;
  n->labelLength = -1;
  n->urlLength = -1;
  n->startLine = cmark_node_get_start_line(node);
  n->startColumn = cmark_node_get_start_column(node);
  n->endLine = cmark_node_get_end_line(node);
  n->endColumn = cmark_node_get_end_column(node);
  return n;
}

static void ctr_md_set_label(ctr_md_context *c, ctr_md_node *n, cmark_node *node) {
  if (c->kinds & CTR_MD_NO_TEXTS) return;
  int64_t at = c->out->stringsLength;
  int64_t length = 0;
  c->labelNodes = CTR_MD_LABEL_NODES;
  ctr_md_plain_text(c, node, at, &length);
  n->label = at;
  n->labelLength = length;
}

static void ctr_md_set_url(ctr_md_context *c, ctr_md_node *n, const char *url) {
  if (!url || (c->kinds & CTR_MD_NO_TEXTS)) return;
  int64_t length = (int64_t)strlen(url);
  int64_t at = ctr_md_append_string(c, url, length);
  if (at < 0) return;
  n->url = at;
  n->urlLength = length;
}

/// Line breaks (soft and hard) among the inlines below `node`.
static int32_t ctr_md_breaks(cmark_node *node) {
  int32_t n = 0;
  for (cmark_node *child = cmark_node_first_child(node); child; child = cmark_node_next(child)) {
    cmark_node_type type = cmark_node_get_type(child);
    n += (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) ? 1 : ctr_md_breaks(child);
  }
  return n;
}

/// Whether the line at `p` may start a link reference definition (up to three spaces, `[`, and a
/// `]:` on the line).
static int ctr_md_definition_line(const ctr_md_context *c, int64_t p, int64_t end) {
  int spaces = 0;
  while (p < end && c->text[p] == ' ' && spaces < 4) {
    p++;
    spaces++;
  }
  if (spaces > 3 || p >= end || c->text[p] != '[') return 0;
  for (int64_t q = p; q + 1 < end; q++) {
    if (c->text[q] == '\n' || c->text[q] == '\r') return 0;
    if (c->text[q] == ']' && c->text[q + 1] == ':') return 1;
  }
  return 0;
}

static int32_t ctr_md_children(cmark_node *node) {
  int32_t n = 0;
  for (cmark_node *child = cmark_node_first_child(node); child; child = cmark_node_next(child)) n++;
  return n;
}

/// A link written as `<url>` or a bare URL (GFM's extended autolinks): cmark-gfm's columns for
/// those are not the source's, so the link's text is found in the block from the last inline on.
/// Returns 0 when the link's text is not found (then the link is left out). When not in the
/// block (whose position cmark-gfm may also get wrong, in table rows), it is looked for from the
/// last link found on.
static int ctr_md_find_autolink(ctr_md_context *c, ctr_md_leaf *leaf, cmark_node *node, int64_t *start,
                                int64_t *end) {
  cmark_node *child = cmark_node_first_child(node);
  if (!child || cmark_node_next(child) || cmark_node_get_type(child) != CMARK_NODE_TEXT) return 0;
  const char *literal = cmark_node_get_literal(child);
  if (!literal) return 0;
  size_t n = strlen(literal);
  if (n == 0) return 0;
  // An autolink's text is its destination (less "mailto:", or "http://" for www.).
  const char *url = cmark_node_get_url(node);
  if (!url) return 0;
  size_t u = strlen(url);
  int same = strcmp(url, literal) == 0 || (u == n + 7 && strncmp(url, "mailto:", 7) == 0 && strcmp(url + 7, literal) == 0) ||
             (u == n + 7 && strncmp(url, "http://", 7) == 0 && strcmp(url + 7, literal) == 0);
  if (!same) return 0;
  int64_t from = leaf->cursor < leaf->start ? leaf->start : leaf->cursor;
  const char *found =
    from < leaf->end && leaf->end <= c->length ? memmem(c->text + from, (size_t)(leaf->end - from), literal, n) : NULL;
  if (!found) {
    // Never past the top-level block: a link found there would be another one (which a parse of
    // the blocks around an edit does not see).
    from = c->linkCursor < c->topStart ? c->topStart : c->linkCursor;
    int64_t limit = c->topEnd < c->length ? c->topEnd : c->length;
    if (from >= limit) return 0;
    found = memmem(c->text + from, (size_t)(limit - from), literal, n);
    if (!found) return 0;
  }
  int64_t s = found - c->text, e = s + (int64_t)n;
  if (s > 0 && c->text[s - 1] == '<' && e < c->length && c->text[e] == '>') {
    s--;
    e++;
  }
  *start = s;
  *end = e;
  return 1;
}

/// The first text literal below `node`, or NULL.
static const char *ctr_md_first_text(cmark_node *node) {
  for (cmark_node *child = cmark_node_first_child(node); child; child = cmark_node_next(child)) {
    cmark_node_type type = cmark_node_get_type(child);
    if (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE) return cmark_node_get_literal(child);
    const char *inner = ctr_md_first_text(child);
    if (inner) return inner;
  }
  return NULL;
}

/// A `[text](url)` or `[text][ref]` link whose position cmark-gfm miscounted (after a code span
/// or raw HTML that spans lines): the `[` before its first text from the last inline on, and the
/// end after its destination's `)` (or the closing `]`).
static int ctr_md_find_link(ctr_md_context *c, ctr_md_leaf *leaf, cmark_node *node, int64_t *start, int64_t *end) {
  const char *text = ctr_md_first_text(node);
  if (!text || !*text || leaf->end > c->length) return 0;
  size_t n = strlen(text);
  int64_t from = leaf->cursor < leaf->start ? leaf->start : leaf->cursor;
  while (from < leaf->end) {
    const char *found = memmem(c->text + from, (size_t)(leaf->end - from), text, n);
    if (!found) return 0;
    int64_t s = found - c->text;
    int64_t bracket = s - 1;
    while (bracket >= from && c->text[bracket] != '[' && c->text[bracket] != '\n' && s - bracket < 8) bracket--;
    if (bracket >= from && c->text[bracket] == '[') {
      const char *url = cmark_node_get_url(node);
      int64_t e = s + (int64_t)n;
      const char *close = url && *url ? memmem(c->text + e, (size_t)(leaf->end - e), url, strlen(url)) : NULL;
      if (close) {
        e = close - c->text + (int64_t)strlen(url);
        while (e < leaf->end && c->text[e] != ')' && c->text[e] != ']') e++;
        if (e < leaf->end) e++;
      } else {
        while (e < leaf->end && c->text[e] != ']') e++;
        if (e < leaf->end) e++;
      }
      *start = bracket;
      *end = e;
      return 1;
    }
    from = s + 1;
  }
  return 0;
}

// MARK: the walk

static void ctr_md_walk(ctr_md_context *c, cmark_node *document, int64_t skip) {
  cmark_iter *iter = cmark_iter_new(document);
  if (!iter) {
    c->failed = 1;
    return;
  }
  int32_t depth = -1;  // block depth: the document's children are 0
  int32_t quotes = 0;
  ctr_md_leaf leaf = {0};
  // A table that split a paragraph (see below): the table, its first line, column and header row.
  cmark_node *splitTable = NULL;
  int32_t splitLine = 0, splitColumn = 0, splitHeader = 0;
  // The links being walked (a link's text may hold an autolink): their ends, where the search for
  // the next inline resumes when they are left.
  cmark_node *links[16];
  int64_t linkEnds[16];
  int32_t linkDepth = 0;
  cmark_event_type event;
  while ((event = cmark_iter_next(iter)) != CMARK_EVENT_DONE && !c->failed) {
    cmark_node *node = cmark_iter_get_node(iter);
    cmark_node_type type = cmark_node_get_type(node);
    int block = (type & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK;
    if (type == CMARK_NODE_DOCUMENT) continue;
    if (event == CMARK_EVENT_EXIT) {
      if (block) depth--;
      if (type == CMARK_NODE_BLOCK_QUOTE) quotes--;
      if (type == CMARK_NODE_LINK && linkDepth > 0 && links[linkDepth - 1] == node) {
        linkDepth--;
        if (linkEnds[linkDepth] > leaf.cursor) leaf.cursor = linkEnds[linkDepth];
      }
      continue;
    }
    if (block) {
      // cmark's iterator exits every block but these leaves.
      int leafType =
        type == CMARK_NODE_CODE_BLOCK || type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_THEMATIC_BREAK;
      int32_t d = depth + 1;
      if (!leafType) depth = d;
      int64_t start = ctr_md_block_offset(c, cmark_node_get_start_line(node), cmark_node_get_start_column(node));
      int64_t end = ctr_md_block_end(c, cmark_node_get_end_line(node), cmark_node_get_end_column(node));
      if (type == CMARK_NODE_BLOCK_QUOTE) quotes++;
      const char *name = cmark_node_get_type_string(node);
      // A table that split a paragraph: when a table's header row is a paragraph's last line,
      // cmark-gfm makes the lines before it a new paragraph without a position (its inlines count
      // lines from 0 and columns from 0), gives the table the paragraph's start, and its header
      // row the columns of the paragraph's text on the paragraph's first line. Put right here.
      cmark_node *following = cmark_node_next(node);
      const char *followingName = following ? cmark_node_get_type_string(following) : NULL;
      int split = type == CMARK_NODE_PARAGRAPH && cmark_node_get_start_line(node) == 0 && followingName &&
                  strcmp(followingName, "table") == 0 && cmark_node_get_start_line(following) > 0;
      if (split) {
        splitTable = following;
        splitLine = cmark_node_get_start_line(following);
        splitColumn = cmark_node_get_start_column(following);
        splitHeader = splitLine + ctr_md_breaks(node) + 1;
        start = ctr_md_block_offset(c, splitLine, splitColumn);
        end = ctr_md_line_end(c, splitHeader - 1);
      } else if (node == splitTable) {
        start = ctr_md_stripped_start(c, splitHeader, quotes);
      }
      if (type == CMARK_NODE_HEADING) end = ctr_md_setext_end(c, node, end);
      if (type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING || (name && strcmp(name, "table_cell") == 0)) {
        leaf.line = cmark_node_get_start_line(node);
        leaf.lineDelta = 0;
        leaf.mode = 0;
        if (split) {
          leaf.mode = 1;
          leaf.line = splitLine;
        } else if (splitTable && cmark_node_parent(node) == cmark_node_first_child(splitTable) &&
                   leaf.line == splitLine) {
          leaf.mode = 2;
          leaf.column0 = splitColumn;
          start = ctr_md_paragraph_offset(c, splitLine, ctr_md_block_offset(c, splitLine, splitColumn), quotes,
                                          cmark_node_get_start_column(node) - splitColumn);
          end = ctr_md_paragraph_offset(c, splitLine, ctr_md_block_offset(c, splitLine, splitColumn), quotes,
                                        cmark_node_get_end_column(node) - splitColumn) + 1;
        }
        if ((type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING) && !split &&
            ctr_md_definition_line(c, start, end)) {
          // Definitions at its start were taken off: its inlines' lines count from after them. A
          // setext heading is a paragraph that met its underline (its last line, the line before
          // the end when its end column is 0), and cmark-gfm takes them off it too.
          int32_t last = cmark_node_get_end_line(node);
          if (type == CMARK_NODE_HEADING) {
            // Its underline's line: cmark-gfm's end line when a blank line follows the heading,
            // else (it ran the heading on to the end of the next block) the underline found.
            int32_t underline = ctr_md_setext_underline(c, node);
            if (underline == 0) underline = cmark_node_get_end_column(node) <= 0 ? last - 1 : last;
            last = underline - 1;
          }
          int32_t delta = last - leaf.line - ctr_md_breaks(node);
          leaf.lineDelta = delta > 0 ? delta : 0;
        }
        leaf.offset = cmark_node_get_start_column(node) - 1;
        ctr_md_backslash_lines(c, &leaf, leaf.line, split ? splitHeader - 1 : cmark_node_get_end_line(node));
        leaf.quotes = quotes;
        leaf.start = start;
        leaf.end = end;
        leaf.cursor = start;
      }
      if (d == 0) {
        c->topStart = start;
        c->topEnd = end;
      }
      if (start < skip) continue;
      if (d == 0) {
        ctr_md_node *n = ctr_md_add(c, CTR_MD_BLOCK, node, start, end, 0);
        if (n) n->detail = (int32_t)type;
      }
      ctr_md_node *n = NULL;
      if (type == CMARK_NODE_HEADING) {
        n = ctr_md_add(c, CTR_MD_HEADING, node, start, end, d);
        if (n) {
          n->detail = cmark_node_get_heading_level(node);
          ctr_md_set_label(c, n, node);
        }
        if (leaf.lineDelta > 0) ctr_md_add(c, CTR_MD_DEFINITIONS, node, start, ctr_md_line_start(c, leaf.line + leaf.lineDelta), d);
      } else if (type == CMARK_NODE_LIST) {
        n = ctr_md_add(c, CTR_MD_LIST, node, start, end, d);
        if (n) {
          n->detail = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;
          n->items = ctr_md_children(node);
        }
      } else if (type == CMARK_NODE_ITEM) {
        n = ctr_md_add(c, CTR_MD_ITEM, node, start, end, d);
        cmark_node *first = cmark_node_first_child(node);
        if (n && first) ctr_md_set_label(c, n, first);
      } else if (type == CMARK_NODE_CODE_BLOCK) {
        // Without the white space and blank lines at its end: cmark-gfm ends an indented code block
        // at the blank line before the next block, so its end depended on what follows.
        int64_t e = end;
        while (e > start && (c->text[e - 1] == '\n' || c->text[e - 1] == '\r' || c->text[e - 1] == ' ' ||
                             c->text[e - 1] == '\t')) {
          e--;
        }
        n = ctr_md_add(c, CTR_MD_CODE_BLOCK, node, start, e, d);
        const char *info = cmark_node_get_fence_info(node);
        if (n && info && *info) ctr_md_set_url(c, n, info);
      } else if (type == CMARK_NODE_PARAGRAPH) {
        n = ctr_md_add(c, CTR_MD_PARAGRAPH, node, start, end, d);
        if (leaf.lineDelta > 0) {
          ctr_md_node *definitions = ctr_md_add(c, CTR_MD_DEFINITIONS, node, start,
                                                ctr_md_line_start(c, leaf.line + leaf.lineDelta), d);
          (void)definitions;
        }
      } else if (type == CMARK_NODE_HTML_BLOCK) {
        n = ctr_md_add(c, CTR_MD_HTML_BLOCK, node, start, end, d);
      } else if (type == CMARK_NODE_BLOCK_QUOTE) {
        n = ctr_md_add(c, CTR_MD_BLOCK_QUOTE, node, start, end, d);
      } else if (name && strcmp(name, "table") == 0) {
        n = ctr_md_add(c, CTR_MD_TABLE, node, start, end, d);
        if (n) n->items = ctr_md_children(node);
      }
      continue;
    }
    // Inlines.
    if (type != CMARK_NODE_EMPH && type != CMARK_NODE_STRONG && type != CMARK_NODE_LINK) continue;
    int64_t start =
      ctr_md_inline_offset(c, &leaf, cmark_node_get_start_line(node), cmark_node_get_start_column(node));
    int64_t end = ctr_md_inline_offset(c, &leaf, cmark_node_get_end_line(node), cmark_node_get_end_column(node)) + 1;
    if (type == CMARK_NODE_LINK && !(start < c->length && c->text[start] == '[')) {
      // A link whose text spans lines: cmark-gfm gives the line where it ends with the column
      // where it starts.
      int32_t breaks = ctr_md_breaks(node);
      for (int32_t k = 1; k <= breaks; k++) {
        int64_t earlier = ctr_md_inline_offset(c, &leaf, cmark_node_get_start_line(node) - k,
                                               cmark_node_get_start_column(node));
        if (earlier < c->length && c->text[earlier] == '[') {
          start = earlier;
          break;
        }
      }
    }
    // No source position (links made by the autolink extension's postprocessing), one outside
    // the block, or one that is not at a `[`: the link is looked for in the block's text.
    int positioned = cmark_node_get_start_line(node) > 0 && start >= leaf.start && start < leaf.end;
    if (type == CMARK_NODE_LINK && !(positioned && c->text[start] == '[')) {
      if (!ctr_md_find_autolink(c, &leaf, node, &start, &end) && !ctr_md_find_link(c, &leaf, node, &start, &end)) {
        continue;
      }
    }
    if (end > c->length) end = c->length;
    if (type == CMARK_NODE_LINK && end > c->linkCursor) c->linkCursor = end;
    // Inside a link the search goes on in its text; after it (at its exit), from its end.
    leaf.cursor = start + 1;
    if (type == CMARK_NODE_LINK && linkDepth < 16) {
      links[linkDepth] = node;
      linkEnds[linkDepth++] = end;
    }
    if (start < skip) continue;
    int32_t kind = type == CMARK_NODE_EMPH ? CTR_MD_EMPHASIS : (type == CMARK_NODE_STRONG ? CTR_MD_STRONG : CTR_MD_LINK);
    ctr_md_node *n = ctr_md_add(c, kind, node, start, end, depth + 1);
    if (!n) continue;
    ctr_md_set_label(c, n, node);
    if (type == CMARK_NODE_LINK) ctr_md_set_url(c, n, cmark_node_get_url(node));
  }
  cmark_iter_free(iter);
}

int ctr_md_parse(const char *text, int64_t length, int64_t skip, ctr_md_result *out) {
  return ctr_md_parse_kinds(text, length, skip, UINT32_MAX & ~CTR_MD_NO_TEXTS, out);
}

int ctr_md_parse_kinds(const char *text, int64_t length, int64_t skip, uint32_t kinds, ctr_md_result *out) {
  memset(out, 0, sizeof(*out));
  if (length < 0 || length > INT32_MAX - 16) return -1;
  pthread_once(&ctr_md_once, ctr_md_register);
  ctr_md_context c = {0};
  c.text = text;
  c.length = length;
  c.out = out;
  c.kinds = kinds;
  if (ctr_md_lines(&c) != 0) return -1;
  pthread_mutex_lock(&ctr_md_lock);
  int arena = length <= CTR_MD_ARENA_TEXT;
  cmark_parser *parser =
    arena ? cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, &ctr_md_arena) : cmark_parser_new(CMARK_OPT_DEFAULT);
  if (!parser) {
    pthread_mutex_unlock(&ctr_md_lock);
    free(c.lineStarts);
    return -1;
  }
  static const char *extensions[] = {"table", "autolink", "strikethrough"};
  for (size_t k = 0; k < sizeof(extensions) / sizeof(extensions[0]); k++) {
    cmark_syntax_extension *extension = cmark_find_syntax_extension(extensions[k]);
    if (extension) cmark_parser_attach_syntax_extension(parser, extension);
  }
  cmark_parser_feed(parser, text, (size_t)length);
  cmark_node *document = cmark_parser_finish(parser);
  if (document) {
    ctr_md_walk(&c, document, skip);
    // The arena's nodes are freed all at once below.
    if (!arena) cmark_node_free(document);
  } else {
    c.failed = 1;
  }
  cmark_parser_free(parser);
  if (arena) ctr_md_arena_reset();
  pthread_mutex_unlock(&ctr_md_lock);
  free(c.lineStarts);
  if (c.failed) {
    ctr_md_free(out);
    return -1;
  }
  return 0;
}

void ctr_md_free(ctr_md_result *result) {
  free(result->nodes);
  free(result->strings);
  memset(result, 0, sizeof(*result));
}
