// jq's C library (Debian's libjq-dev): `issues … --json F --jq EXPR` filters with jq itself.
#include <jq.h>
#include <jv.h>
