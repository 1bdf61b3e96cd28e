#ifndef DARKROOM_CVIPS_SHIM_RUNTIME_H
#define DARKROOM_CVIPS_SHIM_RUNTIME_H
/*
 * libvips' process-wide set-up (included by shim.h): its log lines handed to Swift instead of
 * stderr, and the loaders it has, for the loader policy.
 */
#include <vips/vips.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The folder libvips installed its modules in (vips-heif.so, vips-magick.so...): vips-modules-MAJOR.MINOR
 * beside the libvips this process mapped, as /proc/self/maps names it. Written to `folder`; 0 when it
 * exists, -1 otherwise. */
static inline int darkroom_vips_modules_folder(char *folder, size_t size) {
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps) return -1;
    char line[4096];
    int found = -1;
    while (found && fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (!path || !strstr(path, "/libvips.so")) continue;
        path[strcspn(path, "\n")] = 0;
        snprintf(folder, size, "%s/vips-modules-%d.%d", dirname(path), vips_version(0), vips_version(1));
        struct stat status;
        found = stat(folder, &status) == 0 && S_ISDIR(status.st_mode) ? 0 : -1;
    }
    fclose(maps);
    return found;
}

/* VIPS_INIT without the modules libvips would load from its libdir: libvips 8.14 loads every module
 * there (ImageMagick, poppler, OpenSlide with their dependencies: about 25 ms a process) and looks for
 * them only under $VIPSHOME, which vips_init itself sets with g_setenv. So VIPSHOME names a folder
 * that cannot exist for the length of vips_init, on the thread that starts libvips (where vips_init
 * sets it anyway), then is put back as it was. Load the modules wanted with darkroom_vips_load_module. */
static inline int darkroom_vips_init_without_modules(const char *argv0) {
    const char *previous = g_getenv("VIPSHOME");
    char *kept = previous ? g_strdup(previous) : NULL;
    g_setenv("VIPSHOME", "/dev/null", TRUE);
    int result = VIPS_INIT(argv0);
    if (kept) g_setenv("VIPSHOME", kept, TRUE); else g_unsetenv("VIPSHOME");
    g_free(kept);
    return result;
}

/* Loads libvips module `name` ("heif" for folder/vips-heif.so), which registers its operations. NULL on
 * success, else GModule's reason (owned by GLib, valid until the next call). */
static inline const char *darkroom_vips_load_module(const char *folder, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/vips-%s.so", folder, name);
    GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
    if (!module) return g_module_error();
    g_module_make_resident(module);
    return NULL;
}

/* Receives one GLib log line: its domain, GLib level (G_LOG_LEVEL_*) and text. */
typedef void (*darkroom_log_sink)(const char *domain, int level, const char *message);

static inline void darkroom_glib_log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message,
                                             gpointer sink) {
    ((darkroom_log_sink) sink)(domain, (int) (level & G_LOG_LEVEL_MASK), message);
}

/* Hands the warnings, messages, info and debug lines of GLib log `domain` ("VIPS") to `sink` instead
 * of stderr (criticals and errors keep GLib's handler: they are bugs, and must show). Replaces the
 * VIPS_WARNING environment variable, which would have to be set with setenv, unsafe once threads run.
 * Returns the handler's id. */
static inline guint darkroom_glib_route_log(const char *domain, darkroom_log_sink sink) {
    GLogLevelFlags levels = G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG
        | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION;
    return g_log_set_handler(domain, levels, darkroom_glib_log_handler, (gpointer) sink);
}

/* One loader class libvips has, for darkroom_vips_loaders. */
typedef void (*darkroom_loader_visitor)(const char *class_name, const char *nickname, int flags, void *context);

struct darkroom_loader_visit {
    darkroom_loader_visitor visitor;
    void *context;
};

static inline void *darkroom_vips_visit_loader(GType type, void *visit) {
    if (G_TYPE_IS_ABSTRACT(type)) return NULL;
    VipsObjectClass *object_class = VIPS_OBJECT_CLASS(g_type_class_ref(type));
    int flags = (int) VIPS_OPERATION_CLASS(object_class)->flags;
    struct darkroom_loader_visit *v = (struct darkroom_loader_visit *) visit;
    v->visitor(g_type_name(type), object_class->nickname, flags, v->context);
    g_type_class_unref(object_class);
    return NULL;
}

/* Calls `visitor` for every concrete loader class libvips has (file, buffer and source loaders),
 * with its flags (VIPS_OPERATION_UNTRUSTED, VIPS_OPERATION_BLOCKED...). */
static inline void darkroom_vips_loaders(darkroom_loader_visitor visitor, void *context) {
    struct darkroom_loader_visit visit = {visitor, context};
    vips_type_map_all(g_type_from_name("VipsForeignLoad"), darkroom_vips_visit_loader, &visit);
}

/* The nickname of the loader libvips would use for the file at `path` ("jpegload", "pdfload"...), found by
 * the loaders' sniffers alone, or NULL (the reason in the error buffer). libvips 8.14 checks whether an
 * operation is blocked only when its build chains up, and some loaders (pdfload) parse the whole file
 * before that: the policy must refuse a file before its loader is built. */
static inline const char *darkroom_vips_find_load(const char *path) {
    const char *class_name = vips_foreign_find_load(path);
    return class_name ? vips_nickname_find(g_type_from_name(class_name)) : NULL;
}

/* A new image holding its own copy of `in`'s pixels, always a fresh buffer: unlike
 * vips_image_copy_memory, which returns `in` itself (one more reference) when it is in memory already,
 * so that drawing on the result would change `in` for every thread that holds it. */
static inline int darkroom_vips_copy_memory_new(VipsImage *in, VipsImage **out) {
    VipsImage *copy = vips_image_new_memory();
    if (vips_image_write(in, copy)) {
        g_object_unref(copy);
        return -1;
    }
    *out = copy;
    return 0;
}
#endif
