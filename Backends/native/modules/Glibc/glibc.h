#ifndef CRATEDROP_NATIVE_GLIBC_H
#define CRATEDROP_NATIVE_GLIBC_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#endif
