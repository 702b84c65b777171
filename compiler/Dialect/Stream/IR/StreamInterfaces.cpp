// The stream dialect's interfaces (StreamInterfaces.td).

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "compiler/Dialect/Stream/IR/StreamInterfaces.cpp.inc"
