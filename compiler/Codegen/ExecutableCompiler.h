// Native code generation for dispatch functions: from linalg on tensors to an
// ELF shared object exporting the kernel ABI of runtime/hal/executable_abi.h.
//
// A dispatch function (what dispatch formation outlines, one per entry):
//
//   func.func @entry(%a: tensor<?x4xf32>, %b: tensor<4x8xf32>,
//                    %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
//     %r = linalg.matmul ins(%a, %b : ...) outs(%c : ...) -> tensor<?x8xf32>
//     return %r : tensor<?x8xf32>
//   }
//
// - every argument is a ranked tensor: a binding, in argument order;
// - every result is written in place into an argument: following the
//   destination (`outs`) operands of destination-style ops from the result
//   must reach that argument, and the types must be equal (so the result is
//   tied to it);
// - push constants are the dynamic dimensions of the arguments, argument by
//   argument, dimension by dimension (uint64 each);
// - work is split over workgroup x by tiling the outermost parallel loop of
//   more than one iteration of the function's linalg op, when it has
//   exactly one, by `WorkgroupCount::tileSize`; the host computes the count
//   with the same formula (`WorkgroupCount`), else one workgroup runs it all.
//
// Bufferization sees the bindings as the only storage (each argument becomes
// a `bufferization.to_tensor restrict writable` of a binding memref, each
// result a `materialize_in_destination` into its argument), so a result that
// cannot be written in place is an error, not a hidden copy.
#ifndef FERRY_COMPILER_CODEGEN_EXECUTABLECOMPILER_H_
#define FERRY_COMPILER_CODEGEN_EXECUTABLECOMPILER_H_

#include "runtime/hal/executable_abi.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ferry::codegen {

/// Binding access bits (the executable ABI's: 1 read, 2 write, 3 both,
/// 5 read as a parameter).
enum BindingAccess : uint8_t {
  kAccessRead = FERRY_BINDING_ACCESS_READ,
  kAccessWrite = FERRY_BINDING_ACCESS_WRITE,
  kAccessParameter = FERRY_BINDING_ACCESS_PARAMETER,
};

/// How many workgroups (x; y and z are 1) a dispatch of an entry runs:
/// ceil(extent / tileSize) where extent, that of loop `loop`, is the static
/// `staticExtent` or dimension `dimIndex` of binding `bindingIndex`;
/// tileSize 0 means one.
struct WorkgroupCount {
  unsigned loop = 0;
  int64_t tileSize = 0;
  std::optional<int64_t> staticExtent;
  unsigned bindingIndex = 0;
  unsigned dimIndex = 0;
};

/// On a dispatch function's result: the index of the argument it is written
/// into. Outlining sets it, so the answer survives canonicalization (which
/// may reduce a body to returning another argument as it is: an erased
/// identity copy); without it the destination operands are traced.
inline constexpr llvm::StringLiteral kDestinationAttr = "ferry.destination";

/// On a dispatch function, or the one linalg op outlined into it: the entry
/// only moves elements (a strided slice's gather or scatter). The module
/// records it, and the runtime counts its dispatches as copies.
inline constexpr llvm::StringLiteral kCopyKernelAttr = "ferry.copy_kernel";

/// What the host needs to know about an entry to call it.
struct EntryLayout {
  std::string name;
  bool copyKernel = false;
  std::vector<uint8_t> bindingAccess;
  /// For each result, the argument it is written into.
  std::vector<unsigned> resultBindings;
  unsigned pushConstantCount = 0;
  WorkgroupCount workgroups;
};

/// Checks `func` is a dispatch function (above) and describes it; errors are
/// emitted on the function naming what is wrong.
mlir::FailureOr<EntryLayout> analyzeDispatchFunction(mlir::func::FuncOp func);

struct TargetOptions {
  /// An LLVM CPU name of the host's architecture, or "host".
  std::string cpu = "host";
  /// LLVM is given only the CPU's features the runtime can check
  /// (runtime/hal/cpu_features.h) and, if set, this accepts; every other
  /// feature is disabled, and exactly those given are recorded.
  std::function<bool(llvm::StringRef)> isCheckableFeature;
  /// LLVM optimization level (0-3).
  unsigned optLevel = 3;
};

struct ExecutableImage {
  /// "elf-x86_64" or "elf-aarch64".
  std::string format;
  /// Comma-separated LLVM feature names the code may use.
  std::string cpuFeatures;
  std::vector<EntryLayout> entries;
  /// The ELF shared object.
  std::vector<uint8_t> image;
};

/// Compiles every public function of `module` (each a dispatch function) into
/// one shared object exporting each under its name plus
/// `ferry_executable_abi_version`. `module` is not modified. Errors are
/// emitted at the op that failed. LLD links in process and, parsing its own
/// options, resets every llvm::cl option of the process to its default: a
/// tool reads its options before calling this.
mlir::FailureOr<ExecutableImage>
compileExecutable(mlir::ModuleOp module, const TargetOptions &options);

/// Registers the dialects and interfaces compileExecutable needs (call on the
/// registry of the context before parsing).
void registerCodegenDialects(mlir::DialectRegistry &registry);

} // namespace ferry::codegen

#endif // FERRY_COMPILER_CODEGEN_EXECUTABLECOMPILER_H_
