// The stream dialect's types (!stream.resource, !stream.timepoint) and enums.

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#include "compiler/Dialect/Stream/IR/StreamEnums.cpp.inc"

namespace ferry::stream {

Type ResourceType::parse(AsmParser &parser) {
  if (parser.parseLess())
    return {};
  Lifetime lifetime;
  if (succeeded(parser.parseOptionalStar())) {
    lifetime = Lifetime::Unknown;
  } else {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    std::optional<Lifetime> parsed = symbolizeLifetime(keyword);
    if (!parsed || *parsed == Lifetime::Unknown) {
      parser.emitError(loc) << "unknown resource lifetime '" << keyword
                            << "' (expected external, staging, transient, "
                               "variable, constant or *)";
      return {};
    }
    lifetime = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return ResourceType::get(parser.getContext(), lifetime);
}

void ResourceType::print(AsmPrinter &printer) const {
  printer << '<' << stringifyLifetime(getLifetime()) << '>';
}

void StreamDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "compiler/Dialect/Stream/IR/StreamTypes.cpp.inc"
      >();
}

} // namespace ferry::stream

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/Stream/IR/StreamTypes.cpp.inc"
