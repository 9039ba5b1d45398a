// sz-loop: the "StringZilla" peer of SPEC section 4 and issue 11: StringZilla's UAX #29 / UAX #14
// segmenters (sz_utf8_graphemes, sz_utf8_wordbreaks, sz_utf8_sentences, sz_utf8_linebreaks) over
// a memory-mapped file, on one core.
//
//   sz-loop word|sentence|character|line FILE   prints the number of segments in FILE
//   --print                                       also print each segment's end (byte offset)
//
// StringZilla is header-only: Benchmarks/compare downloads the `stringzilla` sdist of a pinned
// version from PyPI at benchmark time (nothing of it is committed) and builds this file with
//   cc -O3 -march=native -I stringzilla-VERSION/include -o sz-loop sz-loop.c
// so the SIMD back end this machine supports (Haswell's AVX2, Ice Lake's AVX-512) is compiled in
// statically (SZ_DYNAMIC_DISPATCH=0), as a user of the headers gets it.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stringzilla/stringzilla.h>

typedef sz_size_t (*segmenter_t)(sz_cptr_t, sz_size_t, sz_size_t *, sz_size_t *, sz_size_t, sz_size_t *);

static void usage(void) {
  fprintf(stderr, "usage: sz-loop [--print] word|sentence|character|line FILE\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *kind = NULL;
  const char *path = NULL;
  int print = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--print") == 0) print = 1;
    else if (!kind) kind = argv[i];
    else if (!path) path = argv[i];
    else usage();
  }
  if (!kind || !path) usage();
  segmenter_t segment;
  if (strcmp(kind, "word") == 0) segment = sz_utf8_wordbreaks;
  else if (strcmp(kind, "sentence") == 0) segment = sz_utf8_sentences;
  else if (strcmp(kind, "character") == 0 || strcmp(kind, "grapheme") == 0) segment = sz_utf8_graphemes;
  else if (strcmp(kind, "line") == 0 || strcmp(kind, "linebreak") == 0) segment = sz_utf8_linebreaks;
  else usage();

  int fd = open(path, O_RDONLY);
  if (fd < 0) { perror(path); return 2; }
  struct stat st;
  if (fstat(fd, &st) != 0) { perror(path); return 2; }
  size_t size = (size_t)st.st_size;
  const char *bytes = "";
  if (size > 0) {
    bytes = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (bytes == MAP_FAILED) { perror(path); return 2; }
    madvise((void *)bytes, size, MADV_SEQUENTIAL);
  }

  // Segments are written into a reused buffer of `capacity` entries; the call resumes where the
  // previous one stopped (a boundary), as the headers document.
  enum { capacity = 4096 };
  static sz_size_t starts[capacity], lengths[capacity];
  size_t position = 0, count = 0;
  while (position < size) {
    sz_size_t consumed = 0;
    sz_size_t n = segment(bytes + position, size - position, starts, lengths, capacity, &consumed);
    if (print)
      for (sz_size_t k = 0; k < n; k++) printf("%zu\n", (size_t)(position + starts[k] + lengths[k]));
    count += n;
    if (consumed == 0) { fprintf(stderr, "sz-loop: no progress at byte %zu\n", position); return 2; }
    position += consumed;
  }
  printf("%zu\n", count);
  return 0;
}
