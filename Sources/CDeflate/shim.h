// libdeflate (Debian's libdeflate-dev): the zlib streams of frame PNGs, several times faster than
// zlib's deflate at the same ratio, and the chunks' CRC-32.
#include <libdeflate.h>
