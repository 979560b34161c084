/*
 * failio.c - an LD_PRELOAD shim for the crash tests (tests/e2e/test_crash.c):
 * it counts the calls that put a save on disk - write(2) to a regular
 * file, fsync, fdatasync, rename, link - and makes the k-th one fail.
 *
 *   FAILIO_AT=k       the call to act on (1-based); unset: only count
 *   FAILIO_MODE=kill  the process is killed (SIGKILL) just before the call:
 *                     a crash or `kill -9` at that moment
 *   FAILIO_MODE=full  from the k-th call on, every write fails with ENOSPC
 *                     (a disk that filled up and stays full)
 *   FAILIO_LOG=FILE   one line per counted call appended to FILE: "N CALL"
 *   FAILIO_THREAD=main|other  count only the calls of the program's main
 *                     thread, or only those of its other threads (the
 *                     snapshot writer): each thread's calls come in an
 *                     order of their own, while the two interleave as the
 *                     machine runs them; unset: every call
 *
 * Why a shim and not a hook in the program: the program under test is the
 * real one, built as users get it; nothing in src/ knows about faults.
 * The count is the shim's own (a test helper, not part of the program).
 * Writes to terminals, pipes and the log itself are not counted, so the
 * count depends only on what the game saves.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The next definition of `name` (libc's), into the function pointer fn
 * (POSIX's way round ISO C's ban on object-to-function pointer casts). */
#define LOOKUP(fn, name)                                \
	do {                                            \
		void *sym_ = dlsym(RTLD_NEXT, name);    \
		memcpy(&(fn), &sym_, sizeof(fn));       \
	} while (0)

static long calls;      /* counted calls so far (the shim's state; one process) */
static int log_fd = -2; /* -2: not opened yet */

static ssize_t real_write(int fd, const void *buf, size_t n)
{
	static ssize_t (*fn)(int, const void *, size_t);
	if (!fn)
		LOOKUP(fn, "write");
	return fn(fd, buf, n);
}

/* Whether this call is one FAILIO_THREAD counts. */
static int counted_thread(void)
{
	const char *which = getenv("FAILIO_THREAD");
	if (!which)
		return 1;
	int main_thread = syscall(SYS_gettid) == getpid();
	return strcmp(which, "main") == 0 ? main_thread : !main_thread;
}

/* Counts one call; returns 1 to fail it (errno set), 0 to let it through. */
static int count(const char *what)
{
	if (!counted_thread())
		return 0;
	long k = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
	if (log_fd == -2) {
		const char *path = getenv("FAILIO_LOG");
		log_fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
	}
	if (log_fd >= 0) {
		char line[64];
		int n = snprintf(line, sizeof line, "%ld %s\n", k, what);
		real_write(log_fd, line, (size_t)n);
	}
	const char *at = getenv("FAILIO_AT");
	const char *mode = getenv("FAILIO_MODE");
	if (!at || !mode)
		return 0;
	long want = strtol(at, NULL, 10);
	if (strcmp(mode, "kill") == 0 && k == want)
		raise(SIGKILL);
	if (strcmp(mode, "full") == 0 && k >= want && strcmp(what, "write") == 0) {
		errno = ENOSPC;
		return 1;
	}
	return 0;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	struct stat st;
	if (fd != log_fd && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && count("write"))
		return -1;
	return real_write(fd, buf, n);
}

int fsync(int fd)
{
	static int (*fn)(int);
	if (!fn)
		LOOKUP(fn, "fsync");
	if (count("fsync"))
		return -1;
	return fn(fd);
}

int fdatasync(int fd)
{
	static int (*fn)(int);
	if (!fn)
		LOOKUP(fn, "fdatasync");
	if (count("fdatasync"))
		return -1;
	return fn(fd);
}

int rename(const char *a, const char *b)
{
	static int (*fn)(const char *, const char *);
	if (!fn)
		LOOKUP(fn, "rename");
	if (count("rename"))
		return -1;
	return fn(a, b);
}

int link(const char *a, const char *b)
{
	static int (*fn)(const char *, const char *);
	if (!fn)
		LOOKUP(fn, "link");
	if (count("link"))
		return -1;
	return fn(a, b);
}
