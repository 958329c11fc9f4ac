/* The portable backend's maths against glibc's: musl's sin, cos, sincos, exp and pow, as built
   into Backends/portable's library (objects renamed with a musl_ prefix by
   Backends/portable/check-maths), over more than 10^6 inputs each in the ranges a simulation
   reaches. Prints the largest distance in ULPs per function and fails (exit 1) above 1 ULP.
     maths [INPUTS]   (default 1000000 per range) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double musl_sin(double), musl_cos(double), musl_exp(double), musl_pow(double, double);
void musl_sincos(double, double *, double *);

static uint64_t state = 0x5EEDC1A5ULL;
static double unit(void) {
    state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

/* Doubles between a and b, as ordered integers (the state comparison's definition). */
static uint64_t ulps(double a, double b) {
    int64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    if (x < 0) x = INT64_MIN - x - 1;
    if (y < 0) y = INT64_MIN - y - 1;
    return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}

typedef struct { const char *name; uint64_t worst; long differing, count; double worst_input, worst_second; } tally;

static void note(tally *t, double ours, double theirs, double input, double second) {
    uint64_t d = ulps(ours, theirs);
    t->count++;
    if (d) t->differing++;
    if (d > t->worst) { t->worst = d; t->worst_input = input; t->worst_second = second; }
}

static int report(tally *t) {
    printf("%-7s %9ld inputs: %7ld differ from glibc, at most %llu ULP", t->name, t->count, t->differing,
           (unsigned long long)t->worst);
    if (t->worst > 0) {
        printf(" (at %.17g", t->worst_input);
        if (t->worst_second == t->worst_second) printf(", %.17g", t->worst_second);
        printf(")");
    }
    printf("\n");
    return t->worst > 1;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    tally s = {"sin"}, c = {"cos"}, sc = {"sincos"}, e = {"exp"}, p = {"pow"};
    /* Angles: up to ±1 rad, then ±10 ... ±1e6 rad, as the determinism probe spreads them. */
    for (long i = 0; i < 7 * n; i++) {
        double a = (2 * unit() - 1) * pow(10, (double)(i % 7));
        note(&s, musl_sin(a), sin(a), a, NAN);
        note(&c, musl_cos(a), cos(a), a, NAN);
        double ms, mc;
        musl_sincos(a, &ms, &mc);
        note(&sc, ms, sin(a), a, NAN);
        note(&sc, mc, cos(a), a, NAN);
    }
    /* exp over its whole finite range, and densely near 0. */
    for (long i = 0; i < 2 * n; i++) {
        double x = i % 2 ? (2 * unit() - 1) * 709 : (2 * unit() - 1);
        note(&e, musl_exp(x), exp(x), x, NAN);
    }
    /* pow with bases near 1 (damping, the collision bias 0.9^60) and the exponents a step uses:
       dt = 1/step_rate, 60, and anything in ±200. */
    for (long i = 0; i < 3 * n; i++) {
        double base = 0.9 + 0.2 * unit();
        double exponent = i % 3 == 0 ? 1.0 / (1 + (double)(i % 100000)) : i % 3 == 1 ? 60 : (2 * unit() - 1) * 200;
        note(&p, musl_pow(base, exponent), pow(base, exponent), base, exponent);
    }
    int failed = report(&s) | report(&c) | report(&sc) | report(&e) | report(&p);
    return failed;
}
