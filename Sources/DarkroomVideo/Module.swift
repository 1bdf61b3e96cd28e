// DarkroomVideo: Swift wrappers over FFmpeg (libavformat/libavcodec/libswscale) that own every C handle.
