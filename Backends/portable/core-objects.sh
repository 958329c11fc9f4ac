# Sourced by the builds that link CrateDrop's core into one file (Backends/wasm/build,
# Backends/native/build).
#
#   core_swift_objects OUT WHAT -- SWIFTC_FLAGS...
#
# Compiles the Swift core (`core_modules`, Package.swift's layers in dependency order) one module
# at a time as Embedded Swift with SWIFTC_FLAGS (the target and its C headers): OUT/MODULE.o and
# OUT/MODULE.swiftmodule. WHAT names the target in the failure's message.
#
#   core_objects OUT PATCHED MUSL MUSL_ARCH DESCRIPTION -- CC... -- MUSL_CC...
#
# CC is the compiler with its target and system headers (Chipmunk, CBodyScan and the marker);
# MUSL_CC the same compiler with its target only (musl's maths see musl's own headers, nothing of
# the system's). MUSL_ARCH names musl's arch folder whose alltypes.h has the target's type sizes.
# DESCRIPTION goes into the backend marker (`cratedrop platform`, a record's header). Sets the
# array `core_objects` to the objects made, in link order. Needs `root` (the repository).
#
# The flags that decide numerical results, for every object (docs/determinism.md):
# - -O2 -ffp-contract=off: no fused multiply-add, two roundings where the source has two.
# - -DNDEBUG: Chipmunk's debug checks and its stdout banner off.
# - musl's own CFLAGS_C99FSE (-std=c99 -ffreestanding -frounding-math) and __FP_FAST_FMA undefined:
#   its pow takes no FMA path.
# - -DCP_HASH_VALUE_TYPE=uint64_t, Chipmunk's own switch: a 64-bit cpHashValue on every target
#   (amd64's already), so saved states are byte-identical across the builds.
core_numeric_flags=(-O2 -ffp-contract=off)
core_chipmunk_defines=(-DNDEBUG -DCP_HASH_VALUE_TYPE=uint64_t)
# musl's generic C sources for what Chipmunk's objects import (sin, cos, sincos, exp, pow) and what
# those call.
core_musl_sources=(sin cos sincos __sin __cos __rem_pio2 __rem_pio2_large exp exp_data pow pow_data
                   __math_oflow __math_uflow __math_xflow __math_invalid __math_divzero fabs floor scalbn)

core_modules=(SceneModel Raster Physics SceneFile Driver InputLines LiveProtocol RecordLines CoreABI)

core_swift_objects() {
    local out=$1 what=$2 module files
    shift 2
    [ "$1" = -- ] || { echo "core_swift_objects: usage: OUT WHAT -- SWIFTC_FLAGS..." >&2; return 64; }
    shift
    rm -rf "$out"
    mkdir -p "$out"
    for module in "${core_modules[@]}"; do
        mapfile -t files < <(find "$root/Sources/$module" -name '*.swift' | sort)
        swiftc -enable-experimental-feature Embedded -enable-experimental-feature Extern -wmo -parse-as-library -package-name cratedrop \
            "$@" -I "$out" -module-name "$module" -emit-module -emit-module-path "$out/$module.swiftmodule" \
            -c -o "$out/$module.o" "${files[@]}" || {
            echo "$module does not compile as Embedded Swift for $what (the compiler's message is above; docs/architecture.md, \"The core\", says what the core may use)" >&2
            return 1
        }
    done
}

