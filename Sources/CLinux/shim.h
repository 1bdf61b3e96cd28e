#ifndef DARKROOM_CLINUX_SHIM_H
#define DARKROOM_CLINUX_SHIM_H
/* Linux and glibc calls Glibc's Swift module does not import (as swift-nio's CNIOLinux does):
   statfs, malloc_trim, and which allocator the process's malloc is. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* dladdr, RTLD_DEFAULT */
#endif
#include <sys/vfs.h>
#include <malloc.h>
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

/* jemalloc's version ("5.3.0-0-g...") when the process's malloc, as every library in it resolves the
   name, is jemalloc's; NULL when it is glibc's. */
static inline const char *darkroom_jemalloc_version(void) {
    Dl_info owner;
    void *process_malloc = dlsym(RTLD_DEFAULT, "malloc");
    if (!process_malloc || !dladdr(process_malloc, &owner) || !owner.dli_fname || !strstr(owner.dli_fname, "libjemalloc"))
        return NULL;
    int (*mallctl)(const char *, void *, size_t *, void *, size_t) =
        (int (*)(const char *, void *, size_t *, void *, size_t))dlsym(RTLD_DEFAULT, "mallctl");
    const char *version = NULL;
    size_t size = sizeof version;
    if (!mallctl || mallctl("version", &version, &size, NULL, 0) != 0 || !version) return "";
    return version;
}
#endif
