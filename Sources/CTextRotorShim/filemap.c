// The SIGBUS guard for memory-mapped files (see cicu_filemap.h). One definition per process: the
// fault counter and the page size are this file's globals.
#include "cicu_filemap.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Counted by the handler on whichever thread faulted, read by any: a lock-free atomic, which a
// signal handler may update (a `volatile sig_atomic_t` incremented there was a data race between
// two threads whose mapped files shrank at once: ThreadSanitizer, ByteStorage's parallel counts).
static _Atomic long cicu_sigbus_faults = 0;
static uintptr_t cicu_page_size = 4096;

static void cicu_sigbus_handler(int sig, siginfo_t *info, void *context) {
  (void)sig; (void)context;
  void *page = (void *)((uintptr_t)info->si_addr & ~(cicu_page_size - 1));
  if (mmap(page, cicu_page_size, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED) {
    signal(SIGBUS, SIG_DFL);
    raise(SIGBUS);
    return;
  }
  atomic_fetch_add_explicit(&cicu_sigbus_faults, 1, memory_order_relaxed);
}

// Installed once per process, whichever thread maps a file first (a plain flag was a data race
// when two threads mapped files at once: ThreadSanitizer, StructureEditModelTests).
static pthread_once_t cicu_sigbus_once = PTHREAD_ONCE_INIT;

static void cicu_install_sigbus_guard_once(void) {
  long size = sysconf(_SC_PAGESIZE);
  if (size > 0) cicu_page_size = (uintptr_t)size;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = cicu_sigbus_handler;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, NULL);
}

void cicu_install_sigbus_guard(void) { pthread_once(&cicu_sigbus_once, cicu_install_sigbus_guard_once); }

long cicu_sigbus_fault_count(void) { return atomic_load_explicit(&cicu_sigbus_faults, memory_order_relaxed); }

void *cicu_map_file(int fd, size_t length) {
  void *p = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
  return p == MAP_FAILED ? NULL : p;
}
