/* Marks a libchipmunk as CrateDrop's portable build: `cratedrop platform` looks this symbol up to
   tell which backend the process loaded. The build script passes the description in. */
const char cratedrop_portable_backend[] = CRATEDROP_PORTABLE_DESCRIPTION;
