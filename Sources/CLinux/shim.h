#ifndef DARKROOM_CLINUX_SHIM_H
#define DARKROOM_CLINUX_SHIM_H
/* Linux system calls Glibc's Swift module does not import (as swift-nio's CNIOLinux does). */
#include <sys/vfs.h>
#endif
