#ifndef DARKROOM_CCAIRO_SHIM_H
#define DARKROOM_CCAIRO_SHIM_H
/*
 * cairo (PDF surfaces, image surfaces with attached JPEG data) and Pango's cairo renderer.
 * Only what Swift cannot import is wrapped here, prefixed `darkroom_cairo_`; no logic.
 */
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

/* CAIRO_MIME_TYPE_JPEG is a string macro: the MIME type under which a surface carries its JPEG
 * file, so that the PDF backend embeds that stream (DCTDecode) instead of the pixels. */
static inline const char *darkroom_cairo_mime_type_jpeg(void) { return CAIRO_MIME_TYPE_JPEG; }

/* PANGO_SCALE: Pango units per device unit (a point, on a PDF surface). */
static inline int darkroom_pango_scale(void) { return PANGO_SCALE; }

/* g_object_unref for a PangoLayout (a GObject; Swift sees it as an opaque pointer). */
static inline void darkroom_pango_layout_unref(PangoLayout *layout) { g_object_unref(layout); }

#endif
