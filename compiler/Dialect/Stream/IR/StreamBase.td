// The stream dialect: resources (untyped device memory) and the asynchronous
// work on them, in two phases. The async phase has value semantics; the cmd
// phase makes allocation, deallocation and ordering explicit.
#ifndef FERRY_DIALECT_STREAM_BASE
#define FERRY_DIALECT_STREAM_BASE

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Stream_Dialect : Dialect {
  let name = "stream";
  let cppNamespace = "::ferry::stream";
  let summary = "Resources and asynchronous work on them";
  let description = [{
    Tensors become resources: sized, untyped memory with a lifetime class.
    In the async phase, ops consume and produce resources as values, so
    analyses (copy-on-write, elision, placement) see plain dataflow. In the
    cmd phase every resource is explicitly allocated and deallocated and every
    operation awaits and signals timepoints.
  }];
  let useDefaultTypePrinterParser = 1;
  // stream.affinity and stream.topology (see verifyOperationAttribute). Their
  // values come from other dialects (HAL) through the interfaces of
  // StreamInterfaces.td; whoever parses them loads that dialect.
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
    void registerOperations();
  }];
}

def Stream_Lifetime : I32EnumAttr<"Lifetime", "what a resource is used for", [
  I32EnumAttrCase<"Unknown", 0, "*">,
  I32EnumAttrCase<"External", 1, "external">,
  I32EnumAttrCase<"Staging", 2, "staging">,
  I32EnumAttrCase<"Transient", 3, "transient">,
  I32EnumAttrCase<"Variable", 4, "variable">,
  I32EnumAttrCase<"Constant", 5, "constant">,
]> {
  let cppNamespace = "::ferry::stream";
  let genSpecializedAttr = 0;
}

def Stream_Resource : TypeDef<Stream_Dialect, "Resource"> {
  let mnemonic = "resource";
  let summary = "sized device memory with a lifetime class";
  let description = [{
    `!stream.resource<external>` crosses the program boundary;
    `transient` lives within one invocation; `*` is not yet decided.
    The size in bytes travels beside every use as an index operand.
  }];
  let parameters = (ins "::ferry::stream::Lifetime":$lifetime);
  let hasCustomAssemblyFormat = 1;
}

def Stream_Timepoint : TypeDef<Stream_Dialect, "Timepoint"> {
  let mnemonic = "timepoint";
  let summary = "a point in a device timeline that work awaits and signals";
}

def Stream_AnyResource : Type<CPred<"::llvm::isa<::ferry::stream::ResourceType>($_self)">,
                              "any stream resource",
                              "::ferry::stream::ResourceType">;

#endif // FERRY_DIALECT_STREAM_BASE
