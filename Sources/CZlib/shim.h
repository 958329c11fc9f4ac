// zlib (Debian's zlib1g-dev, which libspng-dev brings): deflate and crc32 for instance-mask PNGs.
#include <zlib.h>
