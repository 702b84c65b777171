// For the codegen tests that read what lowerDispatchesToLLVM makes: the
// LLVM-dialect module of a dispatch source, as text.
#ifndef FERRY_COMPILER_CODEGEN_TEST_LOWERTOLLVMTEXT_H_
#define FERRY_COMPILER_CODEGEN_TEST_LOWERTOLLVMTEXT_H_

#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Codegen/LowerDispatchToLLVM.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

namespace ferry::codegen {

// Parses `source` (dispatch functions on tensors), lowers it for `target`
// and prints the result; "" after a failed expectation where parsing or
// lowering fails.
inline std::string lowerToLLVMText(const char *source,
                                   const VectorTarget &target) {
  mlir::DialectRegistry registry;
  registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  if (!module)
    return "";
  llvm::SmallVector<EntryLayout> entries;
  auto lowered = lowerDispatchesToLLVM(*module, entries, target);
  EXPECT_TRUE(mlir::succeeded(lowered));
  if (mlir::failed(lowered))
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  (*lowered)->print(os);
  return text;
}

} // namespace ferry::codegen

#endif // FERRY_COMPILER_CODEGEN_TEST_LOWERTOLLVMTEXT_H_
