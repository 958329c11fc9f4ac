#ifndef CRATEDROP_WASI_LIBC_H
#define CRATEDROP_WASI_LIBC_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#endif
