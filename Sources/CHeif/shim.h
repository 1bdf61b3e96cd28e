#ifndef DARKROOM_CHEIF_SHIM_H
#define DARKROOM_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
