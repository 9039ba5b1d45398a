// icu-loop: the "C loop" of SPEC section 4, the ICU limit textrotor is measured against.
//
//   icu-loop [--locale L] word|sentence|character|line FILE   segments (ubrk_next calls) in FILE
//   icu-loop --regex PATTERN FILE                               matches (uregex_findNext) in FILE
//   --print                                      also print each boundary (byte offset), one a line
//
// The file is memory-mapped and handed to ICU as UTF-8 (utext_openUTF8), as textrotor does: no
// conversion to UTF-16. Prints one number, the count, on stdout. One thread.
//
// Break iterators take 32-bit offsets, so a file larger than 1 GiB is cut into pieces after the
// first LF at or after each 1 GiB, as textrotor cuts (every break rule treats a hard line break as
// a boundary, so the count is the same). Regular expressions run over the whole file at once (ICU's
// regex API takes 64-bit UText indexes).
//
// Build: cc -O2 -o icu-loop icu-loop.c $(pkg-config --cflags --libs icu-i18n)
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unicode/ubrk.h>
#include <unicode/uregex.h>
#include <unicode/utext.h>

static const int64_t piece_size = (int64_t)1 << 30;

static void usage(void) {
  fprintf(stderr,
          "usage: icu-loop [--locale L] word|sentence|character|line FILE\n"
          "       icu-loop --regex PATTERN FILE\n"
          "       --print: also print each boundary's byte offset\n");
  exit(2);
}

static void check(UErrorCode status, const char *what) {
  if (U_FAILURE(status)) {
    fprintf(stderr, "icu-loop: %s: %s\n", what, u_errorName(status));
    exit(2);
  }
}

int main(int argc, char **argv) {
  const char *locale = "";
  const char *pattern = NULL;
  const char *kind = NULL;
  const char *path = NULL;
  int print = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--locale") == 0 && i + 1 < argc) locale = argv[++i];
    else if (strcmp(argv[i], "--regex") == 0 && i + 1 < argc) pattern = argv[++i];
    else if (strcmp(argv[i], "--print") == 0) print = 1;
    else if (!pattern && !kind) kind = argv[i];
    else if (!path) path = argv[i];
    else usage();
  }
  if (!path || (!pattern && !kind)) usage();

  UBreakIteratorType type = UBRK_WORD;
  if (!pattern) {
    if (strcmp(kind, "word") == 0) type = UBRK_WORD;
    else if (strcmp(kind, "sentence") == 0) type = UBRK_SENTENCE;
    else if (strcmp(kind, "character") == 0 || strcmp(kind, "grapheme") == 0) type = UBRK_CHARACTER;
    else if (strcmp(kind, "line") == 0 || strcmp(kind, "linebreak") == 0) type = UBRK_LINE;
    else usage();
  }

  int fd = open(path, O_RDONLY);
  if (fd < 0) { perror(path); return 2; }
  struct stat st;
  if (fstat(fd, &st) != 0) { perror(path); return 2; }
  int64_t size = st.st_size;
  const char *bytes = "";
  if (size > 0) {
    bytes = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (bytes == MAP_FAILED) { perror(path); return 2; }
    madvise((void *)bytes, (size_t)size, MADV_SEQUENTIAL);
  }
  close(fd);

  UErrorCode status = U_ZERO_ERROR;
  int64_t count = 0;
  if (pattern) {
    UText *pt = utext_openUTF8(NULL, pattern, -1, &status);
    check(status, "opening the pattern");
    UParseError pe;
    URegularExpression *re = uregex_openUText(pt, 0, &pe, &status);
    check(status, "compiling the pattern");
    UText *text = utext_openUTF8(NULL, bytes, size, &status);
    check(status, "opening the text");
    uregex_setUText(re, text, &status);
    check(status, "setting the text");
    while (uregex_findNext(re, &status)) count++;
    check(status, "matching");
    uregex_close(re);
    utext_close(text);
    utext_close(pt);
  } else {
    UBreakIterator *bi = ubrk_open(type, locale, NULL, 0, &status);
    check(status, "opening the break iterator");
    UText *text = NULL;
    for (int64_t start = 0; start < size;) {
      int64_t end = size;
      if (size - start > piece_size) {
        const char *lf = memchr(bytes + start + piece_size, '\n', (size_t)(size - start - piece_size));
        end = lf ? (lf - bytes) + 1 : size;
        if (end - start > INT32_MAX) {
          fprintf(stderr, "icu-loop: a line longer than 1 GiB at byte %lld\n", (long long)start);
          return 2;
        }
      }
      text = utext_openUTF8(text, bytes + start, end - start, &status);
      check(status, "opening the text");
      ubrk_setUText(bi, text, &status);
      check(status, "setting the text");
      if (print) {
        for (int32_t b; (b = ubrk_next(bi)) != UBRK_DONE; count++) printf("%lld\n", (long long)(start + b));
      } else {
        while (ubrk_next(bi) != UBRK_DONE) count++;
      }
      start = end;
    }
    ubrk_close(bi);
    if (text) utext_close(text);
  }
  printf("%lld\n", (long long)count);
  return 0;
}
