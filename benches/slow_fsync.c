/* A disk whose every sync takes 20 ms (LD_PRELOAD), for benches/window.rs: fsync, fdatasync
 * and syncfs sleep first, then do what they do. Built by the benchmark with the system's cc. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>
#include <time.h>

static void slow(void) {
    struct timespec t = {0, 20 * 1000 * 1000};
    nanosleep(&t, 0);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    slow();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    slow();
    return real(fd);
}
