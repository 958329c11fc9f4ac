// libspng (Debian's libspng-dev): PNG encoding for frame files.
#include <spng.h>
