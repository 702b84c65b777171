// The stream dialect's interfaces (StreamInterfaces.td), in a library of
// their own so that dialects implementing them need not link the stream
// dialect.

#include "compiler/Dialect/Stream/IR/StreamInterfaces.h"

#include "compiler/Dialect/Stream/IR/StreamAttrInterfaces.cpp.inc"
#include "compiler/Dialect/Stream/IR/StreamOpInterfaces.cpp.inc"
#include "compiler/Dialect/Stream/IR/StreamTypeInterfaces.cpp.inc"
