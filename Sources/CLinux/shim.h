#ifndef DARKROOM_CLINUX_SHIM_H
#define DARKROOM_CLINUX_SHIM_H
/* Linux and glibc calls Glibc's Swift module does not import (as swift-nio's CNIOLinux does):
   statfs, and malloc_trim. */
#include <sys/vfs.h>
#include <malloc.h>
#endif