core_objects() {
    local out=$1 patched=$2 musl=$3 musl_arch=$4 description=$5
    shift 5
    [ "$1" = -- ] || { echo "core_objects: usage: OUT PATCHED MUSL MUSL_ARCH DESCRIPTION -- CC... -- MUSL_CC..." >&2; return 64; }
    shift
    local cc=() musl_cc=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do cc+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    musl_cc=("$@")
    rm -rf "$out"
    mkdir -p "$out/chipmunk" "$out/musl" "$out/musl-include/bits"
    core_objects=()
    local source name
    for source in "$patched"/src/*.c; do
        name=$(basename "$source" .c)
        # The threaded solver: the core never uses it (and wasm32 here has no pthreads).
        [ "$name" = cpHastySpace ] && continue
        "${cc[@]}" -std=gnu99 "${core_numeric_flags[@]}" "${core_chipmunk_defines[@]}" -I"$patched/include" -I"$root/Sources/CChipmunk" \
            -c "$source" -o "$out/chipmunk/$name.o"
        core_objects+=("$out/chipmunk/$name.o")
    done
    "${cc[@]}" -std=gnu99 "${core_numeric_flags[@]}" "${core_chipmunk_defines[@]}" -I"$patched/include" -I"$root/Sources/CBodyScan/include" \
        -c "$root/Sources/CBodyScan/body_scan.c" -o "$out/body_scan.o"
    "${cc[@]}" "${core_numeric_flags[@]}" -DCRATEDROP_PORTABLE_DESCRIPTION="\"$description\"" \
        -c "$root/Backends/portable/backend_marker.c" -o "$out/backend_marker.o"
    core_objects+=("$out/body_scan.o" "$out/backend_marker.o")
    sed -f "$musl/tools/mkalltypes.sed" "$musl/arch/$musl_arch/bits/alltypes.h.in" "$musl/include/alltypes.h.in" \
        > "$out/musl-include/bits/alltypes.h"
    for name in "${core_musl_sources[@]}"; do
        # Two clang warnings, explained rather than shown on every build: musl's endian.h writes
        # `a+0ULL<<32` as it means it; and clang models no rounding mode but the default on these
        # targets (-frounding-math is musl's own flag), which is the only mode the core runs in.
        "${musl_cc[@]}" -std=c99 -nostdinc -ffreestanding -frounding-math -D_XOPEN_SOURCE=700 \
            -Wno-shift-op-parentheses -Wno-unsupported-floating-point-opt \
            -I"$musl/arch/$musl_arch" -I"$musl/arch/generic" -I"$out/musl-include" -I"$musl/src/include" -I"$musl/src/internal" -I"$musl/include" \
            "${core_numeric_flags[@]}" -U__FP_FAST_FMA -c "$musl/src/math/$name.c" -o "$out/musl/$name.o"
        core_objects+=("$out/musl/$name.o")
    done
}

#   picture_decoder_objects OUT SOURCES -- CC...
#
# Compiles the terrain-picture decoder (Backends/wasm/png_decoder.c) with libspng 0.7.3 and zlib
# 1.2.13 from their pinned Debian sources in SOURCES (Backends/portable/fetch-sources), the CLI's
# libspng: zlib's inflate, and the deflate libspng's encoder refers to (unreachable; the link's
# --gc-sections drops it). CC is the compiler with its target and flags. Sets the array
# `picture_decoder_objects` to the objects made. Needs `root` (the repository).
picture_decoder_objects() {
    local out=$1 sources=$2 name
    shift 2
    [ "$1" = -- ] || { echo "picture_decoder_objects: usage: OUT SOURCES -- CC..." >&2; return 64; }
    shift
    local spng="$sources/libspng-0.7.3" zlib="$sources/zlib-1.2.13.dfsg"
    mkdir -p "$out"
    picture_decoder_objects=()
    for name in inflate inftrees inffast adler32 crc32 zutil deflate trees compress; do
        "$@" -Wno-deprecated-non-prototype -I"$zlib" -c "$zlib/$name.c" -o "$out/zlib-$name.o"
        picture_decoder_objects+=("$out/zlib-$name.o")
    done
    "$@" -DSPNG_STATIC -I"$zlib" -c "$spng/spng/spng.c" -o "$out/spng.o"
    "$@" -DSPNG_STATIC -I"$spng/spng" -c "$root/Backends/wasm/png_decoder.c" -o "$out/png_decoder.o"
    picture_decoder_objects+=("$out/spng.o" "$out/png_decoder.o")
}
